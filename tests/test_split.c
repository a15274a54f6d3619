/* SPDX-License-Identifier: MIT */
/* Splitting a mesh into ranges or threads gives output bit-identical to one
 * skin_mesh call: random split points (with empty ranges), single-vertex
 * ranges, ranges in reverse order, skin_split_range's parts, and
 * skin_mesh_parallel on 1, 2, 3, 8 and the default number of threads; the
 * bounds of the parts combine to the same bounds.  Runs under whatever ISA is current (SKIN_ISA chooses); the
 * signed-zero bounds case under every ISA. */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 2 * 8192 + 7 }; /* 2 threads and 9 chunks of skin_mesh_parallel, odd tail */

typedef struct target {
    int soa;
    unsigned char *inter; /* N * 40 bytes, 64-byte aligned */
    float *planes[10];
} target;

static void *alloc64(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) abort();
    memset(p, 0xA5, bytes);
    return p;
}

static void target_init(target *t, int soa)
{
    memset(t, 0, sizeof *t);
    t->soa = soa;
    if (soa)
        for (int c = 0; c < 10; ++c) t->planes[c] = alloc64(N * sizeof(float));
    else
        t->inter = alloc64((size_t)N * 40);
}

static void target_reset(target *t)
{
    if (t->soa)
        for (int c = 0; c < 10; ++c) memset(t->planes[c], 0xA5, N * sizeof(float));
    else
        memset(t->inter, 0xA5, (size_t)N * 40);
}

static void target_free(target *t)
{
    free(t->inter);
    for (int c = 0; c < 10; ++c) free(t->planes[c]);
}

static int target_equal(const target *a, const target *b)
{
    if (a->soa) {
        for (int c = 0; c < 10; ++c)
            if (memcmp(a->planes[c], b->planes[c], N * sizeof(float))) return 0;
        return 1;
    }
    return memcmp(a->inter, b->inter, (size_t)N * 40) == 0;
}

static skin_output output_for(target *t, uint32_t flags, float *bounds)
{
    skin_output o = {0};
    o.flags = flags;
    o.bounds = bounds;
    if (t->soa) {
        o.layout = SKIN_LAYOUT_SOA;
        for (int c = 0; c < 10; ++c) o.soa[c] = t->planes[c];
    } else {
        float *base = (float *)t->inter;
        o.position = base, o.position_stride = 40;
        o.normal = base + 3, o.normal_stride = 40;
        o.tangent = base + 6, o.tangent_stride = 40;
    }
    return o;
}

static void bounds_merge(float *acc, const float *part)
{
    for (int c = 0; c < 3; ++c) {
        acc[c] = fminf(acc[c], part[c]);
        acc[3 + c] = fmaxf(acc[3 + c], part[3 + c]);
    }
}

static void bounds_empty(float *b)
{
    for (int c = 0; c < 3; ++c) b[c] = INFINITY, b[3 + c] = -INFINITY;
}

typedef struct config {
    const char *name;
    uint32_t k;
    skin_joint_format jf;
    skin_weight_format wf;
    int scales;
    int soa;
    uint32_t flags;
} config;

static void run_config(const config *cf, skin_method method, uint64_t seed)
{
    rig r;
    rig_options ro = {N, 60, cf->k, cf->jf, cf->wf, cf->scales, seed};
    if (rig_random(&r, &ro)) abort();
    /* A few joints out of range (clamped) so the clamp path is split too. */
    if (cf->jf == SKIN_JOINT_U16)
        for (size_t v = 0; v < N; v += 97) ((uint16_t *)r.joints[0])[v] = 60000;
    char label[128];
    snprintf(label, sizeof label, "%s %s", method == SKIN_LBS ? "LBS" : "DQS", cf->name);

    target ref, t;
    target_init(&ref, cf->soa);
    target_init(&t, cf->soa);
    float ref_bounds[6], bounds[6], part[6];
    skin_output out = output_for(&ref, cf->flags, ref_bounds);
    CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &out, 0, N), SKIN_OK);
    for (int c = 0; c < 3; ++c) CHECK(ref_bounds[c] <= ref_bounds[3 + c]);

    int failures = 0;
