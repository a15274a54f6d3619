# SPDX-License-Identifier: MIT
# Core test suite (issue #2): reference math by hand, properties on seeded
# rigs, bit-identical splits, concurrency, bad input, validation, C++ and the
# installed package.  Included from tests/CMakeLists.txt.
find_package(Threads REQUIRED)

skin_core_test(test_golden)       # hand-computed LBS/DQS cases, formats, layouts, bounds
skin_core_test(test_properties)   # seeded-rig properties, palette helpers, influence helpers
skin_core_test(test_split)        # range splits and thread counts are bit-identical
skin_core_test(test_threads LABELS threads LIBS Threads::Threads) # pthreads on disjoint ranges
skin_core_test(test_isa_race LABELS threads LIBS Threads::Threads) # skin_set_isa vs the first skin_get_isa
skin_core_test(test_parallel_users LABELS threads LIBS Threads::Threads) # skin_mesh_parallel from several user threads
skin_core_test(test_bad_input)    # every invalid argument: own status, output untouched
add_test(NAME core.test_bad_input_isa_fallback COMMAND test_bad_input) # SKIN_ISA naming no ISA: the best
set_tests_properties(core.test_bad_input_isa_fallback PROPERTIES LABELS core TIMEOUT 120 ENVIRONMENT SKIN_ISA=avx1024)
skin_core_test(test_bad_input_sweep) # issue 10: every public function x every bad-argument class, canaries
skin_core_test(test_validate)     # skin_validate: status, vertex and slot of each problem
skin_core_test(test_helpers)      # glTF/engine helpers: 4x4, multiply/invert, normal matrices, quantiser, remainder rule, interleaved vertices
skin_core_test(test_candy)        # candy wrapper at 180 degrees: DQS keeps the mid radius, LBS collapses
skin_core_test(test_cor LABELS threads) # centers of rotation against a brute-force integral, formats, threads, bad input
skin_core_test(test_defects)      # issue 10 regressions: wide strides, helper NULL/non-finite input
skin_core_test(test_stack LIBS Threads::Threads) # the kernels' stack high-water mark, every ISA
set_tests_properties(core.test_stack PROPERTIES SKIP_RETURN_CODE 77)

# The public header compiles as C++.
include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_executable(test_cxx test_cxx.cpp)
  target_link_libraries(test_cxx PRIVATE skin skin_warnings)
  add_test(NAME core.test_cxx COMMAND test_cxx)
  set_tests_properties(core.test_cxx PROPERTIES LABELS core TIMEOUT 30)
else()
  message(STATUS "No C++ compiler: core.test_cxx is not built")
endif()

# The top-level CMakeLists asks for no newer CMake than Ubuntu 22.04 ships.
add_test(NAME core.cmake_minimum COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/package/cmake_minimum_test.cmake)
set_tests_properties(core.cmake_minimum PROPERTIES LABELS core TIMEOUT 30)

# Configure stops without SIMDe unless -DSKIN_SIMD=OFF; and the package:
# skin built static and shared, installed, moved, and used from outside with
# find_package(skin COMPONENTS ...) and the plain pkg-config line
# (tests/package/package_test.cmake).  Host builds only: a cross build could
# not run the consumers (nor configure them for the target).
if(NOT CMAKE_CROSSCOMPILING)
  set(_skin_package_args -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DC_COMPILER=${CMAKE_C_COMPILER}
    -DGENERATOR=${CMAKE_GENERATOR})
  add_test(NAME core.simde_required
    COMMAND ${CMAKE_COMMAND} ${_skin_package_args} -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/simde-work
      -P ${CMAKE_CURRENT_SOURCE_DIR}/package/simde_required_test.cmake)
  set_tests_properties(core.simde_required PROPERTIES LABELS "package" TIMEOUT 60)
  # The components the enclosing build has, built and checked in the package.
  set(_skin_vk OFF)
  set(_skin_assets OFF)
  if(TARGET skin_vk)
    set(_skin_vk ON)
  endif()
  if(TARGET skin_assets)
    set(_skin_assets ON)
  endif()
  # This build is installed as its kind (static or shared), and the test
  # builds only the other; a sanitized build would need the sanitizer's
  # runtime in every consumer, so the test builds both then.
  set(_skin_install_build)
  if(NOT SKIN_SANITIZE)
    set(_skin_install_build -DINSTALL_BUILD=${PROJECT_BINARY_DIR} -DINSTALL_BUILD_SHARED=${BUILD_SHARED_LIBS})
  endif()
  add_test(NAME core.package
    COMMAND ${CMAKE_COMMAND} ${_skin_package_args} -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/package-work
      -DCONSUMER_DIR=${CMAKE_CURRENT_SOURCE_DIR}/package/consumer -DVK=${_skin_vk} -DASSETS=${_skin_assets}
      ${_skin_install_build} -P ${CMAKE_CURRENT_SOURCE_DIR}/package/package_test.cmake)
  set_tests_properties(core.package PROPERTIES LABELS "package" TIMEOUT 600)
endif()

# The code's size, kept by a budget: the text of the kernel objects and
# of the whole library, as GCC builds them for Release (other compilers,
# sanitizers and the portable kernels' SIMDe emulation give other sizes).
# The budgets leave a few percent above the sizes docs/performance.md gives.
get_property(_skin_kernels GLOBAL PROPERTY SKIN_KERNEL_TARGETS)
string(REGEX REPLACE "nm$" "size" _skin_size "${CMAKE_NM}") # the target's binutils
if(_skin_kernels AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_BUILD_TYPE STREQUAL "Release"
   AND NOT SKIN_SANITIZE AND NOT SKIN_PORTABLE_KERNELS AND EXISTS "${_skin_size}")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
    set(_skin_kernel_budget 262144)
    set(_skin_library_budget 300000)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(armv7.*|arm|armhf)$")
    # Thumb-2 with 16 NEON registers, SIMDe composing what A64 has in one
    # instruction: 470 KB of kernels
    set(_skin_kernel_budget 480000)
    set(_skin_library_budget 510000)
  else()
    set(_skin_kernel_budget 2800000)
    set(_skin_library_budget 2850000)
  endif()
  set(_skin_objects)
  foreach(t IN LISTS _skin_kernels)
    list(APPEND _skin_objects $<TARGET_OBJECTS:${t}>)
  endforeach()
  string(REPLACE ";" "|" _skin_objects "${_skin_objects}")
  add_test(NAME core.size
    COMMAND ${CMAKE_COMMAND} -DSIZE=${_skin_size} "-DKERNELS=${_skin_objects}" -DLIBRARY=$<TARGET_FILE:skin>
      -DKERNEL_BUDGET=${_skin_kernel_budget} -DLIBRARY_BUDGET=${_skin_library_budget}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/package/size_test.cmake)
  set_tests_properties(core.size PROPERTIES LABELS core TIMEOUT 30)
endif()
