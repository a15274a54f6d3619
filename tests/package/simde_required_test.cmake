# SPDX-License-Identifier: MIT
# Configure stops when SIMDe is missing, naming the package to install and
# the option that builds the scalar kernels on purpose; with -DSKIN_SIMD=OFF
# it goes on.  Run with cmake -P:
#   -DSOURCE_DIR=<skin source> -DWORK_DIR=<scratch dir> [-DC_COMPILER=<cc>] [-DGENERATOR=<generator>]
# SIMDe is hidden by rooting every header search in an empty directory.
cmake_minimum_required(VERSION 3.16)
if(NOT C_COMPILER)
  set(C_COMPILER cc)
endif()
set(gen_args)
if(GENERATOR)
  set(gen_args -G "${GENERATOR}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/empty")

function(configure name)
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/${name}" ${gen_args}
      "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_FIND_ROOT_PATH=${WORK_DIR}/empty"
      -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DSKIN_BUILD_TESTS=OFF -DSKIN_BUILD_BENCH=OFF
      -DSKIN_BUILD_EXAMPLES=OFF -DSKIN_VULKAN=OFF -DSKIN_ASSETS=OFF ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(rc ${rc} PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
endfunction()

configure(default)
if(rc EQUAL 0 AND out MATCHES "No SIMD kernels for")
  message(STATUS "simde_required: no SIMD kernels on this architecture: nothing to check")
  file(REMOVE_RECURSE "${WORK_DIR}")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "simde_required: configure without SIMDe succeeded:\n${out}")
endif()
foreach(expected "SIMDe not found" "libsimde-dev" "-DSKIN_SIMD=OFF")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "simde_required: the error does not say \"${expected}\":\n${out}")
  endif()
endforeach()
string(FIND "${out}" "CMake Error" from)
string(FIND "${out}" "Call Stack" to)
math(EXPR length "${to} - ${from}")
string(SUBSTRING "${out}" ${from} ${length} error)
message(STATUS "simde_required: configure without SIMDe stops:\n${error}")

configure(scalar -DSKIN_SIMD=OFF)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simde_required: configure with -DSKIN_SIMD=OFF failed:\n${out}")
endif()
message(STATUS "simde_required: with -DSKIN_SIMD=OFF configure goes on")
file(REMOVE_RECURSE "${WORK_DIR}")
