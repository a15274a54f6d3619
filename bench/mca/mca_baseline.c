/* SPDX-License-Identifier: MIT */
/* llvm-mca harness for scripts/kernel-cost.sh: one vertex of the per-vertex
 * loop (bench/baseline.c), LBS 4 influences p+n+t from its interleaved
 * record into the 40-byte vertex.  Not the group's last vertex: every store
 * is the steady-state 16-byte one, so one vertex is the loop body. */
#define BASELINE_WIDE 1
#define BASELINE_FN baseline_run_mca
#include "../baseline.c"

/* llvm-mca reads its markers from assembler comments */
#if defined(__aarch64__)
#define MCA_COMMENT "//"
#else
#define MCA_COMMENT "#"
#endif

void mca_baseline4(const float *in, const uint16_t *joints, const float *weights, const baseline_palette *pal,
                   float *out);
void mca_baseline4(const float *in, const uint16_t *joints, const float *weights, const baseline_palette *pal,
                   float *out)
{
    __asm__ volatile(MCA_COMMENT " LLVM-MCA-BEGIN baseline4" ::: "memory");
    skin_vertex(in, joints, weights, pal->columns, out, 4, 1, 1, 0);
    __asm__ volatile(MCA_COMMENT " LLVM-MCA-END baseline4" ::: "memory");
}
