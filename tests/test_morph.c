/* SPDX-License-Identifier: MIT */
/* Morph targets fused into skinning, under the ISA SKIN_ISA selects (CTest
 * runs this once per ISA): against the scalar reference, against morphing
 * first and skinning the morphed mesh (two passes), bit-identical under any
 * split and thread count, and every bad morph input with its own status.
 * Dense and sparse targets with position, normal and tangent deltas; 0, 1,
 * 8, 10 and 13 active targets (up to 10 dense on one component); weights
 * 0, negative and above 1; sparse lists touching blocks partly, the last
 * vertex, or nothing, and runs of consecutive vertices broken at random;
 * blocks with 1..8 active slots and uniform blocks, on 20, 40 and 100 joints. */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 5003, TARGETS = 10, DENSE = 5 };

typedef struct morphs {
    skin_morph_target t[TARGETS];
    float *deltas[TARGETS][9];
    uint32_t *indices[TARGETS];
} morphs;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) abort();
    return p;
}

/* groups: bit g set = deltas for group g (0 position, 1 normal, 2 tangent). */
static void make_target(morphs *m, int k, int groups, const uint32_t *indices, size_t count, uint64_t *seed)
{
    skin_morph_target *t = &m->t[k];
    const size_t n = indices ? count : N;
    if (indices) {
        m->indices[k] = xcalloc(count, sizeof(uint32_t));
        memcpy(m->indices[k], indices, count * sizeof(uint32_t));
        t->indices = m->indices[k];
        t->count = count;
    }
    const float **ptr[9] = {&t->dpx, &t->dpy, &t->dpz, &t->dnx, &t->dny, &t->dnz, &t->dtx, &t->dty, &t->dtz};
    for (int g = 0; g < 3; ++g) {
        if (!(groups >> g & 1)) continue;
        for (int c = 0; c < 3; ++c) {
            float *d = m->deltas[k][3 * g + c] = xcalloc(n, sizeof(float));
            for (size_t e = 0; e < n; ++e) d[e] = rig_uniform(seed, -0.2f, 0.2f);
            *ptr[3 * g + c] = d;
        }
    }
}

static void morphs_init(morphs *m)
{
    memset(m, 0, sizeof *m);
    uint64_t seed = 42;
    make_target(m, 0, 7, NULL, 0, &seed);
    make_target(m, 1, 1, NULL, 0, &seed);
    make_target(m, 2, 2, NULL, 0, &seed);
    make_target(m, 3, 3, NULL, 0, &seed);
    make_target(m, 4, 5, NULL, 0, &seed);
    uint32_t *list = xcalloc(N, sizeof(uint32_t));
    size_t count = 0;
    for (uint32_t v = 0; v < N; ++v) { /* 1 in 12, and 80% of [3000, 3700): runs broken at random */
        const uint64_t r = rig_next(&seed);
        if (v >= 3000 && v < 3700 ? r % 5 != 0 : r % 12 == 0) list[count++] = v;
    }
    make_target(m, 5, 7, list, count, &seed);
    const uint32_t few[] = {1, 2500, N - 1}; /* block 0 lane 1, the middle, the last vertex */
    make_target(m, 6, 1, few, 3, &seed);
    count = 0;
    for (uint32_t v = 37; v <= 100; ++v) list[count++] = v; /* blocks touched in part and whole */
    make_target(m, 7, 3, list, count, &seed);
    make_target(m, 8, 1, list, 0, &seed); /* sparse, empty */
    count = 0;
    for (uint32_t v = 0; v < N; v += 2) list[count++] = v;
    make_target(m, 9, 6, list, count, &seed);
    free(list);
}

static void morphs_free(morphs *m)
{
    for (int k = 0; k < TARGETS; ++k) {
        free(m->indices[k]);
        for (int e = 0; e < 9; ++e) free(m->deltas[k][e]);
    }
}

/* Weight sets: none, zeros, one sparse, one dense, eight, all ten. */
enum { SETS = 6 };
static const float weight_sets[SETS][TARGETS] = {
    {0},
    {0},
    {0, 0, 0, 0, 0, 0.7f, 0, 0, 0, 0},
    {1.0f, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0.5f, -0.3f, 1.7f, 0.2f, -1.2f, 0.9f, 2.0f, 0.4f, 0, 0},
    {0.5f, -0.3f, 1.7f, 0.2f, -1.2f, 0.9f, 2.0f, 0.4f, 1.0f, -0.6f},
};

typedef struct outbuf {
    float *planes[10];
} outbuf;

