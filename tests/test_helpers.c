/* SPDX-License-Identifier: MIT */
/* Golden tests of the glTF and engine helpers in skin.h: values worked out
 * by hand, plus their error statuses.
 *  - skin_matrices_from_4x4: column-major 4x4 to row-major 3x4;
 *  - skin_matrix_multiply / skin_matrix_invert (incl. aliasing, singular);
 *  - skin_normal_matrices: inverse-transpose under non-uniform scale;
 *  - skin_quantize_weights: planar unorm16/unorm8 with exact integer sums;
 *  - skin_deinterleave_influences_typed: unorm8/unorm16 WEIGHTS_n input;
 *  - skin_add_identity_remainder: unweighted vertices stay in place;
 *  - skin_deinterleave_vertices: strided records to planar streams. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_4x4(void)
{
    /* glTF stores columns: translation (1,2,3) is elements 12..14 */
    const float cm[32] = {1, 5, 9, 0, 2, 6, 10, 0, 3, 7, 11, 0, 4, 8, 12, 1,
                          1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -2, -3, 1};
    const float want[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 0, 0, -1, 0, 1, 0, -2, 0, 0, 1, -3};
    float out[24];
    CHECK_STATUS(skin_matrices_from_4x4(2, cm, out), SKIN_OK);
    for (int i = 0; i < 24; ++i) CHECK_CLOSE_AT(out[i], want[i], 0, "4x4 element %d", i);
    CHECK_STATUS(skin_matrices_from_4x4(0, cm, out), SKIN_OK);
    CHECK_STATUS(skin_matrices_from_4x4(1, NULL, out), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_matrices_from_4x4(1, cm, NULL), SKIN_ERROR_NULL_ARGUMENT);
    check_error_report("skin_matrices_from_4x4");
}

