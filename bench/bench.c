/* SPDX-License-Identifier: MIT */
/* skin-bench: skinning kernels per ISA against the per-vertex SIMD loop
 * (baseline.h), a memory-floor probe that moves the same bytes with no math
 * (floor.h) and an arithmetic floor that does the math and moves no more
 * than it must (arith.h).  One run measures everything, then prints a
 * summary, the details and, with --check, the targets (TARGETS below). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "arith.h"
#include "floor.h"
#include "rig.h"
#include "skin/skin.h"
#ifdef SKIN_BENCH_MODELS_DIR
#include "skin/skin_assets.h"
#endif
#include "vk/bench_vk.h" /* its functions only where SKIN_BENCH_HAVE_VK */

enum { ATTR_P = 1, ATTR_PN = 2, ATTR_PNT = 3 };
/* besides SKIN_LBS, SKIN_DQS; METHOD_ARITH: LBS's arithmetic floor, METHOD_ARITH_DQS: DQS's */
enum { METHOD_FLOOR = 0, METHOD_BASELINE = 3, METHOD_ARITH = 4, METHOD_ARITH_DQS = 5 };

/* Output formats of normals and tangents (skin_output.vector_format). */
enum { OUT_F32 = SKIN_VECTOR_F32, OUT_SNORM16 = SKIN_VECTOR_SNORM16, OUT_1010102 = SKIN_VECTOR_1010102 };
static const char *const output_format_names[] = {"f32", "snorm16", "1010102"};

typedef struct bcase {
    int method;    /* METHOD_*, SKIN_LBS or SKIN_DQS */
    skin_isa isa;  /* unused (0) for the floor; the build's tier for the baseline */
    int k;         /* influences */
    int attrs;     /* ATTR_* */
    int soa;       /* output layout; the floor always writes contiguously */
    int packed;    /* u8 joints + unorm16 weights, else u16 + f32 */
    int streaming; /* SKIN_OUTPUT_STREAMING */
    size_t n;
    int threads;
    int ofmt;      /* OUT_*: normal/tangent output format */
    int rig;       /* RIG_* */
    int morph;     /* MORPH_*: morph targets, fused or as a pass of their own */
    int busy;      /* measured with every core kept busy (spinners_start) */
} bcase;

/* Morph cases: MORPH_TARGETS targets with position and normal deltas (as
 * glTF files carry them), all active; dense, or sparse over a tenth of the
 * mesh: one region (a face) that every target touches in part.  The
 * two-pass cases morph into scratch streams first, then skin those. */
enum { MORPH_NONE, MORPH_DENSE, MORPH_SPARSE, MORPH_DENSE_2PASS, MORPH_SPARSE_2PASS, MORPH_KINDS };
enum { MORPH_TARGETS = 8 };
static const double SPARSE_FRACTION = 0.1;
static const char *const morph_kind_names[] = {"none", "dense", "sparse", "dense", "sparse"};

/* Rigs: random joints (B.joints of them), or the coherent rig of
 * tests/support (smooth joints along the vertex order, mostly 1-2
 * influences), both 64-vertex-aligned copies in a dataset. */
enum { RIG_RANDOM = 0, RIG_COHERENT = 1, RIG_ASSET = 2 /* + index into ASSETS */ };

typedef struct result {
    bcase c;
    int ok; /* 0: could not run (e.g. 2 threads in a build without threads) */
    double med, min, bytes;
} result;

static struct {
    int quick, min_reps;
    uint32_t joints;
    skin_isa only;  /* SKIN_ISA_AUTO: every supported ISA */
    skin_isa isas[8];
    int isa_count;
    skin_isa best;
    int threads_ok;
    result *res;
    size_t res_count, res_cap;
    struct pair *pairs;
    size_t pair_count, pair_cap;
    volatile uint32_t sink;
} B = {.min_reps = 15, .joints = 64};

