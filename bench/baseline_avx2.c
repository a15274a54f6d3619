/* SPDX-License-Identifier: MIT */
/* The baseline compiled with -mavx2 -mfma (x86 only). */
#define BASELINE_WIDE 1
#define BASELINE_FN baseline_run_avx2
#include "baseline.c"
