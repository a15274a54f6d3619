/* skin-bench: skinning kernels per ISA against the scalar reference and
 * against a memory-floor probe that moves the same bytes with no math.
 * One run measures everything and judges the bars of DESIGN.md section 6. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "floor.h"
#include "rig.h"
#include "skin/skin.h"
#ifdef SKIN_BENCH_HAVE_VK
#include "vk/bench_vk.h"
#endif

enum { ATTR_P = 1, ATTR_PN = 2, ATTR_PNT = 3 };
enum { METHOD_FLOOR = 0 }; /* besides SKIN_LBS, SKIN_DQS */

typedef struct bcase {
    int method;    /* METHOD_FLOOR, SKIN_LBS or SKIN_DQS */
    skin_isa isa;  /* unused (0) for the floor */
    int k;         /* influences */
    int attrs;     /* ATTR_* */
    int soa;       /* output layout; the floor always writes contiguously */
    int packed;    /* u8 joints + unorm16 weights, else u16 + f32 */
    int streaming; /* SKIN_OUTPUT_STREAMING */
    size_t n;
    int threads;
} bcase;

typedef struct result {
    bcase c;
    int ok; /* 0: could not run (e.g. 2 threads without OpenMP) */
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

static const char *attr_name(int a) { return a == ATTR_P ? "p" : a == ATTR_PN ? "pn" : "pnt"; }
static const char *method_name(int m) { return m == SKIN_LBS ? "lbs" : m == SKIN_DQS ? "dqs" : "floor"; }
static size_t float_streams(int attrs) { return attrs == ATTR_P ? 3 : attrs == ATTR_PN ? 6 : 10; }
static size_t jsize(int packed) { return packed ? 1 : 2; }
static size_t wsize(int packed) { return packed ? 2 : 4; }

static double case_bytes(const bcase *c)
{
    /* Input floats + joints + weights, and the same floats out. */
    size_t f = float_streams(c->attrs) * 4;
    return (double)(2 * f + (size_t)c->k * (jsize(c->packed) + wsize(c->packed)));
}

static const char *floor_isa(void)
{
#if defined(FLOOR_HAVE_WIDE)
    if (__builtin_cpu_supports("avx2")) return "avx2";
    return "sse2";
#elif defined(__aarch64__)
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
    int k, packed;
    unsigned long last_use;
    float *s[10];
    void *j[SKIN_MAX_INFLUENCES], *w[SKIN_MAX_INFLUENCES];
    float *matrices, *dual_quats;
    skin_mesh_desc mesh;
    skin_palette palette;
} dataset;

enum { DATASETS = 3 }; /* a small LRU cache: building 1M vertices takes a while */
static dataset D[DATASETS];
static unsigned long use_clock;

static void dataset_free(dataset *d)
{
    for (int c = 0; c < 10; ++c) free(d->s[c]);
    for (int i = 0; i < SKIN_MAX_INFLUENCES; ++i) free(d->j[i]), free(d->w[i]);
    free(d->matrices), free(d->dual_quats);
    memset(d, 0, sizeof *d);
}

static void *copy_aligned(const void *src, size_t bytes)
{
    void *p = xalloc(bytes);
    memcpy(p, src, bytes);
    return p;
}

/* The rig's streams copied into 64-byte aligned buffers. */
static void dataset_from_rig(dataset *d, const rig *r, int packed)
{
    size_t n = r->mesh.vertex_count;
    uint32_t k = r->mesh.influence_count, jc = r->palette.joint_count;
    d->n = n, d->k = (int)k, d->packed = packed;
    d->mesh = r->mesh;
    for (int c = 0; c < 10; ++c) d->s[c] = copy_aligned(r->streams[c], n * 4);
    d->mesh.px = d->s[0], d->mesh.py = d->s[1], d->mesh.pz = d->s[2];
    d->mesh.nx = d->s[3], d->mesh.ny = d->s[4], d->mesh.nz = d->s[5];
    d->mesh.tx = d->s[6], d->mesh.ty = d->s[7], d->mesh.tz = d->s[8], d->mesh.tw = d->s[9];
    for (uint32_t i = 0; i < k; ++i) {
        d->mesh.joints[i] = d->j[i] = copy_aligned(r->joints[i], n * jsize(packed));
        d->mesh.weights[i] = d->w[i] = copy_aligned(r->weights[i], n * wsize(packed));
    }
    d->matrices = copy_aligned(r->matrices, 12 * sizeof(float) * jc);
    d->dual_quats = copy_aligned(r->dual_quats, 8 * sizeof(float) * jc);
    d->palette = (skin_palette){jc, d->matrices, NULL, d->dual_quats, NULL};
}

static const dataset *dataset_get(size_t n, int k, int packed)
{
    dataset *d = &D[0];
    for (int i = 0; i < DATASETS; ++i) {
        if (D[i].n == n && D[i].k == k && D[i].packed == packed) {
            D[i].last_use = ++use_clock;
            return &D[i];
        }
        if (D[i].last_use < d->last_use) d = &D[i];
    }
    dataset_free(d);
    rig r;
    rig_options o = {n, B.joints, (uint32_t)k, packed ? SKIN_JOINT_U8 : SKIN_JOINT_U16,
                     packed ? SKIN_WEIGHT_UNORM16 : SKIN_WEIGHT_F32, 0, 0x5eed0000u + (uint64_t)k};
    if (rig_random(&r, &o)) {
        fprintf(stderr, "skin-bench: out of memory building a rig\n");
        exit(2);
    }
    dataset_from_rig(d, &r, packed);
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

/* ----------------------------------------------------------- the cases */

typedef struct runner {
    const bcase *c;
    skin_mesh_desc mesh;
    const skin_palette *palette;
    skin_output out;
    floor_job floor;
    uint32_t (*floor_fn)(const floor_job *, size_t, size_t);
} runner;

static void runner_init(runner *r, const bcase *c, const dataset *d)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->mesh = d->mesh;
    r->mesh.influence_count = (uint32_t)c->k;
    r->palette = &d->palette;
    if (c->attrs < ATTR_PN) r->mesh.nx = r->mesh.ny = r->mesh.nz = NULL;
    if (c->attrs < ATTR_PNT) r->mesh.tx = r->mesh.ty = r->mesh.tz = r->mesh.tw = NULL;

    skin_output *o = &r->out;
    o->flags = c->streaming ? SKIN_OUTPUT_STREAMING : 0;
    if (c->soa) {
        o->layout = SKIN_LAYOUT_SOA;
        for (size_t s = 0; s < float_streams(c->attrs); ++s) o->soa[s] = O.soa[s];
    } else {
        /* A tight interleaved vertex of the used attributes: 12, 24 or 40 bytes. */
        size_t stride = float_streams(c->attrs) * 4;
        o->layout = SKIN_LAYOUT_STRIDED;
        o->position = O.inter, o->position_stride = stride;
        if (c->attrs >= ATTR_PN) o->normal = O.inter + 3, o->normal_stride = stride;
        if (c->attrs >= ATTR_PNT) o->tangent = O.inter + 6, o->tangent_stride = stride;
    }

    floor_job *f = &r->floor;
    f->copy_count = (int)float_streams(c->attrs);
    for (int s = 0; s < f->copy_count; ++s) f->in[s] = d->s[s], f->in_size[s] = 4;
    f->in_count = f->copy_count;
    for (int i = 0; i < c->k; ++i) {
        f->in[f->in_count] = d->j[i], f->in_size[f->in_count++] = jsize(c->packed);
        f->in[f->in_count] = d->w[i], f->in_size[f->in_count++] = wsize(c->packed);
    }
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
    if (c->method != METHOD_FLOOR) {
        skin_status s = c->threads > 1
            ? skin_mesh_parallel(&r->mesh, r->palette, (skin_method)c->method, &r->out, c->threads)
            : skin_mesh(&r->mesh, r->palette, (skin_method)c->method, &r->out, 0, c->n);
        if (s != SKIN_OK) fprintf(stderr, "skin-bench: skinning failed: %s\n", skin_status_string(s));
        return s == SKIN_OK;
    }
    uint32_t sink = 0;
#ifdef _OPENMP
    if (c->threads > 1) {
        /* The same split as skin_mesh_parallel: one contiguous, 64-vertex
         * aligned range per thread. */
#pragma omp parallel num_threads(c->threads) reduction(| : sink)
        {
            size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
            size_t per = (c->n / nt + FLOOR_BLOCK - 1) / FLOOR_BLOCK * FLOOR_BLOCK;
            size_t first = t * per < c->n ? t * per : c->n;
            size_t count = c->n - first < per ? c->n - first : per;
            sink |= r->floor_fn(&r->floor, first, count);
        }
        B.sink |= sink;
        return 1;
    }
#endif
    sink = r->floor_fn(&r->floor, 0, c->n);
    B.sink |= sink;
    return 1;
}

/* Warm-up, then at least min_reps timed runs (more for short cases, up to
 * ~150 ms per case, 1 s in quick runs): median and min in ns per vertex. */
static int measure(const runner *r, double *med, double *min)
{
    double t0 = now_ns(), t = t0;
    int warm = 0;
    do {
        if (!run_once(r)) return 0;
        ++warm;
        t = now_ns();
    } while (t - t0 < 5e6 && warm < 100);
    double per_call = (t - t0) / warm;
    /* Quick runs have few cases: a longer sample steadies their medians. */
    double want = (B.quick ? 1000e6 : 150e6) / per_call;
    int reps = want > 2000 ? 2000 : (int)want;
    if (reps < B.min_reps) reps = B.min_reps;
    double *x = malloc(sizeof(double) * (size_t)reps);
    if (!x) return 0;
    for (int i = 0; i < reps; ++i) {
        double a = now_ns();
        run_once(r);
        x[i] = (now_ns() - a) / (double)r->c->n;
    }
    qsort(x, (size_t)reps, sizeof *x, cmp_double);
    *min = x[0];
    *med = reps % 2 ? x[reps / 2] : 0.5 * (x[reps / 2 - 1] + x[reps / 2]);
    free(x);
    return 1;
}

static int same_case(const bcase *a, const bcase *b)
{
    return a->method == b->method && a->isa == b->isa && a->k == b->k && a->attrs == b->attrs &&
           a->soa == b->soa && a->packed == b->packed && a->streaming == b->streaming &&
           a->n == b->n && a->threads == b->threads;
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
    f.method = METHOD_FLOOR, f.isa = SKIN_ISA_AUTO, f.soa = 0;
    return f;
}

static void print_header(void)
{
    printf("%-6s %-7s %2s %-4s %-6s %-6s %-7s %-9s %8s %3s %9s %9s %5s %6s %7s %8s\n", "method", "isa",
           "k", "attr", "output", "joints", "weights", "stores", "vertices", "thr", "median", "min",
           "B/v", "GB/s", "/floor", "scalar/");
}

static void print_row(const result *r)
{
    const bcase *c = &r->c;
    char fl[16] = "", sc[16] = "";
    if (c->method != METHOD_FLOOR) {
        bcase f = floor_of(c), s = *c;
        const result *fr = find(&f), *sr;
        if (fr && fr->ok) snprintf(fl, sizeof fl, "%.2f", r->med / fr->med);
        s.isa = SKIN_ISA_SCALAR;
        if (c->isa != SKIN_ISA_SCALAR && (sr = find(&s)) && sr->ok)
            snprintf(sc, sizeof sc, "%.2f", sr->med / r->med);
    }
    printf("%-6s %-7s %2d %-4s %-6s %-6s %-7s %-9s %8zu %3d %9.3f %9.3f %5.0f %6.2f %7s %8s\n",
           method_name(c->method), case_isa(c), c->k, attr_name(c->attrs), c->soa ? "soa" : "inter",
           c->packed ? "u8" : "u16", c->packed ? "unorm16" : "f32", c->streaming ? "streaming" : "normal",
           c->n, c->threads, r->med, r->min, r->bytes, r->bytes / r->med, fl, sc);
    fflush(stdout);
}

/* Measures a case once (its floor first, for the ratio); later calls
 * return the stored result. */
static const result *get(bcase c)
{
    const result *have = find(&c);
    if (have) return have;
    if (c.method != METHOD_FLOOR) get(floor_of(&c));
    result r = {.c = c, .bytes = case_bytes(&c)};
    if (c.threads == 1 || B.threads_ok) {
        if (c.method != METHOD_FLOOR && skin_set_isa(c.isa) != SKIN_OK) {
            fprintf(stderr, "skin-bench: ISA %s not supported\n", skin_isa_name(c.isa));
            exit(2);
        }
        outputs_reserve(c.n);
        runner run;
        runner_init(&run, &c, dataset_get(c.n, c.k, c.packed));
        r.ok = measure(&run, &r.med, &r.min);
        if (!r.ok) exit(2);
    }
    if (B.res_count == B.res_cap) {
        B.res_cap = B.res_cap ? 2 * B.res_cap : 256;
        B.res = realloc(B.res, B.res_cap * sizeof *B.res);
        if (!B.res) exit(2);
    }
    B.res[B.res_count] = r;
    if (r.ok) print_row(&B.res[B.res_count]);
    return &B.res[B.res_count++];
}

static bcase kcase(int method, skin_isa isa, int k, int attrs, size_t n, int threads)
{
    return (bcase){method, isa, k, attrs, 0, 0, 0, n, threads};
}

/* ---------------------------------------------------------------- sweep */

static void full_sweep(void)
{
    static const size_t sizes[] = {10000, 100000, 1000000};
    static const int ks[] = {1, 2, 4, 8};
    for (int si = 0; si < 3; ++si)
        for (int ki = 0; ki < 4; ++ki)
            for (int a = ATTR_P; a <= ATTR_PNT; ++a)
                for (int t = 1; t <= 2; ++t)
                    for (int m = SKIN_LBS; m <= SKIN_DQS; ++m)
                        for (int i = 0; i < B.isa_count; ++i) {
                            bcase c = kcase(m, B.isas[i], ks[ki], a, sizes[si], t);
                            get(c);
                            if (a != ATTR_PNT || ks[ki] < 4) continue;
                            /* Variants of the p+n+t case: packed inputs (4 and
                             * 8 influences), SoA output, streaming stores. */
                            bcase v = c;
                            if (t == 1) v.packed = 1, get(v);
                            if (ks[ki] != 4) continue;
                            v = c, v.streaming = 1, get(v);
                            if (t == 1) v = c, v.soa = 1, get(v);
                        }
}

/* ----------------------------------------------------------------- bars */

static int bars_missed;

static void bar(const char *what, double ratio, double limit, int at_most)
{
    if (isnan(ratio)) {
        printf("  n/a   %-62s (not measured)\n", what);
        ++bars_missed;
        return;
    }
    int pass = at_most ? ratio <= limit : ratio >= limit;
    bars_missed += !pass;
    printf("  %-5s %-62s %7.4f %s %.2f\n", pass ? "PASS" : "MISS", what, ratio, at_most ? "<=" : ">=",
           limit);
}

static double med_of(bcase c) { const result *r = get(c); return r->ok ? r->med : NAN; }
static double min_of(bcase c) { const result *r = get(c); return r->ok ? r->min : NAN; }

static void bars(void)
{
    const skin_isa b = B.best, s = SKIN_ISA_SCALAR;
    const size_t K10 = 10000, K100 = 100000, M1 = 1000000;
    bcase lbs10 = kcase(SKIN_LBS, b, 4, ATTR_PNT, K10, 1), lbs100 = lbs10;
    lbs100.n = K100;
    bcase sc10 = lbs10, dqs10 = lbs10, dqs100 = lbs100;
    sc10.isa = s, dqs10.method = SKIN_DQS, dqs100.method = SKIN_DQS;
    bcase l8 = lbs10, d8 = dqs10, p10 = lbs10, p100 = lbs100, pd10 = dqs10;
    l8.k = 8, d8.k = 8, p10.packed = 1, p100.packed = 1, pd10.packed = 1;
    bcase st2 = kcase(SKIN_LBS, b, 4, ATTR_PNT, M1, 2), no2 = st2, st1 = st2, no1;
    st2.streaming = 1, st1.streaming = 1, st1.threads = 1;
    no1 = st1, no1.streaming = 0;

    /* Measure scalar first so the table's scalar/ column fills in. */
    double sc = min_of(sc10);
    double l10 = min_of(lbs10), l100 = med_of(lbs100);
    double f100 = med_of(floor_of(&lbs100)), fs2 = med_of(floor_of(&st2));
    double d10 = min_of(dqs10), d100 = med_of(dqs100);
    double l8m = min_of(l8), d8m = min_of(d8), p10m = min_of(p10), pd10m = min_of(pd10);
    double p100m = med_of(p100), s2 = med_of(st2), n2 = med_of(no2), s1 = med_of(st1), n1 = med_of(no1);

    printf("\nbars (best ISA %s; compute-bound by min, memory-bound by median; LBS 4 influences p+n+t\n"
           "interleaved 40-byte vertex, u16/f32 inputs unless said; ratio then limit)\n",
           skin_isa_name(b));
    bars_missed = 0;
    bar("LBS 10k 1t: min ns/vertex / 3.5", l10 / 3.5, 1.0, 1);
    bar("LBS 10k 1t: speed-up over scalar reference (min)", sc / l10, 4.0, 0);
    bar("LBS 100k 1t: / memory floor (median)", l100 / f100, 1.25, 1);
    bar("DQS / LBS 10k 1t (min)", d10 / l10, 1.2, 1);
    bar("DQS / LBS 100k 1t (median)", d100 / l100, 1.2, 1);
    bar("LBS 8 / 4 influences 10k 1t (min)", l8m / l10, 1.8, 1);
    bar("DQS 8 / 4 influences 10k 1t (min)", d8m / d10, 1.8, 1);
    bar("LBS packed (u8, unorm16) / f32 10k 1t (min)", p10m / l10, 1.0, 1);
    bar("DQS packed (u8, unorm16) / f32 10k 1t (min)", pd10m / d10, 1.0, 1);
    bar("LBS packed (u8, unorm16) / f32 100k 1t (median)", p100m / l100, 1.0, 1);
    bar("LBS 1M 2t streaming / streaming memory floor 2t (median)", s2 / fs2, 1.25, 1);
    bar("LBS 1M 2t streaming / normal stores (median)", s2 / n2, 1.0, 1);
    bar("LBS 1M 1t streaming / normal stores (median)", s1 / n1, 1.0, 1);
    bar("LBS 1M streaming: 2-thread speed-up (median)", s1 / s2, 1.7, 0);
    printf("bars: %d missed\n", bars_missed);
}

/* The twisted candy-wrapper rig: LBS collapses, DQS keeps volume; the cost
 * of both on a real-looking (coherent) rig. */
static void candy(void)
{
    const size_t n = 100000;
    rig r;
    rig_options o = {n, 16, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 7};
    if (rig_candy_wrapper(&r, &o)) exit(2);
    rig_candy_pose(&r, 3.14159265f);
    outputs_reserve(n);
    printf("\ncandy wrapper (%zu vertices, 16 joints, 4 influences, twisted 180 degrees, p+n+t, "
           "interleaved, 1 thread)\n", n);
    dataset d = {0};
    dataset_from_rig(&d, &r, 0);
    rig_free(&r);
    skin_set_isa(B.best);
    for (int m = SKIN_LBS; m <= SKIN_DQS; ++m) {
        bcase c = kcase(m, B.best, 4, ATTR_PNT, n, 1);
        runner run;
        double med, min;
        runner_init(&run, &c, &d);
        if (!measure(&run, &med, &min)) exit(2);
        printf("  candy %s %-7s median %7.3f  min %7.3f ns/vertex\n", method_name(m),
               skin_isa_name(B.best), med, min);
    }
    dataset_free(&d);
}

/* ----------------------------------------------------------------- JSON */

static int write_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 0;
    }
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
                "\"ns_per_vertex_min\": %.4f, \"bytes_per_vertex\": %.0f, \"gbps\": %.3f}",
                first ? "" : ",", method_name(c->method), case_isa(c), c->k, attr_name(c->attrs),
                c->soa ? "soa" : "interleaved", c->packed ? "u8" : "u16", c->packed ? "unorm16" : "f32",
                c->streaming ? "streaming" : "normal", c->n, c->threads, r->med, r->min, r->bytes,
                r->bytes / r->med);
        first = 0;
    }
    fprintf(f, "\n]\n");
    return fclose(f) == 0;
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: skin-bench [--quick] [--isa NAME] [--reps N] [--joints N] [--json FILE]\n"
            "  --quick      only the cases the performance bars need (under a minute)\n"
            "  --isa NAME   measure only this ISA (scalar|sse2|avx2|avx512|neon); the scalar\n"
            "               reference is still measured where a bar needs it\n"
            "  --reps N     at least N timed repetitions per case (default 15)\n"
            "  --joints N   palette size of the random rigs (default 64)\n"
            "  --json FILE  also write every measured case as a JSON array\n"
            "  --gpu        instead: the CPU path against the GPU path on a Vulkan device\n"
            "  --device D   with --gpu: device index or name substring (default: the first)\n");
}

