/* SPDX-License-Identifier: MIT */
/* Bad input: every invalid argument of skin_mesh (and skin_mesh_parallel)
 * returns its own documented status and leaves the output untouched: canary
 * bytes fill the whole output buffer (around and inside the range) and the
 * bounds.  Also: count == 0, the ISA override and the string functions. */
#include "check.h"
#include "skin/skin.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 16, K = 2, JOINTS = 4, SLACK = 2 };
#define CANARY 0xA5

static float px[N], py[N], pz[N], nx[N], ny[N], nz[N], tx[N], ty[N], tz[N], tw[N];
static uint8_t j0[N], j1[N];
static float w0[N], w1[N];
static float mats[JOINTS * 12], dqs[JOINTS * 8];

/* The whole output: SLACK vertices of 40 bytes before and after N vertices,
 * plus 10 planar streams with SLACK floats either side. */
static float inter[(N + 2 * SLACK) * 10];
static float planes[10][N + 2 * SLACK];
static float bounds[7]; /* a float spare: the misaligned bounds case starts 1 byte in */

static void setup(void)
{
    for (int v = 0; v < N; ++v) {
        px[v] = (float)v, py[v] = 1, pz[v] = -1;
        nx[v] = 0, ny[v] = 0, nz[v] = 1;
        tx[v] = 1, ty[v] = 0, tz[v] = 0, tw[v] = 1;
        j0[v] = (uint8_t)(v % JOINTS), j1[v] = (uint8_t)((v + 1) % JOINTS);
        w0[v] = 0.75f, w1[v] = 0.25f;
    }
    for (int j = 0; j < JOINTS; ++j) {
        static const float im[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        static const float idq[8] = {0, 0, 0, 1, 0, 0, 0, 0};
        memcpy(mats + 12 * j, im, sizeof im);
        memcpy(dqs + 8 * j, idq, sizeof idq);
    }
}

static skin_mesh_desc good_mesh(void)
{
    skin_mesh_desc m = {N, px, py, pz, nx, ny, nz, tx, ty, tz, tw, K,
                        SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j0, j1}, {w0, w1}, 0, NULL};
    return m;
}

static skin_palette good_palette(void)
{
    skin_palette p = {JOINTS, mats, NULL, dqs, NULL, NULL};
    return p;
}

static skin_output strided_out(void)
{
    float *base = inter + 10 * SLACK;
    skin_output o = {0};
    o.position = base, o.position_stride = 40;
    o.normal = base + 3, o.normal_stride = 40;
    o.tangent = base + 6, o.tangent_stride = 40;
    o.bounds = bounds;
    return o;
}

static skin_output soa_out(void)
{
    skin_output o = {0};
    o.layout = SKIN_LAYOUT_SOA;
    for (int c = 0; c < 10; ++c) o.soa[c] = planes[c] + SLACK;
    o.bounds = bounds;
    return o;
}

static void fill_canary(void)
{
    memset(inter, CANARY, sizeof inter);
    memset(planes, CANARY, sizeof planes);
    memset(bounds, CANARY, sizeof bounds);
}

static int untouched(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != CANARY) return 0;
    return 1;
}

static int all_untouched(void)
{
    return untouched(inter, sizeof inter) && untouched(planes, sizeof planes) &&
           untouched(bounds, sizeof bounds);
}

/* skin_mesh on [4, 12) (or the given range) must fail with `expected`
 * and write nothing; skin_mesh_parallel too unless the case is about the
 * range (which skin_mesh_parallel does not take). */
