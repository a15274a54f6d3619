/* SPDX-License-Identifier: MIT */
/* skin_validate: each data problem is reported with the right status, the
 * first offending vertex and the slot (influence slot, or attribute index
 * 0..9 = px..tw for non-finite data); valid rigs are accepted; descriptor
 * errors get skin_mesh's statuses. */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { N = 10, K = 3, JOINTS = 5 };

typedef struct fixture {
    float s[10][N];
    uint8_t j8[K][N];
    uint16_t j16[K][N];
    float wf[K][N];
    uint16_t w16[K][N];
    uint8_t w8[K][N];
    skin_mesh_desc mesh;
} fixture;

/* A valid mesh: weights (0.5, 0.3, 0.2) / unorm16 (32768, 19660, 13107) /
 * unorm8 (128, 76, 51), joints (v, v+1, v+2) mod JOINTS. */
static void fixture_init(fixture *f, skin_joint_format jf, skin_weight_format wf)
{
    memset(f, 0, sizeof *f);
    for (int v = 0; v < N; ++v) {
        for (int c = 0; c < 10; ++c) f->s[c][v] = (float)(c + v) * 0.1f;
        static const float w[K] = {0.5f, 0.3f, 0.2f};
        static const uint16_t u16[K] = {32768, 19660, 13107};
        static const uint8_t u8[K] = {128, 76, 51};
        for (int i = 0; i < K; ++i) {
            f->j8[i][v] = (uint8_t)((v + i) % JOINTS);
            f->j16[i][v] = (uint16_t)((v + i) % JOINTS);
            f->wf[i][v] = w[i], f->w16[i][v] = u16[i], f->w8[i][v] = u8[i];
        }
    }
    skin_mesh_desc *m = &f->mesh;
    m->vertex_count = N;
    m->px = f->s[0], m->py = f->s[1], m->pz = f->s[2];
    m->nx = f->s[3], m->ny = f->s[4], m->nz = f->s[5];
    m->tx = f->s[6], m->ty = f->s[7], m->tz = f->s[8], m->tw = f->s[9];
    m->influence_count = K;
    m->joint_format = jf;
    m->weight_format = wf;
    for (int i = 0; i < K; ++i) {
        m->joints[i] = jf == SKIN_JOINT_U8 ? (const void *)f->j8[i] : (const void *)f->j16[i];
        m->weights[i] = wf == SKIN_WEIGHT_F32       ? (const void *)f->wf[i]
                        : wf == SKIN_WEIGHT_UNORM16 ? (const void *)f->w16[i]
                                                    : (const void *)f->w8[i];
    }
}

static void expect_report(const char *what, const skin_mesh_desc *m, uint32_t joint_count,
                          skin_status status, size_t vertex, uint32_t slot)
{
    skin_validation_report r;
    memset(&r, 0xCC, sizeof r);
    skin_status s = skin_validate(m, joint_count, &r);
    skin_status s_null = skin_validate(m, joint_count, NULL); /* report may be NULL */
    if (s == status && r.status == status && r.vertex == vertex && r.slot == slot &&
        s_null == status) {
        ++check_passed_count;
        return;
    }
    ++check_failed_count;
    fprintf(stderr,
            "FAILED: %s: returned %d (%s), report {%d, vertex %zu, slot %u}, without report %d; "
            "expected %d (%s) at vertex %zu slot %u\n",
            what, (int)s, skin_status_string(s), (int)r.status, r.vertex, (unsigned)r.slot,
            (int)s_null, (int)status, skin_status_string(status), vertex, (unsigned)slot);
}

static void valid_meshes(void)
{
    static const skin_joint_format jfs[2] = {SKIN_JOINT_U8, SKIN_JOINT_U16};
    static const skin_weight_format wfs[3] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16,
                                              SKIN_WEIGHT_UNORM8};
    fixture f;
    for (int j = 0; j < 2; ++j)
        for (int w = 0; w < 3; ++w) {
            fixture_init(&f, jfs[j], wfs[w]);
            expect_report("valid fixture", &f.mesh, JOINTS, SKIN_OK, 0, 0);
            /* without normals and tangents */
            f.mesh.nx = f.mesh.ny = f.mesh.nz = NULL;
            f.mesh.tx = f.mesh.ty = f.mesh.tz = f.mesh.tw = NULL;
            expect_report("valid fixture, positions only", &f.mesh, JOINTS, SKIN_OK, 0, 0);
        }
    /* Seeded random rigs in every format, 1..8 influences. */
    for (uint32_t k = 1; k <= 8; ++k)
        for (int j = 0; j < 2; ++j)
            for (int w = 0; w < 3; ++w) {
                rig r;
                rig_options o = {257, 40, k, jfs[j], wfs[w], 0, 50 * k + 3 * (uint64_t)j + w};
                if (rig_random(&r, &o)) {
                    CHECK(!"out of memory");
                    continue;
                }
                expect_report("random rig", &r.mesh, 40, SKIN_OK, 0, 0);
                rig_free(&r);
            }
    /* An empty mesh is valid. */
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    f.mesh.vertex_count = 0;
    expect_report("empty mesh", &f.mesh, JOINTS, SKIN_OK, 0, 0);
}

