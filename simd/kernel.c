/* SPDX-License-Identifier: MIT */
/* The SIMD kernels: written once, compiled once per ISA with SKIN_W lanes
 * (see vec.h) and per method (SKIN_KERNEL_METHOD) into SKIN_KERNEL_NAME.  Each lane is one vertex; no operation
 * mixes lanes, so a vertex's result does not depend on its block.  Blocks
 * start at multiples of W (absolute vertex index); the partial blocks at the
 * ends of a range go through the same block code on a padded scratch copy. */
#include "skin_internal.h"
#include "vec.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define W SKIN_W

/* ---------------------------------------------------------- palette fetch */

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
/* The block code's method for DQS whose signs are all + (all_signs_positive):
 * on 8 and 16 lanes, block functions of their own, which neither fetch a
 * pivot nor test a flag (tested in the blocks, a flag cost AVX2 DQS 3% more
 * instructions); on 4 lanes, where size counts most, kctx's flag
 * signs_positive, tested per block (SSE2 DQS-4 10k, random rig: 1.5% more
 * instructions; the NEON DQS kernel 223 -> 140 KB). */
enum { DQS_SIGNS_POSITIVE = SKIN_DQS + 16 };
#define SIGNS_FUNCTIONS (W > 4)
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

#define ALWAYS_INLINE static inline __attribute__((always_inline))

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

/* ----------------------------------------------------------------- blocks */

/* Input streams, so that the main path and the scratch copy look alike. */
typedef struct inputs {
    const float *a[SKIN_COMPONENTS];
    const void *joints[SKIN_MAX_INFLUENCES];
    const void *weights[SKIN_MAX_INFLUENCES];
    size_t origin; /* mesh vertex of element 0: 0, or the scratch copy's block */
} inputs;

/* The call's morph targets with a non-zero weight, as morph_chunk reads
 * them: per component, the dense targets' delta streams and weights; the
 * sparse targets, each with its delta arrays (NULL: the call does not use
 * the component, or the target has none) and `cur`, the first entry of
 * its index list not yet behind the chunks, so a chunk finds its entries
 * without a search. */
typedef struct sparse_morph {
    const uint32_t *idx; /* the target's index list and its length, copied: one load closer */
    size_t count;
    const float *d[9];
    float w;
    size_t cur;
} sparse_morph;

#define MORPH_CHUNK 512
typedef struct morph_plan {
    float buf[9][MORPH_CHUNK];          /* the chunk's morphed components */
    const float *view[SKIN_COMPONENTS]; /* the chunk's attributes: buf's rows, or the inputs' */
    size_t view_first;                  /* its first vertex, as the inputs index it */
    int dense_any;
    int copy_all; /* copy every component the call uses, with or without targets */
    uint32_t dense_count[9];
    const float *dense[9][SKIN_MAX_ACTIVE_MORPH_TARGETS];
    float dense_w[9][SKIN_MAX_ACTIVE_MORPH_TARGETS];
    uint32_t sparse_count;
    uint32_t sparse_moved; /* bit e: some sparse target moves component e */
    int sparse_uniform;    /* every sparse target moves exactly those */
    sparse_morph sparse[SKIN_MAX_ACTIVE_MORPH_TARGETS];
} morph_plan;

typedef struct kctx {
    const skin_job *job;
    vi jlimit; /* v_joint_limit of the palette's last joint */
    int joints_u8;                     /* the mesh's formats, kept here so */
    skin_weight_format weight_format;  /* the block loop holds them locally */
    int kind;               /* FETCH_* for every source of this call */
    source mat, nmat, dq, sc;
    const uint32_t *signs;  /* DQS, 16 lanes, table kinds: build_signs's table, or NULL */
    int signs_positive;     /* DQS, 4 lanes: all_signs_positive holds (SIGNS_FUNCTIONS) */
    morph_plan *morph;      /* NULL: no morph target is active */
} kctx;

/* Influences of up to STAGE vertices, converted once by stage() from the
 * mesh's formats: joints clamped to the palette (for DQS and normal
 * matrices only: LBS reads its rows by offset), their byte offsets into
 * the palette (48 j for 3x4 matrices, 32 j for dual quaternions), and
 * float weights (wp[i]: the stream itself when it holds floats, else
 * w[i]); for DQS, the byte offsets of the pivots' dual quaternions
 * (pivot_joints), chosen here once rather than per block.  The block code
 * then reads one format only, from memory, with no branch on the format. */
#define STAGE 64
#define STAGED (W <= 8) /* see influences */
typedef struct staged {
    int32_t j[SKIN_MAX_INFLUENCES][STAGE];
    int32_t off[SKIN_MAX_INFLUENCES][STAGE];
    float w[SKIN_MAX_INFLUENCES][STAGE];
    const float *wp[SKIN_MAX_INFLUENCES];
    int32_t pivot_off[STAGE];
} staged;

/* DQS's pivot: per lane, the slot with the largest weight, the first one
 * on ties (a NaN weight never wins); its joints. */
ALWAYS_INLINE vi pivot_joints(const vi *j, const vf *w, uint32_t k)
{
    vi pj = j[0];
    vf pw = w[0];
    UNROLL for (uint32_t i = 1; i < k; ++i) {
        const vm gt = v_lt(pw, w[i]);
        pw = v_select(gt, w[i], pw);
        pj = v_select_i32(gt, j[i], pj);
    }
    return pj;
}

#if W == 16
/* Whether slot 0 is every lane's pivot: no later weight is larger, as when
 * a vertex's influences are sorted largest first (skin_assets stores them
 * so, as most exporters do).  Then slot 0's real part, fetched for the
 * blend anyway, is the pivot's: the same bits without fetching the pivot
 * (DQS, the sorted test models: 3.5-6% faster; the random rig, unsorted:
 * 0-2% slower).  16 lanes only: on 8 the test cost unsorted meshes 4% for
 * 2-7% on sorted ones, on 4 about 2% for 3%. */
ALWAYS_INLINE int first_is_pivot(const vf *w, uint32_t k)
{
    int later_larger = 0;
    UNROLL for (uint32_t i = 1; i < k; ++i) later_larger |= v_any(v_lt(w[0], w[i]));
    return !later_larger;
}
#endif

/* Slot i's weights of vertices v .. v+W-1 as floats. */
ALWAYS_INLINE vf load_weights(const kctx *c, const inputs *in, uint32_t i, size_t v)
{
    switch (c->weight_format) {
    case SKIN_WEIGHT_UNORM16:
        return v_mul(v_from_u32(v_load_u16((const uint16_t *)in->weights[i] + v)), v_set1(1.0f / 65535.0f));
    case SKIN_WEIGHT_UNORM8:
        return v_mul(v_from_u32(v_load_u8((const uint8_t *)in->weights[i] + v)), v_set1(1.0f / 255.0f));
    default: return v_loadu((const float *)in->weights[i] + v);
    }
}

/* The byte offsets of joints j's 3x4 matrices, 48 j; small: every j is
 * below 32768, for 4 lanes' one multiply (SSE2 LBS-4: 3 instructions a
 * vertex fewer). */
ALWAYS_INLINE vi matrix_offsets(vi j, const int small)
{
#if W == 4
    if (small) return v_mul48_small(j);
#else
    (void)small;
#endif
    return v_slli_i32(v_add_i32(j, v_add_i32(j, j)), 4);
}

/* Slots [0, k) of vertices v .. v+n-1 of `in` (n a multiple of W, at most
 * STAGE) into st, for `method`, the joints bytes if u8, small as
 * matrix_offsets: constants, so the loops test none of them (st's int32_t
 * stores could alias c's fields, and the compiler would load and test
 * them again per vector). */
ALWAYS_INLINE void stage_slots(const kctx *c, const inputs *in, size_t v, size_t n, uint32_t k, staged *st,
                               const int method, const int u8, const int small)
{
    const int dq = method != SKIN_LBS;
    /* (LBS without them: one store a slot less, SSE2 LBS-4 1.6% fewer
     * instructions, llvm-mca neoverse-n1 LBS-4 22.8 -> 20.8 cycles a vertex) */
    const int keep_joints = dq || c->nmat.base;
    const vi limit = c->jlimit;
    for (uint32_t i = 0; i < k; ++i) {
        const void *const joints = in->joints[i]; /* not reloaded after each store */
        for (size_t o = 0; o < n; o += W) {
            const vi j = v_load_joints(joints, v + o, limit, u8);
            if (keep_joints) v_store_i32(&st->j[i][o], j);
            vi off = dq ? v_slli_i32(j, 5) : matrix_offsets(j, small);
#if W == 8
            /* LBS: lanes p and p + 4 side by side, as blend_lanes reads them */
            if (!dq) off = simde_mm256_permutevar8x32_epi32(off, simde_mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
#endif
            v_store_i32(&st->off[i][o], off);
        }
        if (c->weight_format == SKIN_WEIGHT_F32) {
            st->wp[i] = (const float *)in->weights[i] + v;
        } else {
            for (size_t o = 0; o < n; o += W) v_storeu(&st->w[i][o], load_weights(c, in, i, v + o));
            st->wp[i] = st->w[i];
        }
    }
    if (!dq || k < 2 || method == DQS_SIGNS_POSITIVE || c->signs_positive) return;
    for (size_t o = 0; o < n; o += W) {
        vi j[SKIN_MAX_INFLUENCES];
        vf w[SKIN_MAX_INFLUENCES];
        for (uint32_t i = 0; i < k; ++i) j[i] = v_loadu_i32(&st->j[i][o]), w[i] = v_loadu(st->wp[i] + o);
        v_store_i32(&st->pivot_off[o], v_slli_i32(pivot_joints(j, w, k), 5));
    }
}

/* Out of line: one copy serves every block function.  LBS's is not
 * cloned per influence count either (GCC's eight clones were 30 KB of
 * NEON code, for no speed); DQS's clones unroll its choice of pivots
 * (SSE2 DQS-4 4% faster). */
#if defined(SKIN_KERNEL_LBS) && !defined(__clang__) /* (clang has no noclone) */
#define STAGE_ATTRIBUTES noinline, noclone
#else
#define STAGE_ATTRIBUTES noinline
#endif
static __attribute__((STAGE_ATTRIBUTES)) void stage(const kctx *c, const inputs *in, size_t v, size_t n,
                                                    uint32_t k, staged *st, const int method)
{
    if (c->joints_u8)
        stage_slots(c, in, v, n, k, st, method, 1, 1);
    else if (W == 4 && method == SKIN_LBS && c->job->joint_max < 32768)
        stage_slots(c, in, v, n, k, st, method, 0, 1);
    else
        stage_slots(c, in, v, n, k, st, method, 0, 0);
}

/* One block's influences: vectors, and the lanes' joints, byte offsets
 * and weights in memory for the per-lane paths (lane_joints, lane_offset,
 * lane_weights).  4 and 8 lanes read them from the staged chunk (SSE2 LBS
 * measured 13% faster for it), and only the weights as vectors: their
 * fetches go by offset or lane_joints.  16 lanes load the block straight
 * from the streams and keep the joints in jl, because staging measured
 * slower there: the table fetches want the joints in a register. */
typedef struct influences {
    vi j[SKIN_MAX_INFLUENCES];
    vf w[SKIN_MAX_INFLUENCES];
#if STAGED
    const staged *st;
    size_t o;
#else
    int32_t jl[SKIN_MAX_INFLUENCES][W];
#endif
} influences;

#if STAGED
ALWAYS_INLINE const int32_t *lane_joints(const influences *f, uint32_t i) { return &f->st->j[i][f->o]; }
/* Unsigned, so a zero-extending load: NEON pairs two as one ldp, where
 * sign-extending pairs (ldpsw) cost Cortex-A57 twice the micro-ops.  (Not
 * for LBS on 8 lanes, whose offsets stage() stores in pairs:
 * lane_offset_pair.) */
ALWAYS_INLINE uint32_t lane_offset(const influences *f, uint32_t i, int l)
{
    return (uint32_t)f->st->off[i][f->o + (size_t)l];
}
ALWAYS_INLINE const float *lane_weights(const influences *f, uint32_t i) { return f->st->wp[i] + f->o; }
ALWAYS_INLINE const int32_t *lane_offsets(const influences *f, uint32_t i) { return &f->st->off[i][f->o]; }
ALWAYS_INLINE const int32_t *lane_pivot_offsets(const influences *f) { return &f->st->pivot_off[f->o]; }
#if W == 8
/* LBS: the byte offsets of lanes p and p + 4, from one 64-bit load (stage()
 * stores them side by side). */
ALWAYS_INLINE void lane_offset_pair(const influences *f, uint32_t i, int p, uint32_t *a, uint32_t *b)
{
    uint64_t pair;
    memcpy(&pair, &f->st->off[i][f->o + 2 * (size_t)p], sizeof pair);
    *a = (uint32_t)pair, *b = (uint32_t)(pair >> 32);
}
#endif

ALWAYS_INLINE void load_influences(const kctx *c, const inputs *in, size_t v, const staged *st, size_t o,
                                   influences *f, const uint32_t k, const int kind)
{
    (void)c, (void)in, (void)v, (void)kind;
    f->st = st, f->o = o;
    UNROLL for (uint32_t i = 0; i < k; ++i) {
        f->j[i] = v_set1_i32(0); /* unread: staged blocks fetch by offset or lane_joints */
        f->w[i] = v_loadu(lane_weights(f, i));
    }
}
#else
ALWAYS_INLINE const int32_t *lane_joints(const influences *f, uint32_t i) { return f->jl[i]; }
/* not staged: no byte offsets (the callers' staged branches are dead) */
ALWAYS_INLINE const int32_t *lane_offsets(const influences *f, uint32_t i) { return (void)f, (void)i, NULL; }
ALWAYS_INLINE const int32_t *lane_pivot_offsets(const influences *f) { return (void)f, NULL; }

ALWAYS_INLINE void load_influences(const kctx *c, const inputs *in, size_t v, const staged *st, size_t o,
                                   influences *f, const uint32_t k, const int kind)
{
    (void)st, (void)o;
    for (uint32_t i = 0; i < k; ++i) {
        f->j[i] = v_load_joints(in->joints[i], v, c->jlimit, c->joints_u8);
        if (!IS_TABLE(kind)) v_store_i32(f->jl[i], f->j[i]);
        f->w[i] = load_weights(c, in, i, v);
    }
}
#endif

#if W == 8
/* Element p of each 128-bit half of w, broadcast within its half: an
 * immediate permute, where the variable form would want an index vector
 * (which GCC rebuilt per block from a general register). */
ALWAYS_INLINE vf bcast_in_halves(vf w, int p)
{
    switch (p) {
    case 0: return simde_mm256_permute_ps(w, 0x00);
    case 1: return simde_mm256_permute_ps(w, 0x55);
    case 2: return simde_mm256_permute_ps(w, 0xaa);
    default: return simde_mm256_permute_ps(w, 0xff);
    }
}

/* LBS on the row path with 8 lanes, at full register width: lane l's rows
 * 0-1 are one 8-float load blended in a ymm, and row 2 of lanes p and p+4
 * share a ymm whose weights come from one in-half permute of the weight
 * vector.  One transpose per block turns the rows into the 12 components.
 * The block is bound by shuffles and loads, so the rows 0-1 weights are
 * broadcast from memory (a load, no shuffle), and a pair's two palette
 * offsets come from one 64-bit load.  LBS-4 p+n+t, 10k, ns/vertex, f32 /
 * snorm16 / 1010102 output, on Zen 4: every weight broadcast and each
 * offset its own load 4.95 / 5.25 / 4.86; offset pairs and every weight
 * permuted 4.54 / 5.27 / 5.01 (the packed stores shuffle too); offset pairs
 * and half broadcast, half permuted across lanes 4.46 / 5.10 / 4.77.  On an
 * Intel Xeon, whose lane-crossing permutes issue on one port, broadcasting
 * the other half too took f32 from 4.41 to 4.04.  Per component these are
 * the same multiply-adds, in slot order, as every other path of this ISA. */
ALWAYS_INLINE void blend_lanes(const source *s, const influences *f, vf *m, const uint32_t k)
{
    const char *base = (const char *)s->base;
    vf rows01[W], row2[4];
    /* Pair by pair, so only three accumulators are live at a time. */
    UNROLL for (int p = 0; p < 4; ++p) {
        vf a01 = v_zero(), b01 = a01, ab2 = a01;
        UNROLL for (uint32_t i = 0; i < k; ++i) {
            uint32_t oa, ob;
            lane_offset_pair(f, i, p, &oa, &ob);
            const float *a = (const float *)(base + oa), *b = (const float *)(base + ob);
            const vf wa = simde_mm256_broadcast_ss(lane_weights(f, i) + p);
            const vf wb = simde_mm256_broadcast_ss(lane_weights(f, i) + p + 4);
            const vf r2 = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(a + 8)),
                                                    simde_mm_loadu_ps(b + 8), 1);
            a01 = v_madd_slot(wa, simde_mm256_loadu_ps(a), a01, i);
            b01 = v_madd_slot(wb, simde_mm256_loadu_ps(b), b01, i);
            ab2 = v_madd_slot(bcast_in_halves(f->w[i], p), r2, ab2, i);
        }
        rows01[p] = a01, rows01[p + 4] = b01, row2[p] = ab2;
    }
    vf r0[4], r1[4];
    UNROLL for (int p = 0; p < 4; ++p) {
        r0[p] = simde_mm256_permute2f128_ps(rows01[p], rows01[p + 4], 0x20);
        r1[p] = simde_mm256_permute2f128_ps(rows01[p], rows01[p + 4], 0x31);
    }
    v_transpose4(&r0[0], &r0[1], &r0[2], &r0[3]);
    v_transpose4(&r1[0], &r1[1], &r1[2], &r1[3]);
    v_transpose4(&row2[0], &row2[1], &row2[2], &row2[3]);
    UNROLL for (int q = 0; q < 4; ++q) m[q] = r0[q], m[4 + q] = r1[q], m[8 + q] = row2[q];
}
#elif W == 4
/* LBS on the row path with 4 lanes: each lane's three matrix rows are
 * blended in its own registers (multiplied by a lane of the weight vector:
 * NEON's lane-indexed FMA, one pshufd on SSE), then transposed once per
 * block instead of once per influence.  Per component these are the same
 * multiply-adds, in the same order, as the SoA form. */