static void expect_bad(const char *what, const skin_mesh_desc *mesh, const skin_palette *pal,
                       skin_method method, const skin_output *out, size_t first, size_t count,
                       skin_status expected, int also_parallel)
{
    fill_canary();
    skin_status s = skin_mesh(mesh, pal, method, out, first, count);
    int ok = s == expected && all_untouched();
    if (ok && also_parallel) {
        fill_canary();
        skin_status sp = skin_mesh_parallel(mesh, pal, method, out, 2);
        ok = sp == expected && all_untouched();
        if (sp != expected)
            fprintf(stderr, "FAILED: %s: skin_mesh_parallel returned %d (%s), expected %d (%s)\n",
                    what, (int)sp, skin_status_string(sp), (int)expected,
                    skin_status_string(expected));
    } else if (s != expected) {
        fprintf(stderr, "FAILED: %s: skin_mesh returned %d (%s), expected %d (%s)\n", what,
                (int)s, skin_status_string(s), (int)expected, skin_status_string(expected));
    }
    if (!all_untouched()) fprintf(stderr, "FAILED: %s: output written on error\n", what);
    if (ok)
        ++check_passed_count;
    else
        ++check_failed_count;
}

#define BAD(what, mesh, pal, method, out, status) \
    expect_bad(what, mesh, pal, method, out, 4, 8, status, 1)
#define BAD_RANGE(what, first, count, status) \
    expect_bad(what, &gm, &gp, SKIN_LBS, &so, first, count, status, 0)