/* ------------------------------------------------------------ utilities */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void *xalloc(size_t bytes)
{
    /* 64-byte aligned, size rounded up as aligned_alloc requires. */
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    if (!p) {
        fprintf(stderr, "skin-bench: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int nproc(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* The 1-minute load average (Linux), or -1: timings on a busy machine,
 * 2-thread ones above all, say little. */
static double load_average(void)
{
    double l = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1.0;
        fclose(f);
    }
    return l;
}

static const char *asset_name(int a);
static const char *rig_name(int r)
{
    static char random[32];
    snprintf(random, sizeof random, "random%u", (unsigned)B.joints);
    return r >= RIG_ASSET ? asset_name(r - RIG_ASSET) : r == RIG_COHERENT ? "coherent" : random;
}

static const char *attr_name(int a) { return a == ATTR_P ? "p" : a == ATTR_PN ? "pn" : "pnt"; }
static const char *method_name(int m)
{
    return m == SKIN_LBS ? "lbs" : m == SKIN_DQS ? "dqs" : m == METHOD_BASELINE ? "baseline"
         : m == METHOD_ARITH ? "arith" : m == METHOD_ARITH_DQS ? "arith_dqs" : "floor";
}
static int is_arith(int m) { return m == METHOD_ARITH || m == METHOD_ARITH_DQS; }
static size_t float_streams(int attrs) { return attrs == ATTR_P ? 3 : attrs == ATTR_PN ? 6 : 10; }
static size_t jsize(int packed) { return packed ? 1 : 2; }
static size_t wsize(int packed) { return packed ? 2 : 4; }

/* Bytes of one normal or tangent in an output format. */
static size_t vector_bytes(int ofmt, int tangent)
{
    return ofmt == OUT_SNORM16 ? 8 : ofmt == OUT_1010102 ? 4 : tangent ? 16 : 12;
}

/* The interleaved output vertex: position, then normal, then tangent. */
static size_t out_stride(const bcase *c)
{
    return 12 + (c->attrs >= ATTR_PN ? vector_bytes(c->ofmt, 0) : 0) +
           (c->attrs >= ATTR_PNT ? vector_bytes(c->ofmt, 1) : 0);
}

static int is_dense(int morph) { return morph == MORPH_DENSE || morph == MORPH_DENSE_2PASS; }

/* Delta streams of the dense morph cases: every target moves positions,
 * and normals where the case has them. */
static size_t dense_delta_streams(const bcase *c) { return MORPH_TARGETS * (size_t)(c->attrs >= ATTR_PN ? 6 : 3); }

static double case_bytes(const bcase *c)
{
    /* Input floats + joints (not read by the arithmetic floor) + weights,
     * and the output vertex; with dense morph targets, their deltas too
     * (sparse ones are left out). */
    size_t f = float_streams(c->attrs) * 4;
    const size_t joint_bytes = is_arith(c->method) ? 0 : jsize(c->packed);
    return (double)(f + out_stride(c) + (size_t)c->k * (joint_bytes + wsize(c->packed)) +
                    (is_dense(c->morph) ? dense_delta_streams(c) * 4 : 0));
}

static const char *floor_isa(void)
{
#if defined(FLOOR_HAVE_WIDE)
    if (__builtin_cpu_supports("avx2")) return "avx2";
    return "sse2";
#elif defined(__aarch64__) || defined(__ARM_NEON)
    return "neon";
#else
    return "generic";
#endif
}

static const char *case_isa(const bcase *c)
{
    return c->method == METHOD_FLOOR ? floor_isa() : skin_isa_name(c->isa);
}

/* ------------------------------------------------------------ test data */

typedef struct dataset {
    size_t n;
    int k, packed, rig;
    unsigned long last_use;
    float *s[10];
    void *j[SKIN_MAX_INFLUENCES], *w[SKIN_MAX_INFLUENCES];
    float *matrices, *dual_quats;
    skin_mesh_desc mesh;
    skin_palette palette;
    baseline_palette columns; /* the baseline's palette, converted once */
} dataset;

enum { DATASETS = 3 }; /* a small LRU cache: building 1M vertices takes a while */
static dataset D[DATASETS];
static unsigned long use_clock;

static void dataset_free(dataset *d)
{
    for (int c = 0; c < 10; ++c) free(d->s[c]);
    for (int i = 0; i < SKIN_MAX_INFLUENCES; ++i) free(d->j[i]), free(d->w[i]);
    free(d->matrices), free(d->dual_quats);
    baseline_palette_free(&d->columns);
    memset(d, 0, sizeof *d);
}

static void *copy_aligned(const void *src, size_t bytes)
{
    void *p = xalloc(bytes);
    memcpy(p, src, bytes);
    return p;
}

/* A mesh's streams (those it has) and palette copied into 64-byte aligned
 * buffers. */
static void dataset_from(dataset *d, const skin_mesh_desc *mesh, const float *matrices,
                         const float *dual_quats, uint32_t jc, int packed)
{
    size_t n = mesh->vertex_count;
    uint32_t k = mesh->influence_count;
    d->n = n, d->k = (int)k, d->packed = packed;
    d->mesh = *mesh;
    const float **stream[10] = {&d->mesh.px, &d->mesh.py, &d->mesh.pz, &d->mesh.nx, &d->mesh.ny,
                                &d->mesh.nz, &d->mesh.tx, &d->mesh.ty, &d->mesh.tz, &d->mesh.tw};
    for (int c = 0; c < 10; ++c)
        if (*stream[c]) *stream[c] = d->s[c] = copy_aligned(*stream[c], n * 4);
    for (uint32_t i = 0; i < k; ++i) {
        d->mesh.joints[i] = d->j[i] = copy_aligned(mesh->joints[i], n * jsize(packed));
        d->mesh.weights[i] = d->w[i] = copy_aligned(mesh->weights[i], n * wsize(packed));
    }
    d->matrices = copy_aligned(matrices, 12 * sizeof(float) * jc);
    d->dual_quats = copy_aligned(dual_quats, 8 * sizeof(float) * jc);
    d->palette = (skin_palette){jc, d->matrices, NULL, d->dual_quats, NULL, NULL};
    if (baseline_palette_init(&d->columns, d->matrices, jc)) {
        fprintf(stderr, "skin-bench: out of memory\n");
        exit(2);
    }
}

static void dataset_from_rig(dataset *d, const rig *r, int packed)
{
    dataset_from(d, &r->mesh, r->matrices, r->dual_quats, r->palette.joint_count, packed);
}

/* Real models: three skinned, animated assimp test models, loaded through
 * skin_assets with their own influence counts, at an animated pose. */
static const char *const ASSETS[] = {"X/Testwuson.X", "X/BCN_Epileptic.X", "FBX/animation_with_skeleton.fbx"};
enum { ASSET_COUNT = sizeof ASSETS / sizeof ASSETS[0] };
static dataset A[ASSET_COUNT]; /* built by real_rigs(); n == 0: not loaded */
static const char *asset_name(int a) { return strrchr(ASSETS[a], '/') + 1; }

#ifdef SKIN_BENCH_MODELS_DIR
/* The largest skinned mesh of each asset at half its first animation. */
static void load_real_rigs(void)
{
    for (int a = 0; a < ASSET_COUNT; ++a) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", SKIN_BENCH_MODELS_DIR, ASSETS[a]);
        skin_asset *as = NULL;
        if (skin_asset_load(path, NULL, &as) != SKIN_ASSET_OK) {
            fprintf(stderr, "note: %s did not load (%s): no real-model case for it\n", ASSETS[a], skin_asset_error());
            continue;
        }
        uint32_t mi = 0;
        for (uint32_t m = 1; m < as->mesh_count; ++m)
            if (as->meshes[m].desc.vertex_count > as->meshes[mi].desc.vertex_count) mi = m;
        const skin_asset_mesh *mesh = &as->meshes[mi];
        const uint32_t nc = as->node_count, bones = mesh->bone_count;
        float *tr = xalloc(nc * 12), *rot = xalloc(nc * 16), *sc = xalloc(nc * 12), *model = xalloc(nc * 48);
        float *mats = xalloc(bones * 48), *dqs = xalloc(bones * 32);
        skin_asset_cursor *cur = NULL;
        int ok = as->animation_count ? skin_asset_cursor_create(as, 0, &cur) == SKIN_ASSET_OK &&
                                           skin_asset_sample(cur, 0.5 * as->animation_durations[0], tr, rot, sc) == SKIN_ASSET_OK
                                     : skin_asset_rest_pose(as, tr, rot, sc) == SKIN_ASSET_OK;
        ok = ok && skin_pose_to_matrices(nc, as->parents, tr, rot, sc, model) == SKIN_OK &&
             skin_asset_palette(as, mi, model, mats) == SKIN_ASSET_OK &&
             skin_matrices_to_dual_quats(bones, mats, dqs, NULL, NULL) == SKIN_OK;
        if (ok) {
            dataset_from(&A[a], &mesh->desc, mats, dqs, bones, 0);
            A[a].rig = RIG_ASSET + a;
        } else {
            fprintf(stderr, "note: %s: no pose: no real-model case for it\n", ASSETS[a]);
        }
        skin_asset_cursor_free(cur);
        free(tr), free(rot), free(sc), free(model), free(mats), free(dqs);
        skin_asset_free(as);
    }
}
#endif

static const dataset *dataset_get(size_t n, int k, int packed, int rig_kind)
{
    if (rig_kind >= RIG_ASSET) return &A[rig_kind - RIG_ASSET];
    dataset *d = &D[0];
    for (int i = 0; i < DATASETS; ++i) {
        if (D[i].n == n && D[i].k == k && D[i].packed == packed && D[i].rig == rig_kind) {
            D[i].last_use = ++use_clock;
            return &D[i];
        }
        if (D[i].last_use < d->last_use) d = &D[i];
    }
    dataset_free(d);
    rig r;
    rig_options o = {n, B.joints, (uint32_t)k, packed ? SKIN_JOINT_U8 : SKIN_JOINT_U16,
                     packed ? SKIN_WEIGHT_UNORM16 : SKIN_WEIGHT_F32, 0, 0x5eed0000u + (uint64_t)k};
    if ((rig_kind == RIG_COHERENT ? rig_coherent : rig_random)(&r, &o)) {
        fprintf(stderr, "skin-bench: out of memory building a rig\n");
        exit(2);
    }
    dataset_from_rig(d, &r, packed);
    d->rig = rig_kind;
    rig_free(&r);
    d->last_use = ++use_clock;
    return d;
}

/* Output buffers, grown to the largest vertex count and pre-faulted. */
static struct {
    size_t n;
    float *inter;   /* 40 bytes per vertex; also the floor's output */
    float *soa[10];
} O;

static void outputs_reserve(size_t n)
{
    if (n <= O.n) return;
    free(O.inter);
    O.inter = xalloc(n * 40);
    memset(O.inter, 0, n * 40);
    for (int c = 0; c < 10; ++c) {
        free(O.soa[c]);
        O.soa[c] = xalloc(n * 4);
        memset(O.soa[c], 0, n * 4);
    }
    O.n = n;
}

/* Morph targets for meshes of n vertices (one set at a time, built on
 * demand), and the two-pass cases' scratch streams. */
static struct {
    size_t n;
    rig_morphs dense, sparse;
    float *morphed[6];
} MT;

static void morph_free(void)
{
    rig_morphs_free(&MT.dense);
    rig_morphs_free(&MT.sparse);
    for (int e = 0; e < 6; ++e) free(MT.morphed[e]);
    memset(&MT, 0, sizeof MT);
}

static void morph_targets(size_t n)
{
    if (MT.n == n) return;
    morph_free();
    MT.n = n;
    if (rig_morph_targets(&MT.dense, n, MORPH_TARGETS, 0.0, 99) ||
        rig_morph_targets(&MT.sparse, n, MORPH_TARGETS, SPARSE_FRACTION, 99)) {
        fprintf(stderr, "skin-bench: out of memory building morph targets\n");
        exit(2);
    }
    for (int e = 0; e < 6; ++e) MT.morphed[e] = xalloc(n * sizeof(float));
}

/* The first pass of the two-pass cases: the morphed positions and normals
 * of every vertex into MT.morphed, one stream at a time (dense: each output
 * float written once, all targets summed in a loop the compiler
 * vectorises; sparse: a copy, then each target's entries added). */
static void morph_pass(const skin_mesh_desc *mesh, const skin_morph_target *t, int sparse)
{
    const float *base[6] = {mesh->px, mesh->py, mesh->pz, mesh->nx, mesh->ny, mesh->nz};
    const size_t n = mesh->vertex_count;
    for (int e = 0; e < 6; ++e) {
        float *restrict out = MT.morphed[e];
        const float *restrict in = base[e];
        if (sparse) {
            memcpy(out, in, n * sizeof(float));
            for (int k = 0; k < MORPH_TARGETS; ++k) {
                const float *restrict d = (&t[k].dpx)[e];
                const float w = MT.sparse.weights[k];
                for (size_t i = 0; i < t[k].count; ++i) out[t[k].indices[i]] += w * d[i];
            }
            continue;
        }
        const float *restrict d[MORPH_TARGETS];
        for (int k = 0; k < MORPH_TARGETS; ++k) d[k] = (&t[k].dpx)[e];
        for (size_t v = 0; v < n; ++v) {
            float x = in[v];
            for (int k = 0; k < MORPH_TARGETS; ++k) x += MT.dense.weights[k] * d[k][v];
            out[v] = x;
        }
    }
}

/* ----------------------------------------------------------- the cases */

enum { ARITH_BLOCKS = 4 };

typedef struct runner {
    const bcase *c;
    skin_mesh_desc mesh;
    skin_mesh_desc morphed; /* two-pass cases: the mesh with MT.morphed streams */
    skin_palette morph_palette;
    const skin_palette *palette;
    skin_output out;
    floor_job floor;
    uint32_t (*floor_fn)(const floor_job *, size_t, size_t);
    baseline_fn baseline;
    const baseline_palette *columns;
    baseline_mesh engine; /* the baseline's input, built from the case's mesh as at load time */
    arith_fn arith;
    arith_job arith_job;
    /* The arithmetic floor's palette in lanes: the first ARITH_BLOCKS
     * blocks' matrices or dual quaternions, used in turn, a few KiB that stay in L1 like the
     * palette the kernels read; its vectors on whole cache lines (one
     * placement on the stack had each 64-byte load split in two: avx512's
     * floor 1.66 against 1.21 ns/vertex). */
    _Alignas(64) float arith_lanes[ARITH_BLOCKS * SKIN_MAX_INFLUENCES * 12 * 16]; /* (arith_lane_floats) */
} runner;

/* (the random and coherent rigs' formats: u16 joints, f32 weights; see measure_cases) */
static void arith_init(runner *r, const bcase *c, const dataset *d)
{
    int w = 0;
    r->arith = arith_for(c->isa, &w);
    arith_job *j = &r->arith_job;
    for (int s = 0; s < 10; ++s) j->in[s] = d->s[s], j->out[s] = O.soa[s];
    for (int i = 0; i < c->k; ++i) j->weights[i] = d->w[i];
    j->method = c->method == METHOD_ARITH_DQS ? SKIN_DQS : SKIN_LBS;
    arith_fill_lanes(r->arith_lanes, ARITH_BLOCKS, w, j->method, c->k, (const void *const *)d->j, j->weights,
                     &d->palette);
    j->lanes = r->arith_lanes, j->lane_blocks = ARITH_BLOCKS, j->k = c->k;
}

static void runner_init(runner *r, const bcase *c, const dataset *d)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->mesh = d->mesh;
    r->mesh.influence_count = (uint32_t)c->k;
    r->palette = &d->palette;
    r->columns = &d->columns;
    if (is_arith(c->method)) arith_init(r, c, d);
    if (c->attrs < ATTR_PN) r->mesh.nx = r->mesh.ny = r->mesh.nz = NULL;
    if (c->attrs < ATTR_PNT) r->mesh.tx = r->mesh.ty = r->mesh.tz = r->mesh.tw = NULL;
    if (c->method == METHOD_BASELINE) {
        r->baseline = baseline_for(c->isa);
        if (baseline_mesh_init(&r->engine, &r->mesh, d->palette.joint_count)) {
            fprintf(stderr, "skin-bench: out of memory\n");
            exit(2);
        }
    }
    if (c->morph != MORPH_NONE) {
        morph_targets(c->n);
        const int sparse = c->morph == MORPH_SPARSE || c->morph == MORPH_SPARSE_2PASS;
        r->mesh.morph_target_count = MORPH_TARGETS;
        const rig_morphs *rm = sparse ? &MT.sparse : &MT.dense;
        r->mesh.morph_targets = rm->targets;
        r->morph_palette = d->palette;
        r->morph_palette.morph_weights = rm->weights;
        r->palette = &r->morph_palette;
        r->morphed = r->mesh;
        r->morphed.morph_target_count = 0, r->morphed.morph_targets = NULL;
        r->morphed.px = MT.morphed[0], r->morphed.py = MT.morphed[1], r->morphed.pz = MT.morphed[2];
        if (r->mesh.nx) r->morphed.nx = MT.morphed[3], r->morphed.ny = MT.morphed[4], r->morphed.nz = MT.morphed[5];
    }

    skin_output *o = &r->out;
    o->flags = c->streaming ? SKIN_OUTPUT_STREAMING : 0;
    if (c->soa) {
        o->layout = SKIN_LAYOUT_SOA;
        for (size_t s = 0; s < float_streams(c->attrs); ++s) o->soa[s] = O.soa[s];
    } else {
        /* A tight interleaved vertex of the used attributes: 12, 24 or 40 bytes. */
        size_t stride = out_stride(c);
        char *base = (char *)O.inter;
        o->layout = SKIN_LAYOUT_STRIDED;
        o->vector_format = (skin_vector_format)c->ofmt;
        o->position = O.inter, o->position_stride = stride;
        if (c->attrs >= ATTR_PN) o->normal = (float *)(void *)(base + 12), o->normal_stride = stride;
        if (c->attrs >= ATTR_PNT) o->tangent = (float *)(void *)(base + 12 + vector_bytes(c->ofmt, 0)),
                                  o->tangent_stride = stride;
    }

    floor_job *f = &r->floor;
    f->copy_count = (int)float_streams(c->attrs);
    for (int s = 0; s < f->copy_count; ++s) f->in[s] = d->s[s], f->in_size[s] = 4;
    f->in_count = f->copy_count;
    for (int i = 0; i < c->k; ++i) {
        f->in[f->in_count] = d->j[i], f->in_size[f->in_count++] = jsize(c->packed);
        f->in[f->in_count] = d->w[i], f->in_size[f->in_count++] = wsize(c->packed);
    }
    if (is_dense(c->morph)) /* the dense morph floor: the deltas are read too */
        for (uint32_t t = 0; t < MORPH_TARGETS; ++t)
            for (size_t e = 0; e < dense_delta_streams(c) / MORPH_TARGETS; ++e)
                f->seq[f->seq_count++] = (&MT.dense.targets[t].dpx)[e];
    f->out = (char *)O.inter;
    f->streaming = c->streaming;
    r->floor_fn = floor_run_base;
#if defined(FLOOR_HAVE_WIDE)
    if (__builtin_cpu_supports("avx2")) r->floor_fn = floor_run_wide;
#endif
}

