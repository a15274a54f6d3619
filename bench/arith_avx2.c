/* SPDX-License-Identifier: MIT */
/* The arithmetic floor on 8 lanes, with the AVX2 kernels' flags (x86 only). */
#define ARITH_WIDE 1
#define ARITH_FN arith_run_avx2
#define SKIN_W 8
#include "arith.c"