static void outbuf_init(outbuf *o)
{
    for (int c = 0; c < 10; ++c) o->planes[c] = xcalloc(N, sizeof(float));
}

static void outbuf_clear(outbuf *o)
{
    for (int c = 0; c < 10; ++c) memset(o->planes[c], 0xA5, N * sizeof(float));
}

static void outbuf_free(outbuf *o)
{
    for (int c = 0; c < 10; ++c) free(o->planes[c]);
}

/* attrs: 1 positions, 2 +normals, 3 +tangents. */
static skin_output soa_output(outbuf *o, int attrs)
{
    skin_output out = {.layout = SKIN_LAYOUT_SOA};
    for (int c = 0; c < 10; ++c)
        if (c < 3 || (c < 6 ? attrs >= 2 : attrs >= 3)) out.soa[c] = o->planes[c];
    return out;
}

static double max_rel_error(const outbuf *want, const outbuf *got, int attrs, size_t first, size_t end)
{
    double worst = 0.0;
    const int comps = attrs == 1 ? 3 : attrs == 2 ? 6 : 10;
    for (size_t v = first; v < end; ++v)
        for (int c = 0; c < comps; ++c) {
            double w = want->planes[c][v], g = got->planes[c][v];
            double err = fabs(w - g) / fmax(1.0, fabs(w));
            if (!(err <= worst)) worst = isnan(err) ? INFINITY : err;
        }
    return worst;
}

static int same_bits(const outbuf *a, const outbuf *b, int attrs)
{
    const int comps = attrs == 1 ? 3 : attrs == 2 ? 6 : 10;
    for (int c = 0; c < comps; ++c)
        if (memcmp(a->planes[c], b->planes[c], N * sizeof(float))) return 0;
    return 1;
}

static int compare_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The mesh morphed in double, as the first pass of a two-pass skinner. */
static void morph_first(const rig *r, const morphs *m, const float *w, float *streams[10])
{
    for (size_t v = 0; v < N; ++v) {
        double a[9];
        for (int e = 0; e < 9; ++e) a[e] = r->streams[e][v];
        for (int k = 0; k < TARGETS; ++k) {
            if (w[k] == 0.0f) continue;
            size_t e = v;
            if (m->t[k].indices) {
                const uint32_t *hit = bsearch(&(uint32_t){(uint32_t)v}, m->t[k].indices, m->t[k].count,
                                              sizeof(uint32_t), compare_u32);
                if (!hit) continue;
                e = (size_t)(hit - m->t[k].indices);
            }
            for (int c = 0; c < 9; ++c)
                if (m->deltas[k][c]) a[c] += (double)w[k] * m->deltas[k][c][e];
        }
        for (int c = 0; c < 9; ++c) streams[c][v] = (float)a[c];
        streams[9][v] = r->streams[9][v];
    }
}

static double worst_ref, worst_two;

