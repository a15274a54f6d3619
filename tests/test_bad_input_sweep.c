/* SPDX-License-Identifier: MIT */
/* Bad-input sweep (issue 10): for every public function of skin.h, each
 * class of bad argument gives its documented status and writes nothing
 * outside what it may write (canaries), under every ISA the CPU runs.
 *
 *  - skin_mesh / skin_mesh_parallel / skin_validate: a table of descriptor
 *    defects (NULL, zero and SIZE_MAX counts, wrapping first + count, short,
 *    unaligned and too-large strides, misaligned pointers, unknown enums and
 *    flags, influence_count 0 and 9, joint_count 0 and 65537) with their
 *    status, and a table of data defects (out-of-range joints, NaN, Inf and
 *    negative weights and positions, weight sums far from 1, zero and
 *    non-finite palettes) that skinning accepts (writing only the range) and
 *    skin_validate reports with vertex and slot;
 *  - every helper: a table of calls with their expected status, each run
 *    into a canary-filled arena that a failing call must leave untouched;
 *  - skin_matrix_to_dual_quat on non-rigid and non-finite matrices. */
#include "check.h"
#include "skin/skin.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { N = 16, J = 4, FIRST = 4, COUNT = 8 };
#define CANARY 0xC3

static float px[N], py[N], pz[N], nx[N], ny[N], nz[N], tx[N], ty[N], tz[N], tw[N];
static uint8_t j0[N], j1[N];
static float w0[N], w1[N];
static float mats[J * 12], nmats[J * 9], dqs[J * 8], scales[J * 3];

/* Outputs: interleaved vertices (40 bytes) with 2 spare vertices either
 * side, planar streams, bounds; the helpers write into `arena`. */
static float inter[(N + 4) * 10];
static float planes[10][N + 4];
static float bounds[8];
static _Alignas(64) float arena[512];

