/* SPDX-License-Identifier: MIT */
/* The arithmetic floors (arith.h) on the kernels' vector layer, compiled
 * once per kernel ISA: here with the target's default flags on 4 lanes
 * (SSE2 on x86-64, NEON on aarch64 and armv7) as arith_run_base, and on x86 by
 * arith_avx2.c and arith_avx512.c with the kernels' flags. */
#include "arith.h"

#include <stdint.h>

#ifndef ARITH_FN
#define ARITH_FN arith_run_base
#define SKIN_W 4
#endif
#include "../src/skin_internal.h" /* SKIN_DQS_MIN_NORM */
#include "vec.h"

#define W SKIN_W
#define ARITH_INLINE static inline __attribute__((always_inline))

/* LBS's blend, slot by slot, into the 3x4 matrix m. */
ARITH_INLINE void lbs_matrix(const arith_job *j, const float *lanes, size_t v, const int k, vf *m)
{
    UNROLL for (int i = 0; i < k; ++i) {
        const vf w = v_loadu(j->weights[i] + v);
        UNROLL for (int e = 0; e < 12; ++e)
            m[e] = v_madd_slot(w, v_loadu(lanes + (size_t)(12 * i + e) * W), m[e], (uint32_t)i);
    }
}

/* The kernels' DQS steps (simd/blend.h: dq_real_parts, dqs), in their
 * order: the real parts, each weight signed by its
 * real part's dot with the pivot's (for more than one slot), then the dual
 * parts; the squared norm, below SKIN_DQS_MIN_NORM the pivot's own dual
 * quaternion; the unit dual quaternion as a 3x4 matrix. */
#define DQ(lanes, i, e) v_loadu((lanes) + (size_t)(8 * (i) + (e)) * W)

/* The pivots' dual quaternions (at `pivot` in lanes), for the rare block
 * with a blend too short.  Out of line, and returned rather than written
 * through a pointer to the blend, which would keep the blend in memory. */
typedef struct dq8 {
    vf q[8];
} dq8;
static __attribute__((noinline, cold)) dq8 dq_pivots(const float *pivot)
{
    dq8 p;
    UNROLL for (int e = 0; e < 8; ++e) p.q[e] = DQ(pivot, 0, e);
    return p;
}

ARITH_INLINE void dqs_matrix(const arith_job *j, const float *lanes, size_t v, const int k, vf *m)
{
    vf b[8], ws[SKIN_MAX_INFLUENCES], pivot[4];
    if (k > 1) UNROLL for (int e = 0; e < 4; ++e) pivot[e] = DQ(lanes, k, e); /* slot k: the pivot */
    UNROLL for (int i = 0; i < k; ++i) {
        vf q[4];
        UNROLL for (int e = 0; e < 4; ++e) q[e] = DQ(lanes, i, e);
        ws[i] = v_loadu(j->weights[i] + v);
        if (k > 1) {
            ws[i] = v_neg_if(v_lt(v_sign_dot(q, pivot), v_zero()), ws[i]);
        }
        UNROLL for (int e = 0; e < 4; ++e) b[e] = v_madd_slot(ws[i], q[e], b[e], (uint32_t)i);
    }
    UNROLL for (int i = 0; i < k; ++i)
        UNROLL for (int e = 4; e < 8; ++e) b[e] = v_madd_slot(ws[i], DQ(lanes, i, e), b[e], (uint32_t)i);
    vf n2 = v_dot4(b, b);
    const vm small = v_lt(n2, v_set1(SKIN_DQS_MIN_NORM * SKIN_DQS_MIN_NORM));
    if (__builtin_expect(v_any(small), 0)) { /* these lanes: the pivot's own transform */
        const dq8 p = dq_pivots(lanes + (size_t)(8 * k) * W);
        UNROLL for (int e = 0; e < 8; ++e) b[e] = v_select(small, p.q[e], b[e]);
        n2 = v_select(small, v_dot4(p.q, p.q), n2);
    }
    v_dq_matrix(b, n2, m);
}
#undef DQ

/* Per block, the method's matrix, then the kernels' apply(): the position
 * by the 3x4 matrix, the normal and tangent by its 3x3 part. */
ARITH_INLINE void method_blocks(const arith_job *j, size_t first, size_t count, const skin_method method,
                                const int k)
{
    const size_t block_floats = arith_lane_floats(method, k) * W;
    size_t b = first / W % j->lane_blocks; /* (no division per block) */
    for (size_t v = first; v < first + count; v += W, b = b + 1 == j->lane_blocks ? 0 : b + 1) {
        const float *lanes = j->lanes + b * block_floats;
        vf m[12], o[10];
        if (method == SKIN_LBS)
            lbs_matrix(j, lanes, v, k, m);
        else
            dqs_matrix(j, lanes, v, k, m);
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

/* LBS's blocks (bench/mca times one). */
ARITH_INLINE void arith_blocks(const arith_job *j, size_t first, size_t count, const int k)
{
    method_blocks(j, first, count, SKIN_LBS, k);
}

/* One build per method and influence count, as the kernels have. */
ARITH_INLINE void arith_method(const arith_job *job, size_t first, size_t count, const skin_method method)
{
    switch (job->k) {
    case 1: method_blocks(job, first, count, method, 1); break;
    case 2: method_blocks(job, first, count, method, 2); break;
    case 3: method_blocks(job, first, count, method, 3); break;
    case 4: method_blocks(job, first, count, method, 4); break;
    case 5: method_blocks(job, first, count, method, 5); break;
    case 6: method_blocks(job, first, count, method, 6); break;
    case 7: method_blocks(job, first, count, method, 7); break;
    default: method_blocks(job, first, count, method, 8); break;
    }
}

void ARITH_FN(const arith_job *job, size_t first, size_t count);
void ARITH_FN(const arith_job *job, size_t first, size_t count)
{
    if (job->method == SKIN_DQS)
        arith_method(job, first, count, SKIN_DQS);
    else
        arith_method(job, first, count, SKIN_LBS);
}

#if !defined(ARITH_WIDE)
void arith_fill_lanes(float *lanes, size_t blocks, int width, skin_method method, int k, const void *const *joints,
                      const float *const *weights, const skin_palette *palette)
{
    const int dqs = method == SKIN_DQS, comps = dqs ? 8 : 12;
    const float *source = dqs ? palette->dual_quats : palette->matrices;
    const size_t per_block = arith_lane_floats(method, k) * (size_t)width;
    for (size_t b = 0; b < blocks; ++b)
        for (int l = 0; l < width; ++l) {
            const size_t v = b * (size_t)width + (size_t)l;
            int pivot = 0;
            for (int i = 1; dqs && i < k; ++i)
                if (weights[i][v] > weights[pivot][v]) pivot = i;
            for (int i = 0; i < k + dqs; ++i) { /* DQS: slot k, the pivot's */
                const size_t jt = ((const uint16_t *)joints[i < k ? i : pivot])[v];
                for (int e = 0; e < comps; ++e)
                    lanes[b * per_block + (size_t)(comps * i + e) * (size_t)width + (size_t)l] =
                        source[(size_t)comps * jt + (size_t)e];
            }
        }
}

void arith_run_avx2(const arith_job *, size_t, size_t);
void arith_run_avx512(const arith_job *, size_t, size_t);

arith_fn arith_for(skin_isa isa, int *lanes)
{
    switch (isa) {
#if defined(__aarch64__) || defined(__ARM_NEON)
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
