/* SPDX-License-Identifier: MIT */
/* llvm-mca harness for scripts/kernel-cost.sh: one vertex of the per-vertex
 * baseline (bench/baseline.c), LBS 4 influences p+n+t into the 40-byte
 * vertex, with the formats constant.  For p+n+t every store is the
 * steady-state 16-byte one, so one vertex is the loop body. */
#define BASELINE_WIDE 1
#define BASELINE_FN baseline_run_mca
#include "../baseline.c"

/* llvm-mca reads its markers from assembler comments */
#if defined(__aarch64__)
#define MCA_COMMENT "//"
#else
#define MCA_COMMENT "#"
#endif

void mca_baseline4(const skin_mesh_desc *m, const baseline_palette *pal, float *out);
void mca_baseline4(const skin_mesh_desc *m, const baseline_palette *pal, float *out)
{
    __asm__ volatile(MCA_COMMENT " LLVM-MCA-BEGIN baseline4" ::: "memory");
    skin_range(m, pal, out, 40, 0, 1, 4, 0, SKIN_WEIGHT_F32, 1, 1);
    __asm__ volatile(MCA_COMMENT " LLVM-MCA-END baseline4" ::: "memory");
}