static void joint_problems(void)
{
    fixture f;
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    f.j8[1][6] = JOINTS; /* == joint_count: out of range */
    expect_report("u8 joint == joint_count", &f.mesh, JOINTS, SKIN_ERROR_JOINT_OUT_OF_RANGE, 6, 1);
    f.j8[1][6] = JOINTS - 1;
    expect_report("u8 joint == joint_count - 1", &f.mesh, JOINTS, SKIN_OK, 0, 0);
    f.j8[2][3] = 255;
    f.j8[0][8] = 200; /* later vertex: the first offender is reported */
    expect_report("u8 joint 255, first of two", &f.mesh, JOINTS, SKIN_ERROR_JOINT_OUT_OF_RANGE, 3,
                  2);
    expect_report("u8 joint 255 with joint_count 256", &f.mesh, 256, SKIN_OK, 0, 0);

    fixture_init(&f, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16);
    f.j16[0][9] = 65535;
    expect_report("u16 joint 65535", &f.mesh, JOINTS, SKIN_ERROR_JOINT_OUT_OF_RANGE, 9, 0);
    expect_report("u16 joint 65535, joint_count 65536", &f.mesh, 65536, SKIN_OK, 0, 0);
    CHECK_STATUS(skin_validate(&f.mesh, 0, NULL), SKIN_ERROR_INVALID_COUNT);
}

static void weight_problems(void)
{
    fixture f;
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    f.wf[0][3] = -0.5f, f.wf[1][3] = 1.2f, f.wf[2][3] = 0.3f; /* sums to 1 */
    expect_report("negative weight", &f.mesh, JOINTS, SKIN_ERROR_INVALID_WEIGHT, 3, 0);
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    f.wf[2][5] = -0.0f, f.wf[1][5] = 0.5f; /* -0 is not negative */
    expect_report("weight -0", &f.mesh, JOINTS, SKIN_OK, 0, 0);
    f.wf[2][7] = NAN;
    expect_report("NaN weight", &f.mesh, JOINTS, SKIN_ERROR_INVALID_WEIGHT, 7, 2);
    f.wf[2][7] = 0.2f;
    f.wf[1][4] = INFINITY;
    expect_report("infinite weight", &f.mesh, JOINTS, SKIN_ERROR_INVALID_WEIGHT, 4, 1);
    f.wf[1][4] = 0.3f;
    /* A vertex slot by slot, each joint before its weight. */
    f.wf[0][6] = NAN, f.j8[1][6] = JOINTS;
    expect_report("NaN weight in slot 0, bad joint in slot 1", &f.mesh, JOINTS, SKIN_ERROR_INVALID_WEIGHT, 6, 0);
    f.wf[0][6] = 0.4f, f.wf[1][6] = NAN;
    expect_report("bad joint and NaN weight in slot 1", &f.mesh, JOINTS, SKIN_ERROR_JOINT_OUT_OF_RANGE, 6, 1);
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);

    /* Sums: off by 2e-3 fails, off by 5e-4 passes (tolerance 1e-3). */
    f.wf[0][2] = 0.502f;
    expect_report("f32 sum 1.002", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 2, 0);
    f.wf[0][2] = 0.498f;
    expect_report("f32 sum 0.998", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 2, 0);
    f.wf[0][2] = 0.5005f;
    expect_report("f32 sum 1.0005", &f.mesh, JOINTS, SKIN_OK, 0, 0);
    f.wf[0][2] = 0.4995f;
    expect_report("f32 sum 0.9995", &f.mesh, JOINTS, SKIN_OK, 0, 0);
    f.wf[0][9] = 0, f.wf[1][9] = 0, f.wf[2][9] = 0;
    expect_report("f32 all zero", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 9, 0);

    /* unorm sums must be exact. */
    fixture_init(&f, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16);
    f.w16[2][1] = 13106;
    expect_report("unorm16 sum 65534", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 1, 0);
    f.w16[2][1] = 13108;
    expect_report("unorm16 sum 65536", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 1, 0);
    f.w16[2][1] = 13107;
    f.w16[0][4] = 65535, f.w16[1][4] = 65535, f.w16[2][4] = 65535;
    expect_report("unorm16 sum 3 * 65535", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 4, 0);
    f.w16[0][4] = 65535, f.w16[1][4] = 0, f.w16[2][4] = 0;
    expect_report("unorm16 one-hot 65535", &f.mesh, JOINTS, SKIN_OK, 0, 0);

    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_UNORM8);
    f.w8[0][8] = 127;
    expect_report("unorm8 sum 254", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 8, 0);
    f.w8[0][8] = 129;
    expect_report("unorm8 sum 256", &f.mesh, JOINTS, SKIN_ERROR_WEIGHT_SUM, 8, 0);
    f.w8[0][8] = 0, f.w8[1][8] = 0, f.w8[2][8] = 255;
    expect_report("unorm8 one-hot 255", &f.mesh, JOINTS, SKIN_OK, 0, 0);
}