static void test_multiply_invert(void)
{
    /* a: rotate 90 degrees about z, translate (1,0,0); b: scale (2,3,4), translate (0,1,0) */
    const float a[12] = {0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0};
    const float b[12] = {2, 0, 0, 0, 0, 3, 0, 1, 0, 0, 4, 0};
    /* a x b: rows of a times b; translation a.R (0,1,0) + (1,0,0) = (0,0,0) */
    const float ab[12] = {0, -3, 0, 0, 2, 0, 0, 0, 0, 0, 4, 0};
    float out[12], inv[12], id[12];
    skin_matrix_multiply(a, b, out);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(out[i], ab[i], 0, "a x b element %d", i);
    float alias[12];
    memcpy(alias, a, sizeof alias);
    skin_matrix_multiply(alias, b, alias);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(alias[i], ab[i], 0, "aliased a x b element %d", i);
    /* inverse of b: scale (1/2,1/3,1/4), translate (0,-1/3,0) */
    const float binv[12] = {0.5f, 0, 0, 0, 0, 1.0f / 3, 0, -1.0f / 3, 0, 0, 0.25f, 0};
    CHECK_STATUS(skin_matrix_invert(b, inv), SKIN_OK);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(inv[i], binv[i], 1e-7, "inverse element %d", i);
    CHECK_STATUS(skin_matrix_invert(ab, inv), SKIN_OK);
    skin_matrix_multiply(ab, inv, id);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(id[i], (i % 5) == 0 ? 1 : 0, 1e-6, "m x inverse element %d", i);
    memcpy(alias, b, sizeof alias);
    CHECK_STATUS(skin_matrix_invert(alias, alias), SKIN_OK);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(alias[i], binv[i], 1e-7, "aliased inverse element %d", i);
    const float singular[12] = {1, 2, 3, 0, 2, 4, 6, 0, 0, 0, 1, 0};
    memcpy(out, ab, sizeof out);
    CHECK_STATUS(skin_matrix_invert(singular, out), SKIN_ERROR_NON_FINITE);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(out[i], ab[i], 0, "untouched on error %d", i);
    /* finite determinants whose inverse is not finite in float: 1e-40 on
     * the diagonal (its inverse overflows), a NaN translation */
    const float tiny[12] = {1e-40f, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    const float nan_t[12] = {1, 0, 0, NAN, 0, 1, 0, 0, 0, 0, 1, 0};
    CHECK_STATUS(skin_matrix_invert(tiny, out), SKIN_ERROR_NON_FINITE);
    CHECK_STATUS(skin_matrix_invert(nan_t, out), SKIN_ERROR_NON_FINITE);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(out[i], ab[i], 0, "untouched on a non-finite inverse %d", i);
    const float inf_m[12] = {INFINITY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}; /* an infinite determinant */
    CHECK_STATUS(skin_matrix_invert(inf_m, out), SKIN_ERROR_NON_FINITE);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(out[i], ab[i], 0, "untouched on an infinite matrix %d", i);
    CHECK_STATUS(skin_matrix_invert(NULL, out), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_matrix_invert(b, NULL), SKIN_ERROR_NULL_ARGUMENT);
    check_error_report("skin_matrix_multiply / skin_matrix_invert");
}

static int any_nonfinite(const float *x, int n)
{
    for (int i = 0; i < n; ++i)
        if (!isfinite(x[i])) return 1;
    return 0;
}

static void test_normal_matrices(void)
{
    /* scale (2,3,4) then rotate 90 degrees about z: M = Rz * S; the inverse-
     * transpose is Rz * S^-1 (R orthogonal): rows (0,-1/3,0), (1/2,0,0), (0,0,1/4) */
    const float pal[24] = {0, -3, 0, 5, 2, 0, 0, 6, 0, 0, 4, 7, 1, 0, 0, 9, 0, 1, 0, 9, 0, 0, 1, 9};
    const float want[18] = {0, -1.0f / 3, 0, 0.5f, 0, 0, 0, 0, 0.25f, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    float out[18];
    CHECK_STATUS(skin_normal_matrices(2, pal, out), SKIN_OK);
    for (int i = 0; i < 18; ++i) CHECK_CLOSE_AT(out[i], want[i], 1e-7, "normal matrix element %d", i);
    /* singular: its cofactors (rank-2 scale diag(1,1,0): cofactor diag(0,0,1)) */
    const float flat[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    CHECK_STATUS(skin_normal_matrices(1, flat, out), SKIN_OK);
    for (int i = 0; i < 9; ++i) CHECK_CLOSE_AT(out[i], i == 8 ? 1 : 0, 0, "singular cofactor %d", i);
    /* diag(1e-40, 1, 1): a finite determinant whose inverse overflows float
     * gives the cofactors diag(1, 1e-40, 1e-40), not infinities */
    const float thin[12] = {1e-40f, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    CHECK_STATUS(skin_normal_matrices(1, thin, out), SKIN_OK);
    for (int i = 0; i < 9; ++i)
        CHECK_CLOSE_AT(out[i], i == 0 ? 1 : i % 4 == 0 ? 1e-40f : 0, 0, "overflowing inverse's cofactor %d", i);
    const float inf_m[12] = {INFINITY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    CHECK_STATUS(skin_normal_matrices(1, inf_m, out), SKIN_OK);
    CHECK(any_nonfinite(out, 9));
    CHECK_STATUS(skin_normal_matrices(1, NULL, out), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_normal_matrices(1, pal, NULL), SKIN_ERROR_NULL_ARGUMENT);
    check_error_report("skin_normal_matrices");
}

/* skin_dual_quat_to_matrix's edges: a zero real part is the identity
 * (its translation too, whatever the dual part); NaN or inf components
 * give non-finite elements. */
static void test_dual_quat_edges(void)
{
    static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    const float zero_real[8] = {0, 0, 0, 0, 1, 2, 3, 4};
    float m[12];
    CHECK_STATUS(skin_dual_quat_to_matrix(zero_real, NULL, m), SKIN_OK);
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(m[i], identity[i], 0, "zero real part, element %d", i);
    const float inf_real[8] = {INFINITY, 0, 0, 1, 0, 0, 0, 0}, nan_dual[8] = {0, 0, 0, 1, NAN, 0, 0, 0};
    CHECK_STATUS(skin_dual_quat_to_matrix(inf_real, NULL, m), SKIN_OK);
    CHECK(any_nonfinite(m, 12));
    CHECK_STATUS(skin_dual_quat_to_matrix(nan_dual, NULL, m), SKIN_OK);
    CHECK(isnan(m[3]));
    for (int i = 0; i < 12; ++i)
        if (i % 4 != 3) CHECK_CLOSE_AT(m[i], identity[i], 0, "NaN dual part: rotation element %d", i);
    check_error_report("skin_dual_quat_to_matrix edges");
}

static void test_quantize(void)
{
    /* thirds round to 21845 each (sum 65535) and 85 each (sum 255); 0.5/0.5
     * with an unnormalised 2/2 input (each rounds up: the -1 goes to the
     * largest, slot 0 on ties); a zero vertex goes to slot 0; a
     * negative weight counts as zero */
    const float s0[4] = {1.0f / 3, 2, 0, -1}, s1[4] = {1.0f / 3, 2, 0, 1}, s2[4] = {1.0f / 3, 0, 0, 0};
    const float *w[3] = {s0, s1, s2};
    uint16_t q0[4], q1[4], q2[4];
    uint8_t b0[4], b1[4], b2[4];
    void *o16[3] = {q0, q1, q2}, *o8[3] = {b0, b1, b2};
    CHECK_STATUS(skin_quantize_weights(4, 3, w, SKIN_WEIGHT_UNORM16, o16), SKIN_OK);
    const uint16_t w16[3][4] = {{21845, 32767, 65535, 0}, {21845, 32768, 0, 65535}, {21845, 0, 0, 0}};
    for (int v = 0; v < 4; ++v) {
        CHECK_INT(q0[v], w16[0][v]), CHECK_INT(q1[v], w16[1][v]), CHECK_INT(q2[v], w16[2][v]);
        CHECK_INT(q0[v] + q1[v] + q2[v], 65535);
    }
    CHECK_STATUS(skin_quantize_weights(4, 3, w, SKIN_WEIGHT_UNORM8, o8), SKIN_OK);
    const uint8_t w8[3][4] = {{85, 127, 255, 0}, {85, 128, 0, 255}, {85, 0, 0, 0}};
    for (int v = 0; v < 4; ++v) {
        CHECK_INT(b0[v], w8[0][v]), CHECK_INT(b1[v], w8[1][v]), CHECK_INT(b2[v], w8[2][v]);
        CHECK_INT(b0[v] + b1[v] + b2[v], 255);
    }
    CHECK_STATUS(skin_quantize_weights(4, 3, w, SKIN_WEIGHT_F32, o16), SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_quantize_weights(4, 0, w, SKIN_WEIGHT_UNORM8, o8), SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_quantize_weights(4, 9, w, SKIN_WEIGHT_UNORM8, o8), SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_quantize_weights(4, 3, NULL, SKIN_WEIGHT_UNORM8, o8), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_quantize_weights(4, 3, w, SKIN_WEIGHT_UNORM8, NULL), SKIN_ERROR_NULL_ARGUMENT);
    void *holey[3] = {b0, NULL, b2};
    CHECK_STATUS(skin_quantize_weights(4, 3, w, SKIN_WEIGHT_UNORM8, holey), SKIN_ERROR_NULL_ARGUMENT);
    /* quantised planar slots validate */
    skin_mesh_desc d;
    memset(&d, 0, sizeof d);
    const float p[4] = {0, 1, 2, 3};
    const uint8_t j[4] = {0, 1, 2, 3};
    d.vertex_count = 4, d.px = d.py = d.pz = p, d.influence_count = 3;
    d.joint_format = SKIN_JOINT_U8, d.weight_format = SKIN_WEIGHT_UNORM16;
    for (int i = 0; i < 3; ++i) d.joints[i] = j, d.weights[i] = o16[i];
    skin_validation_report r;
    CHECK_STATUS(skin_validate(&d, 4, &r), SKIN_OK);
    check_error_report("skin_quantize_weights");
}

static void test_unorm_weights_in(void)
{
    /* one set, two vertices: unorm8 (128,127,0,0) and (0,0,0,0) */
    const uint8_t joints[8] = {3, 1, 0, 0, 2, 0, 0, 0};
    const uint8_t w8[8] = {128, 127, 0, 0, 0, 0, 0, 0};
    const uint16_t w16[8] = {16384, 16384, 32767, 0, 65535, 0, 0, 0};
    const void *js[1] = {joints}, *ws8[1] = {w8}, *ws16[1] = {w16};
    float f[4][2];
    uint16_t jo[4][2], q[4][2];
    void *jout[4] = {jo[0], jo[1], jo[2], jo[3]}, *fout[4] = {f[0], f[1], f[2], f[3]};
    void *qout[4] = {q[0], q[1], q[2], q[3]};
    CHECK_STATUS(skin_deinterleave_influences_typed(2, 1, SKIN_JOINT_U8, js, SKIN_WEIGHT_UNORM8, ws8, SKIN_JOINT_U16,
                                                    SKIN_WEIGHT_F32, jout, fout),
                 SKIN_OK);
    CHECK_CLOSE(f[0][0], 128.0 / 255, 1e-7), CHECK_CLOSE(f[1][0], 127.0 / 255, 1e-7);
    CHECK_CLOSE(f[2][0], 0, 0), CHECK_CLOSE(f[0][1], 1, 0); /* zero sum: all on slot 0 */
    CHECK_INT(jo[0][0], 3), CHECK_INT(jo[1][0], 1), CHECK_INT(jo[0][1], 2);
    CHECK_STATUS(skin_deinterleave_influences_typed(2, 1, SKIN_JOINT_U8, js, SKIN_WEIGHT_UNORM16, ws16,
                                                    SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16, jout, qout),
                 SKIN_OK);
    /* 16384+16384+32767 = 65535 exactly: passed through */
    CHECK_INT(q[0][0], 16384), CHECK_INT(q[1][0], 16384), CHECK_INT(q[2][0], 32767), CHECK_INT(q[3][0], 0);
    CHECK_INT(q[0][1], 65535);
    CHECK_STATUS(skin_deinterleave_influences_typed(2, 1, SKIN_JOINT_U8, js, (skin_weight_format)9, ws8,
                                                    SKIN_JOINT_U16, SKIN_WEIGHT_F32, jout, fout),
                 SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_deinterleave_influences_typed(2, 1, SKIN_JOINT_U8, js, SKIN_WEIGHT_UNORM8, NULL,
                                                    SKIN_JOINT_U16, SKIN_WEIGHT_F32, jout, fout),
                 SKIN_ERROR_NULL_ARGUMENT);
    check_error_report("skin_deinterleave_influences_typed (unorm input)");
}

static void test_identity_remainder(void)
{
    /* joint 0 translates by (10,0,0); joint 1 is the appended identity.
     * v0 weight 0.25 on joint 0 -> moves 2.5; v1 unweighted -> stays;
     * v2 weights 0.75+0.75 (sum 1.5) -> normalised, fully on joint 0. */
    float w0[3] = {0.25f, 0, 0.75f}, w1[3] = {0, 0, 0.75f}, w2[3] = {7, 7, 7};
    uint8_t j0[3] = {0, 0, 0}, j1[3] = {0, 0, 0}, j2[3] = {9, 9, 9};
    float *w[3] = {w0, w1, w2};
    void *j[3] = {j0, j1, j2};
    CHECK_STATUS(skin_add_identity_remainder(3, 3, SKIN_JOINT_U8, j, w, 1), SKIN_OK);
    const float want_w2[3] = {0.75f, 1.0f, 0.0f};
    for (int v = 0; v < 3; ++v) {
        CHECK_CLOSE_AT(w2[v], want_w2[v], 1e-7, "remainder weight %d", v);
        CHECK_INT(j2[v], 1);
    }
    CHECK_CLOSE(w0[2], 0.5f, 1e-7), CHECK_CLOSE(w1[2], 0.5f, 1e-7);

    const float px[3] = {1, 2, 3}, zero[3] = {0, 0, 0};
    skin_mesh_desc d;
    memset(&d, 0, sizeof d);
    d.vertex_count = 3, d.px = px, d.py = d.pz = zero, d.influence_count = 3;
    d.joint_format = SKIN_JOINT_U8, d.weight_format = SKIN_WEIGHT_F32;
    for (int i = 0; i < 3; ++i) d.joints[i] = j[i], d.weights[i] = w[i];
    const float mats[24] = {1, 0, 0, 10, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    skin_palette pal = {2, mats, NULL, NULL, NULL, NULL};
    float ox[3], oy[3], oz[3];
    skin_output out;
    memset(&out, 0, sizeof out);
    out.layout = SKIN_LAYOUT_SOA, out.soa[0] = ox, out.soa[1] = oy, out.soa[2] = oz;
    CHECK_STATUS(skin_mesh(&d, &pal, SKIN_LBS, &out, 0, 3), SKIN_OK);
    const float want_x[3] = {1 + 2.5f, 2, 3 + 10};
    for (int v = 0; v < 3; ++v) CHECK_CLOSE_AT(ox[v], want_x[v], 1e-6, "remainder-to-identity x of vertex %d", v);

    /* u16 joints: the remainder's slot gets identity_joint 300 */
    float u0[2] = {0.25f, 1.0f}, u1[2] = {9, 9};
    uint16_t k0[2] = {7, 7}, k1[2] = {1, 1};
    float *uw[2] = {u0, u1};
    void *uj[2] = {k0, k1};
    CHECK_STATUS(skin_add_identity_remainder(2, 2, SKIN_JOINT_U16, uj, uw, 300), SKIN_OK);
    CHECK_INT(k1[0], 300), CHECK_INT(k1[1], 300), CHECK_INT(k0[0], 7);
    CHECK_CLOSE(u1[0], 0.75f, 1e-7), CHECK_CLOSE(u1[1], 0.0f, 0), CHECK_CLOSE(u0[1], 1.0f, 0);

    CHECK_STATUS(skin_add_identity_remainder(3, 1, SKIN_JOINT_U8, j, w, 1), SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_add_identity_remainder(3, 9, SKIN_JOINT_U8, j, w, 1), SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_add_identity_remainder(3, 3, SKIN_JOINT_U8, j, w, 256), SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_add_identity_remainder(3, 3, SKIN_JOINT_U16, j, w, 65536), SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_add_identity_remainder(3, 3, (skin_joint_format)7, j, w, 1), SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_add_identity_remainder(3, 3, SKIN_JOINT_U8, NULL, w, 1), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_add_identity_remainder(3, 3, SKIN_JOINT_U8, j, NULL, 1), SKIN_ERROR_NULL_ARGUMENT);
    check_error_report("skin_add_identity_remainder");
}

/* Interleaved vertices, as a glTF buffer or an engine's struct holds them,
 * to planar streams: 44-byte records (position, a pad float, normal, tangent)
 * at an odd byte offset; then without normals and tangents, whose streams
 * stay untouched. */
static void test_deinterleave_vertices(void)
{
    enum { V = 5, STRIDE = 44 };
    unsigned char buf[1 + V * STRIDE];
    unsigned char *rec = buf + 1;
    for (int v = 0; v < V; ++v)
        for (int f = 0; f < STRIDE / 4; ++f) {
            const float x = (float)(100 * v + f);
            memcpy(rec + v * STRIDE + 4 * f, &x, sizeof x);
        }
    float planes[10][V];
    float *soa[10];
    for (int c = 0; c < 10; ++c) soa[c] = planes[c];
    memset(planes, 0, sizeof planes);
    CHECK_STATUS(skin_deinterleave_vertices(V, rec, STRIDE, rec + 16, STRIDE, rec + 28, STRIDE, soa), SKIN_OK);
    static const int field[10] = {0, 1, 2, 4, 5, 6, 7, 8, 9, 10};
    for (int c = 0; c < 10; ++c)
        for (int v = 0; v < V; ++v) CHECK(planes[c][v] == (float)(100 * v + field[c]));

    memset(planes, 0, sizeof planes);
    float *positions_only[10] = {planes[0], planes[1], planes[2]};
    CHECK_STATUS(skin_deinterleave_vertices(V, rec, STRIDE, NULL, 0, NULL, 0, positions_only), SKIN_OK);
    for (int v = 0; v < V; ++v) CHECK(planes[1][v] == (float)(100 * v + 1) && planes[3][v] == 0.0f);
    CHECK_STATUS(skin_deinterleave_vertices(0, rec, STRIDE, NULL, 0, NULL, 0, positions_only), SKIN_OK);
}

int main(void)
{
    test_4x4();
    test_multiply_invert();
    test_normal_matrices();
    test_dual_quat_edges();
    test_quantize();
    test_unorm_weights_in();
    test_identity_remainder();
    test_deinterleave_vertices();
    return check_finish("test_helpers");
}