int main(int argc, char **argv)
{
    const char *json = NULL, *device = NULL;
    int gpu = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) B.quick = 1;
        else if (!strcmp(a, "--gpu")) gpu = 1;
        else if (!strcmp(a, "--device") && v) device = v, ++i;
        else if (!strcmp(a, "--json") && v) json = v, ++i;
        else if (!strcmp(a, "--reps") && v) B.min_reps = atoi(v), ++i;
        else if (!strcmp(a, "--joints") && v) B.joints = (uint32_t)atoi(v), ++i;
        else if (!strcmp(a, "--isa") && v) {
            B.only = (skin_isa)-1;
            for (int s = SKIN_ISA_SCALAR; s <= SKIN_ISA_NEON; ++s)
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
    if (B.min_reps < 1 || B.joints < 1 || B.joints > 256) {
        fprintf(stderr, "skin-bench: --reps must be >= 1 and --joints 1..256\n");
        return 2;
    }

    B.best = SKIN_ISA_SCALAR;
    for (int s = SKIN_ISA_SCALAR; s <= SKIN_ISA_NEON; ++s) {
        if (!skin_isa_supported((skin_isa)s) || (B.only && (int)B.only != s)) continue;
        B.isas[B.isa_count++] = (skin_isa)s;
        B.best = (skin_isa)s;
    }
#ifdef _OPENMP
    B.threads_ok = skin_has_openmp();
#endif
    printf("skin-bench %s: %s run; ISAs:", skin_version_string(), B.quick ? "quick" : "full");
    for (int i = 0; i < B.isa_count; ++i) printf(" %s", skin_isa_name(B.isas[i]));
    printf("; best %s; %u-joint random rigs; memory floor %s; >= %d reps per case\n",
           skin_isa_name(B.best), B.joints, floor_isa(), B.min_reps);
    if (!B.threads_ok) printf("note: built without OpenMP: 2-thread cases are skipped\n");
    double load = load_average();
    if (load > 0.5)
        printf("note: load average %.2f before the run: other work competes for the cores, so "
               "timings (2-thread ones above all) are pessimistic\n", load);
    printf("times in ns/vertex; /floor and scalar/ are ratios of medians\n\n");
    print_header();

    double t0 = now_ns();
    if (!B.quick) full_sweep();
    bars();
    candy();

    int rc = 0;
    if (json && !write_json(json)) rc = 1;
#ifdef SKIN_BENCH_HAVE_VK
    printf("\n");
    int vk = skin_bench_vk(B.quick, stdout);
    if (vk == 1) printf("note: no Vulkan device: the Vulkan benchmarks were skipped\n");
    else if (vk != 0) rc = 1, fprintf(stderr, "skin-bench: the Vulkan benchmarks failed (%d)\n", vk);
#endif
    printf("\nskin-bench: %zu cases in %.1f s (load average before %.2f, after %.2f)\n", B.res_count,
           (now_ns() - t0) * 1e-9, load, load_average());
    for (int i = 0; i < DATASETS; ++i) dataset_free(&D[i]);
    free(O.inter);
    for (int c = 0; c < 10; ++c) free(O.soa[c]);
    free(B.res);
    return rc;
}
