/* GPU shaders vs CPU kernels (skin_mesh), on lavapipe with validation:
 * every method x attributes x influences (1..8, cycling joint and weight
 * formats) x output format (float, snorm16, 1010102) x output layout
 * (interleaved, SoA) x with/without normal matrices (LBS) or scales (DQS),
 * NORMALIZE on every other call, whole meshes and sub-ranges, on seeded
 * rigs and on a real asset (Testwuson, through skin_assets, when the
 * assimp test models are there).  DQS cases: antipodal palettes (odd joints' dual quaternions
 * negated), a pivot in a later slot, weight ties, all-zero weights (the
 * near-zero fallback).  Floats must agree within 1e-5 of the mesh extent
 * (positions) or of max(1, |v|) (normals, tangents); packed components
 * within one snorm step.  Prints the largest errors. */
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

typedef struct call_rec {
    size_t n; /* the mesh's vertex count */
    skin_vk_gpu_call call;
    skin_palette pal;
    VkDeviceSize rb_offset, bytes;
    skin_vk_slot slot;
} call_rec;

typedef struct errs {
    double pos, vec;
    int packed_steps, bad;
} errs;

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


/* Decodes a normal/tangent element to 4 floats (w = 0 for float normals). */
static void decode(const uint8_t *p, skin_vk_packing packing, int tangent, float out[4])
{
    uint32_t w[2];
    memcpy(w, p, packing == SKIN_VK_PACK_SNORM16 ? 8 : 4);
    if (packing == SKIN_VK_PACK_FLOAT) {
        memcpy(out, p, tangent ? 16 : 12);
        if (!tangent) out[3] = 0;
    } else if (packing == SKIN_VK_PACK_1010102) {
        for (int c = 0; c < 3; ++c) {
            int32_t q = (int32_t)(w[0] >> (10 * c) & 0x3ffu);
            out[c] = (float)(q >= 512 ? q - 1024 : q);
        }
        int32_t q = (int32_t)(w[0] >> 30);
        out[3] = (float)(q >= 2 ? q - 4 : q);
    } else {
        for (int c = 0; c < 4; ++c) out[c] = (float)(int16_t)(w[c / 2] >> (16 * (c & 1)) & 0xffffu);
    }
}

/* Compares one call's GPU elements with the CPU's (indexed by vertex). */
static void compare(const call_rec *c, const uint8_t *gpu, const uint8_t *cpu, double extent,
                    errs *e)
{
    skin_vk_vertex_layout l = c->slot.layout;
    size_t count = c->call.count;
    int soa = c->call.layout == SKIN_LAYOUT_SOA;
    int nrm = (c->call.attributes & SKIN_VK_NORMAL) != 0;
    for (size_t i = 0; i < count; ++i) {
        size_t v = c->call.first + i;
        for (int a = 0; a < 3; ++a) { /* position, normal, tangent */
            if ((a == 1 && !nrm) || (a == 2 && !(c->call.attributes & SKIN_VK_TANGENT))) continue;
            float g[4], r[4];
            if (soa) { /* planes of float components */
                size_t plane0 = a == 0 ? 0 : a == 1 ? 3 : 3 + 3 * (size_t)nrm;
                size_t comps = a == 2 ? 4 : 3, cpu_n = c->n;
                for (size_t k = 0; k < comps; ++k) {
                    memcpy(&g[k], gpu + 4 * ((plane0 + k) * count + i), 4);
                    memcpy(&r[k], cpu + 4 * ((plane0 + k) * cpu_n + v), 4);
                }
                if (a != 2) g[3] = r[3] = 0;
            } else {
                size_t off = a == 0 ? 0 : a == 1 ? l.normal_offset : l.tangent_offset;
                skin_vk_packing pk = a == 0 ? SKIN_VK_PACK_FLOAT : l.packing;
                decode(gpu + i * l.stride + off, pk, a == 2, g);
                decode(cpu + v * l.stride + off, pk, a == 2, r);
            }
            int packed = a > 0 && !soa && l.packing != SKIN_VK_PACK_FLOAT;
            for (int k = 0; k < (a == 2 ? 4 : 3); ++k) {
                double d = fabs((double)g[k] - (double)r[k]);
                if (packed) { /* snorm steps */
                    if (d > e->packed_steps) e->packed_steps = (int)d;
                    if (d > 1 && e->bad++ < 8)
                        fprintf(stderr, "  vertex %zu attr %d comp %d: cpu %g gpu %g (snorm)\n", v, a,
                                k, r[k], g[k]);
                    continue;
                }
                double rel = a == 0 ? d / extent : d / fmax(1.0, fabs((double)r[k]));
                double *worst = a == 0 ? &e->pos : &e->vec;
                if (rel > *worst) *worst = rel;
                if (!(rel <= 1e-5) && e->bad++ < 8)
                    fprintf(stderr, "  vertex %zu attr %d comp %d: cpu %.9g gpu %.9g\n", v, a, k,
                            r[k], g[k]);
            }
        }
    }
}

