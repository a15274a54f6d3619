/* SPDX-License-Identifier: MIT */
/* Morph targets on the GPU path vs the CPU reference (skin_mesh with
 * SKIN_ISA_SCALAR, which sums the deltas in double), on lavapipe with
 * validation.  Two rigs (u16/f32, u8/unorm8), each with 70 targets: dense
 * and sparse, with position, normal and tangent delta groups in several
 * combinations, a sparse list that covers part of a 64-wide workgroup and
 * crosses into the next, a one-vertex list at a workgroup start, an empty
 * list, a target with no groups.  Weight sets: NULL, all zero (with -0), one
 * active (sparse, then dense with a negative weight), eight active (weights
 * negative and above 1), the 64 the core allows.  Per weight set, LBS and
 * DQS in five call shapes: whole mesh and vertex ranges starting mid-mesh
 * and mid-workgroup, float/snorm16/1010102 interleaved and SoA, positions
 * only to all three attributes, NORMALIZE, normal matrices and scales; the
 * first rig through a flushed ring, the second through a staging ring with
 * the mesh uploaded through staging.
 * Then an unsorted sparse list with an index past the mesh, on a mesh
 * without tangents whose targets have tangent deltas (not uploaded), and the
 * refusals: a partly set delta group or missing targets at upload; NaN and
 * infinite weights and 65 active targets per call, each taking nothing from
 * the frame.  Tolerances as test_vk_gpu_parity (gpu_check.h): floats within
 * 1e-5 of the extent (positions) or of max(1, |v|), packed within one snorm
 * step. */
#include "rig.h"
#include "gpu_check.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 333 /* 5 workgroups and 13 vertices */
#define T 70  /* morph targets: 64 may be active at once */
#define SETS 6
#define SHAPES 5
#define MAX_CALLS (SETS * 2 * SHAPES)

typedef struct morphs {
    skin_morph_target t[T];
    float *deltas;     /* every delta array, carved from here */
    uint32_t *indices; /* every sparse list */
    float weights[SETS][T];
    const char *set_name[SETS];
} morphs;

static uint64_t rng = 0x5eed;

static float *take(float **at, size_t n, float amp)
{
    float *p = *at;
    for (size_t i = 0; i < n; ++i) p[i] = rig_uniform(&rng, -amp, amp);
    *at += n;
    return p;
}

/* The group bits g (1 position, 2 normal, 4 tangent) of target t, each
 * delta array len floats long. */
static void fill(skin_morph_target *t, unsigned g, size_t len, float **at)
{
    if (g & 1) t->dpx = take(at, len, 0.5f), t->dpy = take(at, len, 0.5f), t->dpz = take(at, len, 0.5f);
    if (g & 2) t->dnx = take(at, len, 0.05f), t->dny = take(at, len, 0.05f), t->dnz = take(at, len, 0.05f);
    if (g & 4) t->dtx = take(at, len, 0.05f), t->dty = take(at, len, 0.05f), t->dtz = take(at, len, 0.05f);
}

static void sparse(skin_morph_target *t, uint32_t **at, const uint32_t *list, size_t count)
{
    memcpy(*at, list, count * sizeof *list);
    t->indices = *at;
    t->count = count;
    *at += count;
}