ALWAYS_INLINE void blend_lanes(const source *s, const influences *f, vf *m, const uint32_t k)
{
    const char *base = (const char *)s->base;
    vf rows[3][W];
    UNROLL for (int l = 0; l < W; ++l) {
        const float *p = (const float *)(base + lane_offset(f, 0, l));
        vf r0 = v_mul_lane(v_loadu(p), f->w[0], l);
        vf r1 = v_mul_lane(v_loadu(p + 4), f->w[0], l);
        vf r2 = v_mul_lane(v_loadu(p + 8), f->w[0], l);
        UNROLL for (uint32_t i = 1; i < k; ++i) {
            p = (const float *)(base + lane_offset(f, i, l));
            r0 = v_fmadd_lane(r0, v_loadu(p), f->w[i], l);
            r1 = v_fmadd_lane(r1, v_loadu(p + 4), f->w[i], l);
            r2 = v_fmadd_lane(r2, v_loadu(p + 8), f->w[i], l);
        }
        rows[0][l] = r0, rows[1][l] = r1, rows[2][l] = r2;
    }
    UNROLL for (int r = 0; r < 3; ++r) {
        v_transpose4(&rows[r][0], &rows[r][1], &rows[r][2], &rows[r][3]);
        UNROLL for (int q = 0; q < 4; ++q) m[4 * r + q] = rows[r][q];
    }
}
#endif

#if W == 16
/* FETCH_AOS: lane l's matrix is blended in one register (12 of its 16
 * floats) from the padded palette copy, then one 16x12 transpose makes the
 * SoA components.  Per component these are the same fused multiply-adds in
 * the same order as the other kinds. */
ALWAYS_INLINE void blend_aos(const source *s, const influences *f, vf *m, const uint32_t k)
{
    float w[SKIN_MAX_INFLUENCES][W];
    UNROLL for (uint32_t i = 0; i < k; ++i) v_storeu(w[i], f->w[i]);
    __asm__ volatile("" ::: "memory"); /* broadcasts as loads: see blend_lanes */
    vf a[W];
    UNROLL for (int l = 0; l < W; ++l) {
        vf acc = v_zero();
        UNROLL for (uint32_t i = 0; i < k; ++i)
            acc = v_madd_slot(v_set1(w[i][l]), simde_mm512_load_ps(s->table + 16 * (size_t)lane_joints(f, i)[l]),
                              acc, i);
        a[l] = acc;
    }
    v_transpose16x12(a, m);
}
#else
ALWAYS_INLINE void blend_aos(const source *s, const influences *f, vf *m, const uint32_t k)
{
    (void)s, (void)f, (void)m, (void)k;
}
#endif

/* Both methods end in a blended 3x4 matrix m (and, for normals, optionally
 * a 3x3 nm): p' = m (p, 1), n' = (nm or m) n, t' = m t.  The attributes are
 * loaded only here, after the blend, so they never compete with its
 * accumulators for registers. */
ALWAYS_INLINE void apply(const skin_job *job, const float *const *a, size_t v, const vf *m, const vf *nm,
                         vf *o, const int pnt)
{
    v_affine(m, v_loadu(a[0] + v), v_loadu(a[1] + v), v_loadu(a[2] + v), o);
    if (pnt || job->normals) {
        UNROLL for (int e = 3; e < 6; ++e) o[e] = v_loadu(a[e] + v);
        if (nm)
            v_mat3(nm, 3, &o[3], &o[4], &o[5]);
        else
            v_mat3(m, 4, &o[3], &o[4], &o[5]);
    } else { /* absent components are zeros, written only here (a block's o lives on the stack) */
        UNROLL for (int e = 3; e < 6; ++e) o[e] = v_zero();
    }
    if (pnt || job->tangents) {
        UNROLL for (int e = 6; e < 10; ++e) o[e] = v_loadu(a[e] + v);
        v_mat3(m, 4, &o[6], &o[7], &o[8]);
    } else {
        UNROLL for (int e = 6; e < 10; ++e) o[e] = v_zero();
    }
}

/* Blends the palette matrices into m (and normal matrices into nm);
 * returns whether nm is used. */
ALWAYS_INLINE int lbs(const kctx *c, const influences *f, vf *m, vf *nm, const uint32_t k, const int kind,
                      const int pnt)
{
    if (IS_TABLE(kind)) {
        blend_table(&c->mat, f->j, f->w, 0, 12, m, k, kind);
    } else if (kind == FETCH_AOS) {
        blend_aos(&c->mat, f, m, k);
#if W <= 8
    } else if (kind == FETCH_ROWS) {
        blend_lanes(&c->mat, f, m, k);
#endif
    } else { /* the SoA form: 16-lane rows, uniform blocks */
        UNROLL for (uint32_t i = 0; i < k; ++i) {
            UNROLL for (int row = 0; row < 3; ++row) {
                vf r[4];
                if (STAGED && kind == FETCH_UNIFORM) /* (no staged joints: lane 0's offset) */
                    broadcast4((const float *)((const char *)c->mat.base + lane_offsets(f, i)[0]) + 4 * row, r);
                else
                    fetch4(&c->mat, f->j[i], lane_joints(f, i), row, r, kind);
                UNROLL for (int q = 0; q < 4; ++q) m[4 * row + q] = v_madd_slot(f->w[i], r[q], m[4 * row + q], i);
            }
        }
    }
    if (pnt || !c->nmat.base) return 0;
    if (IS_TABLE(kind)) {
        blend_table(&c->nmat, f->j, f->w, 0, 9, nm, k, kind);
        return 1;
    }
    UNROLL for (uint32_t i = 0; i < k; ++i) {
        vf r[8];
        fetch4(&c->nmat, f->j[i], lane_joints(f, i), 0, r, kind);
        fetch4(&c->nmat, f->j[i], lane_joints(f, i), 1, r + 4, kind);
        UNROLL for (int e = 0; e < 8; ++e) nm[e] = v_madd_slot(f->w[i], r[e], nm[e], i);
        nm[8] = v_madd_slot(f->w[i], fetch1(&c->nmat, f->j[i], lane_joints(f, i), 8, kind), nm[8], i);
    }
    return 1;
}

/* Whether all_signs_positive pays for a call of `count` vertices: it
 * takes up to joint_count^2 / 2 sign products, W at a time (about 7
 * instructions per W), where the blocks take k of them a vertex. */
static int signs_check_pays(size_t count, uint32_t joint_count)
{
    return joint_count <= 256 && count * W >= (size_t)joint_count * joint_count;
}

/* Whether no two joints' real parts have a negative v_sign_dot, the blocks'
 * own sign test (so the same bits): then no DQS weight changes sign, and
 * the blocks fetch no pivot and take no dot product.  Real rigs are so
 * when no two skinning transforms turn more than 180 degrees apart, as in
 * the bench's animated poses of all three test models (their DQS / LBS
 * on Zen 4: SSE2 1.44-1.70 -> 1.12-1.34, AVX2 1.31-1.38 -> 1.08-1.19,
 * AVX-512, whose sign table is cheap, 1.11-1.23 -> 1.03-1.18).  Stops at
 * the first negative pair, so a palette with one, as a random one has,
 * costs next to nothing. */
static int all_signs_positive(const source *dq, uint32_t joint_count)
{
    SIMDE_ALIGN_TO_64 float real[4][256 + W]; /* SoA; lanes past the last joint hold 0: not negative */
    for (uint32_t b = 0; b < joint_count + W; ++b)
        for (int e = 0; e < 4; ++e) real[e][b] = b < joint_count ? dq->base[8 * (size_t)b + (size_t)e] : 0.0f;
    for (uint32_t a = 0; a + 1 < joint_count; ++a) {
        vf p[4];
        for (int e = 0; e < 4; ++e) p[e] = v_set1(real[e][a]);
        for (uint32_t b = a + 1; b < joint_count; b += W) {
            vf q[4];
            for (int e = 0; e < 4; ++e) q[e] = v_loadu(&real[e][b]);
            if (v_any(v_lt(v_sign_dot(q, p), v_zero()))) return 0;
        }
    }
    return 1;
}

#if W == 4
/* DQS on the row path with 4 lanes, in two passes over the block's dual
 * quaternions.  Signs: each lane's real part times the lane's pivot,
 * summed within the lane in v_sign_dot's order (v_sum_each), is v_sign_dot,
 * so the signs need no transposed real parts.  Blend: each lane's real
 * and dual parts are blended in the lane's own registers by a lane of the
 * signed weights, as blend_lanes does for LBS, and transposed once per
 * block.  Per component these are the same multiply-adds, in slot order,
 * as the SoA form.  ws[i]: slot i's signed weights (without dots, its
 * weights: all_signs_positive). */
