/* SPDX-License-Identifier: MIT */
/* bench.baseline: the yardsticks of skin-bench compute what skin computes.
 * The per-vertex baseline (every ISA build the CPU runs) matches skin's
 * scalar LBS reference on seeded random rigs: 1..8 influences, u16/f32,
 * u8/unorm16 and u8/f32 inputs, p / p+n / p+n+t, ranges that start
 * mid-mesh, and writes nothing outside its range; on the random and the
 * coherent rig.  The arithmetic floor of each kernel ISA, given each block's
 * palette in lanes, gives that ISA's kernel output bit for bit (1..8
 * influences), and writes nothing outside its range.  Also checks the
 * coherent rig's shape. */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "baseline.h"
#include "check.h"
#include "rig.h"

typedef int (*rig_builder)(rig *, const rig_options *);

/* Input formats by `format`: 0 u16 joints and f32 weights, 1 u8 and unorm16
 * (the bench's packed inputs), 2 u8 and f32. */
static void check_case(baseline_fn fn, const char *isa, int k, int format, int attrs, rig_builder build)
{
    const size_t n = 1000, first = 3, count = n - 7;
    rig r;
    rig_options o = {n, 64, (uint32_t)k, format ? SKIN_JOINT_U8 : SKIN_JOINT_U16,
                     format == 1 ? SKIN_WEIGHT_UNORM16 : SKIN_WEIGHT_F32, 0, 1234u + (uint64_t)k};
    CHECK(build(&r, &o) == 0);
    skin_mesh_desc m = r.mesh;
    if (attrs < 2) m.nx = m.ny = m.nz = NULL;
    if (attrs < 3) m.tx = m.ty = m.tz = m.tw = NULL;
    const size_t floats = attrs == 1 ? 3 : attrs == 2 ? 6 : 10, stride = floats * 4;
    float *want = calloc(n * floats, 4), *got = malloc(n * stride);
    for (size_t i = 0; i < n * floats; ++i) got[i] = -7.0f; /* sentinel */
    skin_output out = {0};
    out.layout = SKIN_LAYOUT_STRIDED;
    out.position = want, out.position_stride = stride;
    if (attrs >= 2) out.normal = want + 3, out.normal_stride = stride;
    if (attrs >= 3) out.tangent = want + 6, out.tangent_stride = stride;
    CHECK_STATUS(skin_set_isa(SKIN_ISA_SCALAR), SKIN_OK);
    CHECK_STATUS(skin_mesh(&m, &r.palette, SKIN_LBS, &out, first, count), SKIN_OK);
    baseline_palette bp;
    CHECK(baseline_palette_init(&bp, r.matrices, r.palette.joint_count) == 0);
    fn(&m, &bp, got, stride, first, count);
    for (size_t v = 0; v < n; ++v)
        for (size_t c = 0; c < floats; ++c) {
            const float g = got[v * floats + c];
            if (v < first || v >= first + count)
                CHECK_CLOSE_AT(g, -7.0f, 0.0, "%s k=%d format=%d attrs=%d untouched v=%zu", isa, k,
                               format, attrs, v);
            else
                CHECK_CLOSE_AT(g, want[v * floats + c], 1e-5, "%s k=%d format=%d attrs=%d v=%zu c=%zu",
                               isa, k, format, attrs, v, c);
        }
    baseline_palette_free(&bp);
    free(want), free(got);
    rig_free(&r);
}

/* The coherent rig: about 50/30/10/10 % of vertices use 1/2/3/4
 * influences, trailing weights are zero, weights sum to one, joints are in
 * range and mostly shared with the previous vertex. */
static void check_coherent_shape(void)
{
    const size_t n = 100000;
    rig r;
    rig_options o = {n, 64, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 99};
    CHECK(rig_coherent(&r, &o) == 0);
    size_t used_hist[5] = {0}, shared = 0;
    for (size_t v = 0; v < n; ++v) {
        int used = 0;
        double sum = 0;
        for (int i = 0; i < 4; ++i) {
            float w = ((const float *)r.weights[i])[v];
            uint16_t j = ((const uint16_t *)r.joints[i])[v];
            CHECK(j < 64);
            if (w > 0) used = i + 1;
            sum += w;
        }
        CHECK_CLOSE(sum, 1.0, 1e-6);
        ++used_hist[used];
        shared += v && ((const uint16_t *)r.joints[0])[v] == ((const uint16_t *)r.joints[0])[v - 1];
    }
    CHECK_INT((long long)used_hist[0], 0);
    CHECK(used_hist[1] > n * 45 / 100 && used_hist[1] < n * 55 / 100);
    CHECK(used_hist[2] > n * 25 / 100 && used_hist[2] < n * 35 / 100);
    CHECK(used_hist[4] > n * 7 / 100 && used_hist[4] < n * 13 / 100);
    CHECK(shared > n * 99 / 100);
    rig_free(&r);
}

