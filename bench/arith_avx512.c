/* SPDX-License-Identifier: MIT */
/* The arithmetic floor on 16 lanes, with the AVX-512 kernels' flags (x86 only). */
#define ARITH_WIDE 1
#define ARITH_FN arith_run_avx512
#define SKIN_W 16
#include "arith.c"