static const float identity12[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

static void setup(void)
{
    for (int v = 0; v < N; ++v) {
        px[v] = (float)v, py[v] = 0.5f, pz[v] = -1;
        nx[v] = 0, ny[v] = 1, nz[v] = 0;
        tx[v] = 1, ty[v] = 0, tz[v] = 0, tw[v] = -1;
        j0[v] = (uint8_t)(v % J), j1[v] = (uint8_t)((v + 1) % J);
        w0[v] = 0.625f, w1[v] = 0.375f;
    }
    for (int j = 0; j < J; ++j) {
        memcpy(mats + 12 * j, identity12, sizeof identity12);
        mats[12 * j + 3] = (float)j;
    }
    CHECK_STATUS(skin_matrices_to_dual_quats(J, mats, dqs, scales, NULL), SKIN_OK);
    CHECK_STATUS(skin_normal_matrices(J, mats, nmats), SKIN_OK);
}

static int all_canary(const void *p, size_t bytes)
{
    const unsigned char *c = p;
    for (size_t k = 0; k < bytes; ++k)
        if (c[k] != CANARY) return 0;
    return 1;
}

static void fill_all(void)
{
    memset(inter, CANARY, sizeof inter);
    memset(planes, CANARY, sizeof planes);
    memset(bounds, CANARY, sizeof bounds);
    memset(arena, CANARY, sizeof arena);
}

/* ------------------------------------------------------- skin_mesh table */

typedef struct mesh_case {
    skin_mesh_desc mesh;
    skin_palette pal;
    skin_method method;
    skin_output out;
    size_t first, count;
    uint32_t validate_joints;
} mesh_case;

static mesh_case good_case(void)
{
    mesh_case c;
    memset(&c, 0, sizeof c);
    c.mesh = (skin_mesh_desc){.vertex_count = N, .px = px, .py = py, .pz = pz, .nx = nx, .ny = ny,
                              .nz = nz, .tx = tx, .ty = ty, .tz = tz, .tw = tw,
                              .influence_count = 2, .joint_format = SKIN_JOINT_U8,
                              .weight_format = SKIN_WEIGHT_F32,
                              .joints = {j0, j1}, .weights = {w0, w1}};
    c.pal = (skin_palette){J, mats, nmats, dqs, scales, NULL};
    c.method = SKIN_LBS;
    float *v0 = inter + 20; /* vertex 0 after 2 spare vertices */
    c.out = (skin_output){.layout = SKIN_LAYOUT_STRIDED, .position = v0, .position_stride = 40,
                          .normal = v0 + 3, .normal_stride = 40, .tangent = v0 + 6,
                          .tangent_stride = 40, .bounds = bounds + 1};
    c.first = FIRST, c.count = COUNT;
    c.validate_joints = J;
    return c;
}

typedef void (*mutate_fn)(mesh_case *);

#define MUT(name, body) \
    static void name(mesh_case *c) { body; }

MUT(m_null_px, c->mesh.px = NULL)
MUT(m_null_nz, c->mesh.nz = NULL)
MUT(m_null_tw, c->mesh.tw = NULL)
MUT(m_null_joint, c->mesh.joints[1] = NULL)
MUT(m_null_weight, c->mesh.weights[0] = NULL)
MUT(m_null_out_pos, c->out.position = NULL)
MUT(m_null_matrices, (c->pal.matrices = NULL, c->method = SKIN_LBS))
MUT(m_null_dqs, (c->pal.dual_quats = NULL, c->method = SKIN_DQS))
MUT(m_vc_size_max, (c->mesh.vertex_count = SIZE_MAX, c->first = 0, c->count = 0))
MUT(m_count_size_max, c->count = SIZE_MAX)
MUT(m_first_size_max, (c->first = SIZE_MAX, c->count = 1))
MUT(m_wrap, (c->first = 2, c->count = SIZE_MAX - 1))
MUT(m_past_end, (c->first = N - 2, c->count = 3))
MUT(m_first_past, (c->first = N + 1, c->count = 0))
MUT(m_stride_short, c->out.position_stride = 8)
MUT(m_stride_unaligned, c->out.normal_stride = 42)
MUT(m_stride_huge, c->out.tangent_stride = (size_t)PTRDIFF_MAX / 8)
MUT(m_ptr_misaligned, c->out.normal = (float *)(void *)((char *)c->out.normal + 2))
MUT(m_soa_misaligned, (c->out.layout = SKIN_LAYOUT_SOA, c->out.soa[0] = planes[0] + 2,
                       c->out.soa[1] = (float *)(void *)((char *)(planes[1] + 2) + 1),
                       c->out.soa[2] = planes[2] + 2))
MUT(m_soa_null, (c->out.layout = SKIN_LAYOUT_SOA, c->out.soa[0] = planes[0] + 2,
                 c->out.soa[1] = planes[1] + 2, c->out.soa[2] = NULL))
MUT(m_method0, c->method = (skin_method)0)
MUT(m_method3, c->method = (skin_method)3)
MUT(m_method_neg, c->method = (skin_method)-1)
MUT(m_layout, c->out.layout = (skin_layout)2)
MUT(m_vformat, c->out.vector_format = (skin_vector_format)3)
MUT(m_vformat_soa, (c->out.layout = SKIN_LAYOUT_SOA, c->out.soa[0] = planes[0] + 2,
                    c->out.soa[1] = planes[1] + 2, c->out.soa[2] = planes[2] + 2,
                    c->out.vector_format = SKIN_VECTOR_SNORM16))
MUT(m_flags, c->out.flags = 1u << 7)
MUT(m_flags_high, c->out.flags = SKIN_OUTPUT_NORMALIZE | 0x80000000u)
MUT(m_jformat0, c->mesh.joint_format = (skin_joint_format)0)
MUT(m_jformat3, c->mesh.joint_format = (skin_joint_format)3)
MUT(m_wformat0, c->mesh.weight_format = (skin_weight_format)0)
MUT(m_wformat4, c->mesh.weight_format = (skin_weight_format)4)
MUT(m_infl0, c->mesh.influence_count = 0)
MUT(m_infl9, c->mesh.influence_count = 9)
MUT(m_jc0, c->pal.joint_count = 0)
MUT(m_jc65537, c->pal.joint_count = 65537)
MUT(m_missing_normals, (c->mesh.nx = c->mesh.ny = c->mesh.nz = NULL))
MUT(m_missing_tangents, (c->mesh.tx = c->mesh.ty = c->mesh.tz = c->mesh.tw = NULL))

typedef struct bad_desc {
    const char *what;
    mutate_fn mutate;
    skin_status status;    /* skin_mesh on the range */
    skin_status parallel;  /* skin_mesh_parallel (no range), SKIN_OK: skipped */
    skin_status validate;  /* skin_validate (mesh only), SKIN_OK: accepted */
} bad_desc;

static const bad_desc bad_descs[] = {
    {"NULL px", m_null_px, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT},
    {"NULL nz", m_null_nz, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT},
    {"NULL tw", m_null_tw, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT},
    {"NULL joints slot", m_null_joint, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT},
    {"NULL weights slot", m_null_weight, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT},
    {"NULL output position", m_null_out_pos, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_OK},
    {"NULL matrices (LBS)", m_null_matrices, SKIN_ERROR_MISSING_PALETTE, SKIN_ERROR_MISSING_PALETTE, SKIN_OK},
    {"NULL dual_quats (DQS)", m_null_dqs, SKIN_ERROR_MISSING_PALETTE, SKIN_ERROR_MISSING_PALETTE, SKIN_OK},
    {"vertex_count SIZE_MAX", m_vc_size_max, SKIN_ERROR_INVALID_COUNT, SKIN_ERROR_INVALID_COUNT, SKIN_ERROR_INVALID_COUNT},
    {"count SIZE_MAX", m_count_size_max, SKIN_ERROR_INVALID_RANGE, SKIN_OK, SKIN_OK},
    {"first SIZE_MAX", m_first_size_max, SKIN_ERROR_INVALID_RANGE, SKIN_OK, SKIN_OK},
    {"first + count wraps", m_wrap, SKIN_ERROR_INVALID_RANGE, SKIN_OK, SKIN_OK},
    {"first + count past the end", m_past_end, SKIN_ERROR_INVALID_RANGE, SKIN_OK, SKIN_OK},
    {"first past the end", m_first_past, SKIN_ERROR_INVALID_RANGE, SKIN_OK, SKIN_OK},
    {"short stride", m_stride_short, SKIN_ERROR_INVALID_STRIDE, SKIN_ERROR_INVALID_STRIDE, SKIN_OK},
    {"unaligned stride", m_stride_unaligned, SKIN_ERROR_INVALID_STRIDE, SKIN_ERROR_INVALID_STRIDE, SKIN_OK},
    {"stride * vertex_count > PTRDIFF_MAX", m_stride_huge, SKIN_ERROR_INVALID_STRIDE, SKIN_ERROR_INVALID_STRIDE, SKIN_OK},
    {"misaligned output pointer", m_ptr_misaligned, SKIN_ERROR_INVALID_STRIDE, SKIN_ERROR_INVALID_STRIDE, SKIN_OK},
    {"misaligned SoA stream", m_soa_misaligned, SKIN_ERROR_INVALID_STRIDE, SKIN_ERROR_INVALID_STRIDE, SKIN_OK},
    {"NULL SoA stream", m_soa_null, SKIN_ERROR_NULL_ARGUMENT, SKIN_ERROR_NULL_ARGUMENT, SKIN_OK},
    {"method 0", m_method0, SKIN_ERROR_INVALID_METHOD, SKIN_ERROR_INVALID_METHOD, SKIN_OK},
    {"method 3", m_method3, SKIN_ERROR_INVALID_METHOD, SKIN_ERROR_INVALID_METHOD, SKIN_OK},
    {"method -1", m_method_neg, SKIN_ERROR_INVALID_METHOD, SKIN_ERROR_INVALID_METHOD, SKIN_OK},
    {"layout 2", m_layout, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_OK},
    {"vector_format 3", m_vformat, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_OK},
    {"packed vectors in SoA", m_vformat_soa, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_OK},
    {"flag bit 7", m_flags, SKIN_ERROR_INVALID_FLAGS, SKIN_ERROR_INVALID_FLAGS, SKIN_OK},
    {"flag bit 31", m_flags_high, SKIN_ERROR_INVALID_FLAGS, SKIN_ERROR_INVALID_FLAGS, SKIN_OK},
    {"joint_format 0", m_jformat0, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT},
    {"joint_format 3", m_jformat3, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT},
    {"weight_format 0", m_wformat0, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT},
    {"weight_format 4", m_wformat4, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT, SKIN_ERROR_INVALID_FORMAT},
    {"influence_count 0", m_infl0, SKIN_ERROR_INVALID_INFLUENCES, SKIN_ERROR_INVALID_INFLUENCES, SKIN_ERROR_INVALID_INFLUENCES},
    {"influence_count 9", m_infl9, SKIN_ERROR_INVALID_INFLUENCES, SKIN_ERROR_INVALID_INFLUENCES, SKIN_ERROR_INVALID_INFLUENCES},
    {"joint_count 0", m_jc0, SKIN_ERROR_INVALID_COUNT, SKIN_ERROR_INVALID_COUNT, SKIN_OK},
    {"joint_count 65537", m_jc65537, SKIN_ERROR_INVALID_COUNT, SKIN_ERROR_INVALID_COUNT, SKIN_OK},
    {"normals asked, mesh has none", m_missing_normals, SKIN_ERROR_MISSING_ATTRIBUTE, SKIN_ERROR_MISSING_ATTRIBUTE, SKIN_OK},
    {"tangents asked, mesh has none", m_missing_tangents, SKIN_ERROR_MISSING_ATTRIBUTE, SKIN_ERROR_MISSING_ATTRIBUTE, SKIN_OK},
};

static int outputs_untouched(void)
{
    return all_canary(inter, sizeof inter) && all_canary(planes, sizeof planes) &&
           all_canary(bounds, sizeof bounds);
}

static void sweep_descriptors(void)
{
    for (size_t i = 0; i < sizeof bad_descs / sizeof bad_descs[0]; ++i) {
        const bad_desc *b = &bad_descs[i];
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            mesh_case c = good_case();
            c.method = (skin_method)method;
            b->mutate(&c);
            fill_all();
            skin_status s = skin_mesh(&c.mesh, &c.pal, c.method, &c.out, c.first, c.count);
            if (s != b->status)
                fprintf(stderr, "FAILED: skin_mesh, %s: %s\n", b->what, skin_status_string(s));
            CHECK_STATUS(s, b->status);
            CHECK(outputs_untouched());
            if (b->parallel != SKIN_OK) {
                CHECK_STATUS(skin_mesh_parallel(&c.mesh, &c.pal, c.method, &c.out, 2), b->parallel);
                CHECK(outputs_untouched());
            }
            skin_validation_report r;
            CHECK_STATUS(skin_validate(&c.mesh, c.validate_joints, &r), b->validate);
            CHECK_STATUS(r.status, b->validate);
        }
    }
    /* NULL top-level arguments. */
    mesh_case c = good_case();
    fill_all();
    CHECK_STATUS(skin_mesh(NULL, &c.pal, c.method, &c.out, 0, 1), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_mesh(&c.mesh, NULL, c.method, &c.out, 0, 1), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_mesh(&c.mesh, &c.pal, c.method, NULL, 0, 1), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_mesh_parallel(NULL, &c.pal, c.method, &c.out, 0), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_mesh_parallel(&c.mesh, NULL, c.method, &c.out, 0), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_mesh_parallel(&c.mesh, &c.pal, c.method, NULL, 0), SKIN_ERROR_NULL_ARGUMENT);
    CHECK(outputs_untouched());
    CHECK_STATUS(skin_validate(NULL, J, NULL), SKIN_ERROR_NULL_ARGUMENT);
    /* Zero counts: an empty range and an empty mesh are valid and write no vertex. */
    CHECK_STATUS(skin_mesh(&c.mesh, &c.pal, c.method, &c.out, 3, 0), SKIN_OK);
    CHECK(all_canary(inter, sizeof inter));
    c.mesh.vertex_count = 0;
    CHECK_STATUS(skin_mesh_parallel(&c.mesh, &c.pal, c.method, &c.out, 0), SKIN_OK);
    CHECK(all_canary(inter, sizeof inter));
    CHECK_STATUS(skin_validate(&c.mesh, J, NULL), SKIN_OK);
}

