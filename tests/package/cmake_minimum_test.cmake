# SPDX-License-Identifier: MIT
# Checks that the project asks for no newer CMake than Ubuntu 22.04's 3.22
# (issue 10, defect 7).  Run with cmake -P -DSOURCE_DIR=<skin source>.
file(STRINGS "${SOURCE_DIR}/CMakeLists.txt" lines REGEX "^cmake_minimum_required")
list(GET lines 0 line)
if(NOT line MATCHES "VERSION ([0-9.]+)")
  message(FATAL_ERROR "cmake_minimum: no version in '${line}'")
endif()
if(CMAKE_MATCH_1 VERSION_GREATER 3.22)
  message(FATAL_ERROR "cmake_minimum: requires ${CMAKE_MATCH_1}, Ubuntu 22.04 has 3.22")
endif()
message(STATUS "cmake_minimum: requires ${CMAKE_MATCH_1} (<= 3.22)")