static int run_once(const runner *r)
{
    const bcase *c = r->c;
    if (c->method == METHOD_BASELINE) {
        /* Same interleaved vertex as the skin case (attributes present). */
        r->baseline(&r->engine, r->columns, O.inter, 0, c->n);
        return 1;
    }
    if (is_arith(c->method)) {
        r->arith(&r->arith_job, 0, c->n);
        return 1;
    }
    if (c->morph == MORPH_DENSE_2PASS || c->morph == MORPH_SPARSE_2PASS) {
        morph_pass(&r->mesh, r->mesh.morph_targets, c->morph == MORPH_SPARSE_2PASS);
        skin_status s = skin_mesh(&r->morphed, r->palette, (skin_method)c->method, &r->out, 0, c->n);
        if (s != SKIN_OK) fprintf(stderr, "skin-bench: skinning failed: %s\n", skin_status_string(s));
        return s == SKIN_OK;
    }
    if (c->method != METHOD_FLOOR) {
        skin_status s = c->threads > 1
            ? skin_mesh_parallel(&r->mesh, r->palette, (skin_method)c->method, &r->out, c->threads)
            : skin_mesh(&r->mesh, r->palette, (skin_method)c->method, &r->out, 0, c->n);
        if (s != SKIN_OK) fprintf(stderr, "skin-bench: skinning failed: %s\n", skin_status_string(s));
        return s == SKIN_OK;
    }
    B.sink |= r->floor_fn(&r->floor, 0, c->n);
    return 1;
}

/* Warm-up, then at least min_reps timed runs of each of `count` cases
 * (more for short cases, up to ~150 ms of runs in all, 1 s in quick runs),
 * taken in turn, in ABBA order for two: this shared machine has slow phases
 * of seconds to minutes, and cases measured one after another can fall on
 * different sides of one, while cases in turn fall on the same.  med[i] and
 * min[i] in ns per vertex. */
static int measure(const runner *const *r, int count, double *med, double *min)
{
    double per_round = 0;
    for (int m = 0; m < count; ++m) {
        double t0 = now_ns(), t = t0;
        int warm = 0;
        do {
            if (!run_once(r[m])) return 0;
            ++warm;
            t = now_ns();
        } while (t - t0 < 5e6 && warm < 100);
        per_round += (t - t0) / warm;
    }
    /* Quick runs have few cases: a longer sample steadies their medians.
     * Busy cases take a whole second however short, so that their sample
     * spans hundreds of the scheduler's time slices. */
    const int busy = r[0]->c->busy, cap = busy ? 1000000 : 2000;
    double want = (B.quick || busy ? 1000e6 : 150e6) / per_round;
    int reps = want > cap ? cap : (int)want;
    if (reps < B.min_reps) reps = B.min_reps;
    double *x = malloc(sizeof(double) * (size_t)reps * (size_t)count);
    if (!x) return 0;
    for (int i = 0; i < reps; ++i)
        for (int j = 0; j < count; ++j) {
            const int m = i & 1 ? count - 1 - j : j;
            double a = now_ns();
            run_once(r[m]);
            x[m * reps + i] = (now_ns() - a) / (double)r[m]->c->n;
        }
    for (int m = 0; m < count; ++m) {
        double *xm = x + m * reps;
        qsort(xm, (size_t)reps, sizeof *xm, cmp_double);
        min[m] = xm[0];
        med[m] = reps % 2 ? xm[reps / 2] : 0.5 * (xm[reps / 2 - 1] + xm[reps / 2]);
    }
    free(x);
    return 1;
}

static int same_case(const bcase *a, const bcase *b)
{
    return a->method == b->method && a->isa == b->isa && a->k == b->k && a->attrs == b->attrs &&
           a->soa == b->soa && a->packed == b->packed && a->streaming == b->streaming &&
           a->n == b->n && a->threads == b->threads && a->ofmt == b->ofmt && a->rig == b->rig &&
           a->morph == b->morph && a->busy == b->busy;
}

static const result *find(const bcase *c)
{
    for (size_t i = 0; i < B.res_count; ++i)
        if (same_case(&B.res[i].c, c)) return &B.res[i];
    return NULL;
}