static int make_morphs(morphs *m, size_t n)
{
    memset(m, 0, sizeof *m);
    m->deltas = malloc(sizeof(float) * 9 * n * T);
    m->indices = malloc(sizeof(uint32_t) * n * T);
    if (!m->deltas || !m->indices) return 1;
    float *d = m->deltas;
    uint32_t *ix = m->indices, list[N];
    size_t c = 0;
    fill(&m->t[0], 7, n, &d); /* dense, all groups */
    /* Sparse, all groups: 60..70 covers the end of workgroup 0 and the start
     * of workgroup 1; then scattered vertices and the last one. */
    for (uint32_t v = 60; v <= 70; ++v) list[c++] = v;
    list[c++] = 130, list[c++] = 131, list[c++] = 200, list[c++] = (uint32_t)n - 1;
    sparse(&m->t[1], &ix, list, c);
    fill(&m->t[1], 7, c, &d);
    fill(&m->t[2], 1, n, &d); /* dense, positions */
    c = 0;                    /* sparse, normals and tangents: every 5th vertex from 3 */
    for (uint32_t v = 3; v < n; v += 5) list[c++] = v;
    sparse(&m->t[3], &ix, list, c);
    fill(&m->t[3], 6, c, &d);
    sparse(&m->t[4], &ix, list, 0); /* sparse, empty (its groups set, 0 floats each) */
    fill(&m->t[4], 7, 0, &d);
    fill(&m->t[5], 4, n, &d);       /* dense, tangents */
    list[0] = 64;                   /* sparse, one vertex at a workgroup start */
    sparse(&m->t[6], &ix, list, 1);
    fill(&m->t[6], 1, 1, &d);
    c = 0; /* sparse, positions and normals: the first and last three */
    for (uint32_t v = 0; v < 3; ++v) list[c++] = v;
    for (uint32_t v = (uint32_t)n - 3; v < n; ++v) list[c++] = v;
    sparse(&m->t[7], &ix, list, c);
    fill(&m->t[7], 3, c, &d);
    fill(&m->t[8], 2, n, &d); /* dense, normals */
    list[0] = 10, list[1] = 11;
    sparse(&m->t[9], &ix, list, 2); /* sparse, no delta group at all */
    for (uint32_t k = 10; k < T; ++k) { /* small sparse lists and some dense targets */
        if (k % 6 == 0) {
            fill(&m->t[k], k % 12 ? 1 : 7, n, &d);
            continue;
        }
        c = 0;
        for (uint32_t v = k % 7; v < n; v += 3 + k % 11)
            if (rig_next(&rng) & 1) list[c++] = v;
        sparse(&m->t[k], &ix, list, c);
        fill(&m->t[k], 1 + k % 7, c, &d);
    }
    /* Weight sets. */
    static const char *names[SETS] = {"NULL weights", "all zero", "one sparse", "one dense, negative",
                                      "eight", "sixty-four"};
    for (int s = 0; s < SETS; ++s) m->set_name[s] = names[s];
    m->weights[1][3] = -0.0f;
    m->weights[2][1] = 1.0f;
    m->weights[3][0] = -1.25f;
    static const float eight[9] = {0.5f, 1.0f, -0.75f, 2.5f, 0.0f, -1.5f, 0.3f, 1.75f, 1.0f};
    for (int k = 0; k < 9; ++k) m->weights[4][k] = eight[k];
    m->weights[4][4] = 0.0f; /* target 4 (empty) inactive: eight active */
    for (int k = 0; k < 64; ++k) m->weights[5][k] = (k & 1 ? -1.0f : 1.0f) * (0.05f + 0.02f * (float)(k % 7));
    return 0;
}

static void free_morphs(morphs *m)
{
    free(m->deltas);
    free(m->indices);
}

/* Skins every call on the GPU in one frame and checks each against the CPU
 * reference (gpu_check_run), prints the rig's largest errors and folds them
 * into total.  Returns the number of bad calls (-1 when the CPU reference
 * failed), or 1 on a Vulkan error. */
static int run_calls(vkh *h, const skin_mesh_desc *mesh, uint32_t jc, gpu_check_call *calls, int nc,
                     const char *name, const char *const *set_names, uint32_t ring_flags,
                     uint32_t gpu_flags, gpu_check_errs *total)
{
    /* ring slack per call: test_vk_gpu_parity's 512, and 512 more here */
    gpu_check_setup setup = {mesh, jc, 512 + 512, ring_flags, gpu_flags};
    gpu_check_result res;
    if (gpu_check_run(h, &setup, calls, nc, name, set_names, &res)) return 1;
    const gpu_check_errs *e = &res.errs;
    printf("%s (ring %s%s): %d calls, largest error: positions %.3g of extent, vectors %.3g, packed %d step(s)%s\n",
           name, skin_vk_memory_mode_name(res.ring_mode),
           gpu_flags & SKIN_VK_FORCE_STAGING ? ", mesh through staging" : "", nc, e->pos, e->vec, e->packed_steps,
           res.bad_calls ? " FAIL" : "");
    gpu_check_errs_merge(total, e);
    return res.bad_calls;
}