ALWAYS_INLINE void dq_blend_lanes(const kctx *c, const influences *f, vf *b, vf *ws, const uint32_t k,
                                  const int dots)
{
    const char *base = (const char *)c->dq.base;
#define DQ_AT(i, l) ((const float *)(base + lane_offset(f, i, l)))
    UNROLL for (uint32_t i = 0; i < k; ++i) ws[i] = f->w[i];
    if (dots) {
        vf pivot[W];
        UNROLL for (int l = 0; l < W; ++l) pivot[l] = v_loadu((const float *)(base + lane_pivot_offsets(f)[l]));
        UNROLL for (uint32_t i = 0; i < k; ++i) {
            vf t[W];
            UNROLL for (int l = 0; l < W; ++l) t[l] = v_mul(v_loadu(DQ_AT(i, l)), pivot[l]);
            ws[i] = v_neg_if(v_lt(v_sum_each(t), v_zero()), ws[i]);
        }
    }
    /* reload, rather than let the compiler keep the first pass's loads in
     * registers it does not have (spilled, they cost a store each) */
    __asm__ volatile("" ::: "memory");
    vf real[W], dual[W];
    UNROLL for (int l = 0; l < W; ++l) {
        vf r = v_mul_lane(v_loadu(DQ_AT(0, l)), ws[0], l), d = v_mul_lane(v_loadu(DQ_AT(0, l) + 4), ws[0], l);
        UNROLL for (uint32_t i = 1; i < k; ++i) {
            r = v_fmadd_lane(r, v_loadu(DQ_AT(i, l)), ws[i], l);
            d = v_fmadd_lane(d, v_loadu(DQ_AT(i, l) + 4), ws[i], l);
        }
        real[l] = r, dual[l] = d;
    }
#undef DQ_AT
    v_transpose4(&real[0], &real[1], &real[2], &real[3]);
    v_transpose4(&dual[0], &dual[1], &dual[2], &dual[3]);
    UNROLL for (int e = 0; e < 4; ++e) b[e] = real[e], b[4 + e] = dual[e];
}
#endif

/* The pivot's fetch kind: its joint differs between lanes even in a
 * uniform block. */
ALWAYS_INLINE int pivot_kind(int kind) { return kind == FETCH_UNIFORM ? FETCH_ROWS : kind; }

/* Half h (0: the real part, 1: the dual part) of slot i's dual quaternions;
 * rows of a staged block from stage()'s byte offsets. */
ALWAYS_INLINE void fetch_dq_half(const kctx *c, const influences *f, uint32_t i, int h, vf q[4], const int kind)
{
    if (STAGED && kind == FETCH_ROWS)
        fetch4_at(&c->dq, lane_offsets(f, i), h, q);
    else
        fetch4(&c->dq, f->j[i], lane_joints(f, i), h, q, kind);
}

#if W == 16
/* Whether this block's kind takes its signs from build_signs's table. */
ALWAYS_INLINE int sign_table_used(const kctx *c, const int kind) { return IS_TABLE(kind) && c->signs; }

/* ws[i]: the weights signed as dq_real_parts signs them, from the sign
 * table: the pivots' rows (fetched as table_fetch fetches a component: a
 * permute moves bits as they are), then per slot the bit of its joint. */
ALWAYS_INLINE void table_signs(const kctx *c, const influences *f, vf *ws, const uint32_t k, const int kind)
{
    const source rows = {.table = (const float *)c->signs};
    const vi pj = pivot_joints(f->j, f->w, k);
    const vi row_lo = simde_mm512_castps_si512(table_fetch(&rows, pj, 0, kind));
    const vi row_hi = kind == FETCH_TABLE2 ? row_lo : simde_mm512_castps_si512(table_fetch(&rows, pj, 1, kind));
    const vi sign_bit = simde_mm512_set1_epi32(INT32_MIN);
    UNROLL for (uint32_t i = 0; i < k; ++i) {
        const vi j = f->j[i];
        const vi row = kind == FETCH_TABLE2 ? row_lo : simde_mm512_mask_blend_epi32(upper_half(j), row_lo, row_hi);
        /* joint j's bit, 31 - j % 32, rotated to the sign bit and xor-ed
         * into the weight's (0x78: a ^ (b & c)); no mask register, whose
         * compares and tests share a port with the permutes */
        ws[i] = v_as_float(simde_mm512_ternarylogic_epi32(simde_mm512_castps_si512(f->w[i]),
                                                          simde_mm512_rolv_epi32(row, j), sign_bit, 0x78));
    }
}

/* Whether a call of `count` vertices gains by the table: it costs
 * joint_count * ceil(joint_count / 16) sign products, and pays back at
 * about 8 vertices each (AVX-512 DQS-4, 64 joints, ns/vertex, against the
 * dot products: 1024 vertices 6.1 against 5.8, 2048 5.6 against 5.7, 4096
 * 5.1 against 5.2). */
static int signs_pay(size_t count, uint32_t joint_count)
{
    return count >= 8 * (size_t)joint_count * ((joint_count + W - 1) / W);
}

/* DQS's signs for the table kinds: for every pair of palette joints a (a
 * pivot) and b, whether v_sign_dot of b's real part with a's is negative, as
 * bit 31 - b % 32 of signs[64 * (b / 32) + a] (laid out as two components
 * of a palette table): the bits the blocks' dot
 * products would give.  16 pivots at a time, a bit column per joint b. */
static void build_signs(const source *dq, uint32_t *signs, uint32_t joint_count)
{
    memset(signs, 0, 128 * sizeof *signs);
    for (uint32_t a0 = 0; a0 < joint_count; a0 += W) {
        vf p[4];
        for (int e = 0; e < 4; ++e) p[e] = simde_mm512_load_ps(dq->table + 64 * e + a0);
        vi rows[2] = {simde_mm512_setzero_si512(), simde_mm512_setzero_si512()};
        for (uint32_t b = 0; b < joint_count; ++b) {
            vf q[4];
            for (int e = 0; e < 4; ++e) q[e] = v_set1(dq->table[64 * e + b]);
            const vm neg = v_lt(v_sign_dot(q, p), v_zero());
            rows[b / 32] = simde_mm512_mask_or_epi32(rows[b / 32], neg, rows[b / 32],
                                                     simde_mm512_set1_epi32((int32_t)(1u << (31 - b % 32))));
        }
        simde_mm512_store_si512(signs + a0, rows[0]);
        simde_mm512_store_si512(signs + 64 + a0, rows[1]);
    }
}
#endif

/* The real parts blended into b[0..3], each slot's weight signed by its
 * real part's dot with the pivot's (antipodality) into ws; without dots
 * (all_signs_positive), the weights as they are.  first_pivot: slot 0 is
 * every lane's pivot (first_is_pivot), whose own sign is then +. */
ALWAYS_INLINE void dq_real_parts(const kctx *c, const influences *f, vf *b, vf *ws, const uint32_t k,
                                 const int kind, const int dots, const int first_pivot)
{
#if W == 16
    if (sign_table_used(c, kind)) {
        if (dots)
            table_signs(c, f, ws, k, kind);
        else
            UNROLL for (uint32_t i = 0; i < k; ++i) ws[i] = f->w[i];
        blend_table(&c->dq, f->j, ws, 0, 4, b, k, kind);
        return;
    }
#endif
    vf pivot[4] = {v_zero(), v_zero(), v_zero(), v_zero()}; /* (set before use: GCC cannot tell) */
    if (dots && !first_pivot) {
        if (STAGED) { /* uniform blocks too: stage() has picked every block's pivots */
            fetch4_at(&c->dq, lane_pivot_offsets(f), 0, pivot);
        } else {
            const int pkind = pivot_kind(kind);
            int32_t pjl[W];
            const vi pj = pivot_joints(f->j, f->w, k);
            if (!IS_TABLE(pkind)) v_store_i32(pjl, pj);
            fetch4(&c->dq, pj, pjl, 0, pivot, pkind);
        }
    }
    UNROLL for (uint32_t i = 0; i < k; ++i) {
        vf q[4];
        fetch_dq_half(c, f, i, 0, q, kind);
        if (first_pivot && i == 0)
            UNROLL for (int e = 0; e < 4; ++e) pivot[e] = q[e];
        ws[i] = dots ? v_neg_if(v_lt(v_sign_dot(q, pivot), v_zero()), f->w[i]) : f->w[i];
        UNROLL for (int e = 0; e < 4; ++e) b[e] = v_madd_slot(ws[i], q[e], b[e], i);
    }
}

/* Blends the dual quaternions and turns the result into m (and, with
 * scales, the normal matrix nm); returns whether nm is used. */
ALWAYS_INLINE int dqs(const kctx *c, const influences *f, vf *m, vf *nm, const uint32_t k, const int kind,
                      const int signs)
{
    vf b[8], s[3] = {v_zero(), v_zero(), v_zero()}; /* s: only with scales */
    const int use_sc = c->sc.base != NULL;
    const int pkind = pivot_kind(kind);
    int32_t pjl[W];
    vf ws[SKIN_MAX_INFLUENCES]; /* the signed weights */
    const int dots = k > 1 && signs;
#if W == 4
    if (kind == FETCH_ROWS) {
        dq_blend_lanes(c, f, b, ws, k, dots);
    } else
#endif
    {
#if W == 16
        /* (the sign table needs no pivot's real part) */
        dq_real_parts(c, f, b, ws, k, kind, dots, dots && !sign_table_used(c, kind) && first_is_pivot(f->w, k));
#else
        dq_real_parts(c, f, b, ws, k, kind, dots, 0);
#endif
        if (IS_TABLE(kind)) {
            blend_table(&c->dq, f->j, ws, 4, 4, b + 4, k, kind);
        } else {
            /* The dual parts in a pass of their own.  On 8 lanes the barrier
             * keeps their loads in it: hoisted into the real parts' pass, they
             * were spilled to the stack (AVX2 DQS-4 10k 9.11 -> 8.39 ns/vertex). */
            if (W == 8) __asm__ volatile("" ::: "memory");
            UNROLL for (uint32_t i = 0; i < k; ++i) {
                vf q[4];
                fetch_dq_half(c, f, i, 1, q, kind);
                UNROLL for (int e = 0; e < 4; ++e) b[4 + e] = v_madd_slot(ws[i], q[e], b[4 + e], i);
            }
        }
    }
    if (use_sc) {
        if (IS_TABLE(kind)) {
            blend_table(&c->sc, f->j, f->w, 0, 3, s, k, kind);
        } else {
            UNROLL for (uint32_t i = 0; i < k; ++i)
                UNROLL for (int e = 0; e < 3; ++e)
                    s[e] = v_madd_slot(f->w[i], fetch1(&c->sc, f->j[i], lane_joints(f, i), e, kind), s[e], i);
        }
    }
    vf n2 = v_dot4(b, b);
    vm small = v_lt(n2, v_set1(SKIN_DQS_MIN_NORM * SKIN_DQS_MIN_NORM));
    if (__builtin_expect(v_any(small), 0)) { /* rare: fall back to the pivot's own transform */
        vi j[SKIN_MAX_INFLUENCES]; /* (staged: loaded only here, SSE2 DQS-4 2.6% fewer instructions) */
        UNROLL for (uint32_t i = 0; i < k; ++i) j[i] = STAGED ? v_loadu_i32(lane_joints(f, i)) : f->j[i];
        const vi pj = pivot_joints(j, f->w, k);
        if (!IS_TABLE(pkind)) v_store_i32(pjl, pj);
        vf q[8];
        fetch4(&c->dq, pj, pjl, 0, q, pkind);
        fetch4(&c->dq, pj, pjl, 1, q + 4, pkind);
        UNROLL for (int e = 0; e < 8; ++e) b[e] = v_select(small, q[e], b[e]);
        n2 = v_select(small, v_dot4(q, q), n2);
        if (use_sc)
            UNROLL for (int e = 0; e < 3; ++e)
                s[e] = v_select(small, fetch1(&c->sc, pj, pjl, e, pkind), s[e]);
    }
    v_dq_matrix(b, n2, m);
    if (!use_sc) return 0;
    /* scale in bind space: m = R S for points and tangents, R S^-1 for normals */
    UNROLL for (int r = 0; r < 3; ++r)
        UNROLL for (int col = 0; col < 3; ++col) {
            nm[3 * r + col] = v_div(m[4 * r + col], s[col]);
            m[4 * r + col] = v_mul(m[4 * r + col], s[col]);
        }
    return 1;
}

/* normalize3's block with a squared length out of float's normal range:
 * those lanes divided by their largest component first (a zero vector
 * kept), the others as normalize3 does.  Out of line and cold: the rescue
 * costs SSE2 LBS-4 with normalisation 3.1% more instructions (AVX2 1.8%;
 * callgrind, 10k), inlined 6.8% (its registers spill). */
static __attribute__((noinline, cold)) void normalize3_rescaled(vf *x, vf *y, vf *z, const vf *len2,
                                                               const vf *inv)
{
    const vf one = v_set1(1.0f);
    const vm small = v_lt(*len2, v_set1(0x1p-126f)); /* zero, or below normal */
    const vm lanes = v_lt(v_set1(0x1.fffffep127f), v_select(small, v_set1(INFINITY), *len2)); /* or infinite */
    const vf big = v_max(v_max(v_max(*x, v_sub(v_zero(), *x)), v_max(*y, v_sub(v_zero(), *y))),
                         v_max(*z, v_sub(v_zero(), *z)));
    const vm nonzero = v_lt(v_zero(), big);
    const vf d = v_select(nonzero, big, one); /* a zero vector divided by 1 */
    const vf sx = v_div(*x, d), sy = v_div(*y, d), sz = v_div(*z, d);
    const vf sinv = v_select(nonzero, v_div(one, v_sqrt(v_fmadd(sx, sx, v_fmadd(sy, sy, v_mul(sz, sz))))), one);
    *x = v_select(lanes, v_mul(sx, sinv), v_mul(*x, *inv));
    *y = v_select(lanes, v_mul(sy, sinv), v_mul(*y, *inv));
    *z = v_select(lanes, v_mul(sz, sinv), v_mul(*z, *inv));
}