static bcase floor_of(const bcase *c)
{
    bcase f = *c;
    /* The floor moves f32 vectors: packed-output cases share the f32 floor.
     * Dense morph cases, fused or two-pass, share one that also reads the
     * deltas; sparse ones the unmorphed floor. */
    f.method = METHOD_FLOOR, f.isa = SKIN_ISA_AUTO, f.soa = 0, f.ofmt = OUT_F32;
    f.morph = is_dense(c->morph) ? MORPH_DENSE : MORPH_NONE;
    return f;
}

static void print_header(void)
{
    printf("%-9s %-8s %-7s %2s %-4s %-6s %-6s %-7s %-9s %8s %3s %9s %9s %5s %6s %7s %8s\n", "method", "rig",
           "isa", "k", "attr", "output", "joints", "weights", "stores", "vertices", "thr", "median", "min",
           "B/v", "GB/s", "/floor", "base/");
}

static void print_row(const result *r)
{
    const bcase *c = &r->c;
    char fl[16] = "", sc[16] = "";
    if (c->method != METHOD_FLOOR) {
        /* /floor: this over the floor; base/: the same-ISA baseline over this. */
        bcase f = floor_of(c), s = *c;
        const result *fr = find(&f), *sr;
        if (fr && fr->ok) snprintf(fl, sizeof fl, "%.2f", r->med / fr->med);
        s.method = METHOD_BASELINE, s.soa = 0, s.streaming = 0, s.ofmt = OUT_F32, s.morph = MORPH_NONE;
        if (c->method != METHOD_BASELINE && (sr = find(&s)) && sr->ok)
            snprintf(sc, sizeof sc, "%.2f", sr->med / r->med);
    }
    static const char *const morph_suffix[] = {"", "+8d", "+8s", "+8d2p", "+8s2p"};
    char rig_label[40];
    snprintf(rig_label, sizeof rig_label, "%s%s", rig_name(c->rig), morph_suffix[c->morph]);
    printf("%-9s %-8s %-7s %2d %-4s %-6s %-6s %-7s %-9s %8zu %3d %9.3f %9.3f %5.0f %6.2f %7s %8s\n",
           method_name(c->method), rig_label, case_isa(c), c->k, attr_name(c->attrs),
           c->soa ? "soa" : c->ofmt == OUT_SNORM16 ? "i-sn16" : c->ofmt == OUT_1010102 ? "i-1010" : "inter",
           c->packed ? "u8" : "u16", c->packed ? "unorm16" : "f32", c->streaming ? "streaming" : "normal",
           c->n, c->threads, r->med, r->min, r->bytes, r->bytes / r->med, fl, sc);
    fflush(stdout);
}

static int runs_skin(const bcase *c) { return c->method == SKIN_LBS || c->method == SKIN_DQS; }

/* One spinning thread per core, as a game engine's job system keeps every
 * core busy: started for the busy cases' measurement and stopped after it,
 * each thread ending by itself after SPIN_LIMIT_S seconds at the latest. */
enum { SPIN_LIMIT_S = 60 };
static struct {
    pthread_t t[256];
    int n;
    atomic_int stop;
    double deadline;
} SPIN;

static void *spin(void *arg)
{
    (void)arg;
    for (unsigned i = 1; !atomic_load_explicit(&SPIN.stop, memory_order_relaxed); ++i)
        if (i % 4096 == 0 && now_ns() > SPIN.deadline) break;
    return NULL;
}

static void spinners_start(void)
{
    atomic_store(&SPIN.stop, 0);
    SPIN.deadline = now_ns() + SPIN_LIMIT_S * 1e9;
    for (SPIN.n = 0; SPIN.n < nproc(); ++SPIN.n)
        if (pthread_create(&SPIN.t[SPIN.n], NULL, spin, NULL)) break;
}

static void spinners_stop(void)
{
    atomic_store(&SPIN.stop, 1);
    while (SPIN.n) pthread_join(SPIN.t[--SPIN.n], NULL);
}

/* Measures `count` cases of one dataset in turn (see measure()) into r;
 * a case that cannot run here (more than one thread in a build without
 * threads) is not ok.  Only skin runs on more than one thread. */
static void measure_cases(const bcase *c, int count, result *r)
{
    runner run[2];
    const runner *turn[2];
    int ok = 1;
    for (int m = 0; m < count; ++m) {
        r[m] = (result){.c = c[m], .bytes = case_bytes(&c[m])};
        ok &= c[m].threads == 1 || (B.threads_ok && runs_skin(&c[m]));
    }
    if (!ok) return;
    for (int m = 0; m < count; ++m) {
        if (c[m].method == METHOD_BASELINE && !baseline_for(c[m].isa)) {
            fprintf(stderr, "skin-bench: no baseline build for %s\n", skin_isa_name(c[m].isa));
            exit(2);
        }
        int lanes;
        if (is_arith(c[m].method) &&
            (c[m].packed || c[m].rig >= RIG_ASSET || c[m].threads != 1 || c[m].morph || c[m].attrs != ATTR_PNT ||
             !arith_for(c[m].isa, &lanes) || c[m].n % (size_t)lanes || c[m].n < ARITH_BLOCKS * (size_t)lanes)) {
            fprintf(stderr, "skin-bench: no arithmetic floor for this case\n");
            exit(2);
        }
        /* the cases in turn share the dispatched ISA, so skin's cases of a
         * pair must name the same one */
        const int is_skin = runs_skin(&c[m]);
        if (is_skin && m > 0 && runs_skin(&c[0]) && c[0].isa != c[m].isa) {
            fprintf(stderr, "skin-bench: a pair of cases on two ISAs\n");
            exit(2);
        }
        if (is_skin && skin_set_isa(c[m].isa) != SKIN_OK) {
            fprintf(stderr, "skin-bench: ISA %s not supported\n", skin_isa_name(c[m].isa));
            exit(2);
        }
        outputs_reserve(c[m].n);
        runner_init(&run[m], &c[m], dataset_get(c[m].n, c[m].k, c[m].packed, c[m].rig));
        turn[m] = &run[m];
    }
    double med[2], min[2];
    if (c[0].busy) spinners_start();
    const int measured = measure(turn, count, med, min);
    if (c[0].busy) spinners_stop();
    for (int m = 0; m < count; ++m) baseline_mesh_free(&run[m].engine);
    if (!measured) exit(2);
    for (int m = 0; m < count; ++m) r[m].ok = 1, r[m].med = med[m], r[m].min = min[m];
}

/* Stores a result. */
static const result *record(const result *r)
{
    if (B.res_count == B.res_cap) {
        B.res_cap = B.res_cap ? 2 * B.res_cap : 256;
        B.res = realloc(B.res, B.res_cap * sizeof *B.res);
        if (!B.res) exit(2);
    }
    B.res[B.res_count] = *r;
    return &B.res[B.res_count++];
}

/* The memory floor a case is shown against: one thread, a quiet machine. */
static int has_floor(const bcase *c) { return c->method != METHOD_FLOOR && c->threads == 1 && !c->busy; }

/* Measures a case once (its floor first, for the ratio); later calls
 * return the stored result. */
static const result *get(bcase c)
{
    const result *have = find(&c);
    if (have) return have;
    if (has_floor(&c)) get(floor_of(&c));
    result r;
    measure_cases(&c, 1, &r);
    return record(&r);
}

/* The two cases of a ratio, measured in turn (once: later calls return the
 * stored pair).  A case not yet stored is stored from its first pair, so
 * the tables and the JSON show it. */
typedef struct pair {
    result r[2];
} pair;

static const pair *get_pair(bcase a, bcase b)
{
    for (size_t i = 0; i < B.pair_count; ++i)
        if (same_case(&B.pairs[i].r[0].c, &a) && same_case(&B.pairs[i].r[1].c, &b)) return &B.pairs[i];
    const bcase c[2] = {a, b};
    for (int m = 0; m < 2; ++m)
        if (has_floor(&c[m])) get(floor_of(&c[m]));
    pair p;
    measure_cases(c, 2, p.r);
    for (int m = 0; m < 2; ++m)
        if (!find(&c[m])) record(&p.r[m]);
    if (B.pair_count == B.pair_cap) {
        B.pair_cap = B.pair_cap ? 2 * B.pair_cap : 64;
        B.pairs = realloc(B.pairs, B.pair_cap * sizeof *B.pairs);
        if (!B.pairs) exit(2);
    }
    B.pairs[B.pair_count] = p;
    return &B.pairs[B.pair_count++];
}

/* a / b, their minima or medians measured in turn; NaN if either could not run */
static double ratio(bcase a, bcase b, int by_min)
{
    const pair *p = get_pair(a, b);
    if (!p->r[0].ok || !p->r[1].ok) return NAN;
    return by_min ? p->r[0].min / p->r[1].min : p->r[0].med / p->r[1].med;
}

static bcase kcase(int method, skin_isa isa, int k, int attrs, size_t n, int threads)
{
    return (bcase){method, isa, k, attrs, 0, 0, 0, n, threads, OUT_F32, RIG_RANDOM, MORPH_NONE, 0};
}