/* Every weight set x method x call shape on one rig with its targets. */
static int run_rig(vkh *h, rig *r, const char *name, uint32_t ring_flags, uint32_t gpu_flags,
                   gpu_check_errs *total)
{
    morphs m;
    if (make_morphs(&m, r->mesh.vertex_count)) return 1;
    r->mesh.morph_target_count = T;
    r->mesh.morph_targets = m.t;
    skin_validation_report rep;
    if (skin_validate(&r->mesh, r->palette.joint_count, &rep) != SKIN_OK) {
        fprintf(stderr, "%s: the rig does not validate: %s (target %d)\n", name,
                skin_status_string(rep.status), (int)rep.morph_target);
        return 1;
    }
    uint32_t jc = r->palette.joint_count;
    size_t n = r->mesh.vertex_count;
    float *nm = malloc(sizeof(float) * 9 * jc);
    if (!nm) return 1;
    for (uint32_t j = 0; j < jc; ++j)
        for (int e = 0; e < 9; ++e) nm[9 * j + e] = 1.25f * r->palette.matrices[12 * j + 4 * (e / 3) + e % 3];
    enum { all = SKIN_VK_NORMAL | SKIN_VK_TANGENT };
    /* attributes, packing, layout, flags, first, count (0: to the end), extra */
    static const struct {
        uint32_t attributes;
        skin_vk_packing packing;
        skin_layout layout;
        uint32_t flags;
        size_t first, count;
        int extra;
    } shapes[SHAPES] = {
        {all, SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 0, 0, 0},
        {all, SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_SOA, SKIN_OUTPUT_NORMALIZE, 37, 230, 1},
        {0, SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 69, 100, 0},
        {SKIN_VK_NORMAL, SKIN_VK_PACK_SNORM16, SKIN_LAYOUT_STRIDED, SKIN_OUTPUT_NORMALIZE, 1, 0, 1},
        {all, SKIN_VK_PACK_1010102, SKIN_LAYOUT_STRIDED, SKIN_OUTPUT_NORMALIZE, 0, 0, 0},
    };
    gpu_check_call calls[MAX_CALLS];
    int nc = 0;
    for (int s = 0; s < SETS; ++s)
        for (int me = 0; me < 2; ++me)
            for (int x = 0; x < SHAPES; ++x) {
                gpu_check_call *c = &calls[nc++];
                memset(c, 0, sizeof *c);
                c->set = s;
                c->call.method = me ? SKIN_DQS : SKIN_LBS;
                c->call.attributes = shapes[x].attributes;
                c->call.packing = shapes[x].packing;
                c->call.layout = shapes[x].layout;
                c->call.flags = shapes[x].flags;
                c->call.first = shapes[x].first;
                c->call.count = shapes[x].count ? shapes[x].count : n - shapes[x].first;
                c->pal = r->palette;
                c->pal.morph_weights = s ? m.weights[s] : NULL;
                if (me) {
                    c->pal.matrices = NULL;
                    c->pal.scales = shapes[x].extra ? r->palette.scales : NULL;
                } else {
                    c->pal.dual_quats = NULL;
                    c->pal.scales = NULL;
                    c->pal.normal_matrices = shapes[x].extra ? nm : NULL;
                }
                c->call.palette = &c->pal;
            }
    int bad = run_calls(h, &r->mesh, jc, calls, nc, name, m.set_name, ring_flags, gpu_flags, total);
    free(nm);
    free_morphs(&m);
    r->mesh.morph_target_count = 0;
    r->mesh.morph_targets = NULL;
    return bad != 0;
}

/* A sparse list that skin_validate refuses (unsorted, an index past the
 * mesh) is still read only inside itself; the shader's binary search is the
 * reference's, so the results match.  The mesh has no tangents: the
 * targets' tangent deltas are not uploaded and change nothing. */