static void test_against_reference_and_two_pass(rig *r, morphs *m, skin_isa isa)
{
    outbuf want, got, two;
    outbuf_init(&want), outbuf_init(&got), outbuf_init(&two);
    float *morphed[10];
    for (int c = 0; c < 10; ++c) morphed[c] = xcalloc(N, sizeof(float));
    for (int set = 0; set < SETS; ++set) {
        skin_palette pal = r->palette;
        pal.morph_weights = set ? weight_sets[set] : NULL;
        skin_mesh_desc plain = r->mesh;
        plain.px = morphed[0], plain.py = morphed[1], plain.pz = morphed[2];
        plain.nx = morphed[3], plain.ny = morphed[4], plain.nz = morphed[5];
        plain.tx = morphed[6], plain.ty = morphed[7], plain.tz = morphed[8], plain.tw = morphed[9];
        plain.morph_target_count = 0, plain.morph_targets = NULL;
        morph_first(r, m, weight_sets[set], morphed);
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
            for (int attrs = 1; attrs <= 3; ++attrs) {
                const size_t first = 5, count = N - 9; /* partial blocks at both ends */
                outbuf_clear(&want), outbuf_clear(&got), outbuf_clear(&two);
                skin_output ow = soa_output(&want, attrs), og = soa_output(&got, attrs), ot = soa_output(&two, attrs);
                CHECK_STATUS(skin_set_isa(SKIN_ISA_SCALAR), SKIN_OK);
                CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &ow, first, count), SKIN_OK);
                CHECK_STATUS(skin_set_isa(isa), SKIN_OK);
                CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &og, first, count), SKIN_OK);
                CHECK_STATUS(skin_mesh(&plain, &pal, (skin_method)method, &ot, first, count), SKIN_OK);
                const double e_ref = max_rel_error(&want, &got, attrs, first, first + count);
                const double e_two = max_rel_error(&two, &got, attrs, first, first + count);
                if (!(e_ref <= 1e-5) || !(e_two <= 1e-5))
                    fprintf(stderr, "set %d method %d attrs %d: vs reference %.3g, vs two passes %.3g\n", set,
                            method, attrs, e_ref, e_two);
                CHECK(e_ref <= 1e-5);
                CHECK(e_two <= 1e-5);
                worst_ref = fmax(worst_ref, e_ref), worst_two = fmax(worst_two, e_two);
                /* nothing outside the range is written */
                for (int c = 0; c < 3; ++c) {
                    uint32_t before, after;
                    memcpy(&before, &got.planes[c][first - 1], 4);
                    memcpy(&after, &got.planes[c][first + count], 4);
                    CHECK(before == 0xA5A5A5A5u && after == 0xA5A5A5A5u);
                }
            }
    }
    /* all-zero weights are exactly no morph (no target is active); the
     * eight-target set moves every attribute */
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
        skin_palette pal = r->palette;
        skin_output ow = soa_output(&want, 3), og = soa_output(&got, 3);
        outbuf_clear(&want), outbuf_clear(&got);
        pal.morph_weights = NULL;
        CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &ow, 0, N), SKIN_OK);
        pal.morph_weights = weight_sets[1];
        CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &og, 0, N), SKIN_OK);
        CHECK(same_bits(&want, &got, 3));
        pal.morph_weights = weight_sets[4];
        CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &og, 0, N), SKIN_OK);
        for (int c = 0; c < 9; ++c) {
            size_t moved = 0;
            for (size_t v = 0; v < N; ++v) moved += fabsf(want.planes[c][v] - got.planes[c][v]) > 1e-3f;
            CHECK(moved > N / 2);
        }
    }
    for (int c = 0; c < 10; ++c) free(morphed[c]);
    outbuf_free(&want), outbuf_free(&got), outbuf_free(&two);
}

/* More dense targets on a component than the kernels add in one sweep of
 * a chunk (four): 13 copies of the dense targets put 10 on each position
 * component, 8 on the normals' and 5 on the tangents'. */
static void test_many_dense(rig *r, morphs *m, skin_isa isa)
{
    enum { COPIES = 13 };
    skin_morph_target t[COPIES];
    float w[COPIES];
    for (int k = 0; k < COPIES; ++k) t[k] = m->t[k % DENSE], w[k] = (k % 2 ? -0.1f : 0.1f) * (float)(k + 1);
    skin_mesh_desc mesh = r->mesh;
    mesh.morph_target_count = COPIES, mesh.morph_targets = t;
    skin_palette pal = r->palette;
    pal.morph_weights = w;
    outbuf want, got;
    outbuf_init(&want), outbuf_init(&got);
    const size_t ranges[2][2] = {{5, N - 9}, {0, N}}; /* partial blocks inside, and at the mesh's end */
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
        for (int k = 0; k < 2; ++k) {
            const size_t first = ranges[k][0], count = ranges[k][1];
            outbuf_clear(&want), outbuf_clear(&got);
            skin_output ow = soa_output(&want, 3), og = soa_output(&got, 3);
            CHECK_STATUS(skin_set_isa(SKIN_ISA_SCALAR), SKIN_OK);
            CHECK_STATUS(skin_mesh(&mesh, &pal, (skin_method)method, &ow, first, count), SKIN_OK);
            CHECK_STATUS(skin_set_isa(isa), SKIN_OK);
            CHECK_STATUS(skin_mesh(&mesh, &pal, (skin_method)method, &og, first, count), SKIN_OK);
            const double e = max_rel_error(&want, &got, 3, first, first + count);
            CHECK(e <= 1e-5);
            worst_ref = fmax(worst_ref, e);
        }
    outbuf_free(&want), outbuf_free(&got);
}

