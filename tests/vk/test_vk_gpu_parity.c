/* SPDX-License-Identifier: MIT */
/* GPU shaders vs CPU kernels (skin_mesh), on lavapipe with validation:
 * every method x attributes x influences (1..8, cycling joint and weight
 * formats) x output format (float, snorm16, 1010102) x output layout
 * (interleaved, SoA) x with/without normal matrices (LBS) or scales (DQS),
 * NORMALIZE on every other call (normals and tangents of lengths from 0 to
 * 1e35 on some vertices), whole meshes and sub-ranges, on seeded
 * rigs and on a real asset (Testwuson, through skin_assets, when the
 * assimp test models are there).  DQS cases: antipodal palettes (odd joints' dual quaternions
 * negated), a pivot in a later slot, weight ties, all-zero weights (the
 * near-zero fallback).  Floats must agree within 1e-5 of the mesh extent
 * (positions) or of max(1, |v|) (normals, tangents); packed components
 * within one snorm step.  Prints the largest errors. */
#include "gpu_check.h"
#include "rig.h"
#include "skin/skin_vk.h"
#ifdef SKIN_TEST_MODELS_DIR
#include "skin/skin_assets.h"
#endif
#include "vk_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 203 /* not a multiple of the 64-wide workgroup */
#define MAX_CALLS 64

static void set_weight(rig *r, uint32_t i, size_t v, double w)
{
    switch (r->mesh.weight_format) {
    case SKIN_WEIGHT_F32: ((float *)r->weights[i])[v] = (float)w; break;
    case SKIN_WEIGHT_UNORM16: ((uint16_t *)r->weights[i])[v] = (uint16_t)lround(w * 65535); break;
    default: ((uint8_t *)r->weights[i])[v] = (uint8_t)lround(w * 255); break;
    }
}

/* The DQS cases on vertices 0..2: all-zero weights; the largest weight in
 * the last slot; a tie between slots 0 and 1 (pivot: slot 0). */
static void special_weights(rig *r)
{
    uint32_t k = r->mesh.influence_count;
    for (uint32_t i = 0; i < k; ++i) set_weight(r, i, 0, 0.0);
    for (uint32_t i = 0; i < k; ++i) set_weight(r, i, 1, k == 1 ? 1.0 : i + 1 == k ? 0.6 : 0.4 / (k - 1));
    for (uint32_t i = 0; i < k; ++i) set_weight(r, i, 2, k == 1 ? 1.0 : i < 2 ? 0.4 : 0.2 / (k - 2 ? k - 2 : 1));
}

/* Vertices 3..12: normals and tangents scaled to lengths whose squares
 * leave float's normal range (and a zero one), for NORMALIZE's rescaling. */
static void extreme_lengths(rig *r)
{
    static const float lengths[] = {0, 1e-30f, 1e-24f, 1e-21f, 2e-19f, 1e18f, 3e19f, 1e25f, 1e35f, 1};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i)
        for (int e = 3; e < 9; ++e) r->streams[e][3 + i] *= lengths[i];
}

static int run_rig(vkh *h, rig *r, const char *name, gpu_check_errs *total)
{
    const size_t n = r->mesh.vertex_count; /* > 72: some calls skip 7 + 65 vertices */
    uint32_t jc = r->palette.joint_count;
    /* Normal matrices: any 3x3 per joint will do for parity (here M's 3x3
     * scaled by 1.25); DQS antipodal palette: odd joints negated. */
    float *nm = malloc(sizeof(float) * 9 * jc), *anti = malloc(sizeof(float) * 8 * jc);
    if (!nm || !anti) return 1;
    for (uint32_t j = 0; j < jc; ++j) {
        for (int e = 0; e < 9; ++e) nm[9 * j + e] = 1.25f * r->palette.matrices[12 * j + 4 * (e / 3) + e % 3];
        for (int e = 0; e < 8; ++e) anti[8 * j + e] = (j & 1 ? -1.0f : 1.0f) * r->palette.dual_quats[8 * j + e];
    }
    gpu_check_call calls[MAX_CALLS];
    int nc = 0;
    static const uint32_t attrs[3] = {0, SKIN_VK_NORMAL, SKIN_VK_NORMAL | SKIN_VK_TANGENT};
    for (int m = 0; m < 2; ++m)
        for (int a = 0; a < (r->mesh.tx ? 3 : 2); ++a)
            for (int f = 0; f < 4; ++f) /* 3 packings interleaved, then SoA */
                for (int x = 0; x < 2; ++x) {
                    gpu_check_call *c = &calls[nc];
                    memset(c, 0, sizeof *c);
                    c->call.method = m ? SKIN_DQS : SKIN_LBS;
                    c->call.attributes = attrs[a];
                    c->call.packing = f == 3 ? SKIN_VK_PACK_FLOAT : (skin_vk_packing)f;
                    c->call.layout = f == 3 ? SKIN_LAYOUT_SOA : SKIN_LAYOUT_STRIDED;
                    c->call.flags = nc & 1 ? SKIN_OUTPUT_NORMALIZE : 0;
                    /* every third call a sub-range */
                    c->call.first = nc % 3 == 2 ? 7 : 0;
                    c->call.count = nc % 3 == 2 ? n - 7 - 65 : n;
                    c->pal = r->palette;
                    if (m) {
                        c->pal.matrices = NULL;
                        c->pal.scales = x ? r->palette.scales : NULL;
                        if (nc % 4 >= 2) c->pal.dual_quats = anti;
                    } else {
                        c->pal.dual_quats = NULL;
                        c->pal.scales = NULL;
                        c->pal.normal_matrices = x ? nm : NULL;
                    }
                    c->call.palette = &c->pal;
                    ++nc;
                }
    gpu_check_setup setup = {&r->mesh, jc, 512, 0, 0};
    gpu_check_result res;
    if (gpu_check_run(h, &setup, calls, nc, name, NULL, &res) || res.bad_calls < 0) return 1;
    const gpu_check_errs *e = &res.errs;
    printf("%s: %d calls, largest error: positions %.3g of extent, vectors %.3g, packed %d step(s)%s\n",
           name, nc, e->pos, e->vec, e->packed_steps, e->bad ? " FAIL" : "");
    gpu_check_errs_merge(total, e);
    free(nm);
    free(anti);
    return e->bad != 0;
}