static int unsorted(vkh *h, rig *r, gpu_check_errs *total)
{
    static const uint32_t list[6] = {5, 3, 9, 400000, 7, 2};
    float d[9][6], dense[3][N];
    for (int g = 0; g < 9; ++g)
        for (int e = 0; e < 6; ++e) d[g][e] = rig_uniform(&rng, -0.5f, 0.5f) * (g < 3 ? 1.0f : 0.1f);
    for (int c = 0; c < 3; ++c)
        for (size_t v = 0; v < N; ++v) dense[c][v] = rig_uniform(&rng, -0.05f, 0.05f);
    skin_morph_target t[2] = {
        {list, 6, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]},
        {.dtx = dense[0], .dty = dense[1], .dtz = dense[2]}};
    skin_mesh_desc mesh = r->mesh;
    mesh.tx = mesh.ty = mesh.tz = mesh.tw = NULL;
    mesh.morph_target_count = 2;
    mesh.morph_targets = t;
    skin_validation_report rep;
    VKH_EXPECT(skin_validate(&mesh, r->palette.joint_count, &rep) == SKIN_ERROR_MORPH_INDEX_ORDER);
    float w[2] = {1.5f, 3.0f};
    gpu_check_call calls[2];
    memset(calls, 0, sizeof calls);
    for (int me = 0; me < 2; ++me) {
        gpu_check_call *c = &calls[me];
        c->call.method = me ? SKIN_DQS : SKIN_LBS;
        c->call.attributes = SKIN_VK_NORMAL;
        c->call.packing = SKIN_VK_PACK_FLOAT;
        c->call.layout = SKIN_LAYOUT_STRIDED;
        c->call.count = N;
        c->pal = r->palette;
        c->pal.morph_weights = w;
        c->call.palette = &c->pal;
    }
    static const char *names[1] = {"unsorted"};
    return run_calls(h, &mesh, r->palette.joint_count, calls, 2, "unsorted sparse list, no tangents",
                     names, 0, 0, total) != 0;
}

/* Refused inputs: skin_vk returns VK_ERROR_VALIDATION_FAILED_EXT where
 * skin_mesh refuses, and a refused call takes nothing from the frame. */
