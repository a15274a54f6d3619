/* SPDX-License-Identifier: MIT */
/* The per-vertex baseline loop (see baseline.h), compiled once per ISA:
 * baseline_run_base with the target's default flags (SSE2 on x86-64, NEON
 * on aarch64; on armv7 the kernels' NEON flags), and on x86 baseline_run_avx2 / baseline_run_avx512 from
 * baseline_avx2.c / baseline_avx512.c with the kernels' flags.  Every tier
 * runs the same loop, one vertex at a time in 4-wide vectors, as engines do:
 * blend the columns of the vertex's matrices, then transform p, n and t.
 * Of the input forms measured, these were the fastest on SSE2 and within a
 * few percent of the best on AVX2 and AVX-512: one record per vertex
 * (rather than a stream per attribute), k weights per vertex (rather than
 * k - 1 with the last implied), attributes loaded whole and splatted. */
#include "baseline.h"

#include <simde/x86/fma.h>

#ifndef BASELINE_FN
#define BASELINE_FN baseline_run_base
#endif

/* Everything inlined into the one loop per influence count and attributes,
 * whatever the compiler's size limits. */
#define INLINE static inline __attribute__((always_inline))

typedef simde__m128 v4;

INLINE v4 fmadd(v4 a, v4 b, v4 c) { return simde_mm_fmadd_ps(a, b, c); }

/* Lane `lane` (a constant) of v in all four lanes. */
INLINE v4 splat(v4 v, int lane)
{
    switch (lane) {
    case 0: return simde_mm_shuffle_ps(v, v, 0x00);
    case 1: return simde_mm_shuffle_ps(v, v, 0x55);
    case 2: return simde_mm_shuffle_ps(v, v, 0xaa);
    default: return simde_mm_shuffle_ps(v, v, 0xff);
    }
}

/* Stores x, y, z of v (12 bytes) without touching the 4th float. */
INLINE void store3(float *p, v4 v)
{
    simde_mm_storeu_si64(p, simde_mm_castps_si128(v)); /* p: 4-byte aligned */
    simde_mm_store_ss(p + 2, simde_mm_movehl_ps(v, v));
}

/* c0 * v.x + c1 * v.y + c2 * v.z + add */
INLINE v4 transform(v4 c0, v4 c1, v4 c2, v4 v, v4 add)
{
    return fmadd(c0, splat(v, 0), fmadd(c1, splat(v, 1), fmadd(c2, splat(v, 2), add)));
}

/* One vertex with k influences.  Its attributes are loaded 16 bytes at a
 * time (the mesh is padded past its last vertex).  `last`: store exactly
 * its bytes, else 16 bytes per attribute, overlapping the next field
 * (written right after) or the next vertex (written next). */
INLINE void skin_vertex(const float *in, const uint16_t *joints, const float *weights, const float *cols,
                        float *out, int k, int has_n, int has_t, int last)
{
    /* Blend the four columns of every influence's matrix. */
    const float *m = cols + 16 * (size_t)joints[0];
    v4 c0 = simde_mm_load_ps(m), c1 = simde_mm_load_ps(m + 4), c2 = simde_mm_load_ps(m + 8),
       c3 = simde_mm_load_ps(m + 12);
    if (k > 1) {
        v4 w = simde_mm_set1_ps(weights[0]);
        c0 = simde_mm_mul_ps(w, c0), c1 = simde_mm_mul_ps(w, c1), c2 = simde_mm_mul_ps(w, c2),
        c3 = simde_mm_mul_ps(w, c3);
        for (int i = 1; i < k; ++i) {
            w = simde_mm_set1_ps(weights[i]);
            m = cols + 16 * (size_t)joints[i];
            c0 = fmadd(w, simde_mm_load_ps(m), c0), c1 = fmadd(w, simde_mm_load_ps(m + 4), c1);
            c2 = fmadd(w, simde_mm_load_ps(m + 8), c2), c3 = fmadd(w, simde_mm_load_ps(m + 12), c3);
        }
    }
    const v4 p = transform(c0, c1, c2, simde_mm_loadu_ps(in), c3);
    if (last && !has_n) store3(out, p);
    else simde_mm_storeu_ps(out, p);
    if (has_n) {
        const v4 nv = simde_mm_loadu_ps(in + 3);
        const v4 n = fmadd(c0, splat(nv, 0), fmadd(c1, splat(nv, 1), simde_mm_mul_ps(c2, splat(nv, 2))));
        if (last && !has_t) store3(out + 3, n);
        else simde_mm_storeu_ps(out + 3, n);
    }
    if (has_t) {
        /* Lanes 3 of c0..c2 are 0: starting from (0, 0, 0, tw) copies the sign. */
        const v4 t = simde_mm_loadu_ps(in + 6);
        const v4 wmask = simde_mm_castsi128_ps(simde_mm_set_epi32(-1, 0, 0, 0));
        simde_mm_storeu_ps(out + 6, transform(c0, c1, c2, t, simde_mm_and_ps(t, wmask)));
    }
}

