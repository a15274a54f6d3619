/* SPDX-License-Identifier: MIT */
/* Regressions for the defects of issue 10: wide output strides, outputs
 * untouched when a helper fails, NULL and non-finite input to the
 * status-less palette helpers. */
#include "check.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { N = 37, JOINTS = 3 };
#define CANARY 0x5A

static float px[N], py[N], pz[N], nx[N], ny[N], nz[N], tx[N], ty[N], tz[N], tw[N];
static uint8_t j0[N], j1[N];
static float w0[N], w1[N];
static float mats[JOINTS * 12];

static int untouched(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != CANARY) return 0;
    return 1;
}

/* Strides over 128 bytes are legitimate (a 132-byte vertex): the output
 * equals the tightly packed one, and the bytes between elements stay
 * untouched. */
static void wide_strides(void)
{
    for (int v = 0; v < N; ++v) {
        px[v] = (float)v, py[v] = 0.5f * v, pz[v] = -1;
        nx[v] = 0, ny[v] = 1, nz[v] = 0;
        tx[v] = 1, ty[v] = 0, tz[v] = 0, tw[v] = v & 1 ? -1.0f : 1.0f;
        j0[v] = (uint8_t)(v % JOINTS), j1[v] = (uint8_t)((v + 1) % JOINTS);
        w0[v] = 0.6f, w1[v] = 0.4f;
    }
    for (int j = 0; j < JOINTS; ++j) {
        const float m[12] = {1, 0, 0, (float)j, 0, 0, -1, 1, 0, 1, 0, 2};
        memcpy(mats + 12 * j, m, sizeof m);
    }
    const skin_mesh_desc mesh = {N, px, py, pz, nx, ny, nz, tx, ty, tz, tw, 2,
                                 SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j0, j1}, {w0, w1}, 0, NULL};
    const skin_palette pal = {JOINTS, mats, NULL, NULL, NULL, NULL};
    static float tight[N * 10];
    skin_output ref = {0};
    ref.position = tight, ref.position_stride = 40;
    ref.normal = tight + 3, ref.normal_stride = 40;
    ref.tangent = tight + 6, ref.tangent_stride = 40;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &ref, 0, N), SKIN_OK);

    static const size_t strides[] = {132, 256, 4096};
    static unsigned char buf[N * 4096 + 64];
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; ++s) {
        const size_t st = strides[s];
        memset(buf, CANARY, sizeof buf);
        float *base = (float *)(void *)buf;
        skin_output o = {0};
        o.position = base, o.position_stride = st;
        o.normal = base + 3, o.normal_stride = st;
        o.tangent = base + 6, o.tangent_stride = st;
        CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &o, 0, N), SKIN_OK);
        CHECK_STATUS(skin_mesh_parallel(&mesh, &pal, SKIN_LBS, &o, 2), SKIN_OK);
        int same = 1, gaps = 1;
        for (int v = 0; v < N; ++v) {
            same &= memcmp(buf + v * st, tight + 10 * v, 40) == 0;
            gaps &= untouched(buf + v * st + 40, st - 40);
        }
        CHECK(same);
        CHECK(gaps);
    }
    /* The limit is stride * vertex_count <= PTRDIFF_MAX. */
    skin_output o = ref;
    o.position_stride = (size_t)PTRDIFF_MAX / N + 4;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &o, 0, 1), SKIN_ERROR_INVALID_STRIDE);
    skin_mesh_desc one = mesh;
    one.vertex_count = 1;
    o.position_stride = (size_t)PTRDIFF_MAX / 2 + 1; /* fine for a single vertex */
    CHECK_STATUS(skin_mesh(&one, &pal, SKIN_LBS, &o, 0, 0), SKIN_OK);
}