static int refusals(vkh *h, rig *r)
{
    int before = vkh_failures;
    float dp[3][N], dn[2][N];
    memset(dp, 0, sizeof dp);
    memset(dn, 0, sizeof dn);
    skin_morph_target t[T];
    memset(t, 0, sizeof t);
    for (int k = 0; k < T; ++k) t[k].dpx = dp[0], t[k].dpy = dp[1], t[k].dpz = dp[2];
    skin_mesh_desc mesh = r->mesh;
    mesh.morph_target_count = T;
    mesh.morph_targets = t;
    uint32_t jc = r->palette.joint_count;
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device};
    skin_vk_stream_create_info ci = {.physical_device = h->vk.phys, .device = h->vk.device,
                                     .queue_family_index = h->vk.family,
                                     .region_size = (VkDeviceSize)N * 40 + jc * 84u + 4096,
                                     .region_count = 1};
    skin_vk_gpu *gpu = NULL;
    skin_vk_stream *ring = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VKH_CHECK(skin_vk_gpu_create(&gi, &gpu));
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    /* Upload: a partly set delta group (normals without z), missing targets. */
    t[5].dnx = dn[0], t[5].dny = dn[1];
    skin_vk_gpu_mesh *bad = (skin_vk_gpu_mesh *)&mesh;
    VKH_EXPECT(skin_vk_gpu_mesh_create(gpu, &mesh, jc, &bad) == VK_ERROR_VALIDATION_FAILED_EXT && !bad);
    t[5].dnx = t[5].dny = NULL;
    t[6].dpz = NULL; /* a partly set position group */
    bad = (skin_vk_gpu_mesh *)&mesh;
    VKH_EXPECT(skin_vk_gpu_mesh_create(gpu, &mesh, jc, &bad) == VK_ERROR_VALIDATION_FAILED_EXT && !bad);
    t[6].dpz = dp[2];
    mesh.morph_targets = NULL;
    VKH_EXPECT(skin_vk_gpu_mesh_create(gpu, &mesh, jc, &bad) == VK_ERROR_VALIDATION_FAILED_EXT && !bad);
    mesh.morph_targets = t;
    VKH_CHECK(skin_vk_gpu_mesh_create(gpu, &mesh, jc, &gm));

    /* Per call: NaN, +inf, -inf weights, 65 active targets.  The core
     * refuses the same. */
    float w[T];
    memset(w, 0, sizeof w);
    skin_palette pal = r->palette;
    pal.morph_weights = w;
    skin_vk_gpu_call call = {SKIN_LBS, &pal, 0, SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 0, N};
    skin_vk_frame fr;
    skin_vk_slot slot;
    VkCommandBuffer cmd;
    VkFence fence;
    VKH_CHECK(skin_vk_stream_acquire(ring, UINT64_MAX, &fr));
    VKH_CHECK(vkh_once_begin(h, &cmd, &fence));
    float cpu_out[3];
    skin_output probe = {.layout = SKIN_LAYOUT_SOA, .soa = {cpu_out, cpu_out + 1, cpu_out + 2}};
    static const float bad_weights[3] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        w[7] = 1.0f;
        w[40] = bad_weights[i];
        for (int me = 0; me < 2; ++me) {
            call.method = me ? SKIN_DQS : SKIN_LBS;
            VKH_EXPECT(skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
            VKH_EXPECT(skin_mesh(&mesh, &pal, call.method, &probe, 0, 1) == SKIN_ERROR_MORPH_WEIGHT);
        }
    }
    for (int k = 0; k < T; ++k) w[k] = k <= SKIN_MAX_ACTIVE_MORPH_TARGETS ? 0.01f : 0.0f;
    call.method = SKIN_LBS;
    VKH_EXPECT(skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_mesh(&mesh, &pal, SKIN_LBS, &probe, 0, 1) == SKIN_ERROR_INVALID_COUNT);
    /* 64 active (and the rest -0) is accepted, and it is the frame's first
     * GPU allocation: the refused calls took nothing. */
    w[SKIN_MAX_ACTIVE_MORPH_TARGETS] = -0.0f;
    VKH_CHECK(skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot));
    VkDeviceSize a = skin_vk_stream_alignment(ring);
    VKH_EXPECT(slot.offset == fr.offset + fr.size - ((VkDeviceSize)N * 12 + a - 1) / a * a);
    VKH_CHECK(skin_vk_stream_commit(ring, &fr, cmd, fence));
    VKH_CHECK(vkh_once_submit(h, cmd, fence));
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_stream_destroy(ring);
    skin_vk_gpu_destroy(gpu);
    printf("refusals: %s\n", vkh_failures == before ? "ok" : "FAIL");
    return vkh_failures != before;
}

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_gpu_morph");
    if (rc) return rc;
    if (skin_set_isa(SKIN_ISA_SCALAR) != SKIN_OK) {
        fprintf(stderr, "no scalar kernels\n");
        return 1;
    }
    int failed = 0;
    gpu_check_errs total = {0, 0, 0, 0};
    static const rig_options opts[2] = {
        {N, 40, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 1, 7001},
        {N, 30, 2, SKIN_JOINT_U8, SKIN_WEIGHT_UNORM8, 1, 7002},
    };
    static const char *names[2] = {"k=4 u16 f32", "k=2 u8 unorm8"};
    for (int i = 0; i < 2; ++i) {
        rig r;
        if (rig_random(&r, &opts[i])) return 1;
        /* The second rig: the ring's staging mode (palettes and morph lists
         * read from the staging buffer) and the mesh uploaded through staging;
         * the first: a flushed ring. */
        failed += run_rig(&h, &r, names[i], i ? SKIN_VK_FORCE_STAGING : SKIN_VK_FORCE_NONCOHERENT,
                          i ? SKIN_VK_FORCE_STAGING : 0, &total);
        if (i == 0) {
            failed += unsorted(&h, &r, &total);
            failed += refusals(&h, &r);
        }
        rig_free(&r);
    }
    int messages = vkh_finish(&h);
    printf("test_vk_gpu_morph: largest GPU vs CPU (scalar) error: positions %.3g of the mesh extent, "
           "normals/tangents %.3g, packed %d snorm step(s); %d failure(s), %d validation message(s)\n",
           total.pos, total.vec, total.packed_steps, failed, messages);
    return failed || messages ? 1 : 0;
}