/* ---------------------------------------------------------------- sweep */

/* The baseline of a skin case: same rig, inputs and attributes, same ISA
 * build, interleaved f32 output, one thread on a quiet machine. */
static bcase baseline_of(const bcase *c)
{
    bcase b = *c;
    b.method = METHOD_BASELINE, b.soa = 0, b.streaming = 0, b.ofmt = OUT_F32, b.morph = MORPH_NONE;
    b.threads = 1, b.busy = 0;
    return b;
}

static int has_baseline(skin_isa isa) { return baseline_for(isa) != NULL; }

/* The arithmetic floor of an LBS or DQS case (arith.h): planar output. */
static bcase arith_of(const bcase *c)
{
    bcase a = baseline_of(c);
    a.method = c->method == SKIN_DQS ? METHOD_ARITH_DQS : METHOD_ARITH, a.soa = 1;
    return a;
}

/* Thread counts 1, 2, 4, ... and nproc, LBS-4 p+n+t on the best ISA, at
 * 100k vertices (and 10k in the full run). */
static void thread_sweep(void)
{
    static const size_t sizes[] = {100000, 10000};
    for (int si = 0; si < (B.quick ? 1 : 2); ++si)
        for (int t = 1; t <= nproc(); t = t < nproc() && 2 * t > nproc() ? nproc() : 2 * t)
            get(kcase(SKIN_LBS, B.best, 4, ATTR_PNT, sizes[si], t));
}

static void full_sweep(void)
{
    static const size_t sizes[] = {10000, 100000, 1000000};
    static const int ks[] = {1, 2, 4, 8};
    for (int si = 0; si < 3; ++si)
        for (int ki = 0; ki < 4; ++ki)
            for (int a = ATTR_P; a <= ATTR_PNT; ++a)
                for (int t = 1; t <= 2; ++t)
                    for (int i = 0; i < B.isa_count; ++i) {
                        bcase c = kcase(SKIN_LBS, B.isas[i], ks[ki], a, sizes[si], t);
                        if (has_baseline(c.isa) && t == 1) {
                            get(baseline_of(&c));
                            if (a == ATTR_PNT && ks[ki] >= 4) c.packed = 1, get(baseline_of(&c));
                        }
                        for (int m = SKIN_LBS; m <= SKIN_DQS; ++m) {
                            c = kcase(m, B.isas[i], ks[ki], a, sizes[si], t);
                            get(c);
                            if (a == ATTR_PNT && ks[ki] == 4 && t == 1) {
                                bcase h = c;
                                h.rig = RIG_COHERENT;
                                if (has_baseline(h.isa)) get(baseline_of(&h));
                                get(h);
                            }
                            if (a != ATTR_PNT || ks[ki] < 4) continue;
                            /* Variants of the p+n+t case: packed inputs (4 and
                             * 8 influences), SoA output, streaming stores. */
                            bcase v = c;
                            if (t == 1) v.packed = 1, get(v);
                            if (ks[ki] != 4) continue;
                            v = c, v.streaming = 1, get(v);
                            if (t == 1) v = c, v.soa = 1, get(v);
                            if (t == 1 && m == SKIN_LBS && si < 2)
                                for (int f = OUT_SNORM16; f <= OUT_1010102; ++f) v = c, v.ofmt = f, get(v);
                        }
                    }
}

/* --------------------------------------------------------------- ratios */

/* Each ratio's two cases are measured in turn (see measure()), so both see
 * the same machine; compute-bound (in-cache) cases are compared by their
 * minima, memory-bound ones by their medians. */
static double med_of(bcase c) { const result *r = get(c); return r->ok ? r->med : NAN; }
static double min_of(bcase c) { const result *r = get(c); return r->ok ? r->min : NAN; }

static const size_t K10 = 10000, K100 = 100000;
static bcase lbs(skin_isa isa, size_t n) { return kcase(SKIN_LBS, isa, 4, ATTR_PNT, n, 1); }
static bcase dqs(skin_isa isa, size_t n) { return kcase(SKIN_DQS, isa, 4, ATTR_PNT, n, 1); }
/* skin's speed-up over the per-vertex SIMD loop */
static double r_base10(skin_isa i) { bcase c = lbs(i, K10); return ratio(baseline_of(&c), c, 1); }
static double r_base100(skin_isa i) { bcase c = lbs(i, K100); return ratio(baseline_of(&c), c, 0); }
/* skin over its arithmetic floor (arith.h): how far the kernel is from
 * doing nothing but its arithmetic */
static double r_arith10(skin_isa i) { bcase c = lbs(i, K10); return ratio(c, arith_of(&c), 1); }
/* The most any kernel doing skin's arithmetic could gain over the loop:
 * loop / arithmetic floor, 10k (min).  Every ISA with a loop has a floor
 * (bench.baseline checks it). */
static double r_ceiling10(skin_isa i) { bcase c = lbs(i, K10); return ratio(baseline_of(&c), arith_of(&c), 1); }
static double r_dqs100(skin_isa i) { return ratio(dqs(i, K100), lbs(i, K100), 0); }
/* DQS's: skin over its arithmetic floor, and that floor over LBS's: DQS /
 * LBS for kernels that do nothing but skin's arithmetic (10k, min) */
static double r_dqs_arith10(skin_isa i) { bcase c = dqs(i, K10); return ratio(c, arith_of(&c), 1); }
static double r_dqs_ceiling10(skin_isa i)
{
    bcase d = dqs(i, K10), l = lbs(i, K10);
    return ratio(arith_of(&d), arith_of(&l), 1);
}

/* Speed-up of t threads over one, LBS-4 100k. */
static double r_threads(skin_isa i, int t)
{
    bcase ct = lbs(i, K100);
    ct.threads = t;
    return ratio(lbs(i, K100), ct, 0);
}
static double r_thr2(skin_isa i) { return r_threads(i, 2); }

/* The coherent rig (like a real mesh) against the loop at its maximum
 * influence count: in the per-ISA table. */
static double r_coherent100(skin_isa i)
{
    bcase c = lbs(i, K100);
    c.rig = RIG_COHERENT;
    return ratio(baseline_of(&c), c, 0);
}

/* Real models at their own influence count and an animated pose. */
static int real_rig_count(void)
{
    int n = 0;
    for (int a = 0; a < ASSET_COUNT; ++a) n += A[a].n > 0;
    return n;
}

static bcase real_case(skin_isa i, int a, int method)
{
    bcase c = kcase(method, i, A[a].k, A[a].mesh.tx ? ATTR_PNT : ATTR_PN, A[a].n, 1);
    c.rig = RIG_ASSET + a;
    return c;
}
static double r_real_base(skin_isa i, int a) { bcase c = real_case(i, a, SKIN_LBS); return ratio(baseline_of(&c), c, 1); }
static double r_real_dqs(skin_isa i, int a) { return ratio(real_case(i, a, SKIN_DQS), real_case(i, a, SKIN_LBS), 1); }

/* The worst over the models: the least speed-up, the largest DQS cost. */
static double r_real_worst(skin_isa i, double (*r)(skin_isa, int), int largest)
{
    double worst = NAN;
    for (int a = 0; a < ASSET_COUNT; ++a)
        if (A[a].n) {
            const double x = r(i, a);
            if (isnan(worst) || (largest ? x > worst : x < worst)) worst = x;
        }
    return worst;
}
static double r_real_base_worst(skin_isa i) { return r_real_worst(i, r_real_base, 0); }
static double r_real_dqs_worst(skin_isa i) { return r_real_worst(i, r_real_dqs, 1); }

/* Packed normal/tangent output over f32 output, same case otherwise: the
 * worse of snorm16 and 1010102, 10k (min). */
static double r_fmt(skin_isa i, size_t n, int ofmt, int by_min)
{
    bcase c = lbs(i, n), f = c;
    c.ofmt = ofmt;
    return ratio(c, f, by_min);
}
static double r_packed10(skin_isa i) { return fmax(r_fmt(i, K10, OUT_SNORM16, 1), r_fmt(i, K10, OUT_1010102, 1)); }

/* Morph targets (full run): LBS-4 p+n+t at 100k with 8 targets, by median. */
static bcase morph_case(skin_isa i, int morph)
{
    bcase c = lbs(i, K100);
    c.morph = morph;
    return c;
}
static double morph_med(skin_isa i, int morph) { return med_of(morph_case(i, morph)); }
static double r_morph(skin_isa i, int a, int b) { return ratio(morph_case(i, a), morph_case(i, b), 0); }
static double r_dense_2pass(skin_isa i) { return r_morph(i, MORPH_DENSE_2PASS, MORPH_DENSE); }
static double r_sparse_2pass(skin_isa i) { return r_morph(i, MORPH_SPARSE_2PASS, MORPH_SPARSE); }

/* A busy machine: skin_mesh_parallel on nproc threads over skin_mesh on the
 * calling thread, LBS-4 p+n+t on the random rig, every core running a
 * spinning thread meanwhile (median).  At 4.6k vertices, a game character
 * (Testwuson's size), and 100k. */