static void attribute_problems(void)
{
    fixture f;
    for (uint32_t c = 0; c < 10; ++c) {
        fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
        size_t v = (c * 3) % N;
        f.s[c][v] = (c & 1) ? NAN : (c & 2) ? INFINITY : -INFINITY;
        char what[64];
        snprintf(what, sizeof what, "non-finite attribute %u at vertex %zu", (unsigned)c, v);
        expect_report(what, &f.mesh, JOINTS, SKIN_ERROR_NON_FINITE, v, c);
    }
    /* Non-finite data is found before a weight problem in the same vertex,
     * and an earlier vertex wins over a later one. */
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    f.wf[0][5] = -1;
    f.s[7][5] = NAN;
    f.j8[0][6] = 99;
    expect_report("NaN ty and negative weight in vertex 5", &f.mesh, JOINTS, SKIN_ERROR_NON_FINITE,
                  5, 7);
    f.s[7][5] = 0;
    expect_report("negative weight in 5, bad joint in 6", &f.mesh, JOINTS,
                  SKIN_ERROR_INVALID_WEIGHT, 5, 0);
    /* A non-finite value in a stream the mesh does not declare is ignored:
     * with normals removed, the NaN normal is not data. */
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    f.s[4][2] = NAN;
    f.mesh.nx = f.mesh.ny = f.mesh.nz = NULL;
    expect_report("NaN in an undeclared stream", &f.mesh, JOINTS, SKIN_OK, 0, 0);
}

static void descriptor_problems(void)
{
    fixture f;
    fixture_init(&f, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    skin_mesh_desc m = f.mesh;
    CHECK_STATUS(skin_validate(NULL, JOINTS, NULL), SKIN_ERROR_NULL_ARGUMENT);
    m.influence_count = 0;
    expect_report("influence_count 0", &m, JOINTS, SKIN_ERROR_INVALID_INFLUENCES, 0, 0);
    m = f.mesh, m.influence_count = 9;
    expect_report("influence_count 9", &m, JOINTS, SKIN_ERROR_INVALID_INFLUENCES, 0, 0);
    m = f.mesh, m.joint_format = (skin_joint_format)7;
    expect_report("joint format 7", &m, JOINTS, SKIN_ERROR_INVALID_FORMAT, 0, 0);
    m = f.mesh, m.weight_format = (skin_weight_format)0;
    expect_report("weight format 0", &m, JOINTS, SKIN_ERROR_INVALID_FORMAT, 0, 0);
    m = f.mesh, m.px = NULL;
    expect_report("NULL px", &m, JOINTS, SKIN_ERROR_NULL_ARGUMENT, 0, 0);
    m = f.mesh, m.weights[2] = NULL;
    expect_report("NULL weights[2]", &m, JOINTS, SKIN_ERROR_NULL_ARGUMENT, 0, 0);
    m = f.mesh, m.vertex_count = SIZE_MAX;
    expect_report("vertex_count SIZE_MAX", &m, JOINTS, SKIN_ERROR_INVALID_COUNT, 0, 0);
    expect_report("joint_count 0", &f.mesh, 0, SKIN_ERROR_INVALID_COUNT, 0, 0);
    /* Partial normal / tangent sets: the attribute index of the set. */
    m = f.mesh, m.nz = NULL;
    expect_report("nx, ny without nz", &m, JOINTS, SKIN_ERROR_NULL_ARGUMENT, 0, 3);
    m = f.mesh, m.tw = NULL;
    expect_report("tx, ty, tz without tw", &m, JOINTS, SKIN_ERROR_NULL_ARGUMENT, 0, 6);
    m = f.mesh, m.nx = NULL;
    expect_report("ny, nz without nx", &m, JOINTS, SKIN_ERROR_NULL_ARGUMENT, 0, 3);
    m = f.mesh, m.tx = NULL;
    expect_report("ty, tz, tw without tx", &m, JOINTS, SKIN_ERROR_NULL_ARGUMENT, 0, 6);
}

int main(void)
{
    valid_meshes();
    joint_problems();
    weight_problems();
    attribute_problems();
    descriptor_problems();
    return check_finish("test_validate");
}
