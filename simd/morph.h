/* SPDX-License-Identifier: MIT */
/* Morph targets: a chunk's attributes with its active targets' deltas
 * added (morph_chunk), before the blocks read them.
 * Part of the kernel: simd/kernel.c includes it once, in its place in
 * the flow (see there), with the kernel's types and W. */

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