/* ----------------------------------------------------- data defect table */

static float s_pos[N], s_w0[N], s_w1[N];
static uint8_t s_j1[N];
static float s_mats[J * 12], s_dqs[J * 8];

MUT(d_joint_oor, (s_j1[5] = J, c->mesh.joints[1] = s_j1))
MUT(d_joint_255, (s_j1[6] = 255, c->mesh.joints[1] = s_j1))
MUT(d_weight_nan, (s_w1[5] = NAN, c->mesh.weights[1] = s_w1))
MUT(d_weight_inf, (s_w0[6] = INFINITY, c->mesh.weights[0] = s_w0))
MUT(d_weight_neg, (s_w1[7] = -0.5f, s_w0[7] = 1.5f, c->mesh.weights[1] = s_w1, c->mesh.weights[0] = s_w0))
MUT(d_sum_large, (s_w0[8] = 100.0f, c->mesh.weights[0] = s_w0))
MUT(d_sum_zero, (s_w0[9] = 0, s_w1[9] = 0, c->mesh.weights[0] = s_w0, c->mesh.weights[1] = s_w1))
MUT(d_pos_nan, (s_pos[5] = NAN, c->mesh.py = s_pos))
MUT(d_pos_inf, (s_pos[6] = -INFINITY, c->mesh.pz = s_pos))
MUT(d_pos_neg_huge, (s_pos[7] = -3e38f, c->mesh.px = s_pos))
MUT(d_pal_zero, (memset(s_mats, 0, sizeof s_mats), memset(s_dqs, 0, sizeof s_dqs),
                 c->pal.matrices = s_mats, c->pal.dual_quats = s_dqs, c->pal.scales = NULL))