/* skin_deinterleave_influences checks every joint before writing anything. */
static void deinterleave_untouched(void)
{
    enum { V = 5 };
    uint16_t joints[4 * V];
    float weights[4 * V];
    for (int i = 0; i < 4 * V; ++i) joints[i] = (uint16_t)(i % 7), weights[i] = 0.25f;
    joints[4 * 3 + 2] = 300; /* does not fit u8, at vertex 3 */
    uint8_t jo[4][V];
    float wo[4][V];
    memset(jo, CANARY, sizeof jo);
    memset(wo, CANARY, sizeof wo);
    const void *js[1] = {joints};
    const float *ws[1] = {weights};
    void *jout[4] = {jo[0], jo[1], jo[2], jo[3]};
    void *wout[4] = {wo[0], wo[1], wo[2], wo[3]};
    CHECK_STATUS(skin_deinterleave_influences(V, 1, SKIN_JOINT_U16, js, ws, SKIN_JOINT_U8,
                                              SKIN_WEIGHT_F32, jout, wout),
                 SKIN_ERROR_INVALID_FORMAT);
    CHECK(untouched(jo, sizeof jo));
    CHECK(untouched(wo, sizeof wo));
    joints[4 * 3 + 2] = 200;
    CHECK_STATUS(skin_deinterleave_influences(V, 1, SKIN_JOINT_U16, js, ws, SKIN_JOINT_U8,
                                              SKIN_WEIGHT_F32, jout, wout),
                 SKIN_OK);
    CHECK_INT(jo[2][3], 200);
}

/* NULL never crashes the helpers without a skin_status return value. */
static void helper_nulls(void)
{
    const float m[12] = {1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3};
    const float dq[8] = {0, 0, 0, 1, 0, 0, 0, 0};
    float out[12], q[8], s[3];
    memset(out, CANARY, sizeof out);
    memset(q, CANARY, sizeof q);
    memset(s, CANARY, sizeof s);
    CHECK_INT(skin_matrix_to_dual_quat(NULL, q, s), SKIN_NONRIGID_DEGENERATE);
    CHECK_INT(skin_matrix_to_dual_quat(m, NULL, s), SKIN_NONRIGID_DEGENERATE);
    CHECK(untouched(q, sizeof q) && untouched(s, sizeof s));
    CHECK_STATUS(skin_dual_quat_to_matrix(NULL, NULL, out), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_dual_quat_to_matrix(dq, NULL, NULL), SKIN_ERROR_NULL_ARGUMENT);
    CHECK(untouched(out, sizeof out));
    CHECK_STATUS(skin_dual_quat_to_matrix(dq, NULL, out), SKIN_OK);
    CHECK(out[0] == 1.0f && out[5] == 1.0f && out[10] == 1.0f && out[3] == 0.0f);
}

/* Non-finite matrices are reported as degenerate, never as rigid. */
static void nonfinite_matrices(void)
{
    const float rigid[12] = {1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3};
    float dq[8], s[3];
    CHECK_INT(skin_matrix_to_dual_quat(rigid, dq, s), 0);
    for (int i = 0; i < 12; ++i) {
        for (int k = 0; k < 3; ++k) {
            const float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
            float m[12];
            memcpy(m, rigid, sizeof m);
            m[i] = bad;
            uint32_t f = skin_matrix_to_dual_quat(m, dq, s);
            CHECK(f & SKIN_NONRIGID_DEGENERATE);
        }
    }
    float all_nan[24];
    for (int i = 0; i < 24; ++i) all_nan[i] = NAN;
    CHECK(skin_matrix_to_dual_quat(all_nan, dq, NULL) & SKIN_NONRIGID_DEGENERATE);
    float dqs[16], sc[6];
    uint32_t nonrigid = 99;
    CHECK_STATUS(skin_matrices_to_dual_quats(2, all_nan, dqs, sc, &nonrigid), SKIN_OK);
    CHECK_INT(nonrigid, 2);
    /* A huge but finite matrix is not degenerate. */
    float big[12];
    memcpy(big, rigid, sizeof big);
    big[3] = 3e38f;
    CHECK(!(skin_matrix_to_dual_quat(big, dq, s) & SKIN_NONRIGID_DEGENERATE));
}

int main(void)
{
    wide_strides();
    deinterleave_untouched();
    helper_nulls();
    nonfinite_matrices();
    return check_finish("test_defects");
}
