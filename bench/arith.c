/* SPDX-License-Identifier: MIT */
/* The arithmetic floor (arith.h) on the kernels' vector layer, compiled
 * once per kernel ISA: here with the target's default flags on 4 lanes
 * (SSE2 on x86-64, NEON on aarch64) as arith_run_base, and on x86 by
 * arith_avx2.c and arith_avx512.c with the kernels' flags. */
#include "arith.h"

#ifndef ARITH_FN
#define ARITH_FN arith_run_base
#define SKIN_W 4
#endif
#include "vec.h"

#define W SKIN_W

/* The kernels' steps (vec.h), in their order: the blend, slot by slot,
 * then apply()'s transforms, the position's by the 3x4 matrix and the
 * normal's and tangent's by its 3x3 part. */
static inline __attribute__((always_inline)) void arith_blocks(const arith_job *j, size_t first, size_t count,
                                                               const int k)
{
    size_t b = first / W % j->lane_blocks; /* (no division per block) */
    for (size_t v = first; v < first + count; v += W, b = b + 1 == j->lane_blocks ? 0 : b + 1) {
        const float *lanes = j->lanes + b * (size_t)k * 12 * W;
        vf m[12], o[10];
        UNROLL for (int i = 0; i < k; ++i) {
            const vf w = v_loadu(j->weights[i] + v);
            UNROLL for (int e = 0; e < 12; ++e)
                m[e] = v_madd_slot(w, v_loadu(lanes + (size_t)(12 * i + e) * W), m[e], (uint32_t)i);
        }
        /* each attribute stored as soon as it is done: fewer live registers */
        v_affine(m, v_loadu(j->in[0] + v), v_loadu(j->in[1] + v), v_loadu(j->in[2] + v), o);
        UNROLL for (int a = 0; a < 9; a += 3) {
            if (a) {
                UNROLL for (int e = a; e < a + 3; ++e) o[e] = v_loadu(j->in[e] + v);
                v_mat3(m, 4, &o[a], &o[a + 1], &o[a + 2]);
            }
            UNROLL for (int e = a; e < a + 3; ++e) v_storeu(j->out[e] + v, o[e]);
        }
        v_storeu(j->out[9] + v, v_loadu(j->in[9] + v));
    }
}

void ARITH_FN(const arith_job *job, size_t first, size_t count);
void ARITH_FN(const arith_job *job, size_t first, size_t count)
{
    switch (job->k) { /* one build per influence count, as the kernels have */
    case 1: arith_blocks(job, first, count, 1); break;
    case 2: arith_blocks(job, first, count, 2); break;
    case 3: arith_blocks(job, first, count, 3); break;
    case 4: arith_blocks(job, first, count, 4); break;
    case 5: arith_blocks(job, first, count, 5); break;
    case 6: arith_blocks(job, first, count, 6); break;
    case 7: arith_blocks(job, first, count, 7); break;
    default: arith_blocks(job, first, count, 8); break;
    }
}

#if !defined(ARITH_WIDE)
void arith_fill_lanes(float *lanes, size_t blocks, int width, int k, const void *const *joints,
                      const float *matrices)
{
    for (size_t b = 0; b < blocks; ++b)
        for (int i = 0; i < k; ++i)
            for (int l = 0; l < width; ++l) {
                const size_t jt = ((const uint16_t *)joints[i])[b * (size_t)width + (size_t)l];
                for (int e = 0; e < 12; ++e)
                    lanes[((b * (size_t)k + (size_t)i) * 12 + (size_t)e) * (size_t)width + (size_t)l] =
                        matrices[12 * jt + (size_t)e];
            }
}

void arith_run_avx2(const arith_job *, size_t, size_t);
void arith_run_avx512(const arith_job *, size_t, size_t);

arith_fn arith_for(skin_isa isa, int *lanes)
{
    switch (isa) {
#if defined(__aarch64__)
    case SKIN_ISA_NEON: *lanes = 4; return arith_run_base;
#elif defined(BASELINE_HAVE_X86)
    case SKIN_ISA_SSE2: *lanes = 4; return arith_run_base;
    case SKIN_ISA_AVX2: *lanes = 8; return arith_run_avx2;
    case SKIN_ISA_AVX512: *lanes = 16; return arith_run_avx512;
#endif
    default: return NULL;
    }
}
#endif