/* Vertices [0, count) of one group (count >= 1), the last stored exactly. */
INLINE void skin_group(const float *in, const uint16_t *joints, const float *weights, const float *cols,
                       float *out, size_t count, int k, int has_n, int has_t)
{
    const size_t vf = has_t ? 10 : has_n ? 6 : 3, wk = k > 1 ? (size_t)k : 0;
    for (size_t i = 0; i + 1 < count; ++i, in += vf, joints += k, weights += wk, out += vf)
        skin_vertex(in, joints, weights, cols, out, k, has_n, has_t, 0);
    skin_vertex(in, joints, weights, cols, out, k, has_n, has_t, 1);
}

void BASELINE_FN(const baseline_mesh *m, const baseline_palette *pal, float *out, size_t first, size_t count)
{
    const size_t vf = baseline_vertex_size(m) / 4, end = first + count;
    const int has_n = m->normals, has_t = m->tangents;
    for (uint32_t g = 0; g < m->group_count; ++g) {
        const baseline_group *gr = &m->groups[g];
        const size_t lo = first > gr->first ? first : gr->first;
        const size_t hi = end < gr->first + gr->count ? end : gr->first + gr->count;
        if (lo >= hi) continue;
        const size_t o = lo - gr->first;
        const uint16_t *j = gr->joints + o * gr->k;
        const float *w = gr->weights + (gr->k > 1 ? o * gr->k : 0);
        const float *in = m->vertices + lo * vf;
        float *dst = out + lo * vf;
        /* One loop per influence count and attributes, as engines template
         * theirs. */
#define ATTRS(K)                                                                                    \
    case K:                                                                                         \
        if (has_t) skin_group(in, j, w, pal->columns, dst, hi - lo, K, 1, 1);                       \
        else if (has_n) skin_group(in, j, w, pal->columns, dst, hi - lo, K, 1, 0);                  \
        else skin_group(in, j, w, pal->columns, dst, hi - lo, K, 0, 0);                             \
        break;
        switch (gr->k) {
            ATTRS(1) ATTRS(2) ATTRS(3) ATTRS(4) ATTRS(5) ATTRS(6) ATTRS(7) ATTRS(8)
        }
#undef ATTRS
    }
}

#if !defined(BASELINE_WIDE)
#include <stdlib.h>
#include <string.h>

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

size_t baseline_vertex_size(const baseline_mesh *b) { return b->tangents ? 40 : b->normals ? 24 : 12; }

static float weight_of(const skin_mesh_desc *m, uint32_t i, size_t v)
{
    switch (m->weight_format) {
    case SKIN_WEIGHT_UNORM16: return (float)((const uint16_t *)m->weights[i])[v] * (1.0f / 65535.0f);
    case SKIN_WEIGHT_UNORM8: return (float)((const uint8_t *)m->weights[i])[v] * (1.0f / 255.0f);
    default: return ((const float *)m->weights[i])[v];
    }
}