static const size_t BUSY_SMALL = 4600;
static int busy_ok(void) { return B.threads_ok && nproc() > 1; }
static double r_busy(skin_isa i, size_t n)
{
    if (!busy_ok()) return NAN;
    bcase one = lbs(i, n), par;
    one.busy = 1, par = one, par.threads = nproc();
    return ratio(par, one, 0);
}
static double r_busy_small(skin_isa i) { return r_busy(i, BUSY_SMALL); }
static double r_busy_large(skin_isa i) { return r_busy(i, K100); }

/* Vulkan (bench/vk): skinning into the mapped ring over into ordinary memory. */
static struct {
    int ran; /* 0: built without Vulkan or no device */
    skin_bench_vk_summary s;
    char *text; /* its details section */
    size_t text_size;
} VK;
static double r_vk_ring(skin_isa i) { (void)i; return VK.s.ring_over_malloc; }

/* -------------------------------------------------------------- targets */

/* What skin-bench --check judges, each a ratio measured in this run
 * against a yardstick of the same machine (the arithmetic floor, the
 * per-vertex SIMD loop, one thread), so that one set of limits fits every
 * CPU.  Targets that no kernel could meet on some CPUs are left out: DQS /
 * LBS on the random rig (DQS does more arithmetic; the real models are the
 * case that matters), the memory floor (on fast memory skin is bound by its
 * arithmetic), morph targets (the dense deltas alone take longer than
 * skinning). */
typedef enum { EACH_ISA, REAL_MODELS, THREADS, BUSY, VULKAN } target_scope;
typedef struct target {
    target_scope scope;
    const char *what;
    double (*ratio)(skin_isa isa);
    double limit;
    int at_most;
} target;

static const target TARGETS[] = {
    {EACH_ISA, "LBS-4 10k: skin / its arithmetic floor (min)", r_arith10, 2.0, 1},
    {EACH_ISA, "LBS-4 10k: per-vertex SIMD loop / skin (min)", r_base10, 1.0, 0},
    {EACH_ISA, "LBS-4 100k: per-vertex SIMD loop / skin (median)", r_base100, 1.0, 0},
    {REAL_MODELS, "real models: per-vertex SIMD loop / skin, worst (min)", r_real_base_worst, 1.0, 0},
    {REAL_MODELS, "real models: DQS / LBS, worst (min)", r_real_dqs_worst, 1.15, 1},
    {EACH_ISA, "LBS-4 10k: snorm16 or 1010102 / f32 normals+tangents (min)", r_packed10, 1.15, 1},
    {THREADS, "LBS-4 100k: 2 threads / 1 thread speed-up (median)", r_thr2, 1.8, 0},
    {BUSY, "busy machine, LBS-4 4.6k: nproc threads / 1 thread (median)", r_busy_small, 1.5, 1},
    {BUSY, "busy machine, LBS-4 100k: nproc threads / 1 thread (median)", r_busy_large, 1.5, 1},
    {VULKAN, "Vulkan: skinning into the mapped ring / ordinary memory (median)", r_vk_ring, 1.10, 1},
};

static int target_applies(const target *t, skin_isa isa)
{
    switch (t->scope) {
    case EACH_ISA: return has_baseline(isa);
    case REAL_MODELS: return isa == B.best && real_rig_count() > 0 && has_baseline(isa);
    case THREADS: return isa == B.best && B.threads_ok && nproc() > 1;
    case BUSY: return isa == B.best && busy_ok();
    case VULKAN: return isa == B.best && VK.ran;
    }
    return 0;
}

/* Measures every case that the summary, the details and the targets read
 * (after load_real_rigs), so that printing them measures nothing. */
static void measure_all(void)
{
    if (!B.quick) full_sweep();
    if (B.threads_ok) thread_sweep();
    for (int i = 0; i < B.isa_count; ++i) {
        const skin_isa isa = B.isas[i];
        for (size_t t = 0; t < sizeof TARGETS / sizeof *TARGETS; ++t)
            if (target_applies(&TARGETS[t], isa)) TARGETS[t].ratio(isa);
        if (!has_baseline(isa)) continue;
        r_ceiling10(isa), r_dqs100(isa), r_coherent100(isa), get(dqs(isa, K10)); /* the plot's DQS at 10k */
        r_dqs_arith10(isa), r_dqs_ceiling10(isa);
        for (int a = 0; a < ASSET_COUNT; ++a)
            if (A[a].n) r_real_base(isa, a);
        if (!B.quick) morph_med(isa, MORPH_NONE), r_sparse_2pass(isa), r_dense_2pass(isa);
    }
    if (B.threads_ok && nproc() > 2) r_threads(B.best, nproc());
}

/* Prints the targets as met / not met; returns how many were not met. */
static int check_targets(void)
{
    int not_met = 0, met = 0;
    printf("\ntargets (ratios measured in this run, against this machine's own floors, loop and\n"
           "single thread, so that one set of limits fits every CPU)\n");
    for (size_t t = 0; t < sizeof TARGETS / sizeof *TARGETS; ++t)
        for (int i = 0; i < B.isa_count; ++i) {
            const target *d = &TARGETS[t];
            const skin_isa isa = B.isas[i];
            if (!target_applies(d, isa)) continue;
            const double r = d->ratio(isa);
            const int ok = !isnan(r) && (d->at_most ? r <= d->limit : r >= d->limit);
            not_met += !ok, met += ok;
            printf("  %-7s %-7s %-64s %6.2f %s %.2f\n", ok ? "met" : "not met", skin_isa_name(isa), d->what, r,
                   d->at_most ? "<=" : ">=", d->limit);
        }
    printf("targets: %d met, %d not met\n", met, not_met);
    return not_met;
}

/* ---------------------------------------------------------------- summary */

/* The CPU's model name and the SIMD extensions it reports (/proc/cpuinfo). */
static void cpu_model(char *model, size_t model_size, char *flags, size_t flags_size)
{
    static const char *const want[] = {"sse2", "sse4_1", "avx", "avx2", "fma", "avx512f", "avx512vl",
                                       "avx512bw", "avx512dq", "asimd", "sve"};
    char line[8192];
    snprintf(model, model_size, "unknown CPU");
    flags[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    int have_model = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *v = strchr(line, ':');
        if (!v) continue;
        v += v[1] == ' ' ? 2 : 1;
        v[strcspn(v, "\n")] = 0;
        if (!have_model && !strncmp(line, "model name", 10)) have_model = 1, snprintf(model, model_size, "%s", v);
        if (!flags[0] && (!strncmp(line, "flags", 5) || !strncmp(line, "Features", 8)))
            for (size_t w = 0; w < sizeof want / sizeof *want; ++w) {
                char padded[sizeof line + 2], pat[32];
                snprintf(padded, sizeof padded, " %s ", v);
                snprintf(pat, sizeof pat, " %s ", want[w]);
                if (strstr(padded, pat) && strlen(flags) + strlen(want[w]) + 2 < flags_size)
                    strcat(strcat(flags, flags[0] ? " " : ""), want[w]);
            }
    }
    if (f) fclose(f);
}

/* The per-vertex SIMD loop as built for an ISA tier. */
static const char *loop_build(skin_isa isa)
{
    switch (isa) {
    case SKIN_ISA_SSE2: return "SSE2";
    case SKIN_ISA_AVX2: return "AVX2 + FMA";
    case SKIN_ISA_AVX512: return "AVX-512";
    case SKIN_ISA_NEON: return "NEON";
    default: return "no SIMD";
    }
}

