/* SPDX-License-Identifier: MIT */
/* Store: a block's ten components into the call's layout and format
 * (store_block, store_partial), and its bounds.
 * Part of the kernel: simd/kernel.c includes it once, in its place in
 * the flow (see there), with the kernel's types and W. */

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

/* Positions and normals each x y z back to back (12 bytes a vertex), and
 * tangents x y z w (16 bytes), each group filling its records (its own
 * array): the separate attribute buffers of glTF and three.js.  4 lanes
 * only, where the web and phones run (on 8 and 16 lanes the branch alone
 * grew the inlined stores by 140 KB). */
static int separate_xyz(const skin_job *job)
{
    if (W != 4 || job->soa || job->vector_format != SKIN_VECTOR_F32 || packed_components(job)) return 0;
    for (int g = 0; g < 3; ++g) {
        if ((g == 1 && !job->normals) || (g == 2 && !job->tangents)) continue;
        const int e0 = 3 * g, n = g == 2 ? 4 : 3;
        for (int e = 0; e < n; ++e)
            if (job->dst[e0 + e] != job->dst[e0] + 4 * e || job->dst_stride[e0 + e] != (size_t)(4 * n)) return 0;
    }
    return 1;
}

typedef struct writer {
    int packed;        /* K from packed_components, or 0 */
    int xyz;           /* separate_xyz */
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

#if W == 4
/* The separate_xyz layout, out of line: one copy, not one per block
 * function.  Streaming stays off (the groups' other components are not
 * aligned). */
static __attribute__((noinline)) void store_xyz(const skin_job *job, const vf *o, size_t v)
{
    UNROLL for (int g = 0; g < 2; ++g) {
        if (g == 1 && !job->normals) break;
        float *dst = (float *)(job->dst[3 * g] + v * 12);
        UNROLL for (int m = 0; m < 3; ++m) v_storeu(dst + m * W, v_pack3(o + 3 * g, m));
    }
    if (job->tangents) {
        vf t[4] = {o[6], o[7], o[8], o[9]};
        v_transpose4(&t[0], &t[1], &t[2], &t[3]);
        float *dst = (float *)(job->dst[6] + v * 16);
        UNROLL for (int l = 0; l < 4; ++l) v_storeu(dst + 4 * l, t[l]);
    }
}
#endif

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
#if W == 4
    } else if (wr->xyz) {
        store_xyz(job, o, v);
#endif
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