/* (x, y, z) at unit length, a zero vector kept.  A vector whose squared
 * length leaves float's normal range (length below about 1e-19 or above
 * 1.8e19: a joint scaled near zero, a huge normal matrix) is divided by its
 * largest component first, in a branch that zero vectors take too; other
 * vectors keep their bits. */
ALWAYS_INLINE void normalize3(vf *x, vf *y, vf *z)
{
    const vf len2 = v_fmadd(*x, *x, v_fmadd(*y, *y, v_mul(*z, *z)));
    const vf inv = v_div(v_set1(1.0f), v_sqrt(len2));
    /* One compare for both ends: below normal, len2 is below FLT_MIN; an
     * infinite len2 makes inv 0 (a NaN lane is NaN either way). */
    if (__builtin_expect(v_any(v_lt(v_min(len2, inv), v_set1(0x1p-126f))), 0)) {
        normalize3_rescaled(x, y, z, &len2, &inv);
        return;
    }
    *x = v_mul(*x, inv), *y = v_mul(*y, inv), *z = v_mul(*z, inv);
}

/* ------------------------------------------------------------------ morph */

/* Up to W floats from p (fewer at the mesh's end), the rest zeros. */
ALWAYS_INLINE vf load_lanes(const float *p, size_t lanes)
{
    if (lanes == W) return v_loadu(p);
    float tmp[W] = {0};
    memcpy(tmp, p, lanes * sizeof(float));
    return v_loadu(tmp);
}

/* The lanes of the block at mesh vertex b that entries [cur, cur + avail)
 * of a sparse list name, as a bit mask (an entry outside the block adds
 * nothing: the sorted ones past it, an unsorted one before it), and in
 * *count how many of the next W entries fall in the block: the cursor's
 * step, by a compare rather than the mask's popcount, which would put the
 * mask's reduction on the loop's dependency chain.  b < 2^32: no listed
 * vertex is at or past 2^32, so no block there is touched, and sparse_add
 * passes such a block over once rather than test it for every target. */
#if W > 4
static inline uint32_t sparse_lanes(const uint32_t *idx, size_t cur, size_t avail, uint32_t b, uint32_t *count)
{
    if (avail >= W) return v_lanes_named(idx + cur, b, count);
    uint32_t m = 0, c = 0;
    for (size_t j = 0; j < avail; ++j) {
        const size_t rel = idx[cur + j] - b;
        m |= (uint32_t)(rel < W) << (rel & (W - 1));
        c += rel < W;
    }
    *count = c;
    return m;
}
#endif

#define MORPH_PREFETCH MORPH_CHUNK
#define DENSE_GROUP (W == 4 ? 4 : 8) /* SSE2: 8 spills (22 against 13 ns/vertex at 10k) */
/* out[o] = src[o] + sum over targets i < g of w[i] dp[i][o] for the block at o. */
ALWAYS_INLINE void dense_block(const float *src, const float *const *dp, const vf *w, size_t o, float *out,
                               const uint32_t g)
{
    vf x = v_loadu(src + o);
    for (uint32_t i = 0; i < g; ++i) x = v_fmadd(w[i], v_loadu(dp[i] + o), x);
    v_storeu(out + o, x);
}

/* out[o] = src[o] + sum over targets i < g of w[i] d[i][first + o], for
 * o < n, the products added in target order.  `lanes` < W only for a
 * lone partial block at the mesh's end (n == W). */
ALWAYS_INLINE void dense_sweep(const float *src, const float *const *d, const float *w, size_t first, size_t n,
                               size_t lanes, float *out, const uint32_t g)
{
    const float *dp[DENSE_GROUP];
    vf wv[DENSE_GROUP];
    for (uint32_t i = 0; i < g; ++i) dp[i] = d[i] + first, wv[i] = v_set1(w[i]);
    if (lanes < W) {
        vf x = v_loadu(src);
        for (uint32_t i = 0; i < g; ++i) x = v_fmadd(wv[i], load_lanes(dp[i], lanes), x);
        v_storeu(out, x);
        return;
    }
    /* a cache line of each stream per step, its next chunk's line
     * prefetched into L2 (16.5 against 17.3 ns/vertex into L1) */
    enum { LINE = 64 / sizeof(float) };
    const size_t lines_end = n - n % LINE;
    size_t o = 0;
    for (; o < lines_end; o += LINE) {
        for (uint32_t i = 0; i < g; ++i) __builtin_prefetch(dp[i] + o + MORPH_PREFETCH, 0, 1);
        for (size_t b = o; b < o + LINE; b += W) dense_block(src, dp, wv, b, out, g);
    }
    for (; o < n; o += W) dense_block(src, dp, wv, o, out, g);
}

/* Whether the call reads and writes component e. */
static int component_used(const skin_job *job, int e)
{
    return e < 3 || (e < 6 ? job->normals : job->tangents);
}

/* The sparse targets added to the chunk's n vertices from mesh vertex
 * `first`: each component a target moves read from src[e] (the dense
 * pass's result or the inputs) and written to out[e].  every: bit e set
 * when every target moves component e and none moves another, or 0: each
 * target's delta pointers say. */
ALWAYS_INLINE int target_moves(const uint32_t every, const float *const *d, int e)
{
    return every ? every >> e & 1 : d[e] != NULL;
}
#define SPARSE_PREFETCH 64
#if W == 4
/* Four lanes: into the chunk's copy, four entries that name four
 * consecutive vertices of the chunk by one vector add per component, the
 * others one by one (the expanding form below measured no faster, its mask
 * and lane loads cost what it saves).  Both round the product, then the
 * sum (two statements: C contracts only within one), so a vertex's bits
 * do not depend on where a chunk ends.  The entry and its deltas are
 * pointers moved along together, which GCC keeps in registers; with one
 * index into the nine arrays it reloaded their bases from the stack every
 * entry (SSE2 LBS-4, 8 targets over 10%, 4k vertices: morph_chunk 1.26M
 * -> 1.07M instructions, 7.30 -> 7.00 ns/vertex).  Pairs of consecutive
 * entries as one 64-bit add took fewer instructions still, and were
 * faster in cache but slower at 100k (7.8 -> 8.3 ns/vertex): a second
 * branch on the list's values, often mispredicted. */
ALWAYS_INLINE void sparse_add(morph_plan *p, const float *const *src, float (*out)[MORPH_CHUNK], size_t first,
                              size_t n, const uint32_t every)
{
    (void)src; /* src[e] is out[e]: 4 lanes copy what a sparse target moves */
    const size_t lim = first + n;
    for (uint32_t k = 0; k < p->sparse_count; ++k) {
        sparse_morph *s = &p->sparse[k];
        const uint32_t *const idx = s->idx, *const end = idx + s->count;
        const float w = s->w; /* local copies: the adds' stores could alias them */
        const vf wv = v_set1(w);
        const uint32_t *at = idx + s->cur;
        const float *d[9]; /* the deltas of entry `at` */
        for (int e = 0; e < 9; ++e) d[e] = target_moves(every, s->d, e) ? s->d[e] + s->cur : NULL;
        /* batches of 16 entries, each starting with the prefetch of a line
         * of the lists SPARSE_PREFETCH entries ahead, as 8 lanes do (SSE2
         * LBS-4 100k, 8 targets over 10%, Zen 5: 8.0 -> 7.8 ns/vertex) */
        while (at < end && *at < lim) {
            if (end - at > SPARSE_PREFETCH) {
                __builtin_prefetch(at + SPARSE_PREFETCH);
                for (int e = 0; e < 9; ++e)
                    if (target_moves(every, d, e)) __builtin_prefetch(d[e] + SPARSE_PREFETCH);
            }
            const uint32_t *const batch = end - at < 16 ? end : at + 16;
            do {
                const uint32_t i = *at;
                if (i >= lim) break;
                const size_t o = i - first;
                size_t step = 1;
                if (i < first) { /* only an unsorted list gets here: skipped */
                } else if ((size_t)i + 4 <= lim && end - at >= 4 && at[3] - i == 3 && at[1] - i == 1 &&
                           at[2] - i == 2) {
                    for (int e = 0; e < 9; ++e)
                        if (target_moves(every, d, e))
                            v_storeu(out[e] + o, v_add(v_loadu(out[e] + o), v_mul(wv, v_loadu(d[e]))));
                    step = 4;
                } else {
                    for (int e = 0; e < 9; ++e)
                        if (target_moves(every, d, e)) {
                            const float add = w * *d[e];
                            out[e][o] += add;
                        }
                }
                at += step;
                for (int e = 0; e < 9; ++e)
                    if (target_moves(every, d, e)) d[e] += step;
            } while (at < batch);
        }
        s->cur = (size_t)(at - idx);
    }
}
#else
/* Block by block, every target on the block while it is in registers:
 * the lanes a target's entries name get its deltas by an expanding load,
 * the others add +0 (which keeps every bit but a -0's sign).  Blocks no
 * target touches are copied (skipped to the nearest next entry's block). */
ALWAYS_INLINE void sparse_add(morph_plan *p, const float *const *src, float (*out)[MORPH_CHUNK], size_t first,
                              size_t n, const uint32_t every)
{
    const uint32_t moved = every ? every : p->sparse_moved;
    const uint32_t ks = p->sparse_count;
    size_t cur[SKIN_MAX_ACTIVE_MORPH_TARGETS];
    for (uint32_t k = 0; k < ks; ++k) cur[k] = p->sparse[k].cur;
    for (size_t o = 0; o < n;) {
        vf x[9];
        for (int e = 0; e < 9; ++e) x[e] = moved >> e & 1 ? v_loadu(src[e] + o) : v_zero();
        int touched = 0;
        const uint32_t kb = first + o <= UINT32_MAX ? ks : 0; /* the targets that can touch the block */
        for (uint32_t k = 0; k < kb; ++k) {
            const sparse_morph *s = &p->sparse[k];
            uint32_t count;
            const uint32_t named = sparse_lanes(s->idx, cur[k], s->count - cur[k], (uint32_t)(first + o), &count);
            if (!count) continue;
            /* whole loads where the list has W entries from the cursor */
            const v_expander ex = v_expander_for(named, s->count - cur[k] >= W);
            const vf w = v_set1(s->w);
            /* Each target's lists advance a few entries a block, too many
             * slow streams for the hardware prefetcher: every 16 vertices,
             * their lines 64 entries ahead (AVX2 LBS-4 100k, 8 targets
             * over 10%: 5.92 -> 5.70 ns/vertex; every 8 or 32, or 32 or
             * 128 entries ahead, gained less). */
            if (!(o & 15) && cur[k] + SPARSE_PREFETCH < s->count) {
                __builtin_prefetch(s->idx + cur[k] + SPARSE_PREFETCH);
                for (int e = 0; e < 9; ++e)
                    if (target_moves(every, s->d, e)) __builtin_prefetch(s->d[e] + cur[k] + SPARSE_PREFETCH);
            }
            for (int e = 0; e < 9; ++e)
                if (target_moves(every, s->d, e)) x[e] = v_fmadd(w, v_expand(&ex, s->d[e] + cur[k]), x[e]);
            cur[k] += count;
            touched = 1;
        }
        size_t end = o + W;
        if (!touched) {
            /* on to the block of the nearest entry left (an unsorted list's
             * entry behind the block is passed over) */
            size_t next = first + n;
            for (uint32_t k = 0; k < ks; ++k) {
                const sparse_morph *s = &p->sparse[k];
                while (cur[k] < s->count && s->idx[cur[k]] < first + o) ++cur[k];
                if (cur[k] < s->count && s->idx[cur[k]] < next) next = s->idx[cur[k]];
            }
            end = next - first >= n ? n : (next - first) & ~(size_t)(W - 1);
        }
        for (; o < end; o += W)
            for (int e = 0; e < 9; ++e)
                if (moved >> e & 1) v_storeu(out[e] + o, touched ? x[e] : v_loadu(src[e] + o));
    }
    for (uint32_t k = 0; k < ks; ++k) p->sparse[k].cur = cur[k];
}
#endif

/* Vertices [v, v+n) of `in` (n a multiple of W, at most MORPH_CHUNK) with
 * the active morph targets added, as p->view: the components a target
 * moves in p->buf, the others in place; 0 if no target touches the chunk
 * (view unset).  Per vertex: the dense targets in target order,
 * then the sparse ones in target order.  Component by component, so the
 * dense deltas stream as a separate morph pass would read them (a pass per
 * block, reading every target's streams at once, measured about 2x
 * slower), and the morphed chunk stays in cache for the blocks.  A sparse
 * target changes only the vertices it lists (on 8 and 16 lanes it adds +0
 * to the other lanes of a block it touches, which keeps every bit but a
 * -0's sign): there a block's entries arrive by one expanding load per
 * component (two earlier vector forms, entries dropped into a zeroed block
 * and runs of W consecutive entries, measured 10-60% slower than scalar);
 * on 4 lanes one by one.
 * Out of line: one copy serves every block function. */
