# SPDX-License-Identifier: MIT
# SIMD kernels vs the scalar reference, once per ISA of the target
# architecture (a CPU without the ISA skips with code 77).
add_executable(test_kernels test_kernels.c)
target_link_libraries(test_kernels PRIVATE skin_rig skin_warnings)
if(EMSCRIPTEN)
  set(SKIN_TEST_ISAS scalar simd128)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64|armv7.*|arm|armhf)$")
  set(SKIN_TEST_ISAS scalar neon)
else()
  set(SKIN_TEST_ISAS scalar sse2 avx2 avx512)
endif()
foreach(isa IN LISTS SKIN_TEST_ISAS)
  add_test(NAME kernels_${isa} COMMAND test_kernels)
  set_tests_properties(kernels_${isa} PROPERTIES
    ENVIRONMENT SKIN_ISA=${isa} SKIP_RETURN_CODE 77 LABELS kernels)
endforeach()

# Morph targets fused into skinning (issue 11), once per ISA like the kernels.
add_executable(test_morph test_morph.c)
target_include_directories(test_morph PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(test_morph PRIVATE skin_rig skin_warnings)
foreach(isa IN LISTS SKIN_TEST_ISAS)
  add_test(NAME morph_${isa} COMMAND test_morph)
  set_tests_properties(morph_${isa} PROPERTIES
    ENVIRONMENT SKIN_ISA=${isa} SKIP_RETURN_CODE 77 LABELS "morph;kernels")
endforeach()