/* Random split points, single vertices and threads give the bits of one call. */
static void test_splits(rig *r)
{
    outbuf whole, part;
    outbuf_init(&whole), outbuf_init(&part);
    uint64_t seed = 7;
    skin_palette pal = r->palette;
    pal.morph_weights = weight_sets[5];
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
        skin_output ow = soa_output(&whole, 3), op = soa_output(&part, 3);
        outbuf_clear(&whole);
        CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &ow, 0, N), SKIN_OK);
        for (int trial = 0; trial < 4; ++trial) {
            outbuf_clear(&part);
            size_t v = 0;
            while (v < N) {
                size_t n = trial == 0 ? 1 : (size_t)(rig_next(&seed) % 97);
                if (n > N - v) n = N - v;
                CHECK_STATUS(skin_mesh(&r->mesh, &pal, (skin_method)method, &op, v, n), SKIN_OK);
                v += n;
            }
            CHECK(same_bits(&whole, &part, 3));
        }
        const int threads[] = {1, 2, 3, 8, 0};
        for (int i = 0; i < 5; ++i) {
            outbuf_clear(&part);
            CHECK_STATUS(skin_mesh_parallel(&r->mesh, &pal, (skin_method)method, &op, threads[i]), SKIN_OK);
            CHECK(same_bits(&whole, &part, 3));
        }
    }
    outbuf_free(&whole), outbuf_free(&part);
}

static void test_bad_input(rig *r, morphs *m)
{
    outbuf o;
    outbuf_init(&o);
    skin_output out = soa_output(&o, 3);
    skin_mesh_desc mesh = r->mesh;
    skin_palette pal = r->palette;
    float w[TARGETS];
    memcpy(w, weight_sets[5], sizeof w);
    pal.morph_weights = w;
    skin_validation_report rep;

    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_OK);
    CHECK_INT(rep.morph_target, -1);

    /* non-finite weights: refused per call, nothing written */
    outbuf_clear(&o);
    w[3] = NAN;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_MORPH_WEIGHT);
    w[3] = INFINITY;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_DQS, &out, 0, N), SKIN_ERROR_MORPH_WEIGHT);
    CHECK_STATUS(skin_mesh_parallel(&mesh, &pal, SKIN_DQS, &out, 2), SKIN_ERROR_MORPH_WEIGHT);
    w[3] = 0.2f;
    uint32_t bits;
    memcpy(&bits, &o.planes[0][0], 4);
    CHECK(bits == 0xA5A5A5A5u);

    /* a partly set delta group, targets missing: NULL_ARGUMENT, also in validation */
    const float *dny = m->t[3].dny;
    m->t[3].dny = NULL;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, NULL), SKIN_ERROR_NULL_ARGUMENT);
    pal.morph_weights = NULL; /* a bad mesh stays bad without weights */
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_NULL_ARGUMENT);
    pal.morph_weights = w;
    m->t[3].dny = dny;
    const float *dpx = m->t[5].dpx; /* whichever pointer of the group is NULL */
    m->t[5].dpx = NULL;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, NULL), SKIN_ERROR_NULL_ARGUMENT);
    m->t[5].dpx = dpx;
    mesh.morph_targets = NULL;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_NULL_ARGUMENT);
    mesh.morph_targets = m->t;

    /* unsorted, repeated and out-of-range sparse lists: validation names
     * them; skinning with them stays in bounds (ASan runs this) */
    uint32_t *idx = m->indices[7];
    const uint32_t saved = idx[3];
    idx[3] = idx[1];
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_ERROR_MORPH_INDEX_ORDER);
    CHECK_INT(rep.morph_target, 7);
    CHECK_INT(rep.vertex, idx[1]);
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_OK);
    idx[3] = 4000000000u;
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_ERROR_MORPH_INDEX_RANGE);
    CHECK_INT(rep.morph_target, 7);
    CHECK(rep.vertex == 4000000000u); /* the index's value, as for the order */
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_DQS, &out, 0, N), SKIN_OK);
    idx[3] = N;
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_ERROR_MORPH_INDEX_RANGE);
    idx[3] = saved;
    const uint32_t *descending = m->indices[5];
    uint32_t *reversed = xcalloc(m->t[5].count, sizeof(uint32_t));
    for (size_t e = 0; e < m->t[5].count; ++e) reversed[e] = descending[m->t[5].count - 1 - e];
    m->t[5].indices = reversed;
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_ERROR_MORPH_INDEX_ORDER);
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 17, N - 40), SKIN_OK);
    m->t[5].indices = descending;
    free(reversed);

    /* non-finite deltas: validation reports target, vertex and component */
    float *d = m->deltas[9][4]; /* target 9: normals and tangents, sparse on even vertices */
    const float keep = d[6];
    d[6] = NAN;
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_ERROR_NON_FINITE);
    CHECK_INT(rep.morph_target, 9);
    CHECK_INT(rep.vertex, m->indices[9][6]);
    CHECK_INT(rep.slot, 4); /* dny */
    d[6] = keep;
    d = m->deltas[1][2];
    d[100] = -INFINITY;
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_ERROR_NON_FINITE);
    CHECK_INT(rep.morph_target, 1);
    CHECK_INT(rep.vertex, 100);
    CHECK_INT(rep.slot, 2);
    d[100] = 0.0f;
    CHECK_STATUS(skin_validate(&mesh, pal.joint_count, &rep), SKIN_OK);

    /* at most SKIN_MAX_ACTIVE_MORPH_TARGETS non-zero weights; any number of zeros */
    enum { MANY = SKIN_MAX_ACTIVE_MORPH_TARGETS + 20 };
    skin_morph_target many[MANY];
    float many_w[MANY] = {0};
    for (int k = 0; k < MANY; ++k) many[k] = m->t[k % TARGETS];
    mesh.morph_target_count = MANY;
    mesh.morph_targets = many;
    pal.morph_weights = many_w;
    for (int k = 0; k < SKIN_MAX_ACTIVE_MORPH_TARGETS; ++k) many_w[k + 10] = 0.01f;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_OK);
    many_w[0] = 0.01f;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_INVALID_COUNT);
    /* a non-finite weight after the 64th active one: its own status still */
    many_w[MANY - 1] = NAN;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, N), SKIN_ERROR_MORPH_WEIGHT);
    many_w[MANY - 1] = 0.0f;

    CHECK(strcmp(skin_status_string(SKIN_ERROR_MORPH_WEIGHT), "unknown status") != 0);
    CHECK(strcmp(skin_status_string(SKIN_ERROR_MORPH_INDEX_ORDER), "unknown status") != 0);
    CHECK(strcmp(skin_status_string(SKIN_ERROR_MORPH_INDEX_RANGE), "unknown status") != 0);
    outbuf_free(&o);
}