static __attribute__((noinline)) int morph_chunk(const kctx *c, const inputs *in, size_t v, size_t n)
{
    const skin_job *job = c->job;
    morph_plan *p = c->morph;
    float (*const out)[MORPH_CHUNK] = p->buf;
    const size_t first = in->origin + v; /* the chunk's first mesh vertex */
    if (!p->dense_any && !p->copy_all) { /* sparse targets only: most chunks are not touched */
        int touched = 0;
        for (uint32_t k = 0; k < p->sparse_count; ++k) {
            const sparse_morph *s = &p->sparse[k];
            touched |= s->cur < s->count && s->idx[s->cur] < first + n;
        }
        if (!touched) return 0;
    }
    /* Components no target moves are read in place. */
    p->view_first = v;
    for (int e = 0; e < SKIN_COMPONENTS; ++e) p->view[e] = in->a[e] ? in->a[e] + v : NULL;
    /* only a partial block (n == W) can reach past the mesh */
    const size_t left = job->mesh->vertex_count - first, lanes = left < n ? left : W;
    for (int e = 0; e < 9; ++e) {
        const uint32_t count = p->dense_count[e];
        if (!count && !(p->copy_all && component_used(job, e)) && (W > 4 || !(p->sparse_moved >> e & 1)))
            continue; /* 4 lanes: sparse adds need the copy */
        /* Up to DENSE_GROUP targets per sweep of the chunk, their weights
         * and stream pointers in registers; later sweeps add to buf. */
        const float *src = in->a[e] + v;
        uint32_t k = 0;
        do {
            const float *const *d = &p->dense[e][k];
            const float *w = &p->dense_w[e][k];
            const uint32_t g = count - k < DENSE_GROUP ? count - k : DENSE_GROUP;
            switch (g) { /* each group size its own unrolled loop */
#define DENSE_SWEEP_CASE(i) /* (cases past DENSE_GROUP are never taken) */ \
    case i: dense_sweep(src, d, w, first, n, lanes, out[e], i < DENSE_GROUP ? i : DENSE_GROUP); break;
                DENSE_SWEEP_CASE(0) DENSE_SWEEP_CASE(1) DENSE_SWEEP_CASE(2) DENSE_SWEEP_CASE(3)
                DENSE_SWEEP_CASE(4) DENSE_SWEEP_CASE(5) DENSE_SWEEP_CASE(6) DENSE_SWEEP_CASE(7)
            default: dense_sweep(src, d, w, first, n, lanes, out[e], DENSE_GROUP); break;
#undef DENSE_SWEEP_CASE
            }
            src = out[e], k += g;
        } while (k < count);
        p->view[e] = out[e];
    }
    if (!p->sparse_count) return 1;
    const float *src[9];
    for (int e = 0; e < 9; ++e) {
        src[e] = p->view[e];
        if (p->sparse_moved >> e & 1) p->view[e] = out[e];
    }
    /* the usual sets of components, each its own loop with no test per
     * target and component */
    switch (p->sparse_uniform ? p->sparse_moved : 0) {
    case 0x7: sparse_add(p, src, out, first, n, 0x7); break;     /* positions */
    case 0x3f: sparse_add(p, src, out, first, n, 0x3f); break;   /* and normals */
    case 0x1ff: sparse_add(p, src, out, first, n, 0x1ff); break; /* and tangents */
    default: sparse_add(p, src, out, first, n, 0); break;
    }
    return 1;
}

/* The plan of the call's morph targets, its sparse cursors at the first
 * entry at or after vertex v. */
static void morph_plan_init(morph_plan *p, const skin_job *job, size_t v)
{
    memset(p->dense_count, 0, sizeof p->dense_count);
    p->sparse_moved = 0;
    p->sparse_uniform = 1;
    p->sparse_count = 0;
    p->dense_any = 0;
    p->copy_all = !job->morph_count; /* no targets: here for the aliased streams */
    for (uint32_t a = 0; a < job->morph_count; ++a) {
        const skin_morph_target *t = &job->mesh->morph_targets[job->morph_index[a]];
        const float w = job->palette->morph_weights[job->morph_index[a]];
        const float *d[9]; /* NULL: the call does not use the component, or the target has none */
        for (int g = 0; g < 3; ++g)
            for (int e = 0; e < 3; ++e)
                d[3 * g + e] = skin_morph_group_used(job, t, g) ? skin_morph_deltas(t, g)[e] : NULL;
        if (t->indices) {
            sparse_morph *s = &p->sparse[p->sparse_count++];
            *s = (sparse_morph){.idx = t->indices, .count = t->count, .w = w, .cur = skin_morph_first_at(t, v)};
            memcpy(s->d, d, sizeof d);
            uint32_t moved = 0;
            for (int e = 0; e < 9; ++e) moved |= (uint32_t)(d[e] != NULL) << e;
            p->sparse_uniform &= p->sparse_count == 1 || moved == p->sparse_moved;
            p->sparse_moved |= moved;
            continue;
        }
        for (int e = 0; e < 9; ++e) {
            if (!d[e]) continue;
            const uint32_t i = p->dense_count[e]++;
            p->dense[e][i] = d[e], p->dense_w[e][i] = w;
            p->dense_any = 1;
        }
    }
}

/* Skins W vertices starting at index v of `in`, whose influences are
 * staged at o of st and attributes are at index av of `at`, into
 * out[0..9].  pnt: a constant saying the call writes normals and tangents,
 * with no normal matrices and no normalisation (see run_blocks). */
ALWAYS_INLINE void skin_block(const kctx *c, const inputs *in, const float *const *at, size_t av, const staged *st,
                              size_t o, size_t v, vf out[SKIN_COMPONENTS], const int method, const uint32_t k,
                              const int kind, const int pnt)
{
    const skin_job *job = c->job;
    influences f;
    load_influences(c, in, v, st, o, &f, k, kind);
    vf m[12], nm[9];
    const int use_nm = method == SKIN_LBS ? lbs(c, &f, m, nm, k, kind, pnt)
                                          : dqs(c, &f, m, nm, k, kind,
                                                method != DQS_SIGNS_POSITIVE && !c->signs_positive);
    if (use_nm) /* two calls, not a pointer to either, keep m and nm in registers */
        apply(job, at, av, m, nm, out, pnt);
    else
        apply(job, at, av, m, NULL, out, pnt);
    if (!pnt && job->normalize) {
        normalize3(&out[3], &out[4], &out[5]);
        normalize3(&out[6], &out[7], &out[8]);
    }
}

/* ----------------------------------------------------------------- output */

/* The interleaved vertex this kernel packs in registers: the first K
 * components contiguous (position: 3, +normal: 6, +tangent: 10), stride 4K. */
static int packed_components(const skin_job *job)
{
    if (job->soa || (job->tangents && !job->normals) || job->vector_format != SKIN_VECTOR_F32) return 0;
    const int k = job->tangents ? 10 : job->normals ? 6 : 3;
    if (k == 3 && !V_HAS_PACK3) return 0;
    for (int e = 0; e < k; ++e)
        if (job->dst[e] != job->dst[0] + 4 * e || job->dst_stride[e] != (size_t)(4 * k)) return 0;
    return k;
}

typedef struct writer {
    int packed;        /* K from packed_components, or 0 */
    int tight;         /* words from tight_packed_words, or 0 */
    int stream;        /* streaming stores: asked for, and every base aligned */
    vf bmin[3], bmax[3];
} writer;

/* `stream` is a local copy of wr->stream: the stores may alias anything, so
 * a flag read through a pointer would be reloaded and tested per store. */
ALWAYS_INLINE void store_vec(const int stream, float *dst, vf x)
{
    if (stream)
        v_stream(dst, x);
    else
        v_storeu(dst, x);
}

/* Components (2q, 2q+1) of W vertices become 64-bit pairs (v_pair_lanes);
 * chunk i of each 4-vertex group (16 bytes) takes pairs 2i and 2i+1 of the
 * group's 2Q pairs; the lane step then puts the chunks in memory order. */
ALWAYS_INLINE void store_packed(const skin_job *job, const int stream, const vf *o, size_t v,
                                const int packed)
{
    const int q_count = packed / 2;
    vf pairs[2][5], chunk[10];
    UNROLL for (int q = 0; q < q_count; ++q) v_pair_lanes(o[2 * q], o[2 * q + 1], &pairs[0][q], &pairs[1][q]);
    UNROLL for (int i = 0; i < 2 * q_count; ++i) {
        int s0 = 2 * i, s1 = 2 * i + 1;
        int g0 = s0 / q_count, g1 = s1 / q_count; /* vertex within the group */
        vf a = pairs[v_pair_reg(g0)][s0 % q_count], b = pairs[v_pair_reg(g1)][s1 % q_count];
        /* (high half, low half) never occurs: g1 is g0 or g0 + 1; paired by
         * trn the half is g >> 1, which never falls, by unpack g & 1, which
         * falls only after odd g0's last pair, at odd index q_count (g0 + 1) - 1 */
        const int h0 = v_pair_half(g0), h1 = v_pair_half(g1);
        if (!h0 && !h1)
            chunk[i] = v_unpacklo64(a, b);
        else if (h0 && h1)
            chunk[i] = v_unpackhi64(a, b);
        else
            chunk[i] = v_blend64(a, b);
    }
    float *dst = (float *)(job->dst[0] + v * job->dst_stride[0]);
    /* The streaming path's base hidden from GCC, which otherwise computes
     * the stores' addresses, shared by both paths, into a register each:
     * SSE2 LBS-4 107.3 -> 104.5 instructions a vertex, 10k 5.59 -> 5.48
     * ns/vertex; AVX2 1.5 instructions a vertex fewer, the same time.
     * (AVX-512 measured slower with it, 2.46 -> 2.49.) */
    if (W < 16 && stream) __asm__("" : "+r"(dst));
    UNROLL for (int m = 0; m < 2 * q_count; ++m) store_vec(stream, dst + m * W, v_lane_gather(chunk, 2 * q_count, m));
}

/* Normals (e0 = 3) or tangents (e0 = 6) in a packed vector format: one
 * word per lane (1010102) or two (snorm16); returns the word count.  The
 * same steps as skin_pack_vector: min/max clamp (NaN -> 1), scale, round
 * to nearest even. */
ALWAYS_INLINE int pack_vectors(skin_vector_format format, const vf *o, int e0, vi word[2])
{
    const vf one = v_set1(1.0f), minus_one = v_set1(-1.0f);
    const int is_1010102 = format == SKIN_VECTOR_1010102;
    vi q[4];
    UNROLL for (int c = 0; c < 4; ++c) {
        if (c == 3 && e0 == 3) { /* a normal's w */
            q[c] = v_set1_i32(0);
            continue;
        }
        const vf x = v_max(v_min(o[e0 + c], one), minus_one); /* a tangent's w is o[9] */
        q[c] = v_round_i32(v_mul(x, v_set1(is_1010102 ? (c < 3 ? 511.0f : 1.0f) : 32767.0f)));
    }
    if (is_1010102) {
        const vi m10 = v_set1_i32(0x3ff);
        vi w = v_or_i32(v_and_i32(q[0], m10), v_slli_i32(v_and_i32(q[1], m10), 10));
        word[0] = v_or_i32(w, v_or_i32(v_slli_i32(v_and_i32(q[2], m10), 20), v_slli_i32(q[3], 30)));
        return 1;
    }
    const vi m16 = v_set1_i32(0xffff);
    word[0] = v_or_i32(v_and_i32(q[0], m16), v_slli_i32(q[1], 16));
    word[1] = v_or_i32(v_and_i32(q[2], m16), v_slli_i32(q[3], 16));
    return 2;
}

/* The words of a packed vertex with a normal, and a tangent if asked,
 * held as SoA components: position x y z, the normal's words, the
 * tangent's words; returns how many. */
ALWAYS_INLINE int packed_words(const skin_vector_format format, const int tangents, const vf *o, vf *c)
{
    int d = 3;
    vi w[2];
    c[0] = o[0], c[1] = o[1], c[2] = o[2];
    UNROLL for (int i = 0, n = pack_vectors(format, o, 3, w); i < n; ++i) c[d++] = v_as_float(w[i]);
    if (tangents)
        UNROLL for (int i = 0, n = pack_vectors(format, o, 6, w); i < n; ++i) c[d++] = v_as_float(w[i]);
    return d;
}

/* Words per vertex when the packed vertex is tight (position, normal,
 * tangent back to back, one shared stride of exactly those bytes), else 0. */
static int tight_packed_words(const skin_job *job)
{
    if (job->soa || job->vector_format == SKIN_VECTOR_F32 || !job->normals) return 0;
    const size_t vw = skin_vector_bytes(job->vector_format, 0) / 4;
    const size_t words = 3 + vw * (job->tangents ? 2 : 1);
    if (job->dst[3] != job->dst[0] + 12 || job->dst_stride[0] != 4 * words || job->dst_stride[3] != 4 * words) return 0;
    if (job->tangents && (job->dst[6] != job->dst[3] + 4 * vw || job->dst_stride[6] != 4 * words)) return 0;
    return (int)words;
}

/* The first n (1..4) words of x to p. */
ALWAYS_INLINE void store_words(float *p, simde__m128 x, const int n)
{
    if (n == 4) {
        simde_mm_storeu_ps(p, x);
    } else {
        if (n >= 2) simde_mm_storeu_si64(p, simde_mm_castps_si128(x)); /* p: 4-byte aligned */
        if (n == 1) simde_mm_store_ss(p, x);
        if (n == 3) simde_mm_store_ss(p + 2, simde_mm_movehl_ps(x, x));
    }
}