/* The CPU output of a call, for all the mesh's vertices, in the call's layout. */
static int cpu_skin(rig *r, const call_rec *c, uint8_t *buf)
{
    skin_vk_vertex_layout l = c->slot.layout;
    skin_output o = {.layout = c->call.layout, .flags = c->call.flags};
    int nrm = (c->call.attributes & SKIN_VK_NORMAL) != 0, tan = (c->call.attributes & SKIN_VK_TANGENT) != 0;
    if (c->call.layout == SKIN_LAYOUT_SOA) {
        for (int p = 0, dst = 0; dst < 10; ++dst) {
            if ((dst >= 3 && dst < 6 && !nrm) || (dst >= 6 && !tan)) continue;
            o.soa[dst] = (float *)(buf + 4 * (size_t)p++ * c->n);
        }
    } else {
        o.position = (float *)buf;
        o.position_stride = l.stride;
        if (nrm) o.normal = (float *)(buf + l.normal_offset), o.normal_stride = l.stride;
        if (tan) o.tangent = (float *)(buf + l.tangent_offset), o.tangent_stride = l.stride;
        o.vector_format = l.packing == SKIN_VK_PACK_FLOAT     ? SKIN_VECTOR_F32
                          : l.packing == SKIN_VK_PACK_SNORM16 ? SKIN_VECTOR_SNORM16
                                                              : SKIN_VECTOR_1010102;
    }
    skin_status s = skin_mesh(&r->mesh, &c->pal, c->call.method, &o, c->call.first, c->call.count);
    if (s != SKIN_OK) fprintf(stderr, "skin_mesh: %s\n", skin_status_string(s));
    return s != SKIN_OK;
}

