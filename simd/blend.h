/* SPDX-License-Identifier: MIT */
/* Blend: the block's matrix from its influences, LBS's weighted rows
 * (lbs) or DQS's dual quaternions as a matrix (dqs).
 * Part of the kernel: simd/kernel.c includes it once, in its place in
 * the flow (see there), with the kernel's types and W. */

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
