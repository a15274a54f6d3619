/* SPDX-License-Identifier: MIT */
/* bench.baseline: the yardsticks of skin-bench compute what skin computes.
 * The per-vertex baseline (every ISA build the CPU runs) matches skin's
 * scalar LBS reference on seeded random rigs: 1..8 influences, inputs in
 * u16/f32, u8/unorm16 and u8/f32 (converted as at load time), p / p+n /
 * p+n+t, ranges that start mid-mesh, end before the last vertex or hold a
 * single vertex, and it writes nothing outside its range; on the random rig
 * and on the coherent rig, whose vertices it groups by influence count, and
 * on the real models skin-bench measures when they are there (each output
 * vertex against its source vertex).  The arithmetic floors of LBS and DQS
 * of each kernel ISA, given each block's palette in lanes, give that ISA's
 * kernel output bit for bit and skin's scalar reference within 1e-5
 * (1..8 influences), and write nothing outside their range.  Also checks
 * the coherent rig's shape. */
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "baseline.h"
#include "check.h"
#include "rig.h"
#ifdef BASELINE_MODELS_DIR
#include "skin/skin_assets.h"
#endif

typedef int (*rig_builder)(rig *, const rig_options *);

/* The engine's mesh: its vertices are the source's, each once, grouped by
 * influence count in increasing order, each with its own count. */
static void check_grouping(const baseline_mesh *b, const skin_mesh_desc *m)
{
    const size_t n = m->vertex_count;
    char *seen = calloc(n ? n : 1, 1);
    size_t next = 0;
    uint32_t prev_k = 0;
    for (uint32_t g = 0; g < b->group_count; ++g) {
        const baseline_group *gr = &b->groups[g];
        CHECK(gr->first == next && gr->count > 0 && gr->k > prev_k && gr->k <= m->influence_count);
        next = gr->first + gr->count, prev_k = gr->k;
        for (size_t i = gr->first; i < next; ++i) {
            const size_t v = b->source[i];
            CHECK(v < n && !seen[v]);
            if (v >= n || seen[v]) break;
            seen[v] = 1;
            uint32_t used = m->influence_count;
            while (m->weight_format == SKIN_WEIGHT_F32 && used > 1 && ((const float *)m->weights[used - 1])[v] == 0.0f)
                --used;
            if (m->weight_format == SKIN_WEIGHT_F32) CHECK_INT(used, gr->k);
        }
    }
    CHECK(next == n);
    free(seen);
}

/* The loop on `m` against skin's scalar LBS reference, each output vertex
 * against its source vertex, over ranges [first, first + count) of the
 * engine's order: inside, middle and last vertices alone, all. */
static void check_mesh(baseline_fn fn, const char *label, const skin_mesh_desc *m, const skin_palette *pal)
{
    enum { RANGES = 4 };
    const size_t n = m->vertex_count, inner = n > 7 ? 3 : 0;
    const size_t firsts[RANGES] = {inner, 0, n / 2, n - 1}, counts[RANGES] = {n - 2 * inner - 1 + (n <= 7), n, 1, 1};
    const size_t floats = m->tx ? 10 : m->nx ? 6 : 3, stride = floats * 4;
    float *want = calloc(n * floats, 4), *got = malloc(n * stride);
    skin_output out = {0};
    out.layout = SKIN_LAYOUT_STRIDED;
    out.position = want, out.position_stride = stride;
    if (m->nx) out.normal = want + 3, out.normal_stride = stride;
    if (m->tx) out.tangent = want + 6, out.tangent_stride = stride;
    CHECK_STATUS(skin_set_isa(SKIN_ISA_SCALAR), SKIN_OK);
    CHECK_STATUS(skin_mesh(m, pal, SKIN_LBS, &out, 0, n), SKIN_OK);
    baseline_palette bp;
    baseline_mesh bm;
    CHECK(baseline_palette_init(&bp, pal->matrices, pal->joint_count) == 0);
    CHECK(baseline_mesh_init(&bm, m, pal->joint_count) == 0);
    CHECK(baseline_vertex_size(&bm) == stride);
    check_grouping(&bm, m);
    for (int q = 0; q < RANGES && n; ++q) {
        const size_t first = firsts[q], count = counts[q];
        for (size_t i = 0; i < n * floats; ++i) got[i] = -7.0f; /* sentinel */
        fn(&bm, &bp, got, first, count);
        for (size_t i = 0; i < n; ++i)
            for (size_t c = 0; c < floats; ++c) {
                const float g = got[i * floats + c];
                if (i < first || i >= first + count)
                    CHECK_CLOSE_AT(g, -7.0f, 0.0, "%s range %zu+%zu untouched i=%zu", label, first, count, i);
                else
                    CHECK_CLOSE_AT(g, want[bm.source[i] * floats + c], 1e-5, "%s range %zu+%zu i=%zu (vertex %zu) c=%zu",
                                   label, first, count, i, bm.source[i], c);
            }
    }
    baseline_mesh_free(&bm);
    baseline_palette_free(&bp);
    free(want), free(got);
}

