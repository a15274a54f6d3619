# SPDX-License-Identifier: MIT
# Runs EXE with ARGS (separated by |, which survives add_test) and fails unless it exits with STATUS and its
# stderr contains MATCH: the demo's and the bench's error paths (cmake -P, so no shell).
# EXE may be a command of several words too (an emulator and the program).
string(REPLACE "|" ";" EXE "${EXE}")
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "${EXE} ${ARGS}: exit status ${status}, expected ${STATUS}; stderr:\n${err}")
endif()
string(FIND "${err}" "${MATCH}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr lacks '${MATCH}':\n${err}")
endif()
message(STATUS "exit ${status}: ${err}")
