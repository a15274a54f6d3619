# SPDX-License-Identifier: MIT
# Fails when code grows past its budget: the text of the kernel objects
# (KERNELS, a |-list) at most KERNEL_BUDGET bytes, and the text of the
# whole library (LIBRARY) at most LIBRARY_BUDGET bytes.  SIZE: binutils'
# size for the target.
function(text_bytes out)
  execute_process(COMMAND ${SIZE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SIZE} failed: ${err}")
  endif()
  # "text data bss dec hex filename" rows; the first column is text.
  string(REGEX MATCHALL "\n *[0-9]+" rows "${table}")
  set(sum 0)
  foreach(row IN LISTS rows)
    string(STRIP "${row}" bytes)
    math(EXPR sum "${sum} + ${bytes}")
  endforeach()
  set(${out} ${sum} PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" KERNELS "${KERNELS}")
text_bytes(kernels ${KERNELS})
text_bytes(library ${LIBRARY})
math(EXPR kernels_kb "${kernels} / 1024")
math(EXPR library_kb "${library} / 1024")
message(STATUS "kernels: ${kernels_kb} KiB of text (budget ${KERNEL_BUDGET} bytes); "
               "library: ${library_kb} KiB (budget ${LIBRARY_BUDGET} bytes)")
if(kernels GREATER KERNEL_BUDGET OR library GREATER LIBRARY_BUDGET)
  message(FATAL_ERROR "over the size budget")
endif()