/* The arithmetic floor of `isa` against its kernel's planar output, bit for
 * bit.  The rig's joints repeat every 4 blocks, so that the floor's palette
 * in lanes (arith_fill_lanes, as skin-bench fills it) holds each block's
 * own matrices, used in turn as in the bench; the range starts in block 3,
 * so the floor wraps to block 0 after one block. */
static void check_arith(skin_isa isa, arith_fn fn, int lanes, int k)
{
    const size_t w = (size_t)lanes, n = 32 * w, first = 3 * w, count = n - 5 * w, period = 4;
    rig r;
    rig_options o = {n, 64, (uint32_t)k, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 4321u + (uint64_t)k};
    CHECK(rig_random(&r, &o) == 0);
    for (int i = 0; i < k; ++i)
        for (size_t v = period * w; v < n; ++v)
            ((uint16_t *)r.joints[i])[v] = ((const uint16_t *)r.joints[i])[v % (period * w)];
    float *want = malloc(n * 10 * 4), *got = malloc(n * 10 * 4), *table = malloc(period * (size_t)k * 12 * w * 4);
    skin_output out = {0};
    arith_job job = {0};
    const skin_mesh_desc *m = &r.mesh;
    const float *const in[10] = {m->px, m->py, m->pz, m->nx, m->ny, m->nz, m->tx, m->ty, m->tz, m->tw};
    out.layout = SKIN_LAYOUT_SOA;
    for (int s = 0; s < 10; ++s) {
        out.soa[s] = want + s * n;
        job.in[s] = in[s];
        job.out[s] = got + s * n;
    }
    for (size_t i = 0; i < n * 10; ++i) got[i] = -7.0f; /* sentinel */
    for (int i = 0; i < k; ++i) job.weights[i] = r.weights[i];
    arith_fill_lanes(table, period, lanes, k, (const void *const *)r.joints, r.matrices);
    job.lanes = table, job.lane_blocks = period, job.k = k;
    CHECK_STATUS(skin_set_isa(isa), SKIN_OK);
    CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, SKIN_LBS, &out, 0, n), SKIN_OK);
    fn(&job, first, count);
    for (int s = 0; s < 10; ++s)
        for (size_t v = 0; v < n; ++v) {
            const float g = got[s * n + v], expect = v < first || v >= first + count ? -7.0f : want[s * n + v];
            uint32_t gb, eb;
            memcpy(&gb, &g, 4), memcpy(&eb, &expect, 4);
            if (gb != eb)
                fprintf(stderr, "arith %s k=%d s=%d v=%zu: %.9g, expected %.9g%s\n", skin_isa_name(isa), k, s, v, g,
                        expect, v < first || v >= first + count ? " (outside the range)" : "");
            CHECK(gb == eb);
        }
    free(want), free(got), free(table);
    rig_free(&r);
}

int main(void)
{
    check_coherent_shape();
    int builds = 0;
    for (int s = SKIN_ISA_SSE2; s <= SKIN_ISA_NEON; ++s) {
        baseline_fn fn = baseline_for((skin_isa)s);
        if (!fn || !skin_isa_supported((skin_isa)s)) continue;
        ++builds;
        int lanes;
        CHECK(arith_for((skin_isa)s, &lanes) != NULL); /* every tier has both yardsticks */
        for (int k = 1; k <= SKIN_MAX_INFLUENCES; ++k)
            for (int format = 0; format <= 2; ++format)
                for (int attrs = 1; attrs <= 3; ++attrs) {
                    check_case(fn, skin_isa_name((skin_isa)s), k, format, attrs, rig_random);
                    check_case(fn, skin_isa_name((skin_isa)s), k, format, attrs, rig_coherent);
                }
        check_error_report(skin_isa_name((skin_isa)s));
    }
    for (int s = SKIN_ISA_SSE2; s <= SKIN_ISA_NEON; ++s) {
        int lanes;
        arith_fn fn = arith_for((skin_isa)s, &lanes);
        if (fn && skin_isa_supported((skin_isa)s))
            for (int k = 1; k <= SKIN_MAX_INFLUENCES; ++k) check_arith((skin_isa)s, fn, lanes, k);
    }
    /* Without SIMD kernels skin reports no SIMD ISA; the base build still runs. */
    if (!builds)
        for (int k = 1; k <= SKIN_MAX_INFLUENCES; ++k) check_case(baseline_run_base, "base", k, 0, 3, rig_random);
    return check_finish("bench.baseline");
}
