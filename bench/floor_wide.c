/* SPDX-License-Identifier: MIT */
/* The 256-bit floor, compiled with -mavx2 (x86 only; used when the CPU has AVX2). */
#define FLOOR_WIDE 1
#include "floor.c"
