# SPDX-License-Identifier: MIT
# The tests that run under node in an Emscripten build (CTest runs them
# through CMAKE_CROSSCOMPILING_EMULATOR, node): the kernels against the
# scalar reference per ISA, the hand-computed cases, bad input and what a
# 32-bit size_t changes (strides, centers of rotation).  The rest of the
# suite is platform-neutral C, run natively, or needs threads, a host
# toolchain or the installed package.
# emcmake names node with --experimental-wasm-threads, which node 20 refuses
# (it has threads anyway): node alone then.
if(CMAKE_CROSSCOMPILING_EMULATOR MATCHES "--experimental-wasm-threads")
  execute_process(COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} -e 0 RESULT_VARIABLE _skin_rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT _skin_rc EQUAL 0)
    list(GET CMAKE_CROSSCOMPILING_EMULATOR 0 CMAKE_CROSSCOMPILING_EMULATOR)
  endif()
endif()
# Synchronous instantiation: node 18+ has fetch, which Emscripten 3.1.6 would
# try on a file path.
add_link_options(-sALLOW_MEMORY_GROWTH=1 -sWASM_ASYNC_COMPILATION=0 "SHELL:--pre-js ${CMAKE_CURRENT_SOURCE_DIR}/support/node_env.js")
foreach(name test_golden test_bad_input test_bad_input_sweep test_defects test_cor)
  skin_core_test(${name})
endforeach()
include(kernels.cmake)
