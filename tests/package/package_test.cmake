# SPDX-License-Identifier: MIT
# Package test, run with cmake -P:
#   -DSOURCE_DIR=<skin source> -DWORK_DIR=<scratch dir> -DCONSUMER_DIR=<consumer source>
#   [-DASSETS_CONSUMER_DIR=<skin::assets consumer source>]
#   [-DC_COMPILER=<cc>] [-DGENERATOR=<cmake generator>]
# Configures skin as a shared library (no tests, bench, examples or Vulkan),
# installs it with --prefix into a scratch prefix other than the configured one, checks that every exported function of
# libskin.so starts with skin_, then builds and runs a consumer against the
# installed package with find_package(skin) and with pkg-config.
cmake_minimum_required(VERSION 3.16)
foreach(var SOURCE_DIR WORK_DIR CONSUMER_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "package_test.cmake needs -D${var}=...")
  endif()
endforeach()

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package: ${step} failed (${rc}):\n${ARGN}\n${out}")
  endif()
  message(STATUS "package: ${step}: ok")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(build "${WORK_DIR}/build")
set(prefix "${WORK_DIR}/prefix")
set(gen_args)
if(GENERATOR)
  set(gen_args -G "${GENERATOR}")
endif()
set(cc_args)
if(C_COMPILER)
  set(cc_args -DCMAKE_C_COMPILER=${C_COMPILER})
endif()

# Debug: the exported symbols and the installed files do not depend on the
# build type, and -O0 builds the SIMD kernels ~3x faster than Release.
run("configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${build}" ${gen_args} ${cc_args}
    -DCMAKE_BUILD_TYPE=Debug -DBUILD_SHARED_LIBS=ON -DSKIN_BUILD_TESTS=OFF
    -DSKIN_BUILD_BENCH=OFF -DSKIN_VULKAN=OFF
    "-DCMAKE_INSTALL_PREFIX=${WORK_DIR}/configured-prefix")
run("build" ${CMAKE_COMMAND} --build "${build}" -j2)
# Installed elsewhere than the configure-time prefix: the package must be
# relocatable (the pkg-config file finds its prefix from its own location).
run("install" ${CMAKE_COMMAND} --install "${build}" --prefix "${prefix}")
if(EXISTS "${WORK_DIR}/configured-prefix")
  message(FATAL_ERROR "package: install wrote to the configure-time prefix")
endif()

# The installed files.
file(GLOB_RECURSE libs "${prefix}/*/libskin.so")
file(GLOB_RECURSE configs "${prefix}/*/skinConfig.cmake")
file(GLOB_RECURSE pcs "${prefix}/*/pkgconfig/skin.pc")
list(LENGTH libs nlibs)
if(NOT nlibs EQUAL 1 OR NOT configs OR NOT pcs OR NOT EXISTS "${prefix}/include/skin/skin.h")
  message(FATAL_ERROR "package: install is incomplete: lib=${libs} config=${configs} pc=${pcs}")
endif()
get_filename_component(libdir "${libs}" DIRECTORY)
get_filename_component(pcdir "${pcs}" DIRECTORY)

# Every exported (defined, dynamic) function symbol starts with skin_.
find_program(NM nm REQUIRED)
run("nm -D --defined-only" ${NM} -D --defined-only "${libs}")
string(REPLACE "\n" ";" lines "${run_output}")
set(functions 0)
set(foreign)
set(exported)
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *([TtWwiI]) (.+)$")
    set(name "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "@.*$" "" name "${name}")
    math(EXPR functions "${functions} + 1")
    list(APPEND exported "${name}")
    if(NOT name MATCHES "^skin_")
      list(APPEND foreign "${name}")
    endif()
  endif()
endforeach()
if(foreign)
  message(FATAL_ERROR "package: libskin.so exports functions outside skin_: ${foreign}")
endif()
if(functions LESS 10)
  message(FATAL_ERROR "package: only ${functions} exported functions found:\n${run_output}")
endif()
# ...and every SKIN_API function of the installed header is exported.
file(READ "${prefix}/include/skin/skin.h" header)
string(REGEX MATCHALL "SKIN_API[^;(]*[ *](skin_[a-z0-9_]+)\\(" decls "${header}")
set(missing)
set(declared 0)
foreach(decl IN LISTS decls)
  string(REGEX REPLACE ".*[ *](skin_[a-z0-9_]+)\\($" "\\1" name "${decl}")
  math(EXPR declared "${declared} + 1")
  if(NOT name IN_LIST exported)
    list(APPEND missing "${name}")
  endif()
endforeach()
if(missing OR declared LESS 10)
  message(FATAL_ERROR "package: ${declared} SKIN_API functions in skin.h; not exported: ${missing}")
endif()
message(STATUS "package: ${functions} exported functions, all skin_*; all ${declared} declared in skin.h exported")

# Configures, builds and runs the CMake consumer project in source_dir,
# whose executable is called exe, against the installed prefix.
function(cmake_consumer label source_dir exe)
  run("${label} configure" ${CMAKE_COMMAND} -S "${source_dir}"
      -B "${WORK_DIR}/${exe}-cmake" ${gen_args} ${cc_args} "-DCMAKE_PREFIX_PATH=${prefix}")
  run("${label} build" ${CMAKE_COMMAND} --build "${WORK_DIR}/${exe}-cmake")
  file(GLOB_RECURSE exe_path "${WORK_DIR}/${exe}-cmake/${exe}")
  run("${label} run" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${libdir}" ${exe_path})
  message(STATUS "${run_output}")
endfunction()

# Consumer 1: find_package(skin) + skin::skin.
cmake_consumer("consumer (find_package)" "${CONSUMER_DIR}" consumer)

# Consumer 2: pkg-config --cflags --libs skin.
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${pcdir}")
run("pkg-config" ${PKG_CONFIG} --cflags --libs skin)
string(STRIP "${run_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
if(NOT C_COMPILER)
  set(C_COMPILER cc)
endif()
run("consumer build (pkg-config)" ${C_COMPILER} "${CONSUMER_DIR}/consumer.c" ${flags}
    -o "${WORK_DIR}/consumer-pc")
run("consumer run (pkg-config)" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${libdir}"
    "${WORK_DIR}/consumer-pc")
message(STATUS "${run_output}")

# The core library never depends on assimp.
find_program(READELF readelf)
if(READELF)
  run("readelf -d libskin.so" ${READELF} -d "${libs}")
  if(run_output MATCHES "assimp")
    message(FATAL_ERROR "package: libskin.so depends on assimp:\n${run_output}")
  endif()
endif()

# Consumer 3: find_package(skin COMPONENTS assets) + skin::assets, when the
# loader was built (assimp found).
file(GLOB_RECURSE assets_libs "${prefix}/*/libskin_assets.so")
if(assets_libs AND ASSETS_CONSUMER_DIR)
  if(NOT EXISTS "${prefix}/include/skin/skin_assets.h")
    message(FATAL_ERROR "package: skin_assets.h is not installed")
  endif()
  cmake_consumer("assets consumer (find_package COMPONENTS assets)" "${ASSETS_CONSUMER_DIR}" consumer_assets)
else()
  message(STATUS "package: skin_assets not built (no assimp): component not checked")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "package: all checks passed")