static void print_summary(void)
{
    char model[256], flags[256];
    cpu_model(model, sizeof model, flags, sizeof flags);
    printf("skin-bench %s, %s run\n", skin_version_string(), B.quick ? "quick" : "full");
    printf("CPU: %s, %d CPUs; SIMD: %s\n", model, nproc(), flags[0] ? flags : "none found");
    printf("\nOne thread, LBS and DQS, 4 influences, position + normal + tangent into a 40-byte\n"
           "vertex, 64-joint random rig; ns/vertex and ms at 100k vertices (median):\n");
    printf("  %-7s %9s %9s %12s %12s   %-16s\n", "ISA", "LBS ns/v", "DQS ns/v", "LBS ms/100k", "DQS ms/100k",
           "x loop 10k, 100k");
    int rows = 0;
    for (int i = 0; i < B.isa_count; ++i) {
        const skin_isa isa = B.isas[i];
        if (!has_baseline(isa)) continue;
        const double l = med_of(lbs(isa, K100)), d = med_of(dqs(isa, K100));
        printf("  %-7s %9.2f %9.2f %12.3f %12.3f   %5.2fx  %5.2fx\n", skin_isa_name(isa), l, d, l * 0.1, d * 0.1,
               r_base10(isa), r_base100(isa));
        ++rows;
    }
    if (!rows) printf("  (this build has no SIMD kernels: configure it with SIMDe)\n");
    printf("  x loop: skin's speed-up over the per-vertex SIMD loop that engines write (one vertex at\n"
           "  a time in 4-wide vectors), built for each ISA with its flags:");
    for (int i = 0; i < B.isa_count; ++i)
        if (has_baseline(B.isas[i])) printf(" %s %s%s", skin_isa_name(B.isas[i]), loop_build(B.isas[i]),
                                            B.isas[i] == B.best ? "" : ";");
    printf("\n");
    if (real_rig_count()) {
        printf("real models (%s, LBS at each model's own influence count, animated pose; min):\n",
               skin_isa_name(B.best));
        for (int a = 0; a < ASSET_COUNT; ++a)
            if (A[a].n)
                printf("  %-28s %5zu vertices, %d influences: %5.3f ms, %5.2fx the loop; DQS / LBS %.2f\n",
                       asset_name(a), A[a].n, A[a].k, min_of(real_case(B.best, a, SKIN_LBS)) * (double)A[a].n * 1e-6,
                       r_real_base(B.best, a), r_real_dqs(B.best, a));
    }
    if (B.threads_ok && nproc() > 1) {
        printf("threads (%s, LBS-4 100k, median): 2 threads %.2fx one thread", skin_isa_name(B.best),
               r_threads(B.best, 2));
        if (nproc() > 2) printf(", %d threads %.2fx", nproc(), r_threads(B.best, nproc()));
        printf("\nbusy machine (a spinning thread on each CPU): parallel on %d threads / 1 thread = %.2f at 4.6k, "
               "%.2f at 100k\n", nproc(), r_busy_small(B.best), r_busy_large(B.best));
    } else {
        printf("threads: %s\n", B.threads_ok ? "one CPU, nothing to run in parallel" : "built without threads");
    }
    if (!VK.ran) return;
    const skin_bench_vk_summary *v = &VK.s;
    if (v->cpu_device)
        printf("Vulkan: %s is software Vulkan (CPU), so no CPU-vs-GPU ratio is drawn;\n"
               "  skinning into its mapped ring costs %.2fx ordinary memory\n", v->device, v->ring_over_malloc);
    else
        printf("Vulkan: %s (%s): LBS-4 100k in its compute shader %.3f ns/vertex, on one CPU thread\n"
               "  into its mapped ring %.3f: the GPU is %.1fx one CPU thread (skin-bench --gpu: whole frames)\n",
               v->device, v->device_type, v->gpu_ns_per_vertex, v->cpu_ns_per_vertex,
               v->cpu_ns_per_vertex / v->gpu_ns_per_vertex);
}

/* ---------------------------------------------------------------- details */

static void print_details(void)
{
    const double load = load_average();
    printf("\ndetails: every case measured (ns/vertex; /floor: over the memory floor, which moves the\n"
           "case's bytes with no arithmetic; base/: the same-ISA per-vertex loop over this; medians)\n");
    if (load > 0.5)
        printf("note: load average %.2f: other work competes for the cores, so timings (2-thread ones above\n"
               "all) are pessimistic\n", load);
    print_header();
    for (size_t i = 0; i < B.res_count; ++i)
        if (B.res[i].ok && !B.res[i].c.busy) print_row(&B.res[i]);

    printf("\nper-ISA table, LBS-4 p+n+t random%u 1 thread (ns/vertex: 10k min, 100k median;\n"
           " arith: the arithmetic floor, skin's arithmetic alone with the palette already in lanes,\n"
           " so base/arith is the most any kernel doing that arithmetic could reach on x 10k)\n", B.joints);
    printf("  %-7s %9s %9s %9s %9s %9s %8s %8s %10s %8s %9s\n", "isa", "base 10k", "skin 10k", "arith 10k",
           "base 100k", "skin 100k", "x 10k", "x 100k", "base/arith", "DQS/LBS", "coh x100k");
    for (int i = 0; i < B.isa_count; ++i) {
        skin_isa isa = B.isas[i];
        if (!has_baseline(isa)) continue;
        bcase c10 = lbs(isa, K10), c100 = lbs(isa, K100);
        printf("  %-7s %9.3f %9.3f %9.3f %9.3f %9.3f %8.2f %8.2f %10.2f %8.2f %9.2f\n", skin_isa_name(isa),
               min_of(baseline_of(&c10)), min_of(c10), min_of(arith_of(&c10)), med_of(baseline_of(&c100)),
               med_of(c100), r_base10(isa), r_base100(isa), r_ceiling10(isa), r_dqs100(isa), r_coherent100(isa));
    }
    printf("\nper-ISA table, DQS-4 p+n+t random%u 1 thread, 10k (ns/vertex, min; arith: DQS's arithmetic\n"
           " floor, as LBS's above; skin/arith: skin over its arithmetic floor; DQS/LBS arith: DQS's\n"
           " arithmetic floor / LBS's, DQS/LBS for kernels that do nothing but skin's arithmetic)\n", B.joints);
    printf("  %-7s %9s %9s %14s %14s %13s\n", "isa", "skin 10k", "arith 10k", "DQS skin/arith", "LBS skin/arith",
           "DQS/LBS arith");
    for (int i = 0; i < B.isa_count; ++i) {
        skin_isa isa = B.isas[i];
        if (!has_baseline(isa)) continue;
        bcase c10 = dqs(isa, K10);
        printf("  %-7s %9.3f %9.3f %14.2f %14.2f %13.2f\n", skin_isa_name(isa), min_of(c10), min_of(arith_of(&c10)),
               r_dqs_arith10(isa), r_arith10(isa), r_dqs_ceiling10(isa));
    }
    if (real_rig_count()) {
        printf("\nreal models, LBS at each model's own influence count, animated pose, 1 thread (min): skin on\n"
               " the whole mesh, the per-vertex loop on its vertices grouped by influence count; ns/vertex\n");
        printf("  %-7s", "isa");
        for (int a = 0; a < ASSET_COUNT; ++a)
            if (A[a].n) printf(" %30s", asset_name(a));
        printf("\n  %-7s", "");
        for (int a = 0; a < ASSET_COUNT; ++a)
            if (A[a].n) printf(" %9s %9s %10s", "base", "skin", "base/skin");
        printf("\n");
        for (int i = 0; i < B.isa_count; ++i) {
            const skin_isa isa = B.isas[i];
            if (!has_baseline(isa)) continue;
            printf("  %-7s", skin_isa_name(isa));
            for (int a = 0; a < ASSET_COUNT; ++a) {
                if (!A[a].n) continue;
                const bcase c = real_case(isa, a, SKIN_LBS);
                printf(" %9.3f %9.3f %10.2f", min_of(baseline_of(&c)), min_of(c), r_real_base(isa, a));
            }
            printf("\n");
        }
    }

    if (!B.quick) {
        printf("\nmorph targets, LBS-4 p+n+t random%u 100k 1 thread, 8 targets with position and normal deltas\n"
               "(ns/vertex, median; sparse: 10%% of the vertices; two-pass: morph into streams, then skin;\n"
               " dense floor: the dense case's bytes, deltas included, moved with no arithmetic, so\n"
               " floor/none is the least dense / no morph that this machine's memory allows)\n", B.joints);
        printf("  %-7s %9s %9s %9s %9s %9s %11s %11s %11s\n", "isa", "none", "sparse", "sparse 2p", "dense",
               "dense 2p", "sparse 2p/f", "dense 2p/f", "floor/none");
        bcase dense = lbs(B.best, K100); /* its floor is every ISA's */
        dense.morph = MORPH_DENSE;
        const double dense_floor = med_of(floor_of(&dense));
        for (int i = 0; i < B.isa_count; ++i) {
            skin_isa isa = B.isas[i];
            if (!has_baseline(isa)) continue;
            printf("  %-7s %9.3f %9.3f %9.3f %9.3f %9.3f %11.2f %11.2f %11.2f\n", skin_isa_name(isa),
                   morph_med(isa, MORPH_NONE), morph_med(isa, MORPH_SPARSE), morph_med(isa, MORPH_SPARSE_2PASS),
                   morph_med(isa, MORPH_DENSE), morph_med(isa, MORPH_DENSE_2PASS), r_sparse_2pass(isa),
                   r_dense_2pass(isa), dense_floor / morph_med(isa, MORPH_NONE));
        }
        printf("  dense floor %.3f ns/vertex (%.0f bytes per vertex)\n", dense_floor, case_bytes(&dense));
    }

    if (busy_ok()) {
        printf("\nbusy machine: a spinning thread on each CPU meanwhile, LBS-4 p+n+t random%u, %s\n", B.joints,
               skin_isa_name(B.best));
        for (size_t i = 0; i < B.res_count; ++i) {
            const result *r = &B.res[i];
            if (r->ok && r->c.busy)
                printf("  %6zu vertices, %-18s on %2d thread%s median %8.3f  min %8.3f ns/vertex\n", r->c.n,
                       r->c.threads > 1 ? "skin_mesh_parallel" : "skin_mesh", r->c.threads, r->c.threads > 1 ? "s" : " ",
                       r->med, r->min);
        }
    }
}

/* The twisted candy-wrapper rig: LBS collapses, DQS keeps volume; the cost
 * of both on a real-looking (coherent) rig. */
static struct {
    size_t n;
    double med[2], min[2];
} CANDY = {100000, {0, 0}, {0, 0}};

