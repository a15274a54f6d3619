/* SPDX-License-Identifier: MIT */
/* The per-vertex baseline loop (see baseline.h), compiled once per ISA:
 * baseline_run_base with the target's default flags (SSE2 on x86-64, NEON
 * on aarch64), and on x86 baseline_run_avx2 / baseline_run_avx512 from
 * baseline_avx2.c / baseline_avx512.c with the kernels' flags. */
#include "baseline.h"

#include <simde/x86/fma.h>

#ifndef BASELINE_FN
#define BASELINE_FN baseline_run_base
#endif

typedef simde__m128 v4;

static inline v4 fmadd(v4 a, v4 b, v4 c) { return simde_mm_fmadd_ps(a, b, c); }

/* Stores x, y, z of v (12 bytes) without touching the 4th float. */
static inline void store3(float *p, v4 v)
{
    simde_mm_storeu_si64(p, simde_mm_castps_si128(v)); /* p: 4-byte aligned */
    simde_mm_store_ss(p + 2, simde_mm_movehl_ps(v, v));
}

/* The loop body, inlined into specialisations with constant influence
 * count, formats and attributes (engines template theirs the same way). */
static inline __attribute__((always_inline)) void skin_range(const skin_mesh_desc *m,
        const baseline_palette *pal, float *out, size_t stride, size_t first, size_t count, int k,
        int u8, skin_weight_format wf, int has_n, int has_t)
{
    const uint32_t last = pal->joint_count - 1;
    const float *cols = pal->columns;
    const float wscale = wf == SKIN_WEIGHT_UNORM16 ? 1.0f / 65535.0f : 1.0f / 255.0f;
    const v4 wmask = simde_mm_castsi128_ps(simde_mm_set_epi32(-1, 0, 0, 0));
    char *o = (char *)out + first * stride;
    const size_t end = first + count;
    for (size_t v = first; v < end; ++v, o += stride) {
        /* Blend the four columns of every influence's matrix. */
        v4 c0 = simde_mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
        for (int i = 0; i < k; ++i) {
            uint32_t j = u8 ? ((const uint8_t *)m->joints[i])[v] : ((const uint16_t *)m->joints[i])[v];
            float w = wf == SKIN_WEIGHT_F32 ? ((const float *)m->weights[i])[v]
                    : wf == SKIN_WEIGHT_UNORM16
                        ? (float)((const uint16_t *)m->weights[i])[v] * wscale
                        : (float)((const uint8_t *)m->weights[i])[v] * wscale;
            const float *mj = cols + 16 * (size_t)(j < last ? j : last);
            const v4 wv = simde_mm_set1_ps(w);
            c0 = fmadd(wv, simde_mm_load_ps(mj), c0);
            c1 = fmadd(wv, simde_mm_load_ps(mj + 4), c1);
            c2 = fmadd(wv, simde_mm_load_ps(mj + 8), c2);
            c3 = fmadd(wv, simde_mm_load_ps(mj + 12), c3);
        }
        /* Transform; the last vertex stores exactly its bytes, the others
         * store 16 bytes per attribute, overlapping the next field (which is
         * written right after) or the next vertex (written next). */
        float *f = (float *)(void *)o;
        const int tail = v + 1 == end;
        const v4 p = fmadd(c0, simde_mm_set1_ps(m->px[v]),
                           fmadd(c1, simde_mm_set1_ps(m->py[v]),
                                 fmadd(c2, simde_mm_set1_ps(m->pz[v]), c3)));
        if (tail && !has_n) store3(f, p);
        else simde_mm_storeu_ps(f, p);
        if (has_n) {
            const v4 n = fmadd(c0, simde_mm_set1_ps(m->nx[v]),
                               fmadd(c1, simde_mm_set1_ps(m->ny[v]),
                                     simde_mm_mul_ps(c2, simde_mm_set1_ps(m->nz[v]))));
            if (tail && !has_t) store3(f + 3, n);
            else simde_mm_storeu_ps(f + 3, n);
        }
        if (has_t) {
            v4 t = fmadd(c0, simde_mm_set1_ps(m->tx[v]),
                         fmadd(c1, simde_mm_set1_ps(m->ty[v]),
                               simde_mm_mul_ps(c2, simde_mm_set1_ps(m->tz[v]))));
            /* Lane 3 of t is +-0 (c0..c2 have w = 0): replace it by the sign. */
            t = simde_mm_or_ps(simde_mm_andnot_ps(wmask, t), simde_mm_and_ps(wmask, simde_mm_set1_ps(m->tw[v])));
            simde_mm_storeu_ps(f + 6, t);
        }
    }
}

void BASELINE_FN(const skin_mesh_desc *m, const baseline_palette *pal, float *out, size_t stride,
                 size_t first, size_t count)
{
    const int k = (int)m->influence_count, u8 = m->joint_format == SKIN_JOINT_U8;
    const skin_weight_format wf = m->weight_format;
    const int has_n = m->nx != NULL, has_t = m->tx != NULL;
    /* The benchmarked cases get a specialisation: p+n+t with float weights
     * at every influence count (the real rigs have their own), packed
     * inputs at 4; the rest the generic loop. */
    if (has_n && has_t && wf == SKIN_WEIGHT_F32) {
        switch (k) {
#define SPECIALISED(K)                                                                      \
    case K:                                                                                 \
        if (u8)                                                                             \
            skin_range(m, pal, out, stride, first, count, K, 1, SKIN_WEIGHT_F32, 1, 1);     \
        else                                                                                \
            skin_range(m, pal, out, stride, first, count, K, 0, SKIN_WEIGHT_F32, 1, 1);     \
        return;
            SPECIALISED(1) SPECIALISED(2) SPECIALISED(3) SPECIALISED(4)
            SPECIALISED(5) SPECIALISED(6) SPECIALISED(7) SPECIALISED(8)
#undef SPECIALISED
        }
    }
    if (k == 4 && has_n && has_t && u8 && wf == SKIN_WEIGHT_UNORM16)
        skin_range(m, pal, out, stride, first, count, 4, 1, SKIN_WEIGHT_UNORM16, 1, 1);
    else
        skin_range(m, pal, out, stride, first, count, k, u8, wf, has_n, has_t);
}

#if !defined(BASELINE_WIDE)
#include <stdlib.h>

int baseline_palette_init(baseline_palette *b, const float *mat, uint32_t joint_count)
{
    b->joint_count = joint_count;
    b->columns = aligned_alloc(64, ((size_t)joint_count * 64 + 63) / 64 * 64);
    if (!b->columns) return -1;
    for (uint32_t j = 0; j < joint_count; ++j) {
        const float *r = mat + 12 * (size_t)j;
        float *c = b->columns + 16 * (size_t)j;
        for (int col = 0; col < 4; ++col) {
            c[4 * col + 0] = r[col], c[4 * col + 1] = r[4 + col], c[4 * col + 2] = r[8 + col];
            c[4 * col + 3] = col == 3 ? 1.0f : 0.0f;
        }
    }
    return 0;
}

void baseline_palette_free(baseline_palette *b)
{
    free(b->columns);
    b->columns = NULL;
}

baseline_fn baseline_for(skin_isa isa)
{
    switch (isa) {
    case SKIN_ISA_SSE2:
    case SKIN_ISA_NEON: return baseline_run_base;
#if defined(BASELINE_HAVE_X86)
    case SKIN_ISA_AVX2: return baseline_run_avx2;
    case SKIN_ISA_AVX512: return baseline_run_avx512;
#endif
    default: return NULL;
    }
}
#endif
