/* SPDX-License-Identifier: MIT */
/* Influences: each chunk's joints and weights converted once (stage),
 * and each block's view of them (load_influences, lane_*).
 * Part of the kernel: simd/kernel.c includes it once, in its place in
 * the flow (see there), with the kernel's types and W. */

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
    if (!dq || k < 2 || !SIGNS_TESTED(c, method)) return;
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
