# SPDX-License-Identifier: MIT
# Cross build for 32-bit ARM Linux (armv7-a, hard float) with Debian's
# gcc-arm-linux-gnueabihf; ctest runs the binaries under qemu-arm
# (qemu-user).  The NEON kernels get -mfpu=neon-vfpv4 of their own
# (cmake/SkinKernels.cmake) and run where the CPU reports NEON and VFPv4.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7-a)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
# Debian's defaults: armv7-a, VFPv3-D16, hard float, Thumb-2.
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-arm;-L;/usr/arm-linux-gnueabihf")

set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