MUT(d_pal_nan, (s_mats[12 + 5] = NAN, s_dqs[8 + 2] = NAN, c->pal.matrices = s_mats,
                c->pal.dual_quats = s_dqs))
MUT(d_pal_inf, (s_mats[0] = INFINITY, s_dqs[7] = -INFINITY, c->pal.matrices = s_mats,
                c->pal.dual_quats = s_dqs))
MUT(d_pal_nonunit_dq, (s_dqs[8 * 2 + 3] = 7.0f, s_dqs[8 * 3 + 0] = 1e30f, c->pal.dual_quats = s_dqs))

typedef struct bad_data {
    const char *what;
    mutate_fn mutate;
    skin_status validate;
    size_t vertex;
    uint32_t slot;
} bad_data;

static const bad_data bad_datas[] = {
    {"joint == joint_count", d_joint_oor, SKIN_ERROR_JOINT_OUT_OF_RANGE, 5, 1},
    {"joint 255", d_joint_255, SKIN_ERROR_JOINT_OUT_OF_RANGE, 6, 1},
    {"NaN weight", d_weight_nan, SKIN_ERROR_INVALID_WEIGHT, 5, 1},
    {"Inf weight", d_weight_inf, SKIN_ERROR_INVALID_WEIGHT, 6, 0},
    {"negative weight", d_weight_neg, SKIN_ERROR_INVALID_WEIGHT, 7, 1},
    {"weight sum 100", d_sum_large, SKIN_ERROR_WEIGHT_SUM, 8, 0},
    {"weight sum 0", d_sum_zero, SKIN_ERROR_WEIGHT_SUM, 9, 0},
    {"NaN position", d_pos_nan, SKIN_ERROR_NON_FINITE, 5, 1},
    {"-Inf position", d_pos_inf, SKIN_ERROR_NON_FINITE, 6, 2},
    {"huge negative position", d_pos_neg_huge, SKIN_OK, 0, 0},
    {"zero palette", d_pal_zero, SKIN_OK, 0, 0},
    {"NaN palette", d_pal_nan, SKIN_OK, 0, 0},
    {"Inf palette", d_pal_inf, SKIN_OK, 0, 0},
    {"non-unit dual quaternions", d_pal_nonunit_dq, SKIN_OK, 0, 0},
};

/* Only the range's elements were written: 40-byte vertices FIRST..FIRST+COUNT. */
static int only_range_written(void)
{
    const size_t vb = 40, lead = 2 * vb + FIRST * vb;
    return all_canary(inter, lead) &&
           all_canary((char *)inter + lead + COUNT * vb, sizeof inter - lead - COUNT * vb) &&
           all_canary(&bounds[0], 4) && all_canary(&bounds[7], 4);
}

static void sweep_data(void)
{
    for (size_t i = 0; i < sizeof bad_datas / sizeof bad_datas[0]; ++i) {
        const bad_data *b = &bad_datas[i];
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            memcpy(s_pos, px, sizeof s_pos);
            memcpy(s_w0, w0, sizeof s_w0), memcpy(s_w1, w1, sizeof s_w1);
            memcpy(s_j1, j1, sizeof s_j1);
            memcpy(s_mats, mats, sizeof s_mats), memcpy(s_dqs, dqs, sizeof s_dqs);
            mesh_case c = good_case();
            c.method = (skin_method)method;
            b->mutate(&c);
            for (uint32_t flags = 0; flags <= SKIN_OUTPUT_ALL_FLAGS; ++flags) {
                c.out.flags = flags;
                fill_all();
                /* Skinning never checks data: accepted, only the range written. */
                CHECK_STATUS(skin_mesh(&c.mesh, &c.pal, c.method, &c.out, c.first, c.count), SKIN_OK);
                if (!only_range_written()) fprintf(stderr, "FAILED: %s wrote outside\n", b->what);
                CHECK(only_range_written());
            }
            skin_validation_report r;
            CHECK_STATUS(skin_validate(&c.mesh, J, &r), b->validate);
            CHECK_INT(r.vertex, b->vertex);
            CHECK_INT(r.slot, b->slot);
        }
    }
}

/* ------------------------------------------------------------ helper table */

static float hw0[N], hw1[N], hw2[N];
static uint8_t hj0[N], hj1[N], hj2[N];
static uint16_t gj16[N * 4];
static uint8_t gj8[N * 4];
static float gw[N * 4];

/* Each entry makes one call whose outputs point into `arena`. */
typedef skin_status (*helper_fn)(void);

#define A (arena + 16)
#define H(name, expr) \
    static skin_status name(void) { return expr; }

static const int32_t parents_ok[J] = {-1, 0, 1, 1}, parents_self[J] = {-1, 1, 1, 1},
                     parents_fwd[J] = {-1, 2, 1, 1}, parents_big[J] = {-1, 0, 1, INT32_MAX};
