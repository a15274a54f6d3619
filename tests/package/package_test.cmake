# SPDX-License-Identifier: MIT
# Package test, run with cmake -P:
#   -DSOURCE_DIR=<skin source> -DWORK_DIR=<scratch dir> -DCONSUMER_DIR=<tests/package/consumer>
#   [-DVK=ON] [-DASSETS=ON]   the components to build and check
#   [-DINSTALL_BUILD=<skin build dir> -DINSTALL_BUILD_SHARED=<its BUILD_SHARED_LIBS>]
#   [-DC_COMPILER=<cc>] [-DGENERATOR=<cmake generator>]
# Installs skin static and shared: INSTALL_BUILD (a built tree) as its kind,
# and a build of its own (Debug, scalar kernels; no tests, bench or examples) for the other
# kind, or both without INSTALL_BUILD.  Each goes with --prefix into a
# scratch prefix, is moved elsewhere, and from there outside consumers are
# built and run:
#  - find_package(skin COMPONENTS <vk> <assets>), one program per target;
#  - the plain `cc file.c $(pkg-config --cflags --libs NAME)` line (no
#    --static) for skin.pc and each component's .pc file.
# Shared: every exported function of libskin.so starts with skin_, every
# SKIN_API function of skin.h is exported, and libskin.so does not depend on
# assimp.  Static: a component that is not installed makes find_package fail
# with a message naming it and why.
cmake_minimum_required(VERSION 3.16)
foreach(var SOURCE_DIR WORK_DIR CONSUMER_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "package_test.cmake needs -D${var}=...")
  endif()
endforeach()
foreach(var VK ASSETS)
  if(NOT ${var})
    set(${var} OFF)
  endif()
endforeach()
set(components)
set(pcs skin)
if(VK)
  list(APPEND components vk)
  list(APPEND pcs skin_vk)
endif()
if(ASSETS)
  list(APPEND components assets)
  list(APPEND pcs skin_assets)
endif()
set(install_build_shared OFF)
if(INSTALL_BUILD_SHARED)
  set(install_build_shared ON)
endif()
if(NOT C_COMPILER)
  set(C_COMPILER cc)
endif()
set(gen_args)
if(GENERATOR)
  set(gen_args -G "${GENERATOR}")
endif()
find_program(PKG_CONFIG pkg-config REQUIRED)