#if W == 16
/* store_interleaved's permute indices: output register k of a block whose
 * vertices have wd words each holds words 16k .. 16k+15 of the block, word
 * p being word p % wd of lane p / wd.  Step s (1 .. wd-1) brings in word
 * register s (step 1: registers 0 and 1), other lanes kept. */
#define IL_LANE(wd, k, j) ((16 * (k) + (j)) / (wd))
#define IL_WORD(wd, k, j) ((16 * (k) + (j)) % (wd))
#define IL_IDX(wd, k, s, j)                                              \
    (IL_WORD(wd, k, j) == (s)               ? 16 + IL_LANE(wd, k, j)     \
     : (s) == 1 && IL_WORD(wd, k, j) == 0 ? IL_LANE(wd, k, j) : (j))
#define IL_ROW(wd, k, s)                                                                   \
    {IL_IDX(wd, k, s, 0),  IL_IDX(wd, k, s, 1),  IL_IDX(wd, k, s, 2),  IL_IDX(wd, k, s, 3),  \
     IL_IDX(wd, k, s, 4),  IL_IDX(wd, k, s, 5),  IL_IDX(wd, k, s, 6),  IL_IDX(wd, k, s, 7),  \
     IL_IDX(wd, k, s, 8),  IL_IDX(wd, k, s, 9),  IL_IDX(wd, k, s, 10), IL_IDX(wd, k, s, 11), \
     IL_IDX(wd, k, s, 12), IL_IDX(wd, k, s, 13), IL_IDX(wd, k, s, 14), IL_IDX(wd, k, s, 15)}
#define IL_STEPS4(k) {IL_ROW(4, k, 1), IL_ROW(4, k, 2), IL_ROW(4, k, 3)}
#define IL_STEPS5(k) {IL_ROW(5, k, 1), IL_ROW(5, k, 2), IL_ROW(5, k, 3), IL_ROW(5, k, 4)}
static const int32_t interleave4[4][3][16] = {IL_STEPS4(0), IL_STEPS4(1), IL_STEPS4(2), IL_STEPS4(3)};
static const int32_t interleave5[5][4][16] = {IL_STEPS5(0), IL_STEPS5(1), IL_STEPS5(2), IL_STEPS5(3), IL_STEPS5(4)};

/* A block of tight vertices of 4 or 5 words, c[w] holding word w of every
 * lane, as `words` whole 64-byte stores: each register built by words - 1
 * two-source permutes (1010102 p+n+t, LBS-4 10k on Zen 5: 2.91 -> 2.70
 * ns/vertex against transposes and two stores a lane; for snorm16's 7
 * words, six permutes a register measured slower: 3.36 -> 3.50). */
ALWAYS_INLINE void store_interleaved(char *dst, const vf *c, const int words, const int32_t *table)
{
    UNROLL for (int k = 0; k < words; ++k) {
        const int32_t *t = table + 16 * (words - 1) * k;
        vf x = simde_mm512_permutex2var_ps(c[0], simde_mm512_loadu_si512(t), c[1]);
        UNROLL for (int s = 2; s < words; ++s)
            x = simde_mm512_permutex2var_ps(x, simde_mm512_loadu_si512(t + 16 * (s - 1)), c[s]);
        simde_mm512_storeu_ps((float *)dst + 16 * k, x);
    }
}
#endif

#if W == 4
/* snorm16 normals (e0 = 3, w 0) or tangents (e0 = 6) of 4 lanes: lo
 * holds lanes 0 and 1's 8-byte vectors, hi lanes 2 and 3's.  The upper
 * clamp in float (NaN -> 1), the lower one on the 16-bit words (16-bit
 * saturation, then at least -32767): pack_vectors's bits. */
ALWAYS_INLINE void snorm16_vectors(const vf *o, int e0, vi *lo, vi *hi)
{
    const vf one = v_set1(1.0f), scale = v_set1(32767.0f);
    vi q[4];
    UNROLL for (int c = 0; c < 4; ++c)
        q[c] = c == 3 && e0 == 3 ? v_set1_i32(0) : v_round_i32(v_mul(v_min(o[e0 + c], one), scale));
    v_snorm16_vectors(q[0], q[1], q[2], q[3], lo, hi);
}

/* A tight snorm16 vertex on 4 lanes, two stores a lane: its position
 * (and a word past it, which the second store rewrites), then its normal
 * and tangent, each lane's words interleaved in registers.  Against
 * transposes and four or five stores a lane, SSE2 LBS-4 p+n+t 10k on Zen
 * 5: 138.0 -> 134.2 instructions a vertex (callgrind), the bench's
 * snorm16 / f32 1.17 -> 1.12.  Out of line: inlined, it took the block
 * functions past GCC's growth limits, which then called v_fmadd out of
 * line (f32 output 3-6% slower); with v_fmadd forced inline f32 still
 * cost 3 instructions a vertex more, and 1010102 done this way 3.5 more
 * than its transposes.  Not for streaming stores, which write each byte
 * once. */
static __attribute__((noinline)) void store_snorm16_lanes(const skin_job *job, const vf *o, size_t v,
                                                          const int tangents)
{
    vi n[2], t[2];
    snorm16_vectors(o, 3, &n[0], &n[1]);
    if (tangents)
        snorm16_vectors(o, 6, &t[0], &t[1]);
    else /* (never stored: without tangents only the normal's 8 bytes are) */
        t[0] = n[0], t[1] = n[1];
    vf xy[2], zz[2];
    v_pair_lanes(o[0], o[1], &xy[0], &xy[1]);
    v_pair_lanes(o[2], o[2], &zz[0], &zz[1]);
    const size_t stride = job->dst_stride[0];
    char *dst = job->dst[0] + v * stride;
    UNROLL for (int l = 0; l < 4; ++l) {
        const int r = v_pair_reg(l), h = v_pair_half(l);
        char *rec = dst + (size_t)l * stride;
        simde_mm_storeu_ps((float *)rec, h ? v_unpackhi64(xy[r], zz[r]) : v_unpacklo64(xy[r], zz[r]));
        const vi a = n[l >> 1], b = t[l >> 1]; /* lane l: the half l & 1 of each */
        const vi nt = l & 1 ? simde_mm_unpackhi_epi64(a, b) : simde_mm_unpacklo_epi64(a, b);
        if (tangents)
            simde_mm_storeu_si128(rec + 12, nt);
        else
            simde_mm_storeu_si64(rec + 12, nt);
    }
}
#endif

/* The tight packed vertex from registers: groups of four words are
 * transposed so each lane's group is one 128-bit chunk, stored whole (or
 * its first 1..3 words): two or three stores a vertex.  On 8 lanes a
 * vertex of 5..7 words, on 16 one of 7, is one 256-bit store instead
 * (snorm16 pnt, LBS-4 10k AVX2: 5.09 -> 4.77 ns/vertex); on 16 lanes a
 * block of 4 or 5 words is interleaved in registers.  No byte past the
 * block is written. */
ALWAYS_INLINE void store_tight_packed(const skin_job *job, const vf *o, size_t v, const skin_vector_format format,
                                      const int tangents)
{
#if W == 4
    if (format == SKIN_VECTOR_SNORM16 && !job->streaming) {
        store_snorm16_lanes(job, o, v, tangents);
        return;
    }
#endif
    vf c[8];
    UNROLL for (int i = 0; i < 8; ++i) c[i] = v_zero();
    const int words = packed_words(format, tangents, o, c);
    char *dst = job->dst[0] + v * job->dst_stride[0];
    const size_t stride = job->dst_stride[0];
#if W == 16
    if (words == 4 || words == 5) {
        store_interleaved(dst, c, words, words == 4 ? &interleave4[0][0][0] : &interleave5[0][0][0]);
        return;
    }
#endif
    /* chunk k of c[g + q]: lane 4k + q, words g..g+3 (c past words is zero) */
    v_transpose4(&c[0], &c[1], &c[2], &c[3]);
    if (words > 4) v_transpose4(&c[4], &c[5], &c[6], &c[7]);
#if W >= 8
    /* Each lane's words joined into one 256-bit register, stored whole:
     * the bytes past a lane's vertex are the next lane's, which that lane's
     * store then rewrites.  The last lane is stored exactly.  On 16 lanes
     * only for 7 words (snorm16 p+n+t, LBS-4 10k on an Intel Xeon 4.94 ->
     * 4.65 ns/vertex): 5 (1010102 p+n+t) measured slower whole (4.48 ->
     * 4.55); on 4 lanes, two 16-byte stores a lane measured no faster.
     * Not with SKIN_OUTPUT_STREAMING, which promises each byte written
     * once, in order. */
    if (words > (W == 8 ? 4 : 5) && !job->streaming) {
        UNROLL for (int l = 0; l < W - 1; ++l)
            simde_mm256_storeu_ps((float *)(dst + (size_t)l * stride), v_chunk_pair(c[l % 4], c[4 + l % 4], l / 4));
        float *p = (float *)(dst + (size_t)(W - 1) * stride);
        store_words(p, v_chunk(c[3], W / 4 - 1), 4);
        store_words(p + 4, v_chunk(c[7], W / 4 - 1), words - 4);
        return;
    }
#endif
    UNROLL for (int g = 0; g < words; g += 4)
        UNROLL for (int l = 0; l < W; ++l)
            store_words((float *)(dst + (size_t)l * stride + 4 * (size_t)g), v_chunk(c[g + l % 4], l / 4),
                        words - g < 4 ? words - g : 4);
}

/* Lanes [lo, hi) of a block whose first lane is vertex v, one element at a
 * time: any layout and vector format. */
static void store_lanes(const skin_job *job, const vf *o, size_t v, int lo, int hi)
{
    float tmp[SKIN_COMPONENTS][W];
    for (int e = 0; e < SKIN_COMPONENTS; ++e) v_storeu(tmp[e], o[e]);
    const skin_vector_format format = job->vector_format;
    int32_t nword[2][W], tword[2][W];
    const size_t nbytes = skin_vector_bytes(format, 0), tbytes = skin_vector_bytes(format, 1);
    if (format != SKIN_VECTOR_F32) {
        vi w[2];
        if (job->normals)
            for (int i = 0, n = pack_vectors(format, o, 3, w); i < n; ++i) v_store_i32(nword[i], w[i]);
        if (job->tangents)
            for (int i = 0, n = pack_vectors(format, o, 6, w); i < n; ++i) v_store_i32(tword[i], w[i]);
    }
    for (int l = lo; l < hi; ++l) {
        const int floats = format == SKIN_VECTOR_F32 ? SKIN_COMPONENTS : 3;
        for (int e = 0; e < floats; ++e)
            if (component_used(job, e))
                memcpy(job->dst[e] + (v + l) * job->dst_stride[e], &tmp[e][l], sizeof(float));
        if (format != SKIN_VECTOR_F32) {
            const int32_t n2[2] = {nword[0][l], nword[1][l]}, t2[2] = {tword[0][l], tword[1][l]};
            if (job->normals) memcpy(job->dst[3] + (v + l) * job->dst_stride[3], n2, nbytes);
            if (job->tangents) memcpy(job->dst[6] + (v + l) * job->dst_stride[6], t2, tbytes);
        }
    }
}

/* packed10: a constant saying wr->packed is 10. */
ALWAYS_INLINE void store_block(const skin_job *job, writer *wr, const vf *o, size_t v, const int packed10)
{
    const int stream = wr->stream;
    if (job->bounds)
        for (int e = 0; e < 3; ++e) {
            wr->bmin[e] = v_min(o[e], wr->bmin[e]); /* a NaN lane keeps the bound */
            wr->bmax[e] = v_max(o[e], wr->bmax[e]);
        }
    if (packed10 || wr->packed == 10) { /* the common vertex first */
        store_packed(job, stream, o, v, 10);
    } else if (wr->tight) { /* each case its own code, every branch on the format folded */
        if (job->vector_format == SKIN_VECTOR_SNORM16) {
            if (job->tangents)
                store_tight_packed(job, o, v, SKIN_VECTOR_SNORM16, 1);
            else
                store_tight_packed(job, o, v, SKIN_VECTOR_SNORM16, 0);
        } else if (job->tangents) {
            store_tight_packed(job, o, v, SKIN_VECTOR_1010102, 1);
        } else {
            store_tight_packed(job, o, v, SKIN_VECTOR_1010102, 0);
        }
    } else if (wr->packed == 6) {
        store_packed(job, stream, o, v, 6);
    } else if (wr->packed == 3) {
        float *dst = (float *)(job->dst[0] + v * job->dst_stride[0]);
        UNROLL for (int m = 0; m < 3; ++m) store_vec(stream, dst + m * W, v_pack3(o, m));
    } else if (job->soa) {
        for (int e = 0; e < SKIN_COMPONENTS; ++e) {
            if (!component_used(job, e)) continue;
            store_vec(stream, (float *)job->dst[e] + v, o[e]);
        }
    } else {
        store_lanes(job, o, v, 0, W); /* bounds done above */
    }
}

#if W == 4
/* LBS on 4 lanes calls the other layouts' stores out of line: their
 * blocks keep the outputs on the stack anyway, and one copy, not one per
 * block function, keeps the object small (SSE2 LBS: 555 KB of text before
 * run_blocks had loops of its own, 562 KB with them). */
static __attribute__((noinline)) void store_block_any(const skin_job *job, writer *wr, const vf *o, size_t v)
{
    store_block(job, wr, o, v, 0);
}
#endif