static float bad_m[12], zero_m[12];
static float *wslots[3] = {hw0, hw1, hw2}, *wnull[3] = {hw0, NULL, hw2};
static void *jslots[3] = {hj0, hj1, hj2};

H(h_pose_null_parents, skin_pose_to_matrices(J, NULL, NULL, NULL, NULL, A))
H(h_pose_null_out, skin_pose_to_matrices(J, parents_ok, NULL, NULL, NULL, NULL))
H(h_pose_zero, skin_pose_to_matrices(0, parents_ok, NULL, NULL, NULL, A))
H(h_pose_self, skin_pose_to_matrices(J, parents_self, NULL, NULL, NULL, A))
H(h_pose_forward, skin_pose_to_matrices(J, parents_fwd, NULL, NULL, NULL, A))
H(h_pose_int_max, skin_pose_to_matrices(J, parents_big, NULL, NULL, NULL, A))
H(h_ib_null, skin_apply_inverse_bind(J, mats, NULL, A))
H(h_ib_null_out, skin_apply_inverse_bind(J, NULL, mats, NULL))
H(h_ib_zero, skin_apply_inverse_bind(0, mats, mats, A))
H(h_m2dq_null_m, skin_matrices_to_dual_quats(J, NULL, A, A + 64, NULL))
H(h_m2dq_null_dq, skin_matrices_to_dual_quats(J, mats, NULL, A, NULL))
H(h_m2dq_zero, skin_matrices_to_dual_quats(0, mats, A, A + 64, NULL))
H(h_dq2m_null_dq, skin_dual_quat_to_matrix(NULL, NULL, A))
H(h_dq2m_null_m, skin_dual_quat_to_matrix(dqs, NULL, NULL))
H(h_norm_null, skin_normalize_weights(N, 2, NULL))
H(h_norm_slot_null, skin_normalize_weights(N, 3, wnull))
H(h_norm_infl0, skin_normalize_weights(N, 0, wslots))
H(h_norm_infl9, skin_normalize_weights(N, 9, wslots))
H(h_q_null, skin_quantize_weights(N, 2, NULL, SKIN_WEIGHT_UNORM16, (void *const *)jslots))
H(h_q_slot_null, skin_quantize_weights(N, 3, (const float *const *)wnull, SKIN_WEIGHT_UNORM8, (void *const *)jslots))
H(h_q_infl0, skin_quantize_weights(N, 0, (const float *const *)wslots, SKIN_WEIGHT_UNORM8, (void *const *)jslots))
H(h_q_infl9, skin_quantize_weights(N, 9, (const float *const *)wslots, SKIN_WEIGHT_UNORM8, (void *const *)jslots))
H(h_q_f32, skin_quantize_weights(N, 2, (const float *const *)wslots, SKIN_WEIGHT_F32, (void *const *)jslots))
H(h_q_fmt4, skin_quantize_weights(N, 2, (const float *const *)wslots, (skin_weight_format)4, (void *const *)jslots))
H(h_4x4_null, skin_matrices_from_4x4(2, NULL, A))
H(h_4x4_null_out, skin_matrices_from_4x4(2, gw, NULL))
H(h_inv_null, skin_matrix_invert(NULL, A))
H(h_inv_null_out, skin_matrix_invert(mats, NULL))
H(h_inv_zero, skin_matrix_invert(zero_m, A))
H(h_inv_nan, skin_matrix_invert(bad_m, A))
H(h_nm_null, skin_normal_matrices(J, NULL, A))
H(h_nm_null_out, skin_normal_matrices(J, mats, NULL))
H(h_rem_null, skin_add_identity_remainder(N, 3, SKIN_JOINT_U8, NULL, wslots, J))
H(h_rem_slot_null, skin_add_identity_remainder(N, 3, SKIN_JOINT_U8, jslots, wnull, J))
H(h_rem_infl1, skin_add_identity_remainder(N, 1, SKIN_JOINT_U8, jslots, wslots, J))
H(h_rem_infl9, skin_add_identity_remainder(N, 9, SKIN_JOINT_U8, jslots, wslots, J))
H(h_rem_fmt0, skin_add_identity_remainder(N, 3, (skin_joint_format)0, jslots, wslots, J))
H(h_rem_fmt3, skin_add_identity_remainder(N, 3, (skin_joint_format)3, jslots, wslots, J))
H(h_rem_u8_256, skin_add_identity_remainder(N, 3, SKIN_JOINT_U8, jslots, wslots, 256))
H(h_rem_u16_65536, skin_add_identity_remainder(N / 2, 3, SKIN_JOINT_U16, jslots, wslots, 65536))
H(h_isa_unknown, skin_set_isa((skin_isa)7))
H(h_isa_negative, skin_set_isa((skin_isa)-1))