#define EXPECT_SAME(what)                                                                  \
    do {                                                                                   \
        int same_out = target_equal(&t, &ref);                                             \
        int same_bounds = memcmp(bounds, ref_bounds, sizeof bounds) == 0;                  \
        if (same_out && same_bounds) {                                                     \
            ++check_passed_count;                                                          \
        } else {                                                                           \
            ++check_failed_count, ++failures;                                              \
            fprintf(stderr, "FAILED: %s: %s: %s differs from one call\n", label, what,      \
                    same_out ? "bounds" : "output");                                       \
        }                                                                                  \
    } while (0)

    /* Random split points, some ranges empty. */
    uint64_t s = seed * 31 + 7;
    for (int round = 0; round < 6; ++round) {
        target_reset(&t);
        bounds_empty(bounds);
        out = output_for(&t, cf->flags, part);
        size_t first = 0;
        while (first < N) {
            size_t len = rig_next(&s) % (round < 3 ? 40 : 3000);
            if (len > N - first) len = N - first;
            CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &out, first, len), SKIN_OK);
            bounds_merge(bounds, part);
            first += len;
        }
        char what[48];
        snprintf(what, sizeof what, "random split round %d", round);
        EXPECT_SAME(what);
    }

    /* Single-vertex ranges, in reverse order. */
    target_reset(&t);
    bounds_empty(bounds);
    out = output_for(&t, cf->flags, part);
    for (size_t v = N; v-- > 0;) {
        skin_status st = skin_mesh(&r.mesh, &r.palette, method, &out, v, 1);
        if (st != SKIN_OK) CHECK_STATUS(st, SKIN_OK);
        bounds_merge(bounds, part);
    }
    EXPECT_SAME("single-vertex ranges, reverse order");

    /* Lane-width-sized and odd ranges: 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31,
     * 32, 33, 63, 64, 65 ... repeating. */
    static const size_t lens[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 2048};
    target_reset(&t);
    bounds_empty(bounds);
    out = output_for(&t, cf->flags, part);
    for (size_t first = 0, i = 0; first < N; ++i) {
        size_t len = lens[i % (sizeof lens / sizeof lens[0])];
        if (len > N - first) len = N - first;
        CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &out, first, len), SKIN_OK);
        bounds_merge(bounds, part);
        first += len;
    }
    EXPECT_SAME("lane-width ranges");

    /* skin_split_range's parts, as a job system would run them (last first). */
    static const uint32_t job_counts[] = {1, 2, 3, 7, 64, 200};
    for (size_t i = 0; i < sizeof job_counts / sizeof job_counts[0]; ++i) {
        target_reset(&t);
        bounds_empty(bounds);
        out = output_for(&t, cf->flags, part);
        for (uint32_t j = job_counts[i]; j-- > 0;) {
            size_t first, count;
            CHECK_STATUS(skin_split_range(N, job_counts[i], j, &first, &count), SKIN_OK);
            CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &out, first, count), SKIN_OK);
            bounds_merge(bounds, part);
        }
        char what[48];
        snprintf(what, sizeof what, "skin_split_range(parts=%u)", job_counts[i]);
        EXPECT_SAME(what);
    }

    /* The thread pool on several thread counts. */
    static const int threads[] = {1, 2, 3, 8, 0, -1};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; ++i) {
        target_reset(&t);
        out = output_for(&t, cf->flags, bounds);
        CHECK_STATUS(skin_mesh_parallel(&r.mesh, &r.palette, method, &out, threads[i]), SKIN_OK);
        char what[48];
        snprintf(what, sizeof what, "skin_mesh_parallel(threads=%d)", threads[i]);
        EXPECT_SAME(what);
    }
    /* Without bounds the output is still the same. */
    target_reset(&t);
    out = output_for(&t, cf->flags, NULL);
    CHECK_STATUS(skin_mesh_parallel(&r.mesh, &r.palette, method, &out, 2), SKIN_OK);
    CHECK(target_equal(&t, &ref));
#undef EXPECT_SAME

    printf("  %-58s %s\n", label, failures ? "DIFFERS" : "bit-identical");
    target_free(&ref);
    target_free(&t);
    rig_free(&r);
}

/* Positions whose x is +0 and -0 in alternating runs (and one NaN): the
 * box's x bounds are +0, bit for bit, from one call and from every thread
 * count, each run several times, on every ISA this CPU has.  Before, the
 * kernels kept whichever zero a lane met first and the parallel driver
 * merged its chunks in the order they finished. */