/* Lanes [lo, hi) of the block at v, and their bounds.  When each vertex is
 * one record and the records are back to back (wr->packed, wr->tight), the
 * block is stored whole into a local copy and the lanes' records copied
 * at once: lane by lane, an 8-vertex tail cost 3% of a 1448-vertex call on
 * 16 lanes. */
static void store_partial(const skin_job *job, const writer *wr, const vf *o, size_t v, int lo, int hi)
{
    if (wr->packed || wr->tight) {
        SIMDE_ALIGN_TO_64 char block[W * 4 * SKIN_COMPONENTS];
        skin_job local = *job;
        writer local_wr = *wr;
        local.dst[0] = block, local.bounds = NULL, local_wr.stream = 0;
        store_block(&local, &local_wr, o, 0, 0);
        const size_t bytes = job->dst_stride[0];
        memcpy(job->dst[0] + (v + (size_t)lo) * bytes, block + (size_t)lo * bytes, (size_t)(hi - lo) * bytes);
    } else {
        store_lanes(job, o, v, lo, hi);
    }
    if (!job->bounds) return;
    float tmp[3][W];
    for (int e = 0; e < 3; ++e) v_storeu(tmp[e], o[e]);
    for (int l = lo; l < hi; ++l)
        for (int e = 0; e < 3; ++e) {
            if (tmp[e][l] < job->bounds[e]) job->bounds[e] = tmp[e][l];
            if (tmp[e][l] > job->bounds[3 + e]) job->bounds[3 + e] = tmp[e][l];
        }
}


/* The block loops run_blocks chooses from: for any call; for LBS of
 * position, normal and tangent with no normal matrices and no
 * normalisation, stored out of line; the same into the 40-byte vertex,
 * stored inline. */
enum { PNT_NONE, PNT_ANY, PNT_40 };

/* Skins the full blocks in [v, end) of `in`, their attributes at index
 * u - at_first of `at` for vertex u, and stores them; stage_c and stage_in
 * are c and in as stage() gets them (see blocks); pnt: PNT_*. */
ALWAYS_INLINE void run_blocks_as(const kctx *c, const inputs *in, const kctx *stage_c, const inputs *stage_in,
                                 const float *const *at, size_t at_first, staged *st, size_t v, size_t end,
                                 writer *wr, const int method, const uint32_t k, const int kind, const int pnt)
{
    while (v + W <= end) {
        const size_t n = end - v < STAGE ? (end - v) / W * W : STAGE;
        if (STAGED) stage(stage_c, stage_in, v, n, k, st, method);
        for (size_t o = 0; o < n; o += W, v += W) {
            vf x[SKIN_COMPONENTS];
            skin_block(c, in, at, v - at_first, st, o, v, x, method, k, kind, pnt != PNT_NONE);
#if W == 4
            if (method == SKIN_LBS && pnt != PNT_40) {
                store_block_any(c->job, wr, x, v);
                continue;
            }
#endif
            store_block(c->job, wr, x, v, pnt == PNT_40);
        }
    }
}

/* LBS of position, normal and tangent with no normal matrices and no
 * normalisation, the usual call, has block loops of its own on 4 lanes,
 * where those choices are constants: one for the 40-byte interleaved
 * vertex (writer.packed 10), stored inline, one for the other layouts,
 * stored out of line.  Tested per block, the choices sent the 10 outputs
 * through the stack (SSE2 LBS 10k, with matrix_offsets' multiply: the
 * 40-byte vertex with 1, 4, 8 influences 9-15% faster, snorm16, 1010102
 * and SoA output 6-12%).  DQS measured no faster so (8 influences 5-9%
 * slower), and keeps its loops and inline stores. */
ALWAYS_INLINE void run_blocks(const kctx *c, const inputs *in, const kctx *stage_c, const inputs *stage_in,
                              const float *const *at, size_t at_first, staged *st, size_t v, size_t end,
                              writer *wr, const int method, const uint32_t k, const int kind)
{
#if W == 4
    const skin_job *job = c->job;
    if (method == SKIN_LBS && job->normals && job->tangents && !job->normalize && !c->nmat.base) {
        if (wr->packed == 10)
            run_blocks_as(c, in, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind, PNT_40);
        else
            run_blocks_as(c, in, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind, PNT_ANY);
        return;
    }
#endif
    run_blocks_as(c, in, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind, PNT_NONE);
}

/* Skins the full blocks in [v, end) of `in` and stores them; moved: the
 * chunk's attributes are c->morph's view (morph_chunk moved them). */
ALWAYS_INLINE void blocks(const kctx *c, const inputs *in, size_t v, size_t end, writer *wr, int moved,
                          const int method, const uint32_t k, const int kind)
{
#if STAGED
    /* Local copies: the stores below may write through char pointers,
     * which would make the compiler reload every field it reads through c
     * and in for each block.  (With 16 lanes the copies measured slower.) */
    const kctx c_copy = *c;
    const inputs in_copy = *in;
    staged chunk;
    const kctx *const lc = &c_copy;
    const inputs *const lin = &in_copy;
    staged *const st = &chunk;
    /* stage() reads the caller's structs, so the copies' addresses never
     * escape and their fields live in registers: a run of blocks then
     * starts without first writing and reading back the copies, which costs
     * real meshes, whose runs are a few blocks long (AVX2 LBS, ns/vertex:
     * Testwuson 4.11 -> 3.87, BCN_Epileptic 4.13 -> 3.96; the 64-joint
     * random rig 4.6 -> 4.5; SSE2 LBS-4, the coherent rig: 4-11% faster).
     * SSE2 DQS measured up to 4% slower so, and stages from the copies. */
    const int caller_structs = W == 8 || method == SKIN_LBS;
    const kctx *const stage_c = caller_structs ? c : lc;
    const inputs *const stage_in = caller_structs ? in : lin;
#else
    const kctx *const lc = c;
    const inputs *const lin = in;
    staged *const st = NULL; /* each block loads its own influences */
    const kctx *const stage_c = c;
    const inputs *const stage_in = in;
#endif
    /* With morph targets the attributes come from the chunk morph_chunk made. */
    const float *const *at = moved ? lc->morph->view : lin->a;
    const size_t at_first = moved ? lc->morph->view_first : 0;
    run_blocks(lc, lin, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind);
}

/* One copy of the block loop per method, influence count and fetch kind,
 * so every loop over influences, rows and components unrolls.  Chunks
 * that morph targets move share it: they differ only in where the
 * attributes are read. */
typedef void (*blocks_fn)(const kctx *, const inputs *, size_t, size_t, writer *, int);
#define BLOCKS(method, k, kind)                                                                        \
    static void blocks_##method##_##k##_##kind(const kctx *c, const inputs *in, size_t v, size_t end, \
                                               writer *wr, int moved)                                 \
    {                                                                                                 \
        blocks(c, in, v, end, wr, moved, method, k, kind);                                            \
    }
#if W == 16
#define BLOCKS_K(method, k) BLOCKS(method, k, FETCH_ROWS) BLOCKS(method, k, FETCH_TABLE2) \
                            BLOCKS(method, k, FETCH_TABLE4) BLOCKS(method, k, FETCH_AOS) BLOCKS(method, k, FETCH_UNIFORM)
#define KINDS(method, k) {blocks_##method##_##k##_FETCH_ROWS, blocks_##method##_##k##_FETCH_TABLE2, \
                          blocks_##method##_##k##_FETCH_TABLE4, blocks_##method##_##k##_FETCH_AOS,  \
                          blocks_##method##_##k##_FETCH_UNIFORM}
#elif W == 8
#define BLOCKS_K(method, k) BLOCKS(method, k, FETCH_ROWS) BLOCKS(method, k, FETCH_UNIFORM)
#define KINDS(method, k) {blocks_##method##_##k##_FETCH_ROWS, NULL, NULL, NULL, blocks_##method##_##k##_FETCH_UNIFORM}
#else
#define BLOCKS_K(method, k) BLOCKS(method, k, FETCH_ROWS)
#define KINDS(method, k) {blocks_##method##_##k##_FETCH_ROWS, NULL, NULL, NULL, NULL}
#endif
#define BLOCKS_ALL(method) BLOCKS_K(method, 1) BLOCKS_K(method, 2) BLOCKS_K(method, 3) BLOCKS_K(method, 4) \
                           BLOCKS_K(method, 5) BLOCKS_K(method, 6) BLOCKS_K(method, 7) BLOCKS_K(method, 8)
#define KINDS_ALL(method) {KINDS(method, 1), KINDS(method, 2), KINDS(method, 3), KINDS(method, 4), \
                           KINDS(method, 5), KINDS(method, 6), KINDS(method, 7), KINDS(method, 8)}
/* This object's method (the build makes one object per ISA and method, and
 * defines SKIN_KERNEL_LBS or SKIN_KERNEL_DQS too, for #if). */
#ifndef SKIN_KERNEL_METHOD
#error "SKIN_KERNEL_METHOD must be SKIN_LBS or SKIN_DQS"
#endif
BLOCKS_ALL(SKIN_KERNEL_METHOD)
/* [active slots - 1][fetch kind] */
static const blocks_fn blocks_table[SKIN_MAX_INFLUENCES][FETCH_KINDS] = KINDS_ALL(SKIN_KERNEL_METHOD);
/* DQS when all_signs_positive holds */
#if defined(SKIN_KERNEL_DQS) && SIGNS_FUNCTIONS
BLOCKS_ALL(DQS_SIGNS_POSITIVE)
static const blocks_fn blocks_signs_positive[SKIN_MAX_INFLUENCES][FETCH_KINDS] = KINDS_ALL(DQS_SIGNS_POSITIVE);
#else
#define blocks_signs_positive blocks_table /* (LBS: never chosen; 4 lanes: c.signs_positive) */
#endif

/* Slot i's W weights (f32 bits without the sign, or unorm integers) and
 * joints (bytes if u8, else uint16_t), as 32-bit lanes. */
ALWAYS_INLINE vi weight_bits(const inputs *in, uint32_t i, size_t v, skin_weight_format wf)
{
    switch (wf) {
    case SKIN_WEIGHT_UNORM16: return v_load_u16((const uint16_t *)in->weights[i] + v);
    case SKIN_WEIGHT_UNORM8: return v_load_u8((const uint8_t *)in->weights[i] + v);
    default: return v_and_i32(v_loadu_i32((const float *)in->weights[i] + v), v_set1_i32(0x7fffffff));
    }
}

ALWAYS_INLINE vi joint_lanes(const inputs *in, uint32_t i, size_t v, int u8)
{
    return u8 ? v_load_u8((const uint8_t *)in->joints[i] + v) : v_load_u16((const uint16_t *)in->joints[i] + v);
}

/* Influence slots of the block at v, of k, that count: trailing slots whose
 * weights are zero (+0 or -0) in every lane are dropped, and the block is
 * skinned as a mesh with fewer influences.  Real meshes store most vertices'
 * unused slots as zeros at the end.  For finite palettes a term 0 * M
 * changes at most the sign of a zero, and the choice is the block's own
 * (absolute position), so no split of the range changes a bit. */
ALWAYS_INLINE uint32_t active_slots(const inputs *in, size_t v, uint32_t k, skin_weight_format wf)
{
    while (k > 1 && v_all_eq_i32(weight_bits(in, k - 1, v, wf), v_set1_i32(0))) --k;
    return k;
}

/* A block's class: its active slot count, plus 16 when every lane has the
 * same joint in each active slot (the block can use FETCH_UNIFORM). */
ALWAYS_INLINE uint32_t block_class(const inputs *in, size_t v, uint32_t k, skin_weight_format wf, int u8)
{
    k = active_slots(in, v, k, wf);
    if (!HAS_UNIFORM) return k;
    for (uint32_t i = 0; i < k; ++i) {
        const int32_t first = u8 ? ((const uint8_t *)in->joints[i])[v] : ((const uint16_t *)in->joints[i])[v];
        if (!v_all_eq_i32(joint_lanes(in, i, v, u8), v_set1_i32(first))) return k;
    }
    return k | 16u;
}

/* The block starting at vertex v (a multiple of W), of which only lanes
 * [lo, hi) are in the range: inputs are copied into zero-padded scratch so
 * the full-width code never reads past the streams.  The influences of
 * every lane inside the mesh are copied, not only the range's, so the
 * block's active slots, and with them every bit of its output, do not
 * depend on how the mesh is split. */
