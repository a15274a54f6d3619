# SPDX-License-Identifier: MIT
# skin_add_kernels(target): compiles simd/kernel.c once per ISA of the target
# architecture and method, each with its ISA's flags and lane width, into
# `target`.  One object per method halves the longest compile (the 16-lane
# kernels), and the two halves build in parallel.
function(skin_add_kernel target isa width)
  foreach(method lbs dqs)
    set(obj skin_kernel_${isa}_${method})
    string(TOUPPER ${method} upper)
    add_library(${obj} OBJECT ${PROJECT_SOURCE_DIR}/simd/kernel.c)
    target_compile_definitions(${obj} PRIVATE
      SKIN_W=${width} SKIN_KERNEL_NAME=${obj} SKIN_KERNEL_METHOD=SKIN_${upper} SKIN_KERNEL_${upper}=1)
    target_compile_options(${obj} PRIVATE ${ARGN})
    if(SKIN_FUZZ)
      # Coverage only: ASan makes each kernel object take minutes (see SKIN_FUZZ).
      target_compile_options(${obj} PRIVATE -fsanitize=fuzzer-no-link)
    endif()
    target_include_directories(${obj} PRIVATE
      ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src ${SIMDE_INCLUDE_DIR})
    target_link_libraries(${obj} PRIVATE skin_warnings)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${obj}>)
    set_property(GLOBAL APPEND PROPERTY SKIN_KERNEL_TARGETS ${obj}) # for the size test
  endforeach()
endfunction()

function(skin_add_kernels target)
  if(NOT SKIN_SIMD)
    message(STATUS "SKIN_SIMD=OFF: scalar kernels only")
    return()
  endif()
  if(EMSCRIPTEN)
    set(arch wasm)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(arch x86)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
    set(arch aarch64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(armv7.*|arm|armhf)$")
    set(arch armv7)
  else()
    message(STATUS "No SIMD kernels for ${CMAKE_SYSTEM_PROCESSOR}: scalar only")
    return()
  endif()
  if(arch STREQUAL "wasm" AND NOT SIMDE_INCLUDE_DIR)
    # Emscripten's sysroot has no SIMDe, and the host's include directory
    # cannot be searched whole (its C library is not Emscripten's): the
    # host's simde/ alone, through a link in the build tree.
    # Emscripten's platform file leaves /usr out of the search prefixes.
    find_path(_skin_host_simde simde/x86/avx512.h PATHS /usr/local/include /usr/include
              NO_CMAKE_FIND_ROOT_PATH)
    if(_skin_host_simde)
      file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/simde-include)
      file(CREATE_LINK ${_skin_host_simde}/simde ${PROJECT_BINARY_DIR}/simde-include/simde SYMBOLIC)
      set(SIMDE_INCLUDE_DIR ${PROJECT_BINARY_DIR}/simde-include CACHE PATH "Directory containing simde/")
    endif()
  endif()
  # Without SIMDe the kernels run about 10x slower: never that by accident.
  find_path(SIMDE_INCLUDE_DIR simde/x86/avx512.h)
  if(NOT SIMDE_INCLUDE_DIR)
    message(FATAL_ERROR "SIMDe not found: skin's SIMD kernels need it.  Install it "
      "(Debian/Ubuntu: apt install libsimde-dev) or set -DSIMDE_INCLUDE_DIR=<directory "
      "containing simde/>.  To build only the scalar kernels, about 10x slower, "
      "configure with -DSKIN_SIMD=OFF.")
  endif()
  if(arch STREQUAL "x86")
    # SKIN_X86_KERNELS: the x86 kernel sets built (a test build can leave
    # out the ones its CPU cannot run); dispatch offers the ones built.
    set(_skin_flags_sse2 -msse2)
    set(_skin_flags_avx2 -mavx2 -mfma)
    set(_skin_flags_avx512 -mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx2 -mfma)
    set(_skin_width_sse2 4)
    set(_skin_width_avx2 8)
    set(_skin_width_avx512 16)
    if(SKIN_PORTABLE_KERNELS)
      # Test build: the kernels compiled without -m flags, so SIMDe
      # emulates AVX2/AVX-512 and they run on any x86-64 CPU; dispatch then
      # skips its CPUID checks.  -Wno-psabi: SIMDe's 32/64-byte vector
      # types are passed between the kernel's own functions only.  As a
      # source property it comes after the warning flags (gcc 12 still fails
      # -Werror when -Wno-psabi precedes -Wall).
      set_source_files_properties(${PROJECT_SOURCE_DIR}/simd/kernel.c PROPERTIES COMPILE_OPTIONS -Wno-psabi)
      target_compile_definitions(${target} PRIVATE SKIN_PORTABLE_KERNELS)
    endif()
    foreach(isa IN LISTS SKIN_X86_KERNELS)
      if(NOT DEFINED _skin_width_${isa})
        message(FATAL_ERROR "SKIN_X86_KERNELS: unknown kernel set ${isa} (sse2, avx2, avx512)")
      endif()
      if(SKIN_PORTABLE_KERNELS)
        skin_add_kernel(${target} ${isa} ${_skin_width_${isa}})
      else()
        skin_add_kernel(${target} ${isa} ${_skin_width_${isa}} ${_skin_flags_${isa}})
      endif()
      string(TOUPPER ${isa} _upper)
      target_compile_definitions(${target} PRIVATE SKIN_HAVE_${_upper}_KERNELS)
    endforeach()
  elseif(arch STREQUAL "aarch64")
    skin_add_kernel(${target} neon 4)
    target_compile_definitions(${target} PRIVATE SKIN_HAVE_NEON_KERNELS)
  elseif(arch STREQUAL "armv7")
    # NEON for the kernels only; dispatch runs them where the CPU has it.
    skin_add_kernel(${target} neon 4 -mfpu=neon-vfpv4)
    target_compile_definitions(${target} PRIVATE SKIN_HAVE_NEON_KERNELS)
  else()
    # A module is validated whole, so SIMD128 is chosen at build time:
    # SKIN_SIMD=OFF builds a module that runs where SIMD128 does not.
    skin_add_kernel(${target} simd128 4 -msimd128)
    target_compile_definitions(${target} PRIVATE SKIN_HAVE_SIMD128_KERNELS)
  endif()
endfunction()
