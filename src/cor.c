/* SPDX-License-Identifier: MIT */
/* Optimized centers of rotation (Le and Hodgins, SIGGRAPH 2016), computed
 * once per mesh: vertex i's center is the area-weighted average of the
 * triangles' centroids, each triangle counted by how similar its skinning
 * weights (the mean of its corners') are to the vertex's:
 *   s(a, b) = sum over joint pairs j != k of
 *             a_j a_k b_j b_k exp(-(a_j b_k - a_k b_j)^2 / sigma^2).
 * A term needs both joints in both weight sets, so only the triangles that
 * share a pair of joints with the vertex are visited (a sorted list of
 * (pair, triangle) entries), and vertices whose influences are equal share
 * one sum.  Sums are in double precision. */
#include "skin_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef SKIN_HAVE_THREADS
#define SKIN_HAVE_THREADS 0
#endif
#if SKIN_HAVE_THREADS
#include <pthread.h>
#endif

#define TRI_JOINTS (3 * SKIN_MAX_INFLUENCES)

typedef struct weight_set { /* a vertex's weights above zero, joints ascending */
    uint32_t count;
    uint16_t j[SKIN_MAX_INFLUENCES];
    double w[SKIN_MAX_INFLUENCES];
} weight_set;

/* A vertex's weight set as a sort key: equal sets become neighbours. */
typedef struct vertex_key {
    weight_set s;
    uint32_t v;
} vertex_key;

typedef struct triangle {
    double area, centroid[3];
    uint32_t count; /* the mean weight set of its corners, joints ascending */
    uint16_t j[TRI_JOINTS];
    float w[TRI_JOINTS];
} triangle;

typedef struct cor_work {
    const skin_mesh_desc *mesh;
    const triangle *tris;
    const uint32_t *pair_keys, *pair_tris; /* sorted by key: (j << 16 | k, triangle) */
    size_t pair_count;
    const vertex_key *keys;    /* every vertex, sorted by weight set */
    const size_t *group_first; /* group g: keys[group_first[g] .. group_first[g + 1]) */
    size_t group_count;
    double inv_sigma2;
    float *const *centers;
    size_t undefined; /* (per worker) */
} cor_work;

/* Vertex v's weights above zero, merged per joint, joints ascending. */
static void vertex_weights(const skin_mesh_desc *m, size_t v, weight_set *s)
{
    s->count = 0;
    for (uint32_t i = 0; i < m->influence_count; ++i) {
        const uint16_t j = (uint16_t)skin_joint_at(m, i, v);
        double w; /* (in double: skin_weight_at's unorm weights are floats) */
        switch (m->weight_format) {
        case SKIN_WEIGHT_UNORM16: w = ((const uint16_t *)m->weights[i])[v] / 65535.0; break;
        case SKIN_WEIGHT_UNORM8: w = ((const uint8_t *)m->weights[i])[v] / 255.0; break;
        default: w = ((const float *)m->weights[i])[v]; break;
        }
        if (!(w > 0)) continue;
        uint32_t p = 0;
        while (p < s->count && s->j[p] < j) ++p;
        if (p < s->count && s->j[p] == j) {
            s->w[p] += w;
            continue;
        }
        memmove(&s->j[p + 1], &s->j[p], (s->count - p) * sizeof s->j[0]);
        memmove(&s->w[p + 1], &s->w[p], (s->count - p) * sizeof s->w[0]);
        s->j[p] = j, s->w[p] = w, ++s->count;
    }
}

/* Weight sets in order (count, joints, weights), 0 when equal. */
static int compare_sets(const weight_set *a, const weight_set *b)
{
    if (a->count != b->count) return a->count < b->count ? -1 : 1;
    for (uint32_t i = 0; i < a->count; ++i) {
        if (a->j[i] != b->j[i]) return a->j[i] < b->j[i] ? -1 : 1;
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    }
    return 0;
}

static int compare_keys(const void *pa, const void *pb)
{
    const vertex_key *a = pa, *b = pb;
    const int c = compare_sets(&a->s, &b->s);
    return c ? c : a->v < b->v ? -1 : a->v > b->v;
}