static void skin_partial(const kctx *c, const blocks_fn *fns, const inputs *in, const writer *wr, size_t v, int lo,
                         int hi)
{
    const skin_job *job = c->job;
    const skin_mesh_desc *m = job->mesh;
    const size_t jsize = m->joint_format == SKIN_JOINT_U8 ? 1 : 2;
    const size_t wsize = m->weight_format == SKIN_WEIGHT_F32 ? 4 : m->weight_format == SKIN_WEIGHT_UNORM16 ? 2 : 1;
    float attr[SKIN_COMPONENTS][W];
    uint16_t joints[SKIN_MAX_INFLUENCES][W];
    float weights[SKIN_MAX_INFLUENCES][W];
    inputs scratch = {{0}, {0}, {0}, v};
    memset(attr, 0, sizeof attr);
    memset(joints, 0, sizeof joints);
    memset(weights, 0, sizeof weights);
    const size_t n = (size_t)(hi - lo);
    for (int e = 0; e < SKIN_COMPONENTS; ++e) {
        if (!component_used(job, e)) continue;
        memcpy(&attr[e][lo], in->a[e] + v + lo, n * sizeof(float));
        scratch.a[e] = attr[e];
    }
    const size_t lanes = m->vertex_count - v < W ? m->vertex_count - v : W;
    for (uint32_t i = 0; i < m->influence_count; ++i) {
        memcpy(joints[i], (const char *)in->joints[i] + v * jsize, lanes * jsize);
        memcpy(weights[i], (const char *)in->weights[i] + v * wsize, lanes * wsize);
        scratch.joints[i] = joints[i];
        scratch.weights[i] = weights[i];
    }
    /* The block loop itself skins the block, into planar floats here (the
     * components the call does not write stay zeros, as apply's are). */
    SIMDE_ALIGN_TO_64 float block[SKIN_COMPONENTS][W];
    memset(block, 0, sizeof block);
    skin_job to_block = *job;
    to_block.soa = 1, to_block.streaming = 0, to_block.bounds = NULL, to_block.vector_format = SKIN_VECTOR_F32;
    for (int e = 0; e < SKIN_COMPONENTS; ++e) to_block.dst[e] = (char *)block[e];
    kctx block_c = *c;
    block_c.job = &to_block;
    writer block_wr;
    memset(&block_wr, 0, sizeof block_wr);
    const int moved = c->morph && morph_chunk(c, &scratch, 0, W);
    fns[active_slots(&scratch, 0, m->influence_count, m->weight_format) - 1](&block_c, &scratch, 0, W, &block_wr,
                                                                             moved);
    vf o[SKIN_COMPONENTS];
    for (int e = 0; e < SKIN_COMPONENTS; ++e) o[e] = v_loadu(block[e]);
    store_partial(job, wr, o, v, lo, hi);
}

/* The full blocks of [v, end), each run of blocks of one class through the
 * block function for that class.  The formats are constants (skin_runs
 * below picks the copy) and the streams a local copy, so classifying a
 * block reloads and tests neither after each run's call. */
ALWAYS_INLINE void skin_runs_as(const kctx *c, const blocks_fn *fns, const blocks_fn *uniform_fns, const inputs *in,
                                size_t v, size_t end, writer *wr, int moved, const skin_weight_format wf,
                                const int u8)
{
    const inputs streams = *in;
    const uint32_t k = c->job->mesh->influence_count;
    uint32_t cls = block_class(&streams, v, k, wf, u8);
    while (v < end) {
        size_t run_end = v + W;
        uint32_t next = 0;
        for (; run_end < end; run_end += W)
            if ((next = block_class(&streams, run_end, k, wf, u8)) != cls) break;
        (cls & 16u ? uniform_fns : fns)[(cls & 15u) - 1](c, in, v, run_end, wr, moved);
        v = run_end, cls = next;
    }
}

static void skin_runs(const kctx *c, const blocks_fn *fns, const blocks_fn *uniform_fns, const inputs *in, size_t v,
                      size_t end, writer *wr, int moved)
{
#define SKIN_RUNS_AS(wf)                                                                        \
    (c->joints_u8 ? skin_runs_as(c, fns, uniform_fns, in, v, end, wr, moved, wf, 1)             \
                  : skin_runs_as(c, fns, uniform_fns, in, v, end, wr, moved, wf, 0))
    switch (c->weight_format) {
    case SKIN_WEIGHT_UNORM16: SKIN_RUNS_AS(SKIN_WEIGHT_UNORM16); break;
    case SKIN_WEIGHT_UNORM8: SKIN_RUNS_AS(SKIN_WEIGHT_UNORM8); break;
    default: SKIN_RUNS_AS(SKIN_WEIGHT_F32); break;
    }
#undef SKIN_RUNS_AS
}

/* The same with morph targets: chunk by chunk, each morphed first, unless
 * no target touches it. */
static void skin_full(const kctx *c, const blocks_fn *fns, const blocks_fn *uniform_fns, const inputs *in, size_t v,
                      size_t end, writer *wr)
{
    if (!c->morph) {
        skin_runs(c, fns, uniform_fns, in, v, end, wr, 0);
        return;
    }
    while (v < end) {
        const size_t n = end - v < MORPH_CHUNK ? end - v : MORPH_CHUNK;
        skin_runs(c, fns, uniform_fns, in, v, v + n, wr, morph_chunk(c, in, v, n));
        v += n;
    }
}

/* ----------------------------------------------------------------- driver */

#if W == 16
/* Tables and palette copies are built per call: only worth it when the
 * range is long compared with the palette. */
static int fetch_kind(skin_method method, uint32_t joint_count, size_t count)
{
    if (count < 4 * (size_t)joint_count) return FETCH_ROWS;
    if (joint_count <= 32) return FETCH_TABLE2;
    if (joint_count <= 64) return FETCH_TABLE4;
    /* measured at 4 influences, 10k vertices: 100 joints 3.8 ns/vertex
     * against 4.9 by rows; at 64 joints the tables win (3.3 against 3.9) */
    return method == SKIN_LBS && joint_count <= 128 ? FETCH_AOS : FETCH_ROWS;
}

/* Per-component tables (64 floats each; s->stride components) for the
 * table kinds, 16 joints at a time: each whole 4-float row transposed as
 * FETCH_ROWS does, what is left of a joint one float at a time.  Joints
 * past the palette read zeros.  (Element by element, the tables of a
 * 24-joint palette cost 4% of a 1448-vertex call.) */
static void build_table(source *s, float *table, uint32_t joint_count, int kind)
{
    if (!s->base) return;
    static const float zero_row[4];
    const uint32_t width = kind == FETCH_TABLE2 ? 32 : 64, rows = s->stride / 4;
    for (uint32_t j0 = 0; j0 < width; j0 += W) {
        const float *joint[W];
        for (uint32_t l = 0; l < W; ++l)
            joint[l] = j0 + l < joint_count ? s->base + (size_t)(j0 + l) * s->stride : NULL;
        for (uint32_t row = 0; row < rows; ++row) {
            const float *r[W];
            vf out[4];
            for (int l = 0; l < W; ++l) r[l] = joint[l] ? joint[l] + 4 * row : zero_row;
            transpose_rows(r, out);
            for (int q = 0; q < 4; ++q) simde_mm512_store_ps(table + 64 * (4 * row + q) + j0, out[q]);
        }
        for (uint32_t e = 4 * rows; e < s->stride; ++e)
            for (int l = 0; l < W; ++l) table[64 * e + j0 + l] = joint[l] ? joint[l][e] : 0.0f;
    }
    s->table = table;
}

/* FETCH_AOS: the 3x4 matrices padded to 16 floats, 64-byte aligned. */
static void build_aos(source *s, float *copy, uint32_t joint_count)
{
    for (uint32_t j = 0; j < joint_count; ++j) {
        memcpy(copy + 16 * j, s->base + 12 * (size_t)j, 12 * sizeof(float));
        memset(copy + 16 * j + 12, 0, 4 * sizeof(float));
    }
    s->table = copy;
}
#endif

static int is_aligned(const void *p) { return ((uintptr_t)p % VEC_BYTES) == 0; }

/* Whether five or more of the attribute streams the call reads start
 * within 256 bytes of each other modulo 4 KiB (separate page-aligned
 * allocations do).  Vertex v of each then maps to the same L1 set, more
 * streams than it has ways, and a block, part of each line, loses the
 * lines before the next blocks read the rest.  Such streams are copied
 * chunk by chunk first, as morph targets' are.  LBS-4 p+n+t at 100k,
 * ns/vertex, aliased against apart:
 *  - 4 lanes: 10.5 against 7.6; copied, 8.7.
 *  - 8 lanes, streams 16 bytes past a 32-byte boundary (as malloc's large
 *    blocks are, so every other vector spans two lines): 7.7 against 5.3;
 *    copied, 6.1 (DQS 8.2 to 7.9).  With aligned streams the copy paid
 *    less than it cost (LBS 6.3 to 6.0, DQS 7.2 to 7.8), so only then.
 *  - 16 lanes (whole lines): slower copied, aligned or not. */
static int streams_alias(const skin_job *job)
{
    if (W == 16) return 0;
    const skin_mesh_desc *m = job->mesh;
    const float *s[SKIN_COMPONENTS] = {m->px, m->py, m->pz, m->nx, m->ny, m->nz, m->tx, m->ty, m->tz, m->tw};
    int count[16] = {0}, aligned = 1;
    for (int e = 0; e < SKIN_COMPONENTS; ++e)
        if (component_used(job, e)) ++count[((uintptr_t)s[e] >> 8) & 15], aligned &= is_aligned(s[e]);
    if (W == 8 && aligned) return 0;
    for (int b = 0; b < 16; ++b)
        if (count[b] >= 5) return 1;
    return 0;
}

void SKIN_KERNEL_NAME(const skin_job *job)
{
    const skin_mesh_desc *m = job->mesh;
    const skin_palette *pal = job->palette;
    kctx c;
    memset(&c, 0, sizeof c);
    c.job = job;
    c.joints_u8 = m->joint_format == SKIN_JOINT_U8;
    c.jlimit = v_joint_limit(job->joint_max, c.joints_u8);
    c.weight_format = m->weight_format;
    if (job->method == SKIN_LBS) {
        c.mat = (source){.base = pal->matrices, .stride = 12};
        c.nmat = (source){.base = pal->normal_matrices, .stride = 9};
    } else {
        c.dq = (source){.base = pal->dual_quats, .stride = 8};
        c.sc = (source){.base = pal->scales, .stride = 3};
    }
    c.kind = FETCH_ROWS;
    /* DQS: every sign + (then its own block functions, or on 4 lanes the flag) */
    const int signs_positive = job->method == SKIN_DQS && m->influence_count > 1 &&
                               signs_check_pays(job->count, pal->joint_count) &&
                               all_signs_positive(&c.dq, pal->joint_count);
    c.signs_positive = !SIGNS_FUNCTIONS && signs_positive;
#if W == 16
    /* 8 KiB of stack covers both: 21 tables of 64 floats, or 128 padded matrices */
    SIMDE_ALIGN_TO_64 float tables[128 * 16];
    SIMDE_ALIGN_TO_64 uint32_t signs[128];
    c.kind = fetch_kind(job->method, pal->joint_count, job->count);
    if (c.kind == FETCH_AOS) {
        build_aos(&c.mat, tables, pal->joint_count);
    } else if (IS_TABLE(c.kind)) {
        if (job->method == SKIN_LBS) {
            build_table(&c.mat, tables, pal->joint_count, c.kind);
            build_table(&c.nmat, tables + 12 * 64, pal->joint_count, c.kind);
        } else {
            build_table(&c.dq, tables, pal->joint_count, c.kind);
            build_table(&c.sc, tables + 8 * 64, pal->joint_count, c.kind);
            if (!signs_positive && signs_pay(job->count, pal->joint_count)) {
                build_signs(&c.dq, signs, pal->joint_count);
                c.signs = signs;
            }
        }
    }
#endif
    /* by active slot count */
    blocks_fn fns[SKIN_MAX_INFLUENCES], uniform_fns[SKIN_MAX_INFLUENCES];
    for (uint32_t k = 0; k < SKIN_MAX_INFLUENCES; ++k) {
        const blocks_fn *by_kind = signs_positive ? blocks_signs_positive[k] : blocks_table[k];
        fns[k] = by_kind[c.kind], uniform_fns[k] = by_kind[FETCH_UNIFORM];
    }

    inputs in = {{m->px, m->py, m->pz, m->nx, m->ny, m->nz, m->tx, m->ty, m->tz, m->tw}, {0}, {0}, 0};
    for (uint32_t i = 0; i < m->influence_count; ++i) in.joints[i] = m->joints[i], in.weights[i] = m->weights[i];

    writer wr;
    memset(&wr, 0, sizeof wr);
    wr.packed = packed_components(job);
    wr.tight = tight_packed_words(job);
    /* Streaming stores need every block's vectors aligned: blocks start at
     * multiples of W, so aligned bases are enough. */
    wr.stream = job->streaming;
    for (int e = 0; e < (wr.packed ? 1 : SKIN_COMPONENTS); ++e)
        if (component_used(job, e) && !is_aligned(job->dst[e])) wr.stream = 0;
    for (int e = 0; e < 3; ++e) wr.bmin[e] = v_set1(INFINITY), wr.bmax[e] = v_set1(-INFINITY);

    const size_t first = job->first, end = job->first + job->count;
    const size_t full_end = end - end % W;
    size_t v = first - first % W;
    morph_plan plan;
    if (job->morph_count || streams_alias(job)) morph_plan_init(&plan, job, v), c.morph = &plan;
    if (v < first) { /* head: the block holding `first` */
        int hi = end - v < W ? (int)(end - v) : W;
        skin_partial(&c, fns, &in, &wr, v, (int)(first - v), hi);
        v += W;
    }
    if (v < full_end) {
        skin_full(&c, fns, uniform_fns, &in, v, full_end, &wr);
        v = full_end;
    }
    if (v < end) skin_partial(&c, fns, &in, &wr, v, 0, (int)(end - v)); /* tail */

    if (job->streaming) simde_mm_sfence();
    if (job->bounds) {
        float lo[3][W], hi[3][W];
        for (int e = 0; e < 3; ++e) {
            v_storeu(lo[e], wr.bmin[e]);
            v_storeu(hi[e], wr.bmax[e]);
            for (int l = 0; l < W; ++l) {
                if (lo[e][l] < job->bounds[e]) job->bounds[e] = lo[e][l];
                if (hi[e][l] > job->bounds[3 + e]) job->bounds[3 + e] = hi[e][l];
            }
        }
    }
}
