/* SPDX-License-Identifier: MIT */
/* Palette fetch: a palette's rows into W lanes, by each lane's joint.
 * Part of the kernel: simd/kernel.c includes it once, in its place in
 * the flow (see there), with the kernel's types and W. */

/* A palette array of `stride` floats per joint, fetched in one of these
 * ways (the `kind` every block function is specialised on):
 *  FETCH_ROWS: each lane's 4-float row is loaded and the rows transposed;
 *  FETCH_TABLE2 / FETCH_TABLE4 (W == 16, palettes of at most 32 / 64
 *  joints): per-component tables looked up with two-register permutes;
 *  FETCH_AOS (W == 16, LBS, 65..128 joints): each lane's whole matrix is
 *  blended in one register from a 64-byte aligned copy of the palette, then
 *  the 16 matrices are transposed once;
 *  FETCH_UNIFORM (8 and 16 lanes, chosen per block): every lane has the
 *  same joint in every active slot, as in the rigid parts of real meshes,
 *  so each component is one broadcast.
 * Per lane and component every kind does the same fused multiply-adds in
 * slot order, so a vertex's bits do not depend on the kind. */
enum { FETCH_ROWS, FETCH_TABLE2, FETCH_TABLE4, FETCH_AOS, FETCH_UNIFORM, FETCH_KINDS };
#define IS_TABLE(kind) ((kind) == FETCH_TABLE2 || (kind) == FETCH_TABLE4)
/* 4 lanes blend each lane's rows in its own registers (blend_lanes), so a
 * uniform block saves only the transposes, and its broadcasts cost SSE2 a
 * shuffle each: no uniform kind there, and no joint test per block
 * (SSE2, 10k, 4 influences: the coherent rig LBS 11% and DQS 9% faster
 * without; the grouped rig, every block uniform, LBS 7%). */
#define HAS_UNIFORM (W > 4)

typedef struct source {
    const float *base;
    uint32_t stride;
    const float *table; /* 64 floats per component for the table kinds;
                           16 floats per joint for FETCH_AOS */
} source;

#if W == 16
/* The lanes whose joint is in a 64-entry table's upper half (32..63). */
ALWAYS_INLINE vm upper_half(vi j) { return simde_mm512_test_epi32_mask(j, simde_mm512_set1_epi32(32)); }

ALWAYS_INLINE vf table_fetch(const source *s, vi j, int e, const int kind)
{
    const float *t = s->table + 64 * e;
    vf lo = simde_mm512_permutex2var_ps(simde_mm512_load_ps(t), j, simde_mm512_load_ps(t + 16));
    if (kind == FETCH_TABLE2) return lo;
    vf hi = simde_mm512_permutex2var_ps(simde_mm512_load_ps(t + 32), j, simde_mm512_load_ps(t + 48));
    return simde_mm512_mask_blend_ps(upper_half(j), lo, hi);
}
#else
ALWAYS_INLINE vf table_fetch(const source *s, vi j, int e, const int kind)
{
    (void)s, (void)j, (void)e, (void)kind;
    return v_zero();
}
#endif

/* The 4 floats at each lane's r[l], as 4 SoA components. */
ALWAYS_INLINE void transpose_rows(const float *const *r, vf out[4])
{
    vf a = v_rows(r, 0), b = v_rows(r, 1), c = v_rows(r, 2), d = v_rows(r, 3);
    v_transpose4(&a, &b, &c, &d);
    out[0] = a, out[1] = b, out[2] = c, out[3] = d;
}

/* A uniform block's 4 floats at p, each broadcast. */
ALWAYS_INLINE void broadcast4(const float *p, vf out[4])
{
    for (int q = 0; q < 4; ++q) out[q] = v_set1(p[q]);
}

/* Components 4*row .. 4*row+3 of every lane's joint. */
ALWAYS_INLINE void fetch4(const source *s, vi j, const int32_t *jl, int row, vf out[4], const int kind)
{
    if (IS_TABLE(kind)) {
        for (int q = 0; q < 4; ++q) out[q] = table_fetch(s, j, 4 * row + q, kind);
        return;
    }
    if (kind == FETCH_UNIFORM) {
        broadcast4(s->base + (size_t)jl[0] * s->stride + 4 * row, out);
        return;
    }
    const float *r[W];
    for (int l = 0; l < W; ++l) r[l] = s->base + (size_t)jl[l] * s->stride + 4 * row;
    transpose_rows(r, out);
}

/* FETCH_ROWS's fetch4 from the lanes' byte offsets into s->base, as
 * stage() computes them: no multiply by the stride per lane. */
ALWAYS_INLINE void fetch4_at(const source *s, const int32_t *off, int row, vf out[4])
{
    const float *r[W];
    for (int l = 0; l < W; ++l) r[l] = (const float *)((const char *)s->base + off[l]) + 4 * row;
    transpose_rows(r, out);
}

/* One component: for arrays whose rows are not 4-float aligned (3x3 normal
 * matrices' last element, scales), where a 4-float load could pass the end. */
ALWAYS_INLINE vf fetch1(const source *s, vi j, const int32_t *jl, int e, const int kind)
{
    if (IS_TABLE(kind)) return table_fetch(s, j, e, kind);
    if (kind == FETCH_UNIFORM) return v_set1(s->base[(size_t)jl[0] * s->stride + e]);
    float tmp[W];
    for (int l = 0; l < W; ++l) tmp[l] = s->base[(size_t)jl[l] * s->stride + e];
    return v_loadu(tmp);
}

/* acc[e] = sum_i w[i] * component (first + e) of joint j[i], e < n, for
 * the table kinds: component by component, so each table is loaded once
 * per block rather than once per influence. */
ALWAYS_INLINE void blend_table(const source *s, const vi *j, const vf *w, int first, int n, vf *acc,
                               const uint32_t k, const int kind)
{
    UNROLL for (int e = 0; e < n; ++e)
        UNROLL for (uint32_t i = 0; i < k; ++i)
            acc[e] = v_madd_slot(w[i], table_fetch(s, j[i], first + e, kind), acc[e], i);
}