static int compare_u64(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The first entry of the pair list with this key, or pair_count. */
static size_t pair_lower_bound(const cor_work *w, uint32_t key)
{
    size_t lo = 0, hi = w->pair_count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (w->pair_keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The similarity of weight set a with triangle t's mean weights. */
static double similarity(const weight_set *a, const triangle *t, double inv_sigma2)
{
    double bw[SKIN_MAX_INFLUENCES]; /* t's weight of each of a's joints (0: none) */
    for (uint32_t i = 0, p = 0; i < a->count; ++i) {
        while (p < t->count && t->j[p] < a->j[i]) ++p;
        bw[i] = p < t->count && t->j[p] == a->j[i] ? t->w[p] : 0.0;
    }
    double s = 0;
    for (uint32_t i = 0; i < a->count; ++i)
        for (uint32_t k = i + 1; k < a->count; ++k) {
            if (bw[i] == 0 || bw[k] == 0) continue;
            const double d = a->w[i] * bw[k] - a->w[k] * bw[i];
            s += a->w[i] * a->w[k] * bw[i] * bw[k] * exp(-d * d * inv_sigma2);
        }
    return 2 * s; /* each unordered pair stands for (j, k) and (k, j) */
}

/* Groups [g0, g1): each group's sum, its center written for its vertices;
 * stamp (one per triangle, zeroed) marks the triangles a group has seen. */
static void run_groups(cor_work *w, size_t g0, size_t g1, size_t *stamp)
{
    const skin_mesh_desc *m = w->mesh;
    for (size_t g = g0; g < g1; ++g) {
        const weight_set *a = &w->keys[w->group_first[g]].s;
        double num[3] = {0, 0, 0}, den = 0;
        for (uint32_t i = 0; i < a->count; ++i)
            for (uint32_t k = i + 1; k < a->count; ++k) {
                const uint32_t key = (uint32_t)a->j[i] << 16 | a->j[k];
                for (size_t e = pair_lower_bound(w, key); e < w->pair_count && w->pair_keys[e] == key; ++e) {
                    const uint32_t t = w->pair_tris[e];
                    if (stamp[t] == g + 1) continue;
                    stamp[t] = g + 1;
                    const triangle *tri = &w->tris[t];
                    const double s = similarity(a, tri, w->inv_sigma2) * tri->area;
                    for (int c = 0; c < 3; ++c) num[c] += s * tri->centroid[c];
                    den += s;
                }
            }
        for (size_t o = w->group_first[g]; o < w->group_first[g + 1]; ++o) {
            const uint32_t v = w->keys[o].v;
            if (den > 0) {
                for (int c = 0; c < 3; ++c) w->centers[c][v] = (float)(num[c] / den);
            } else { /* no similar triangle: the vertex itself, so CoR skinning is LBS */
                w->centers[0][v] = m->px[v], w->centers[1][v] = m->py[v], w->centers[2][v] = m->pz[v];
                ++w->undefined;
            }
        }
    }
}

#if SKIN_HAVE_THREADS
typedef struct cor_thread {
    cor_work work;
    size_t g0, g1;
    size_t *stamp;
} cor_thread;

static void *cor_thread_main(void *arg)
{
    cor_thread *t = arg;
    run_groups(&t->work, t->g0, t->g1, t->stamp);
    return NULL;
}
#endif

/* Groups over `threads` threads (the calling one among them), each with its
 * own stamps; a thread that cannot start leaves its share to the caller.
 * Returns 0 when out of memory. */
static int run_all(cor_work *w, size_t tri_count, uint32_t threads)
{
#if SKIN_HAVE_THREADS
    if (threads > w->group_count) threads = (uint32_t)(w->group_count ? w->group_count : 1);
    if (threads > 64) threads = 64;
    if (threads > 1) {
        cor_thread t[64];
        pthread_t id[64];
        int started[64] = {0};
        size_t *stamps = calloc((size_t)threads * (tri_count + 1), sizeof *stamps);
        if (!stamps) return 0;
        for (uint32_t i = 0; i < threads; ++i) {
            t[i].work = *w, t[i].work.undefined = 0;
            t[i].g0 = w->group_count * i / threads, t[i].g1 = w->group_count * (i + 1) / threads;
            t[i].stamp = stamps + (size_t)i * (tri_count + 1);
            if (i > 0) started[i] = pthread_create(&id[i], NULL, cor_thread_main, &t[i]) == 0;
        }
        for (uint32_t i = 0; i < threads; ++i)
            if (!started[i]) cor_thread_main(&t[i]);
        for (uint32_t i = 0; i < threads; ++i) {
            if (started[i]) pthread_join(id[i], NULL);
            w->undefined += t[i].work.undefined;
        }
        free(stamps);
        return 1;
    }
#endif
    (void)threads;
    size_t *stamp = calloc(tri_count + 1, sizeof *stamp);
    if (!stamp) return 0;
    run_groups(w, 0, w->group_count, stamp);
    free(stamp);
    return 1;
}

/* Triangle t's area, centroid and mean weights; 0 when its area is zero
 * or not finite. */
static int make_triangle(const skin_mesh_desc *m, const size_t v[3], triangle *t)
{
    double p[3][3];
    for (int c = 0; c < 3; ++c) p[c][0] = m->px[v[c]], p[c][1] = m->py[v[c]], p[c][2] = m->pz[v[c]];
    const double e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    const double e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    t->area = 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(t->area > 0) || !isfinite(t->area)) return 0;
    for (int c = 0; c < 3; ++c) t->centroid[c] = (p[0][c] + p[1][c] + p[2][c]) / 3;
    weight_set s[3];
    for (int c = 0; c < 3; ++c) vertex_weights(m, v[c], &s[c]);
    uint32_t at[3] = {0, 0, 0};
    t->count = 0;
    for (;;) { /* merge the corners' sets, joints ascending */
        uint32_t j = UINT32_MAX;
        for (int c = 0; c < 3; ++c)
            if (at[c] < s[c].count && s[c].j[at[c]] < j) j = s[c].j[at[c]];
        if (j == UINT32_MAX) break;
        double sum = 0;
        for (int c = 0; c < 3; ++c)
            if (at[c] < s[c].count && s[c].j[at[c]] == j) sum += s[c].w[at[c]++];
        t->j[t->count] = (uint16_t)j, t->w[t->count] = (float)(sum / 3), ++t->count;
    }
    return 1;
}

static size_t index_at(const void *indices, skin_index_format f, size_t i)
{
    return f == SKIN_INDEX_U16 ? ((const uint16_t *)indices)[i] : ((const uint32_t *)indices)[i];
}

skin_status skin_cor_compute(const skin_mesh_desc *mesh, const void *indices, skin_index_format index_format,
                             size_t index_count, float sigma, uint32_t threads, float *const centers[3],
                             skin_cor_report *report)
{
    if (report) memset(report, 0, sizeof *report);
    if (!mesh || !centers || !centers[0] || !centers[1] || !centers[2] || (index_count && !indices))
        return SKIN_ERROR_NULL_ARGUMENT;
    if (index_format != SKIN_INDEX_U16 && index_format != SKIN_INDEX_U32) return SKIN_ERROR_INVALID_FORMAT;
    if (index_count % 3 || mesh->vertex_count > UINT32_MAX || index_count / 3 > UINT32_MAX)
        return SKIN_ERROR_INVALID_COUNT;
    if (!(sigma >= 0) || isinf(sigma)) return SKIN_ERROR_INVALID_VALUE;
    const skin_mesh_desc *m = mesh;
    if (m->influence_count < 1 || m->influence_count > SKIN_MAX_INFLUENCES) return SKIN_ERROR_INVALID_INFLUENCES;
    if ((m->joint_format != SKIN_JOINT_U8 && m->joint_format != SKIN_JOINT_U16) ||
        (m->weight_format != SKIN_WEIGHT_F32 && m->weight_format != SKIN_WEIGHT_UNORM16 &&
         m->weight_format != SKIN_WEIGHT_UNORM8))
        return SKIN_ERROR_INVALID_FORMAT;
    const size_t n = m->vertex_count;
    if (n && (!m->px || !m->py || !m->pz)) return SKIN_ERROR_NULL_ARGUMENT;
    for (uint32_t i = 0; i < m->influence_count; ++i)
        if (n && (!m->joints[i] || !m->weights[i])) return SKIN_ERROR_NULL_ARGUMENT;
    for (size_t v = 0; v < n; ++v) {
        if (!isfinite(m->px[v]) || !isfinite(m->py[v]) || !isfinite(m->pz[v])) return SKIN_ERROR_NON_FINITE;
        if (m->weight_format == SKIN_WEIGHT_F32)
            for (uint32_t i = 0; i < m->influence_count; ++i) {
                const float w = ((const float *)m->weights[i])[v];
                if (!isfinite(w) || w < 0) return SKIN_ERROR_INVALID_WEIGHT;
            }
    }
    for (size_t i = 0; i < index_count; ++i)
        if (index_at(indices, index_format, i) >= n) return SKIN_ERROR_INDEX_RANGE;

    const size_t tri_count = index_count / 3;
    skin_status st = SKIN_OK;
    triangle *tris = malloc((tri_count + 1) * sizeof *tris);
    size_t *group_first = malloc((n + 2) * sizeof *group_first);
    vertex_key *keys = malloc((n + 1) * sizeof *keys);
    uint64_t *entries = NULL;
    uint32_t *pair_keys = NULL, *pair_tris = NULL;
    if (!tris || !group_first || !keys) {
        st = SKIN_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    /* the triangles, and per pair of their joints an entry */
    size_t kept = 0, entry_count = 0, degenerate = 0;
    for (size_t t = 0; t < tri_count; ++t) {
        const size_t v[3] = {index_at(indices, index_format, 3 * t), index_at(indices, index_format, 3 * t + 1),
                             index_at(indices, index_format, 3 * t + 2)};
        if (!make_triangle(m, v, &tris[kept])) {
            ++degenerate;
            continue;
        }
        entry_count += (size_t)tris[kept].count * (tris[kept].count - 1) / 2;
        ++kept;
    }
    entries = malloc((entry_count + 1) * sizeof *entries);
    pair_keys = malloc((entry_count + 1) * sizeof *pair_keys);
    pair_tris = malloc((entry_count + 1) * sizeof *pair_tris);
    if (!entries || !pair_keys || !pair_tris) {
        st = SKIN_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    size_t e = 0;
    for (size_t t = 0; t < kept; ++t)
        for (uint32_t i = 0; i < tris[t].count; ++i)
            for (uint32_t k = i + 1; k < tris[t].count; ++k)
                entries[e++] = (uint64_t)((uint32_t)tris[t].j[i] << 16 | tris[t].j[k]) << 32 | t;
    qsort(entries, entry_count, sizeof *entries, compare_u64);
    for (size_t i = 0; i < entry_count; ++i)
        pair_keys[i] = (uint32_t)(entries[i] >> 32), pair_tris[i] = (uint32_t)entries[i];

    /* vertices grouped by weight set */
    for (size_t v = 0; v < n; ++v) vertex_weights(m, v, &keys[v].s), keys[v].v = (uint32_t)v;
    qsort(keys, n, sizeof *keys, compare_keys);
    size_t groups = 0;
    for (size_t o = 0; o < n; ++o)
        if (o == 0 || compare_sets(&keys[o - 1].s, &keys[o].s)) group_first[groups++] = o;
    group_first[groups] = n;

    const double sig = sigma > 0 ? sigma : 0.1;
    cor_work w = {m, tris, pair_keys, pair_tris, entry_count, keys, group_first, groups, 1 / (sig * sig), centers, 0};
    if (!run_all(&w, kept, threads ? threads : 1)) {
        st = SKIN_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    if (report) {
        report->undefined_vertices = w.undefined;
        report->degenerate_triangles = degenerate;
        report->unique_influences = groups;
    }
done:
    free(tris), free(group_first), free(keys), free(entries), free(pair_keys), free(pair_tris);
    return st;
}