/* A rig's blocks of every kind the kernels specialise on: after vertex
 * 1024, runs of vertices whose trailing slots are zero (k - 1 .. 1 active
 * slots, so every count of active slots occurs) and, from 3/4 of the
 * mesh on, vertices that share each slot's joint in groups of 16 (uniform
 * blocks on every lane width). */
static void vary_blocks(rig *r)
{
    const uint32_t k = r->mesh.influence_count;
    for (size_t v = 1024; v < 3 * N / 4; ++v) {
        const uint32_t active = k - (uint32_t)((v - 1024) / 256 % k); /* k, k-1, ..., 1 */
        for (uint32_t i = active; i < k; ++i) ((float *)r->weights[i])[v] = 0.0f;
    }
    for (size_t v = 3 * N / 4; v < N; ++v)
        for (uint32_t i = 0; i < k; ++i) ((uint8_t *)r->joints[i])[v] = ((uint8_t *)r->joints[i])[v & ~(size_t)15];
}

int main(void)
{
    skin_isa isa;
    const int isa_status = rig_isa_under_test(&isa);
    if (isa_status) return isa_status;
    rig r;
    const rig_options opt = {N, 40, 4, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 3};
    if (rig_random(&r, &opt)) return 1;
    morphs m;
    morphs_init(&m);
    r.mesh.morph_target_count = TARGETS;
    r.mesh.morph_targets = m.t;
    CHECK_STATUS(skin_validate(&r.mesh, r.palette.joint_count, NULL), SKIN_OK);

    test_against_reference_and_two_pass(&r, &m, isa);
    test_many_dense(&r, &m, isa);
    /* Rigs whose blocks take every other block function: 1..8 active
     * slots, uniform blocks, and (AVX-512) 20 joints' short tables and
     * 100 joints' whole-matrix blend. */
    static const rig_options others[] = {{N, 100, 8, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 5},
                                         {N, 20, 3, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 6}};
    for (size_t o = 0; o < sizeof others / sizeof others[0]; ++o) {
        rig v;
        if (rig_random(&v, &others[o])) return 1;
        vary_blocks(&v);
        v.mesh.morph_target_count = TARGETS;
        v.mesh.morph_targets = m.t;
        test_against_reference_and_two_pass(&v, &m, isa);
        rig_free(&v);
    }
    printf("largest relative error: vs the reference %.3g, vs morph-then-skin %.3g\n", worst_ref, worst_two);
    test_splits(&r);
    test_bad_input(&r, &m);

    morphs_free(&m);
    rig_free(&r);
    char name[64];
    snprintf(name, sizeof name, "test_morph (%s)", skin_isa_name(isa));
    return check_finish(name);
}