function(run step)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package: ${step} failed (${rc}):\n${ARGN}\n${out}")
  endif()
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  message(STATUS "package: ${step}: ok (${seconds} s)")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# Runs a program built against the installed libraries in libdir.
function(run_consumer step exe)
  run("${step}" ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${libdir}" "${exe}")
  string(STRIP "${run_output}" out)
  message(STATUS "  ${out}")
endfunction()

# Configures the consumer project against the installed prefix, asking for
# the components listed (separated by spaces); the output goes to run_output.
function(configure_consumer dir comps result_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${dir}" ${gen_args}
      "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}" "-DSKIN_COMPONENTS=${comps}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${result_var} ${rc} PARENT_SCOPE)
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# The shared library's exported symbols and its dependencies.
function(check_shared_library lib)
  # Every exported (defined, dynamic) function symbol starts with skin_.
  find_program(NM nm REQUIRED)
  run("nm -D --defined-only" ${NM} -D --defined-only "${lib}")
  string(REPLACE "\n" ";" lines "${run_output}")
  set(exported)
  set(foreign)
  foreach(line IN LISTS lines)
    if(line MATCHES "^[0-9a-fA-F]* *([TtWwiI]) (.+)$")
      string(REGEX REPLACE "@.*$" "" name "${CMAKE_MATCH_2}")
      list(APPEND exported "${name}")
      if(NOT name MATCHES "^skin_")
        list(APPEND foreign "${name}")
      endif()
    endif()
  endforeach()
  list(LENGTH exported functions)
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
  list(LENGTH decls declared)
  foreach(decl IN LISTS decls)
    string(REGEX REPLACE ".*[ *](skin_[a-z0-9_]+)\\($" "\\1" name "${decl}")
    if(NOT name IN_LIST exported)
      list(APPEND missing "${name}")
    endif()
  endforeach()
  if(missing OR declared LESS 10)
    message(FATAL_ERROR "package: ${declared} SKIN_API functions in skin.h; not exported: ${missing}")
  endif()
  message(STATUS "package: ${functions} exported functions, all skin_*; all ${declared} declared in skin.h exported")
  # The core library never depends on assimp.
  find_program(READELF readelf)
  if(READELF)
    run("readelf -d libskin.so" ${READELF} -d "${lib}")
    if(run_output MATCHES "assimp")
      message(FATAL_ERROR "package: libskin.so depends on assimp:\n${run_output}")
    endif()
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(kind static shared)
  set(installed "${WORK_DIR}/installed-${kind}")
  set(prefix "${WORK_DIR}/moved-${kind}")
  if(kind STREQUAL "shared")
    set(shared ON)
  else()
    set(shared OFF)
  endif()
  if(INSTALL_BUILD AND shared STREQUAL install_build_shared)
    set(build "${INSTALL_BUILD}")
  else()
    # Scalar kernels only: the installed files, exported symbols and link
    # lines do not depend on them, and the SIMD kernel objects are most of
    # the build's time (minutes even at -O0).
    set(build "${WORK_DIR}/build-${kind}")
    run("${kind}: configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${build}" ${gen_args}
        "-DCMAKE_C_COMPILER=${C_COMPILER}" -DCMAKE_BUILD_TYPE=Debug -DBUILD_SHARED_LIBS=${shared}
        -DSKIN_BUILD_TESTS=OFF -DSKIN_BUILD_BENCH=OFF -DSKIN_BUILD_EXAMPLES=OFF -DSKIN_SIMD=OFF
        -DSKIN_VULKAN=${VK} -DSKIN_ASSETS=${ASSETS} "-DCMAKE_INSTALL_PREFIX=${WORK_DIR}/configured-prefix")
    run("${kind}: build" ${CMAKE_COMMAND} --build "${build}" -j2)
  endif()
  # Installed elsewhere than the configure-time prefix, then moved: the
  # package must find everything relative to its own location.
  run("${kind}: install from ${build}" ${CMAKE_COMMAND} --install "${build}" --prefix "${installed}")
  if(EXISTS "${WORK_DIR}/configured-prefix")
    message(FATAL_ERROR "package: install wrote to the configure-time prefix")
  endif()
  file(RENAME "${installed}" "${prefix}")

  # The installed files.
  if(shared)
    file(GLOB_RECURSE lib "${prefix}/*/libskin.so")
  else()
    file(GLOB_RECURSE lib "${prefix}/*/libskin.a")
  endif()
  file(GLOB_RECURSE config "${prefix}/*/cmake/skin/skinConfig.cmake")
  list(LENGTH lib nlibs)
  if(NOT nlibs EQUAL 1 OR NOT config OR NOT EXISTS "${prefix}/include/skin/skin.h")
    message(FATAL_ERROR "package: ${kind} install is incomplete: lib=${lib} config=${config}")
  endif()
  get_filename_component(libdir "${lib}" DIRECTORY)
  get_filename_component(configdir "${config}" DIRECTORY)
  foreach(file skinVkTargets.cmake skinAssetsTargets.cmake pkgconfig/skin_vk.pc pkgconfig/skin_assets.pc)
    if(file MATCHES "Vk|_vk")
      set(want ${VK})
    else()
      set(want ${ASSETS})
    endif()
    if(file MATCHES "^pkgconfig/")
      set(path "${libdir}/${file}")
    else()
      set(path "${configdir}/${file}")
    endif()
    if(want AND NOT EXISTS "${path}")
      message(FATAL_ERROR "package: ${kind} install lacks ${file}")
    elseif(NOT want AND EXISTS "${path}")
      message(FATAL_ERROR "package: ${kind} install has ${file}, built without it")
    endif()
  endforeach()
  if(shared)
    check_shared_library("${lib}")
  endif()

  # find_package(skin COMPONENTS ...): one program per target.
  string(JOIN " " comps ${components})
  set(dir "${WORK_DIR}/consumer-${kind}")
  configure_consumer("${dir}" "${comps}" rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package: ${kind}: consumer configure (COMPONENTS ${comps}) failed:\n${run_output}")
  endif()
  run("${kind}: consumer build (find_package COMPONENTS ${comps})" ${CMAKE_COMMAND} --build "${dir}")
  foreach(exe consumer ${components})
    if(NOT exe STREQUAL "consumer")
      set(exe consumer_${exe})
    endif()
    file(GLOB_RECURSE exe_path "${dir}/${exe}")
    run_consumer("${kind}: ${exe} run (find_package)" "${exe_path}")
  endforeach()

  # The plain pkg-config line, as a user types it.
  set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
  foreach(pc IN LISTS pcs)
    run("${kind}: pkg-config ${pc}" ${PKG_CONFIG} --cflags --libs ${pc})
    string(STRIP "${run_output}" flags)
    message(STATUS "  pkg-config --cflags --libs ${pc}: ${flags}")
    separate_arguments(flags UNIX_COMMAND "${flags}")
    string(REGEX REPLACE "^skin" "consumer" exe "${pc}") # skin_vk: consumer_vk.c
    run("${kind}: ${pc} consumer build (pkg-config)" ${C_COMPILER} "${CONSUMER_DIR}/${exe}.c" ${flags}
        -o "${WORK_DIR}/${exe}-${kind}-pc")
    run_consumer("${kind}: ${pc} consumer run (pkg-config)" "${WORK_DIR}/${exe}-${kind}-pc")
  endforeach()

  # A component that is not installed, as after a build without Vulkan
  # (its targets file is the component), and one that does not exist.
  if(NOT shared)
    file(GLOB vk_targets "${configdir}/skinVkTargets*.cmake")
    if(vk_targets)
      file(REMOVE ${vk_targets})
    endif()
    configure_consumer("${WORK_DIR}/consumer-missing" "vk nope" rc)
    if(rc EQUAL 0)
      message(FATAL_ERROR "package: find_package(skin COMPONENTS vk nope) succeeded without skin::vk")
    endif()
    foreach(expected "component vk: skin was built without Vulkan" "component nope: no such component")
      string(FIND "${run_output}" "${expected}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "package: find_package(skin COMPONENTS vk nope) does not say "
                            "\"${expected}\":\n${run_output}")
      endif()
    endforeach()
    string(FIND "${run_output}" "Reason given by package:" at)
    string(SUBSTRING "${run_output}" ${at} -1 reason)
    message(STATUS "package: static: find_package(skin COMPONENTS vk nope) fails:\n  ${reason}")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "package: all checks passed")