static int run_rig(vkh *h, rig *r, const char *name, errs *total)
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
    call_rec calls[MAX_CALLS];
    int nc = 0;
    static const uint32_t attrs[3] = {0, SKIN_VK_NORMAL, SKIN_VK_NORMAL | SKIN_VK_TANGENT};
    for (int m = 0; m < 2; ++m)
        for (int a = 0; a < (r->mesh.tx ? 3 : 2); ++a)
            for (int f = 0; f < 4; ++f) /* 3 packings interleaved, then SoA */
                for (int x = 0; x < 2; ++x) {
                    call_rec *c = &calls[nc];
                    memset(c, 0, sizeof *c);
                    c->n = n;
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
    VkDeviceSize region = 0;
    for (int i = 0; i < nc; ++i) region += (VkDeviceSize)n * 40 + jc * 84u + 512;
    skin_vk_stream_create_info ci = {.physical_device = h->vk.phys, .device = h->vk.device,
                                     .queue_family_index = h->vk.family, .region_size = region,
                                     .region_count = 1};
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device,
                                  .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
                                  .dst_access = VK_ACCESS_TRANSFER_READ_BIT};
    skin_vk_stream *ring = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    VKH_CHECK(skin_vk_gpu_create(&gi, &gpu));
    VKH_CHECK(skin_vk_gpu_mesh_create(gpu, &r->mesh, jc, &gm));
    vkh_buffer rb;
    VKH_CHECK(vkh_readback_create(h, region, &rb));
    skin_vk_frame fr;
    VKH_CHECK(skin_vk_stream_acquire(ring, UINT64_MAX, &fr));
    VkCommandBuffer cmd;
    VkFence fence;
    VKH_CHECK(vkh_once_begin(h, &cmd, &fence));
    VkDeviceSize at = 0;
    for (int i = 0; i < nc; ++i) {
        VKH_CHECK(skin_vk_gpu_skin(gm, ring, &fr, cmd, &calls[i].call, &calls[i].slot));
        calls[i].bytes = (VkDeviceSize)calls[i].call.count * calls[i].slot.layout.stride;
        calls[i].rb_offset = at;
        VkBufferCopy cp = {calls[i].slot.offset, at, calls[i].bytes};
        vkCmdCopyBuffer(cmd, fr.buffer, rb.buffer, 1, &cp);
        at += (calls[i].bytes + 15) / 16 * 16;
    }
    VKH_CHECK(skin_vk_stream_commit(ring, &fr, cmd, fence));
    vkh_readback_barrier(cmd, &rb, 0, VK_WHOLE_SIZE);
    VKH_CHECK(vkh_once_submit(h, cmd, fence));
    vkh_readback_invalidate(h, &rb);

    errs e = {0, 0, 0, 0};
    uint8_t *cpu = malloc((size_t)n * 40);
    if (!cpu) return 1;
    for (int i = 0; i < nc; ++i) {
        memset(cpu, 0, (size_t)n * 40);
        if (cpu_skin(r, &calls[i], cpu)) return 1;
        /* The mesh extent: the largest |coordinate| of the CPU positions. */
        double extent = 1e-30;
        for (size_t v = calls[i].call.first; v < calls[i].call.first + calls[i].call.count; ++v)
            for (int k = 0; k < 3; ++k) {
                float p;
                size_t off = calls[i].call.layout == SKIN_LAYOUT_SOA ? 4 * ((size_t)k * n + v)
                                                                      : v * calls[i].slot.layout.stride + 4 * (size_t)k;
                memcpy(&p, cpu + off, 4);
                extent = fmax(extent, fabs((double)p));
            }
        int before = e.bad;
        compare(&calls[i], (const uint8_t *)rb.mapped + calls[i].rb_offset, cpu, extent, &e);
        if (e.bad != before)
            fprintf(stderr, "%s call %d: %s attrs %u packing %d layout %d flags %u first %zu count %zu extra %d\n",
                    name, i, calls[i].call.method == SKIN_DQS ? "DQS" : "LBS",
                    calls[i].call.attributes, (int)calls[i].call.packing, (int)calls[i].call.layout,
                    calls[i].call.flags, calls[i].call.first, calls[i].call.count,
                    calls[i].pal.scales || calls[i].pal.normal_matrices);
    }
    printf("%s: %d calls, largest error: positions %.3g of extent, vectors %.3g, packed %d step(s)%s\n",
           name, nc, e.pos, e.vec, e.packed_steps, e.bad ? " FAIL" : "");
    total->pos = fmax(total->pos, e.pos);
    total->vec = fmax(total->vec, e.vec);
    if (e.packed_steps > total->packed_steps) total->packed_steps = e.packed_steps;
    total->bad += e.bad;
    free(cpu);
    free(nm);
    free(anti);
    vkh_buffer_destroy(h, &rb);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    return e.bad != 0;
}

#ifdef SKIN_TEST_MODELS_DIR
/* A real asset: Testwuson's largest mesh at half its first animation, through
 * the loader, with its own influence count and formats. */
static int real_asset(vkh *h, errs *total)
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
    errs total = {0, 0, 0, 0};
    for (uint32_t k = 1; k <= 8; ++k) {
        rig r;
        rig_options o = {N, k % 2 ? 300 : 200, k, k % 2 ? SKIN_JOINT_U16 : SKIN_JOINT_U8,
                         wf[k % 3], 1, 5000 + k};
        if (rig_random(&r, &o)) return 1;
        special_weights(&r);
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
