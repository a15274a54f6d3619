/* SPDX-License-Identifier: MIT */
/* The baseline compiled with the AVX-512 kernels' flags (x86 only). */
#define BASELINE_WIDE 1
#define BASELINE_FN baseline_run_avx512
#include "baseline.c"