/* Input formats by `format`: 0 u16 joints and f32 weights, 1 u8 and unorm16
 * (the bench's packed inputs), 2 u8 and f32. */
static void check_case(baseline_fn fn, const char *isa, int k, int format, int attrs, rig_builder build)
{
    rig r;
    rig_options o = {1000, 64, (uint32_t)k, format ? SKIN_JOINT_U8 : SKIN_JOINT_U16,
                     format == 1 ? SKIN_WEIGHT_UNORM16 : SKIN_WEIGHT_F32, 0, 1234u + (uint64_t)k};
    CHECK(build(&r, &o) == 0);
    skin_mesh_desc m = r.mesh;
    if (attrs < 2) m.nx = m.ny = m.nz = NULL;
    if (attrs < 3) m.tx = m.ty = m.tz = m.tw = NULL;
    char label[96];
    snprintf(label, sizeof label, "%s %s k=%d format=%d attrs=%d", isa, build == rig_coherent ? "coherent" : "random",
             k, format, attrs);
    check_mesh(fn, label, &m, &r.palette);
    rig_free(&r);
}

#ifdef BASELINE_MODELS_DIR
/* The real models skin-bench measures, every skinned mesh at the rest pose,
 * in each mesh's own formats and influence counts. */
static void check_models(baseline_fn fn, const char *isa)
{
    static const char *const models[] = {"X/Testwuson.X", "X/BCN_Epileptic.X", "FBX/animation_with_skeleton.fbx"};
    for (size_t a = 0; a < sizeof models / sizeof *models; ++a) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", BASELINE_MODELS_DIR, models[a]);
        skin_asset *as = NULL;
        CHECK(skin_asset_load(path, NULL, &as) == SKIN_ASSET_OK);
        if (!as) continue;
        const uint32_t nc = as->node_count;
        float *tr = malloc(nc * 12), *rot = malloc(nc * 16), *sc = malloc(nc * 12), *model = malloc(nc * 48);
        CHECK(skin_asset_rest_pose(as, tr, rot, sc) == SKIN_ASSET_OK);
        CHECK_STATUS(skin_pose_to_matrices(nc, as->parents, tr, rot, sc, model), SKIN_OK);
        for (uint32_t mi = 0; mi < as->mesh_count; ++mi) {
            const skin_asset_mesh *mesh = &as->meshes[mi];
            float *mats = malloc((size_t)mesh->bone_count * 48);
            CHECK(skin_asset_palette(as, mi, model, mats) == SKIN_ASSET_OK);
            const skin_palette pal = {mesh->bone_count, mats, NULL, NULL, NULL, NULL};
            char label[96];
            snprintf(label, sizeof label, "%s %s mesh %u", isa, models[a], mi);
            check_mesh(fn, label, &mesh->desc, &pal);
            free(mats);
        }
        free(tr), free(rot), free(sc), free(model);
        skin_asset_free(as);
    }
}
#endif

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
 * bit, and against the scalar reference within 1e-5.  The rig's joints and
 * weights (which pick DQS's pivots) repeat every 4 blocks, so that the
 * floor's palette in lanes (arith_fill_lanes, as skin-bench fills it) holds
 * each block's own, used in turn as in the bench; the range starts in block
 * 3, so the floor wraps to block 0 after one block. */
static void check_arith(skin_isa isa, arith_fn fn, int lanes, skin_method method, int k)
{
    const size_t w = (size_t)lanes, n = 32 * w, first = 3 * w, count = n - 5 * w, period = 4;
    rig r;
    rig_options o = {n, 64, (uint32_t)k, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 4321u + (uint64_t)k};
    CHECK(rig_random(&r, &o) == 0);
    for (int i = 0; i < k; ++i)
        for (size_t v = period * w; v < n; ++v) {
            ((uint16_t *)r.joints[i])[v] = ((const uint16_t *)r.joints[i])[v % (period * w)];
            ((float *)r.weights[i])[v] = ((const float *)r.weights[i])[v % (period * w)];
        }
    float *want = malloc(n * 10 * 4), *ref = malloc(n * 10 * 4), *got = malloc(n * 10 * 4),
          *table = malloc(period * arith_lane_floats(method, k) * w * 4);
    skin_output out = {0}, ref_out = {0};
    arith_job job = {0};
    const skin_mesh_desc *m = &r.mesh;
    const float *const in[10] = {m->px, m->py, m->pz, m->nx, m->ny, m->nz, m->tx, m->ty, m->tz, m->tw};
    out.layout = ref_out.layout = SKIN_LAYOUT_SOA;
    for (int s = 0; s < 10; ++s) {
        out.soa[s] = want + s * n;
        ref_out.soa[s] = ref + s * n;
        job.in[s] = in[s];
        job.out[s] = got + s * n;
    }
    for (size_t i = 0; i < n * 10; ++i) got[i] = -7.0f; /* sentinel */
    for (int i = 0; i < k; ++i) job.weights[i] = r.weights[i];
    arith_fill_lanes(table, period, lanes, method, k, (const void *const *)r.joints, job.weights, &r.palette);
    job.lanes = table, job.lane_blocks = period, job.k = k, job.method = method;
    CHECK_STATUS(skin_set_isa(SKIN_ISA_SCALAR), SKIN_OK);
    CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &ref_out, 0, n), SKIN_OK);
    CHECK_STATUS(skin_set_isa(isa), SKIN_OK);
    CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &out, 0, n), SKIN_OK);
    fn(&job, first, count);
    const char *name = method == SKIN_DQS ? "dqs" : "lbs";
    for (int s = 0; s < 10; ++s)
        for (size_t v = 0; v < n; ++v) {
            const float g = got[s * n + v], expect = v < first || v >= first + count ? -7.0f : want[s * n + v];
            uint32_t gb, eb;
            memcpy(&gb, &g, 4), memcpy(&eb, &expect, 4);
            if (gb != eb)
                fprintf(stderr, "arith %s %s k=%d s=%d v=%zu: %.9g, expected %.9g%s\n", name, skin_isa_name(isa), k, s,
                        v, g, expect, v < first || v >= first + count ? " (outside the range)" : "");
            CHECK(gb == eb);
            if (v >= first && v < first + count)
                CHECK_CLOSE_AT(g, ref[s * n + v], 1e-5, "arith %s %s k=%d s=%d v=%zu against the reference", name,
                               skin_isa_name(isa), k, s, v);
        }
    free(want), free(ref), free(got), free(table);
    rig_free(&r);
}

int main(void)
{
    check_coherent_shape();
    int builds = 0;
    for (int s = SKIN_ISA_SSE2; s <= SKIN_ISA_SIMD128; ++s) {
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
#ifdef BASELINE_MODELS_DIR
        check_models(fn, skin_isa_name((skin_isa)s));
#endif
        check_error_report(skin_isa_name((skin_isa)s));
    }
    for (int s = SKIN_ISA_SSE2; s <= SKIN_ISA_SIMD128; ++s) {
        int lanes;
        arith_fn fn = arith_for((skin_isa)s, &lanes);
        if (fn && skin_isa_supported((skin_isa)s))
            for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
                for (int k = 1; k <= SKIN_MAX_INFLUENCES; ++k) check_arith((skin_isa)s, fn, lanes, (skin_method)method, k);
    }
    /* Without SIMD kernels skin reports no SIMD ISA; the base build still runs. */
    if (!builds)
        for (int k = 1; k <= SKIN_MAX_INFLUENCES; ++k) check_case(baseline_run_base, "base", k, 0, 3, rig_random);
    return check_finish("bench.baseline");
}