static void bad_arguments(void)
{
    const skin_mesh_desc gm = good_mesh();
    const skin_palette gp = good_palette();
    const skin_output so = strided_out(), sa = soa_out();
    skin_mesh_desc m;
    skin_palette p;
    skin_output o;

    /* The good call works (so every failure below is the one change). */
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
        fill_canary();
        CHECK_STATUS(skin_mesh(&gm, &gp, (skin_method)method, &so, 4, 8), SKIN_OK);
        CHECK(untouched(inter, sizeof(float) * 10 * (SLACK + 4)));
        CHECK(!untouched(inter + 10 * (SLACK + 4), 40));
        CHECK(untouched(inter + 10 * (SLACK + 12), sizeof(float) * 10 * (N - 12 + SLACK)));
        fill_canary();
        CHECK_STATUS(skin_mesh(&gm, &gp, (skin_method)method, &sa, 4, 8), SKIN_OK);
        CHECK(!untouched(planes[9] + SLACK + 4, 4));
    }

    /* NULL pointers */
    BAD("NULL mesh", NULL, &gp, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    BAD("NULL palette", &gm, NULL, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    BAD("NULL out", &gm, &gp, SKIN_LBS, NULL, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.px = NULL;
    BAD("NULL px", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.py = NULL;
    BAD("NULL py", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.pz = NULL;
    BAD("NULL pz", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.joints[1] = NULL;
    BAD("NULL joints[1]", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.weights[0] = NULL;
    BAD("NULL weights[0]", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.ny = NULL; /* normals are all three or none */
    BAD("NULL ny with nx set", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.tw = NULL;
    BAD("NULL tw with tx set", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.nx = NULL; /* a partial set is a NULL argument whichever pointer lacks */
    BAD("NULL nx with ny, nz set", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_NULL_ARGUMENT);
    m = gm, m.tx = NULL;
    BAD("NULL tx with ty, tz, tw set", &m, &gp, SKIN_LBS, &sa, SKIN_ERROR_NULL_ARGUMENT);
    o = so, o.position = NULL;
    BAD("NULL out.position", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_NULL_ARGUMENT);
    o = sa, o.soa[1] = NULL;
    BAD("NULL soa[1]", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_NULL_ARGUMENT);
    o = sa, o.soa[5] = NULL;
    BAD("NULL soa[5] with soa[3] set", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_NULL_ARGUMENT);
    o = sa, o.soa[9] = NULL;
    BAD("NULL soa[9] with soa[6] set", &gm, &gp, SKIN_DQS, &o, SKIN_ERROR_NULL_ARGUMENT);

    /* counts */
    p = gp, p.joint_count = 0;
    BAD("joint_count 0", &gm, &p, SKIN_LBS, &so, SKIN_ERROR_INVALID_COUNT);
    BAD("joint_count 0 (DQS)", &gm, &p, SKIN_DQS, &so, SKIN_ERROR_INVALID_COUNT);
    m = gm, m.vertex_count = SIZE_MAX;
    BAD("vertex_count SIZE_MAX", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_INVALID_COUNT);
    m = gm, m.vertex_count = (size_t)PTRDIFF_MAX;
    BAD("vertex_count PTRDIFF_MAX", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_INVALID_COUNT);

    /* ranges */
    BAD_RANGE("first + count overflows", 4, SIZE_MAX - 2, SKIN_ERROR_INVALID_RANGE);
    BAD_RANGE("first + count overflows (2)", SIZE_MAX, 2, SKIN_ERROR_INVALID_RANGE);
    BAD_RANGE("range past the end", 10, 7, SKIN_ERROR_INVALID_RANGE);
    BAD_RANGE("count > vertex_count", 0, N + 1, SKIN_ERROR_INVALID_RANGE);
    BAD_RANGE("empty range past the end", N + 1, 0, SKIN_ERROR_INVALID_RANGE);

    /* strides and alignment */
    o = so, o.position_stride = 8;
    BAD("position stride 8 < 12", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.position_stride = 0;
    BAD("position stride 0", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.normal_stride = 8;
    BAD("normal stride 8 < 12", &gm, &gp, SKIN_DQS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.tangent_stride = 12;
    BAD("tangent stride 12 < 16", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.position_stride = 42;
    BAD("position stride 42 not a multiple of 4", &gm, &gp, SKIN_LBS, &o,
        SKIN_ERROR_INVALID_STRIDE);
    o = so, o.normal_stride = 13;
    BAD("normal stride 13 not a multiple of 4", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.tangent_stride = 18;
    BAD("tangent stride 18 not a multiple of 4", &gm, &gp, SKIN_DQS, &o,
        SKIN_ERROR_INVALID_STRIDE);
    o = so, o.position_stride = SIZE_MAX / 2 + 1;
    BAD("position stride overflowing", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    /* Misaligned pointers (computed as integers: never dereferenced). */
    o = so, o.position = (float *)(void *)((uintptr_t)so.position + 2);
    BAD("position misaligned", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.normal = (float *)(void *)((uintptr_t)so.normal + 1);
    BAD("normal misaligned", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.tangent = (float *)(void *)((uintptr_t)so.tangent + 3);
    BAD("tangent misaligned", &gm, &gp, SKIN_DQS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = sa, o.soa[4] = (float *)(void *)((uintptr_t)sa.soa[4] + 2);
    BAD("soa[4] misaligned", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = so, o.bounds = (float *)(void *)((uintptr_t)bounds + 1);
    BAD("bounds misaligned", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_STRIDE);
    o = sa, o.bounds = (float *)(void *)((uintptr_t)bounds + 2);
    BAD("bounds misaligned, SoA", &gm, &gp, SKIN_DQS, &o, SKIN_ERROR_INVALID_STRIDE);

    /* influences and formats */
    m = gm, m.influence_count = 0;
    BAD("influence_count 0", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_INVALID_INFLUENCES);
    m = gm, m.influence_count = 9;
    BAD("influence_count 9", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_INVALID_INFLUENCES);
    m = gm, m.joint_format = (skin_joint_format)0;
    BAD("joint format 0", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_INVALID_FORMAT);
    m = gm, m.joint_format = (skin_joint_format)3;
    BAD("joint format 3", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_INVALID_FORMAT);
    m = gm, m.weight_format = (skin_weight_format)0;
    BAD("weight format 0", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_INVALID_FORMAT);
    m = gm, m.weight_format = (skin_weight_format)4;
    BAD("weight format 4", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_INVALID_FORMAT);

    /* method, flags, layout */
    BAD("method 0", &gm, &gp, (skin_method)0, &so, SKIN_ERROR_INVALID_METHOD);
    BAD("method 3", &gm, &gp, (skin_method)3, &so, SKIN_ERROR_INVALID_METHOD);
    BAD("method -1", &gm, &gp, (skin_method)-1, &so, SKIN_ERROR_INVALID_METHOD);
    o = so, o.flags = 1u << 2;
    BAD("flags bit 2", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_FLAGS);
    o = so, o.flags = SKIN_OUTPUT_ALL_FLAGS | 0x80000000u;
    BAD("flags bit 31", &gm, &gp, SKIN_DQS, &o, SKIN_ERROR_INVALID_FLAGS);
    /* skin.h documents no status of its own for an unknown layout; the
     * implementation (and skin_status_string) use INVALID_FORMAT. */
    o = so, o.layout = (skin_layout)2;
    BAD("layout 2", &gm, &gp, SKIN_LBS, &o, SKIN_ERROR_INVALID_FORMAT);
    o = sa, o.layout = (skin_layout)-1;
    BAD("layout -1", &gm, &gp, SKIN_DQS, &o, SKIN_ERROR_INVALID_FORMAT);

    /* attributes the mesh lacks */
    m = gm, m.nx = m.ny = m.nz = NULL;
    BAD("normals asked, mesh has none", &m, &gp, SKIN_LBS, &so, SKIN_ERROR_MISSING_ATTRIBUTE);
    BAD("normals asked (soa), mesh has none", &m, &gp, SKIN_DQS, &sa,
        SKIN_ERROR_MISSING_ATTRIBUTE);
    m = gm, m.tx = m.ty = m.tz = m.tw = NULL;
    BAD("tangents asked, mesh has none", &m, &gp, SKIN_DQS, &so, SKIN_ERROR_MISSING_ATTRIBUTE);
    BAD("tangents asked (soa), mesh has none", &m, &gp, SKIN_LBS, &sa,
        SKIN_ERROR_MISSING_ATTRIBUTE);

    /* palette lacking what the method needs */
    p = gp, p.matrices = NULL;
    BAD("LBS without matrices", &gm, &p, SKIN_LBS, &so, SKIN_ERROR_MISSING_PALETTE);
    p = gp, p.dual_quats = NULL;
    BAD("DQS without dual quaternions", &gm, &p, SKIN_DQS, &so, SKIN_ERROR_MISSING_PALETTE);

    /* ...while what a method does not need may be missing. */
    m = gm, m.nx = m.ny = m.nz = m.tx = m.ty = m.tz = m.tw = NULL;
    o = so, o.normal = o.tangent = NULL, o.normal_stride = 3, o.tangent_stride = 1;
    p = gp, p.dual_quats = NULL;
    fill_canary();
    CHECK_STATUS(skin_mesh(&m, &p, SKIN_LBS, &o, 0, N), SKIN_OK);
    p = gp, p.matrices = NULL;
    CHECK_STATUS(skin_mesh(&m, &p, SKIN_DQS, &o, 0, N), SKIN_OK);
    CHECK(untouched(inter + 10 * SLACK + 3, 28)); /* normal/tangent bytes of vertex 0 */
}

static void empty_ranges(void)
{
    const skin_mesh_desc gm = good_mesh();
    const skin_palette gp = good_palette();
    const skin_output so = strided_out(), sa = soa_out();
    static const size_t firsts[] = {0, 7, N};
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
        for (size_t i = 0; i < 3; ++i)
            for (int layout = 0; layout < 2; ++layout) {
                fill_canary();
                CHECK_STATUS(skin_mesh(&gm, &gp, (skin_method)method, layout ? &sa : &so,
                                       firsts[i], 0),
                             SKIN_OK);
                CHECK(untouched(inter, sizeof inter) && untouched(planes, sizeof planes));
                for (int c = 0; c < 3; ++c) {
                    CHECK(isinf(bounds[c]) && bounds[c] > 0);
                    CHECK(isinf(bounds[3 + c]) && bounds[3 + c] < 0);
                }
            }
    /* An empty mesh: skin_mesh_parallel writes nothing but the bounds. */
    skin_mesh_desc m = gm;
    m.vertex_count = 0;
    fill_canary();
    CHECK_STATUS(skin_mesh_parallel(&m, &gp, SKIN_DQS, &so, 0), SKIN_OK);
    CHECK(untouched(inter, sizeof inter));
    CHECK(isinf(bounds[0]) && bounds[0] > 0 && isinf(bounds[5]) && bounds[5] < 0);
}

static void isa_and_strings(void)
{
    static const char *const names[] = {"scalar", "sse2", "avx2", "avx512", "neon", "simd128"};
    const skin_isa current = skin_get_isa();
    CHECK(skin_isa_supported(current));
    CHECK(skin_isa_supported(SKIN_ISA_SCALAR));
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        const char *n = skin_isa_name((skin_isa)isa);
        CHECK(n != NULL && strcmp(n, names[isa - 1]) == 0);
        if (!skin_isa_supported((skin_isa)isa)) {
            CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_ERROR_UNSUPPORTED);
            CHECK(skin_get_isa() == current); /* a failed override changes nothing */
        }
    }
#if defined(__x86_64__) || defined(__i386__)
    CHECK(!skin_isa_supported(SKIN_ISA_NEON));
    CHECK_STATUS(skin_set_isa(SKIN_ISA_NEON), SKIN_ERROR_UNSUPPORTED);
#elif defined(__aarch64__)
    CHECK_STATUS(skin_set_isa(SKIN_ISA_SSE2), SKIN_ERROR_UNSUPPORTED);
#endif
#if !defined(__wasm__)
    CHECK_STATUS(skin_set_isa(SKIN_ISA_SIMD128), SKIN_ERROR_UNSUPPORTED);
#endif
    CHECK_STATUS(skin_set_isa((skin_isa)7), SKIN_ERROR_UNSUPPORTED);
    CHECK_STATUS(skin_set_isa((skin_isa)-1), SKIN_ERROR_UNSUPPORTED);
    CHECK_STATUS(skin_set_isa((skin_isa)INT_MAX), SKIN_ERROR_UNSUPPORTED);
    CHECK(skin_get_isa() == current);
    static const int odd[] = {-1000, -1, 0, 7, 8, 100, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; ++i) CHECK(skin_isa_name((skin_isa)odd[i]) != NULL);
    CHECK(strcmp(skin_isa_name((skin_isa)7), "unknown") == 0);
    CHECK(strcmp(skin_isa_name((skin_isa)-1), "unknown") == 0);

    /* Every documented status has its own non-NULL string; any other value
     * still gets a non-NULL one. */
    const char *seen[23];
    for (int s = 0; s >= SKIN_ERROR_OUT_OF_MEMORY; --s) {
        const char *str = skin_status_string((skin_status)s);
        CHECK(str != NULL && str[0] != '\0');
        CHECK(str != NULL && strcmp(str, "unknown status") != 0);
        seen[-s] = str;
        for (int t = 0; t < -s; ++t) CHECK(str && seen[t] && strcmp(str, seen[t]) != 0);
    }
    static const int other[] = {1, 2, -23, -100, INT_MAX, INT_MIN};
    CHECK(strcmp(skin_status_string((skin_status)-23), "unknown status") == 0);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; ++i)
        CHECK(skin_status_string((skin_status)other[i]) != NULL);
    CHECK(strcmp(skin_status_string(SKIN_OK), "ok") == 0);
    CHECK_INT(skin_version(), SKIN_VERSION);
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", SKIN_VERSION_MAJOR, SKIN_VERSION_MINOR,
             SKIN_VERSION_PATCH);
    CHECK(skin_version_string() != NULL && strcmp(skin_version_string(), version) == 0);
}

/* Before any other skin call: SKIN_ISA naming no ISA this CPU runs (core.
 * test_bad_input_isa_fallback sets a made-up name) leaves the best one. */
static void isa_from_environment(void)
{
    const char *env = getenv("SKIN_ISA");
    if (!env) return;
    int named = 0;
    skin_isa best = SKIN_ISA_SCALAR;
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        best = (skin_isa)isa;
        named |= strcmp(env, skin_isa_name((skin_isa)isa)) == 0;
    }
    if (!named) CHECK_INT(skin_get_isa(), best);
}

int main(void)
{
    isa_from_environment();
    setup();
    bad_arguments();
    empty_ranges();
    isa_and_strings();
    return check_finish("test_bad_input");
}