#ifdef SKIN_TEST_MODELS_DIR
/* A real asset: Testwuson's largest mesh at half its first animation, through
 * the loader, with its own influence count and formats. */
static int real_asset(vkh *h, gpu_check_errs *total)
{
    skin_asset *a = NULL;
    if (skin_asset_load(SKIN_TEST_MODELS_DIR "/X/Testwuson.X", NULL, &a) != SKIN_ASSET_OK) {
        fprintf(stderr, "Testwuson.X: %s\n", skin_asset_error());
        return 1;
    }
    uint32_t mi = 0;
    for (uint32_t m = 1; m < a->mesh_count; ++m)
        if (a->meshes[m].desc.vertex_count > a->meshes[mi].desc.vertex_count) mi = m;
    const uint32_t nc = a->node_count, bones = a->meshes[mi].bone_count;
    rig r;
    memset(&r, 0, sizeof r);
    float *tr = malloc(nc * 12), *rot = malloc(nc * 16), *sc = malloc(nc * 12), *model = malloc(nc * 48);
    r.matrices = malloc(bones * 48), r.dual_quats = malloc(bones * 32);
    skin_asset_cursor *cur = NULL;
    int bad = !tr || !rot || !sc || !model || !r.matrices || !r.dual_quats ||
              skin_asset_cursor_create(a, 0, &cur) != SKIN_ASSET_OK ||
              skin_asset_sample(cur, 0.5 * a->animation_durations[0], tr, rot, sc) != SKIN_ASSET_OK ||
              skin_pose_to_matrices(nc, a->parents, tr, rot, sc, model) != SKIN_OK ||
              skin_asset_palette(a, mi, model, r.matrices) != SKIN_ASSET_OK ||
              skin_matrices_to_dual_quats(bones, r.matrices, r.dual_quats, NULL, NULL) != SKIN_OK;
    if (!bad) {
        r.mesh = a->meshes[mi].desc;
        r.palette = (skin_palette){bones, r.matrices, NULL, r.dual_quats, NULL, NULL};
        bad = run_rig(h, &r, "Testwuson.X", total);
    } else {
        fprintf(stderr, "Testwuson.X: no pose\n");
    }
    skin_asset_cursor_free(cur);
    free(tr), free(rot), free(sc), free(model), free(r.matrices), free(r.dual_quats);
    skin_asset_free(a);
    return bad;
}
#endif

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_gpu_parity");
    if (rc) return rc;
    static const skin_weight_format wf[3] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16, SKIN_WEIGHT_UNORM8};
    int failed = 0;
    gpu_check_errs total = {0, 0, 0, 0};
    for (uint32_t k = 1; k <= 8; ++k) {
        rig r;
        rig_options o = {N, k % 2 ? 300 : 200, k, k % 2 ? SKIN_JOINT_U16 : SKIN_JOINT_U8,
                         wf[k % 3], 1, 5000 + k};
        if (rig_random(&r, &o)) return 1;
        special_weights(&r);
        extreme_lengths(&r);
        char name[64];
        snprintf(name, sizeof name, "k=%u %s %s", k, k % 2 ? "u16" : "u8",
                 wf[k % 3] == SKIN_WEIGHT_F32 ? "f32" : wf[k % 3] == SKIN_WEIGHT_UNORM16 ? "unorm16" : "unorm8");
        failed += run_rig(&h, &r, name, &total);
        rig_free(&r);
    }
#ifdef SKIN_TEST_MODELS_DIR
    failed += real_asset(&h, &total);
#endif
    int messages = vkh_finish(&h);
    printf("test_vk_gpu_parity: largest GPU vs CPU error: positions %.3g of the mesh extent, "
           "normals/tangents %.3g, packed %d snorm step(s); %d failure(s), %d validation message(s)\n",
           total.pos, total.vec, total.packed_steps, failed, messages);
    return failed || messages ? 1 : 0;
}