/* The vertex's influence count: up to its last nonzero weight. */
static uint32_t used_influences(const skin_mesh_desc *m, size_t v)
{
    uint32_t k = m->influence_count;
    while (k > 1 && weight_of(m, k - 1, v) == 0.0f) --k;
    return k;
}

/* Bytes rounded up to whole 64-byte lines, plus one line of padding. */
static size_t padded(size_t bytes) { return (bytes + 127) / 64 * 64; }

int baseline_mesh_init(baseline_mesh *b, const skin_mesh_desc *m, uint32_t joint_count)
{
    memset(b, 0, sizeof *b);
    const size_t n = m->vertex_count, vsize = (m->tx ? 40 : m->nx ? 24 : 12);
    if ((m->tx && !m->nx) || m->influence_count < 1 || m->influence_count > SKIN_MAX_INFLUENCES || !joint_count)
        return -1;
    b->vertex_count = n, b->normals = m->nx != NULL, b->tangents = m->tx != NULL;
    /* Vertices per influence count: each group's place in the order, its
     * joints and its weights. */
    size_t per_k[SKIN_MAX_INFLUENCES + 1] = {0}, at[SKIN_MAX_INFLUENCES + 1], first = 0, joints = 0, weights = 0;
    for (size_t v = 0; v < n; ++v) ++per_k[used_influences(m, v)];
    for (uint32_t k = 1; k <= SKIN_MAX_INFLUENCES; ++k) {
        at[k] = first, first += per_k[k];
        joints += per_k[k] * k, weights += k > 1 ? per_k[k] * k : 0;
    }
    const size_t jbytes = padded(joints * sizeof(uint16_t));
    b->vertices = aligned_alloc(64, padded(n * vsize));
    b->storage = aligned_alloc(64, jbytes + padded(weights * sizeof(float)));
    b->source = malloc((n ? n : 1) * sizeof *b->source);
    if (!b->vertices || !b->storage || !b->source) {
        baseline_mesh_free(b);
        return -1;
    }
    memset(b->vertices, 0, padded(n * vsize));
    uint16_t *jp = b->storage;
    float *wp = (float *)(void *)((char *)b->storage + jbytes);
    baseline_group *group_of[SKIN_MAX_INFLUENCES + 1] = {0};
    for (uint32_t k = 1; k <= SKIN_MAX_INFLUENCES; ++k) {
        if (!per_k[k]) continue;
        group_of[k] = &b->groups[b->group_count++];
        *group_of[k] = (baseline_group){k, at[k], per_k[k], jp, wp};
        jp += per_k[k] * k, wp += k > 1 ? per_k[k] * k : 0;
    }
    const float *const *attr[10] = {&m->px, &m->py, &m->pz, &m->nx, &m->ny, &m->nz, &m->tx, &m->ty, &m->tz, &m->tw};
    for (size_t v = 0; v < n; ++v) {
        const uint32_t k = used_influences(m, v);
        const baseline_group *g = group_of[k];
        const size_t i = at[k]++;
        b->source[i] = v;
        uint16_t *gj = (uint16_t *)g->joints + (i - g->first) * k;
        for (uint32_t s = 0; s < k; ++s) {
            const uint32_t j = m->joint_format == SKIN_JOINT_U8 ? ((const uint8_t *)m->joints[s])[v]
                                                                 : ((const uint16_t *)m->joints[s])[v];
            gj[s] = (uint16_t)(j < joint_count ? j : joint_count - 1); /* clamped as skin does */
        }
        for (uint32_t s = 0; k > 1 && s < k; ++s) ((float *)g->weights)[(i - g->first) * k + s] = weight_of(m, s, v);
        for (size_t c = 0; c < vsize / 4; ++c) b->vertices[i * (vsize / 4) + c] = (*attr[c])[v];
    }
    return 0;
}

void baseline_mesh_free(baseline_mesh *b)
{
    free(b->vertices), free(b->storage), free(b->source);
    memset(b, 0, sizeof *b);
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