/* Deinterleave: out slots in the arena (8 slots of N uint16 joints / N floats). */
static void *dj_out[8], *dw_out[8], *dnull_out[8];
static const void *dj_in[2] = {gj16, gj16}, *dj8_in[2] = {gj8, gj8}, *dw_in[2] = {gw, gw};
static const void *dnull_in[2] = {gj16, NULL}, *dwnull_in[2] = {gw, NULL};
H(h_di_null_j, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, NULL, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_null_out, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, NULL, dw_out))
H(h_di_null_set, skin_deinterleave_influences(N, 2, SKIN_JOINT_U16, dnull_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_null_slot, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dnull_out, dw_out))
H(h_di_null_wout, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, NULL))
H(h_di_null_wset, skin_deinterleave_influences(N, 2, SKIN_JOINT_U16, dj_in, (const float *const *)dwnull_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_null_wslot, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dnull_out))
H(h_di_sets0, skin_deinterleave_influences(N, 0, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_sets3, skin_deinterleave_influences(N, 3, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_size_max, skin_deinterleave_influences(SIZE_MAX, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_in_fmt, skin_deinterleave_influences(N, 1, (skin_joint_format)3, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_out_jfmt, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, (skin_joint_format)0, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_di_out_wfmt, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U16, (skin_weight_format)4, dj_out, dw_out))
H(h_di_u16_to_u8, skin_deinterleave_influences(N, 1, SKIN_JOINT_U16, dj_in, (const float *const *)dw_in, SKIN_JOINT_U8, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_dit_wfmt, skin_deinterleave_influences_typed(N, 1, SKIN_JOINT_U8, dj8_in, (skin_weight_format)0, dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
H(h_dit_null, skin_deinterleave_influences_typed(N, 1, SKIN_JOINT_U8, NULL, SKIN_WEIGHT_F32, dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))
/* Interleaved vertices (40-byte records in gw) and range splits: outputs in the arena. */
static float *dv_out[10], *dv_null[10];
#define SZ ((size_t *)(void *)A)
H(h_dv_null_pos, skin_deinterleave_vertices(N / 4, NULL, 40, gw + 3, 40, gw + 6, 40, dv_out))
H(h_dv_null_soa, skin_deinterleave_vertices(N / 4, gw, 40, gw + 3, 40, gw + 6, 40, NULL))
H(h_dv_null_stream, skin_deinterleave_vertices(N / 4, gw, 40, gw + 3, 40, gw + 6, 40, dv_null))
H(h_dv_stride_p, skin_deinterleave_vertices(N / 4, gw, 8, NULL, 0, NULL, 0, dv_out))
H(h_dv_stride_t, skin_deinterleave_vertices(N / 4, gw, 40, gw + 3, 40, gw + 6, 12, dv_out))
H(h_dv_huge, skin_deinterleave_vertices(SIZE_MAX / 2, gw, 40, NULL, 0, NULL, 0, dv_out))
H(h_split_null, skin_split_range(100, 2, 0, NULL, SZ))
H(h_split_null_count, skin_split_range(100, 2, 0, SZ, NULL))
H(h_split_parts0, skin_split_range(100, 0, 0, SZ, SZ + 1))
H(h_split_index, skin_split_range(100, 2, 2, SZ, SZ + 1))
H(h_dit_size_max, skin_deinterleave_influences_typed(SIZE_MAX / 8, 2, SKIN_JOINT_U8, dj8_in, SKIN_WEIGHT_F32, dw_in, SKIN_JOINT_U16, SKIN_WEIGHT_F32, dj_out, dw_out))

typedef struct helper_case {
    const char *what;
    helper_fn call;
    skin_status status;
} helper_case;

static const helper_case helper_cases[] = {
    {"pose_to_matrices: NULL parents", h_pose_null_parents, SKIN_ERROR_NULL_ARGUMENT},
    {"pose_to_matrices: NULL out", h_pose_null_out, SKIN_ERROR_NULL_ARGUMENT},
    {"pose_to_matrices: joint_count 0", h_pose_zero, SKIN_ERROR_INVALID_COUNT},
    {"pose_to_matrices: own parent", h_pose_self, SKIN_ERROR_INVALID_HIERARCHY},
    {"pose_to_matrices: later parent", h_pose_forward, SKIN_ERROR_INVALID_HIERARCHY},
    {"pose_to_matrices: parent INT32_MAX", h_pose_int_max, SKIN_ERROR_INVALID_HIERARCHY},
    {"apply_inverse_bind: NULL inverse_bind", h_ib_null, SKIN_ERROR_NULL_ARGUMENT},
    {"apply_inverse_bind: NULL model/out", h_ib_null_out, SKIN_ERROR_NULL_ARGUMENT},
    {"apply_inverse_bind: joint_count 0", h_ib_zero, SKIN_ERROR_INVALID_COUNT},
    {"matrices_to_dual_quats: NULL matrices", h_m2dq_null_m, SKIN_ERROR_NULL_ARGUMENT},
    {"matrices_to_dual_quats: NULL dual_quats", h_m2dq_null_dq, SKIN_ERROR_NULL_ARGUMENT},
    {"matrices_to_dual_quats: joint_count 0", h_m2dq_zero, SKIN_ERROR_INVALID_COUNT},
    {"dual_quat_to_matrix: NULL dq", h_dq2m_null_dq, SKIN_ERROR_NULL_ARGUMENT},
    {"dual_quat_to_matrix: NULL matrix", h_dq2m_null_m, SKIN_ERROR_NULL_ARGUMENT},
    {"normalize_weights: NULL", h_norm_null, SKIN_ERROR_NULL_ARGUMENT},
    {"normalize_weights: NULL slot", h_norm_slot_null, SKIN_ERROR_NULL_ARGUMENT},
    {"normalize_weights: influence_count 0", h_norm_infl0, SKIN_ERROR_INVALID_INFLUENCES},
    {"normalize_weights: influence_count 9", h_norm_infl9, SKIN_ERROR_INVALID_INFLUENCES},
    {"quantize_weights: NULL", h_q_null, SKIN_ERROR_NULL_ARGUMENT},
    {"quantize_weights: NULL slot", h_q_slot_null, SKIN_ERROR_NULL_ARGUMENT},
    {"quantize_weights: influence_count 0", h_q_infl0, SKIN_ERROR_INVALID_INFLUENCES},
    {"quantize_weights: influence_count 9", h_q_infl9, SKIN_ERROR_INVALID_INFLUENCES},
    {"quantize_weights: format F32", h_q_f32, SKIN_ERROR_INVALID_FORMAT},
    {"quantize_weights: format 4", h_q_fmt4, SKIN_ERROR_INVALID_FORMAT},
    {"matrices_from_4x4: NULL in", h_4x4_null, SKIN_ERROR_NULL_ARGUMENT},
    {"matrices_from_4x4: NULL out", h_4x4_null_out, SKIN_ERROR_NULL_ARGUMENT},
    {"matrix_invert: NULL m", h_inv_null, SKIN_ERROR_NULL_ARGUMENT},
    {"matrix_invert: NULL out", h_inv_null_out, SKIN_ERROR_NULL_ARGUMENT},
    {"matrix_invert: zero matrix", h_inv_zero, SKIN_ERROR_NON_FINITE},
    {"matrix_invert: NaN matrix", h_inv_nan, SKIN_ERROR_NON_FINITE},
    {"normal_matrices: NULL palette", h_nm_null, SKIN_ERROR_NULL_ARGUMENT},
    {"normal_matrices: NULL out", h_nm_null_out, SKIN_ERROR_NULL_ARGUMENT},
    {"add_identity_remainder: NULL joints", h_rem_null, SKIN_ERROR_NULL_ARGUMENT},
    {"add_identity_remainder: NULL slot", h_rem_slot_null, SKIN_ERROR_NULL_ARGUMENT},
    {"add_identity_remainder: influence_count 1", h_rem_infl1, SKIN_ERROR_INVALID_INFLUENCES},
    {"add_identity_remainder: influence_count 9", h_rem_infl9, SKIN_ERROR_INVALID_INFLUENCES},
    {"add_identity_remainder: joint_format 0", h_rem_fmt0, SKIN_ERROR_INVALID_FORMAT},
    {"add_identity_remainder: joint_format 3", h_rem_fmt3, SKIN_ERROR_INVALID_FORMAT},
    {"add_identity_remainder: joint 256 as u8", h_rem_u8_256, SKIN_ERROR_INVALID_FORMAT},
    {"add_identity_remainder: joint 65536 as u16", h_rem_u16_65536, SKIN_ERROR_INVALID_FORMAT},
    {"deinterleave: NULL joint_sets", h_di_null_j, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: NULL joints_out", h_di_null_out, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: NULL second set", h_di_null_set, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: NULL output slot", h_di_null_slot, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: NULL weight outputs", h_di_null_wout, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: NULL weight set", h_di_null_wset, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: NULL weight output slot", h_di_null_wslot, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave: set_count 0", h_di_sets0, SKIN_ERROR_INVALID_INFLUENCES},
    {"deinterleave: set_count 3", h_di_sets3, SKIN_ERROR_INVALID_INFLUENCES},
    {"deinterleave: vertex_count SIZE_MAX", h_di_size_max, SKIN_ERROR_INVALID_COUNT},
    {"deinterleave: in joint format 3", h_di_in_fmt, SKIN_ERROR_INVALID_FORMAT},
    {"deinterleave: out joint format 0", h_di_out_jfmt, SKIN_ERROR_INVALID_FORMAT},
    {"deinterleave: out weight format 4", h_di_out_wfmt, SKIN_ERROR_INVALID_FORMAT},
    {"deinterleave: u16 joint 300 to u8", h_di_u16_to_u8, SKIN_ERROR_INVALID_FORMAT},
    {"deinterleave_typed: in weight format 0", h_dit_wfmt, SKIN_ERROR_INVALID_FORMAT},
    {"deinterleave_typed: NULL joint_sets", h_dit_null, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave_typed: vertex_count SIZE_MAX / 8", h_dit_size_max, SKIN_ERROR_INVALID_COUNT},
    {"deinterleave_vertices: NULL position", h_dv_null_pos, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave_vertices: NULL soa", h_dv_null_soa, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave_vertices: NULL tangent stream", h_dv_null_stream, SKIN_ERROR_NULL_ARGUMENT},
    {"deinterleave_vertices: position stride 8", h_dv_stride_p, SKIN_ERROR_INVALID_STRIDE},
    {"deinterleave_vertices: tangent stride 12", h_dv_stride_t, SKIN_ERROR_INVALID_STRIDE},
    {"deinterleave_vertices: vertex_count SIZE_MAX / 2", h_dv_huge, SKIN_ERROR_INVALID_COUNT},
    {"split_range: NULL first", h_split_null, SKIN_ERROR_NULL_ARGUMENT},
    {"split_range: NULL count", h_split_null_count, SKIN_ERROR_NULL_ARGUMENT},
    {"split_range: parts 0", h_split_parts0, SKIN_ERROR_INVALID_RANGE},
    {"split_range: index == parts", h_split_index, SKIN_ERROR_INVALID_RANGE},
    {"set_isa: 6", h_isa_unknown, SKIN_ERROR_UNSUPPORTED},
    {"set_isa: -1", h_isa_negative, SKIN_ERROR_UNSUPPORTED},
};

static void helper_setup(void)
{
    for (int v = 0; v < N; ++v) {
        hw0[v] = 0.5f, hw1[v] = 0.25f, hw2[v] = 0.25f;
        hj0[v] = 0, hj1[v] = 1, hj2[v] = 2;
    }
    for (int k = 0; k < N * 4; ++k) gj16[k] = (uint16_t)(k % 4), gj8[k] = (uint8_t)(k % 4), gw[k] = 0.25f;
    gj16[9] = 300;
    for (int k = 0; k < 12; ++k) bad_m[k] = identity12[k];
    bad_m[5] = NAN;
    for (int s = 0; s < 8; ++s) {
        dj_out[s] = A + 2 * N * s;
        dw_out[s] = A + 2 * N * s + N;
        dnull_out[s] = s == 2 ? NULL : dj_out[s];
    }
    for (int c = 0; c < 10; ++c) dv_out[c] = dv_null[c] = A + N / 4 * c;
    dv_null[8] = NULL;
}

static void sweep_helpers(void)
{
    helper_setup();
    float w_copy[3][N];
    uint8_t j_copy[3][N];
    for (size_t i = 0; i < sizeof helper_cases / sizeof helper_cases[0]; ++i) {
        const helper_case *h = &helper_cases[i];
        const skin_isa isa = skin_get_isa();
        fill_all();
        memcpy(w_copy[0], hw0, sizeof hw0), memcpy(w_copy[1], hw1, sizeof hw1), memcpy(w_copy[2], hw2, sizeof hw2);
        memcpy(j_copy[0], hj0, N), memcpy(j_copy[1], hj1, N), memcpy(j_copy[2], hj2, N);
        skin_status s = h->call();
        if (s != h->status) fprintf(stderr, "FAILED: %s: %s\n", h->what, skin_status_string(s));
        CHECK_STATUS(s, h->status);
        CHECK(all_canary(arena, sizeof arena));
        /* In-place helpers leave their data as it was. */
        CHECK(memcmp(w_copy[0], hw0, sizeof hw0) == 0 && memcmp(w_copy[1], hw1, sizeof hw1) == 0 &&
              memcmp(w_copy[2], hw2, sizeof hw2) == 0);
        CHECK(memcmp(j_copy[0], hj0, N) == 0 && memcmp(j_copy[1], hj1, N) == 0 &&
              memcmp(j_copy[2], hj2, N) == 0);
        CHECK(skin_get_isa() == isa);
    }

    /* Helpers without a status: NULL writes nothing. */
    fill_all();
    CHECK_INT(skin_matrix_to_dual_quat(NULL, A, A + 8), SKIN_NONRIGID_DEGENERATE);
    CHECK_INT(skin_matrix_to_dual_quat(mats, NULL, A), SKIN_NONRIGID_DEGENERATE);
    skin_matrix_multiply(NULL, mats, A);
    skin_matrix_multiply(mats, NULL, A);
    skin_matrix_multiply(mats, mats, NULL);
    CHECK(all_canary(arena, sizeof arena));
    CHECK(skin_status_string((skin_status)12345) != NULL);
    CHECK(skin_status_string((skin_status)INT_MIN) != NULL);
    CHECK(strcmp(skin_isa_name((skin_isa)99), "unknown") == 0);
    CHECK(skin_version() == SKIN_VERSION && skin_version_string() != NULL);
    CHECK(skin_has_threads() == 0 || skin_has_threads() == 1);
}

/* Non-rigid and non-finite matrices given to the DQ conversion. */
static void sweep_nonrigid(void)
{
    struct {
        const char *what;
        float m[12];
        uint32_t flags; /* bits that must be set */
    } cases[] = {
        {"uniform scale 2", {2, 0, 0, 1, 0, 2, 0, 2, 0, 0, 2, 3}, SKIN_NONRIGID_SCALE},
        {"non-uniform scale", {1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0}, SKIN_NONRIGID_SCALE | SKIN_NONRIGID_NONUNIFORM},
        {"shear", {1, 0.5f, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, SKIN_NONRIGID_SHEAR},
        {"mirror", {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, SKIN_NONRIGID_MIRROR},
        {"zero matrix", {0}, SKIN_NONRIGID_DEGENERATE},
        {"zero column", {0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0}, SKIN_NONRIGID_DEGENERATE},
        {"zero third column", {1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0}, SKIN_NONRIGID_DEGENERATE},
        {"NaN", {NAN, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, SKIN_NONRIGID_DEGENERATE},
        {"Inf translation", {1, 0, 0, INFINITY, 0, 1, 0, 0, 0, 0, 1, 0}, SKIN_NONRIGID_DEGENERATE},
    };
    static const float idq[8] = {0, 0, 0, 1, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        float dq[8], sc[3];
        uint32_t f = skin_matrix_to_dual_quat(cases[i].m, dq, sc);
        if ((f & cases[i].flags) != cases[i].flags) fprintf(stderr, "FAILED: %s: flags %u\n", cases[i].what, f);
        CHECK((f & cases[i].flags) == cases[i].flags);
        int finite = 1;
        for (int k = 0; k < 8; ++k) finite &= isfinite(dq[k]) != 0;
        CHECK(finite); /* never a NaN dual quaternion */
        if (!isfinite(cases[i].m[0]) || !isfinite(cases[i].m[3]))
            CHECK(f == SKIN_NONRIGID_DEGENERATE && memcmp(dq, idq, sizeof idq) == 0 && sc[0] == 1 && sc[1] == 1 &&
                  sc[2] == 1);
        /* Palette form: counted as not representable unless scales take it. */
        uint32_t n = 99;
        CHECK_STATUS(skin_matrices_to_dual_quats(1, cases[i].m, dq, NULL, &n), SKIN_OK);
        CHECK_INT(n, 1);
    }
}

int main(void)
{
    setup();
    static const skin_isa isas[] = {SKIN_ISA_SCALAR, SKIN_ISA_SSE2, SKIN_ISA_AVX2, SKIN_ISA_AVX512,
                                    SKIN_ISA_NEON,
                                    SKIN_ISA_SIMD128};
    for (size_t k = 0; k < sizeof isas / sizeof isas[0]; ++k) {
        if (!skin_isa_supported(isas[k])) continue;
        CHECK_STATUS(skin_set_isa(isas[k]), SKIN_OK);
        sweep_descriptors();
        sweep_data();
    }
    CHECK_STATUS(skin_set_isa(SKIN_ISA_AUTO), SKIN_OK);
    sweep_helpers();
    sweep_nonrigid();
    return check_finish("test_bad_input_sweep");
}