enum { ZN = 40000, ZRUN = 1000 };
static void signed_zero_bounds(void)
{
    static float px[ZN], py[ZN], pz[ZN], w[ZN], pos[3 * ZN];
    static uint8_t j[ZN];
    for (size_t v = 0; v < ZN; ++v) {
        const int neg = (v / ZRUN) & 1;
        px[v] = neg ? -0.0f : 0.0f, py[v] = pz[v] = neg ? -1.0f : 1.0f;
        w[v] = 1.0f, j[v] = 0;
    }
    px[ZN / 2 + 5] = NAN; /* left out of the box */
    /* the identity, translated by -0 in x */
    const float m[12] = {1, 0, 0, -0.0f, 0, 1, 0, 0, 0, 0, 1, 0};
    float dq[8];
    skin_matrix_to_dual_quat(m, dq, NULL);
    const skin_palette pal = {.joint_count = 1, .matrices = m, .dual_quats = dq};
    const skin_mesh_desc mesh = {.vertex_count = ZN, .px = px, .py = py, .pz = pz, .influence_count = 1,
                                 .joint_format = SKIN_JOINT_U8, .weight_format = SKIN_WEIGHT_F32,
                                 .joints = {j}, .weights = {w}};
    const skin_isa before = skin_get_isa();
    static const int threads[] = {1, 2, 3, 7};
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            float one[6], b[6];
            skin_output out = {.position = pos, .position_stride = 12, .bounds = one};
            CHECK_STATUS(skin_mesh(&mesh, &pal, (skin_method)method, &out, 0, ZN), SKIN_OK);
            const float expect[6] = {0.0f, -1.0f, -1.0f, 0.0f, 1.0f, 1.0f};
            int same = memcmp(one, expect, sizeof one) == 0;
            out.bounds = b;
            for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t)
                for (int round = 0; round < 5; ++round) {
                    CHECK_STATUS(skin_mesh_parallel(&mesh, &pal, (skin_method)method, &out, threads[t]), SKIN_OK);
                    same &= memcmp(b, expect, sizeof b) == 0;
                }
            if (!same)
                fprintf(stderr, "FAILED: %s %s: signed-zero bounds (%a %a) not +0 in every call\n",
                        skin_isa_name((skin_isa)isa), method == SKIN_LBS ? "LBS" : "DQS", one[0], one[3]);
            CHECK(same);
        }
    }
    CHECK_STATUS(skin_set_isa(before), SKIN_OK);
}

/* skin_split_range's parts tile [0, n) in order, start on multiples of 64
 * and differ by at most 64 vertices. */
static void split_range_parts(void)
{
    static const size_t counts[] = {0, 1, 63, 64, 65, 129, 1000, 10007, 1u << 20};
    static const uint32_t parts[] = {1, 2, 3, 5, 16, 17, 1000};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; ++p) {
            size_t next = 0, lo = SIZE_MAX, hi = 0;
            for (uint32_t j = 0; j < parts[p]; ++j) {
                size_t first = 7, count = 7;
                CHECK_STATUS(skin_split_range(counts[c], parts[p], j, &first, &count), SKIN_OK);
                CHECK(first == next);
                CHECK(first % 64 == 0 || first == counts[c]);
                next = first + count;
                if (count < lo) lo = count;
                if (count > hi) hi = count;
            }
            CHECK(next == counts[c]);
            CHECK(hi - lo <= 64);
        }
}

int main(void)
{
    static const config configs[] = {
        {"k=4 u16/f32 interleaved40", 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 0, 0},
        {"k=4 u16/f32 +scales interleaved40", 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 1, 0, 0},
        {"k=1 u8/unorm8 soa normalize", 1, SKIN_JOINT_U8, SKIN_WEIGHT_UNORM8, 0, 1,
         SKIN_OUTPUT_NORMALIZE},
        {"k=8 u16/unorm16 interleaved40 streaming", 8, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16, 0, 0,
         SKIN_OUTPUT_STREAMING},
        {"k=3 u8/f32 soa streaming+normalize", 3, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 1, 1,
         SKIN_OUTPUT_STREAMING | SKIN_OUTPUT_NORMALIZE},
    };
    printf("thread pool: %s\n", skin_has_threads() ? "yes" : "no (skin_mesh_parallel is serial)");
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; ++c) {
        run_config(&configs[c], SKIN_LBS, 1000 + c);
        run_config(&configs[c], SKIN_DQS, 2000 + c);
    }
    signed_zero_bounds();
    split_range_parts();
    return check_finish("test_split");
}