static void candy(void)
{
    rig r;
    rig_options o = {CANDY.n, 16, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 7};
    if (rig_candy_wrapper(&r, &o)) exit(2);
    rig_candy_pose(&r, 3.14159265f);
    outputs_reserve(CANDY.n);
    dataset d = {0};
    dataset_from_rig(&d, &r, 0);
    rig_free(&r);
    skin_set_isa(B.best);
    for (int m = SKIN_LBS; m <= SKIN_DQS; ++m) {
        bcase c = kcase(m, B.best, 4, ATTR_PNT, CANDY.n, 1);
        runner run;
        const runner *one = &run;
        runner_init(&run, &c, &d);
        if (!measure(&one, 1, &CANDY.med[m - SKIN_LBS], &CANDY.min[m - SKIN_LBS])) exit(2);
    }
    dataset_free(&d);
}

static void print_candy(void)
{
    printf("\ncandy wrapper (%zu vertices, 16 joints, 4 influences, twisted 180 degrees, p+n+t, "
           "interleaved, 1 thread)\n", CANDY.n);
    for (int m = SKIN_LBS; m <= SKIN_DQS; ++m)
        printf("  candy %s %-7s median %7.3f  min %7.3f ns/vertex\n", method_name(m), skin_isa_name(B.best),
               CANDY.med[m - SKIN_LBS], CANDY.min[m - SKIN_LBS]);
}

/* ----------------------------------------------------------------- JSON */

/* f: opened before the run, so that a path it cannot write fails at once */
static int write_json(FILE *f)
{
    fprintf(f, "[");
    int first = 1;
    for (size_t i = 0; i < B.res_count; ++i) {
        const result *r = &B.res[i];
        const bcase *c = &r->c;
        if (!r->ok) continue;
        fprintf(f,
                "%s\n  {\"method\": \"%s\", \"isa\": \"%s\", \"influences\": %d, \"attributes\": \"%s\", "
                "\"output\": \"%s\", \"joint_format\": \"%s\", \"weight_format\": \"%s\", "
                "\"stores\": \"%s\", \"vertices\": %zu, \"threads\": %d, \"ns_per_vertex_median\": %.4f, "
                "\"ns_per_vertex_min\": %.4f, \"bytes_per_vertex\": %.0f, \"gbps\": %.3f, "
                "\"rig\": \"%s\", \"output_format\": \"%s\", \"morph_targets\": %d, "
                "\"morph_kind\": \"%s\", \"morph_fraction\": %.2f, \"morph_passes\": %d, \"case\": \"%s\"",
                first ? "" : ",", method_name(c->method), case_isa(c), c->k, attr_name(c->attrs),
                c->soa ? "soa" : "interleaved", c->packed ? "u8" : "u16", c->packed ? "unorm16" : "f32",
                c->streaming ? "streaming" : "normal", c->n, c->threads, r->med, r->min, r->bytes,
                r->bytes / r->med, rig_name(c->rig), output_format_names[c->ofmt],
                c->morph ? MORPH_TARGETS : 0, morph_kind_names[c->morph],
                c->morph == MORPH_NONE ? 0.0 : c->morph == MORPH_DENSE || c->morph == MORPH_DENSE_2PASS ? 1.0 : SPARSE_FRACTION,
                c->morph >= MORPH_DENSE_2PASS ? 2 : 1, c->busy ? "busy" : "standard");
        /* the busy pair's ratio on both of its records */
        if (c->busy) fprintf(f, ", \"parallel_over_1_thread\": %.4f", r_busy(c->isa, c->n));
        /* the arithmetic floors' ratios (10k, min) on their records */
        if (is_arith(c->method) && c->n == K10 && c->k == 4 && c->rig == RIG_RANDOM && c->attrs == ATTR_PNT) {
            const int d = c->method == METHOD_ARITH_DQS;
            fprintf(f, ", \"skin_over_arith\": %.4f", d ? r_dqs_arith10(c->isa) : r_arith10(c->isa));
            if (d) fprintf(f, ", \"dqs_over_lbs_arith\": %.4f", r_dqs_ceiling10(c->isa));
        }
        fprintf(f, "}");
        first = 0;
    }
    fprintf(f, "\n]\n");
    return fclose(f) == 0;
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: skin-bench [--quick] [--check] [--isa NAME] [--reps N] [--joints N] [--json FILE]\n"
            "  --quick      only the cases the summary and the targets need (about a minute)\n"
            "  --check      also judge the targets: met / not met, exit status 1 if any is not met\n"
            "  --isa NAME   measure only this ISA (scalar|sse2|avx2|avx512|neon)\n"
            "  --reps N     at least N timed repetitions per CPU case (default 15)\n"
            "  --joints N   palette size of the random rigs, 1..256 (default 64)\n"
            "  --json FILE  also write every measured case as a JSON array\n"
            "  --gpu        instead: the CPU path against the GPU path on a Vulkan device\n"
            "  --device D   the Vulkan device: index or name substring (default: the first)\n");
}

/* A decimal argument in [lo, hi], the whole string; 0 otherwise. */
static long whole_number(const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    return errno == 0 && end != s && *end == '\0' && v >= lo && v <= hi ? v : 0;
}

int main(int argc, char **argv)
{
    const char *json = NULL, *device = NULL;
    int gpu = 0, check = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) B.quick = 1;
        else if (!strcmp(a, "--check")) check = 1;
        else if (!strcmp(a, "--gpu")) gpu = 1;
        else if (!strcmp(a, "--device") && v) device = v, ++i;
        else if (!strcmp(a, "--json") && v) json = v, ++i;
        else if (!strcmp(a, "--reps") && v) B.min_reps = (int)whole_number(v, 1, 1000000), ++i;
        else if (!strcmp(a, "--joints") && v) B.joints = (uint32_t)whole_number(v, 1, 256), ++i;
        else if (!strcmp(a, "--isa") && v) {
            B.only = (skin_isa)-1;
            for (int s = SKIN_ISA_SCALAR; s <= SKIN_ISA_SIMD128; ++s)
                if (!strcmp(v, skin_isa_name((skin_isa)s))) B.only = (skin_isa)s;
            if ((int)B.only < 0 || !skin_isa_supported(B.only)) {
                fprintf(stderr, "skin-bench: ISA '%s' is not supported here\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (B.min_reps < 1 || B.joints < 1) {
        fprintf(stderr, "skin-bench: --reps must be 1..1000000 and --joints 1..256\n");
        return 2;
    }
    if (gpu) { /* bench/vk/bench_gpu.c */
#ifdef SKIN_BENCH_HAVE_VK
        int g = skin_bench_gpu(B.quick, device, json, stdout);
        return g == 0 ? 0 : g == 1 ? 77 : 1;
#else
        (void)device;
        fprintf(stderr, "skin-bench: built without Vulkan: --gpu is not available\n");
        return 2;
#endif
    }
    FILE *json_file = json ? fopen(json, "w") : NULL;
    if (json && !json_file) {
        perror(json);
        return 2;
    }
    B.best = SKIN_ISA_SCALAR;
    for (int s = SKIN_ISA_SCALAR; s <= SKIN_ISA_SIMD128; ++s) {
        if (!skin_isa_supported((skin_isa)s) || (B.only && (int)B.only != s)) continue;
        B.isas[B.isa_count++] = (skin_isa)s;
        B.best = (skin_isa)s;
    }
    B.threads_ok = skin_has_threads();
    const double load = load_average(), t0 = now_ns();
    fprintf(stderr, "skin-bench: measuring (%s)...\n", B.quick ? "about a minute" : "an hour or more");

    /* Everything is measured first, so that the summary can open the output. */
#ifdef SKIN_BENCH_MODELS_DIR
    load_real_rigs();
#endif
    measure_all();
    candy();
    int rc = 0;
#ifdef SKIN_BENCH_HAVE_VK
    FILE *vk_text = open_memstream(&VK.text, &VK.text_size);
    int vk = vk_text ? skin_bench_vk(B.quick, device, vk_text, &VK.s) : -1;
    if (vk_text) fclose(vk_text);
    VK.ran = vk == 0;
    if (vk != 0 && vk != 1) rc = 1, fprintf(stderr, "skin-bench: the Vulkan benchmarks failed (%d)\n", vk);
#else
    (void)device;
#endif

    print_summary();
    print_details();
    print_candy();
    if (VK.ran) fputs(VK.text, stdout);
#ifdef SKIN_BENCH_HAVE_VK
    else if (vk == 1) printf("\nVulkan: no device, so the Vulkan benchmarks were skipped\n");
#endif
    if (check && check_targets()) rc = rc ? rc : 1;
    if (json_file && !write_json(json_file)) rc = 1, fprintf(stderr, "skin-bench: could not write %s\n", json);
    printf("\nskin-bench: %zu cases in %.1f s (load average before %.2f, after %.2f)\n", B.res_count,
           (now_ns() - t0) * 1e-9, load, load_average());
    for (int i = 0; i < DATASETS; ++i) dataset_free(&D[i]);
    for (int a = 0; a < ASSET_COUNT; ++a) dataset_free(&A[a]);
    morph_free();
    free(O.inter);
    for (int c = 0; c < 10; ++c) free(O.soa[c]);
    free(B.res);
    free(B.pairs);
    free(VK.text);
    return rc;
}
