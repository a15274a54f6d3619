/* SPDX-License-Identifier: MIT */
/* Palette math: pose hierarchy, inverse bind, matrix <-> dual quaternion,
 * and load-time influence helpers. */
#include "skin_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* 3x4 row-major affine product c = a * b (c must not alias a or b). */
static void affine_mul(const float *a, const float *b, float *c)
{
    for (int r = 0; r < 3; ++r) {
        const float *ar = a + 4 * r;
        for (int k = 0; k < 4; ++k)
            c[4 * r + k] = ar[0] * b[k] + ar[1] * b[4 + k] + ar[2] * b[8 + k] + (k == 3 ? ar[3] : 0.0f);
    }
}

/* Rotation matrix (row-major 3x3 into a 3x4, column 3 untouched) from a
 * quaternion, normalised here so callers may pass a slightly off one. */
static void quat_to_rows(const double q[4], float *m)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    m[0] = (float)(1 - 2 * (y * y + z * z));
    m[1] = (float)(2 * (x * y - z * w));
    m[2] = (float)(2 * (x * z + y * w));
    m[4] = (float)(2 * (x * y + z * w));
    m[5] = (float)(1 - 2 * (x * x + z * z));
    m[6] = (float)(2 * (y * z - x * w));
    m[8] = (float)(2 * (x * z - y * w));
    m[9] = (float)(2 * (y * z + x * w));
    m[10] = (float)(1 - 2 * (x * x + y * y));
}

static void scale_columns(float *m, const float s[3])
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) m[4 * r + c] *= s[c];
}

skin_status skin_pose_to_matrices(uint32_t joint_count, const int32_t *parents,
                                  const float *translations, const float *rotations,
                                  const float *scales, float *model_out)
{
    if (!parents || !model_out) return SKIN_ERROR_NULL_ARGUMENT;
    if (joint_count == 0) return SKIN_ERROR_INVALID_COUNT;
    for (uint32_t j = 0; j < joint_count; ++j)
        if (parents[j] >= (int64_t)j) return SKIN_ERROR_INVALID_HIERARCHY;
    for (uint32_t j = 0; j < joint_count; ++j) {
        float local[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        const size_t jj = j; /* size_t offsets: 12 * j overflows 32 bits */
        if (rotations) {
            const float *q = rotations + 4 * jj;
            quat_to_rows((const double[4]){q[0], q[1], q[2], q[3]}, local);
        }
        if (scales) scale_columns(local, scales + 3 * jj);
        if (translations) {
            local[3] = translations[3 * jj];
            local[7] = translations[3 * jj + 1];
            local[11] = translations[3 * jj + 2];
        }
        float *dst = model_out + 12 * jj;
        if (parents[j] < 0)
            memcpy(dst, local, sizeof local);
        else
            affine_mul(model_out + 12 * (size_t)parents[j], local, dst);
    }
    return SKIN_OK;
}

skin_status skin_apply_inverse_bind(uint32_t joint_count, const float *model,
                                    const float *inverse_bind, float *out)
{
    if (!model || !inverse_bind || !out) return SKIN_ERROR_NULL_ARGUMENT;
    if (joint_count == 0) return SKIN_ERROR_INVALID_COUNT;
    for (size_t j = 0; j < joint_count; ++j) {
        float tmp[12];
        affine_mul(model + 12 * j, inverse_bind + 12 * j, tmp);
        memcpy(out + 12 * j, tmp, sizeof tmp);
    }
    return SKIN_OK;
}

#define RIGID_TOLERANCE 1e-4

/* Quaternion (xyzw) from an orthonormal row-major 3x3, branching on the
 * largest diagonal term so the square root never takes a tiny argument. */
static void quat_from_rotation(const double r[3][3], double q[4])
{
    double tr = r[0][0] + r[1][1] + r[2][2], s;
    if (tr > 0.0) {
        s = 2.0 * sqrt(tr + 1.0);
        q[3] = 0.25 * s;
        q[0] = (r[2][1] - r[1][2]) / s;
        q[1] = (r[0][2] - r[2][0]) / s;
        q[2] = (r[1][0] - r[0][1]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        s = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]);
        q[3] = (r[2][1] - r[1][2]) / s;
        q[0] = 0.25 * s;
        q[1] = (r[0][1] + r[1][0]) / s;
        q[2] = (r[0][2] + r[2][0]) / s;
    } else if (r[1][1] > r[2][2]) {
        s = 2.0 * sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]);
        q[3] = (r[0][2] - r[2][0]) / s;
        q[0] = (r[0][1] + r[1][0]) / s;
        q[1] = 0.25 * s;
        q[2] = (r[1][2] + r[2][1]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]);
        q[3] = (r[1][0] - r[0][1]) / s;
        q[0] = (r[0][2] + r[2][0]) / s;
        q[1] = (r[1][2] + r[2][1]) / s;
        q[2] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double sign = q[3] < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 4; ++i) q[i] *= sign / n;
}

uint32_t skin_matrix_to_dual_quat(const float m[12], float dq[8], float scale_out[3])
{
    if (!m || !dq) return SKIN_NONRIGID_DEGENERATE; /* documented: nothing written */
    /* Non-finite input has no rotation to extract: report it (as an axis of
     * no usable length) and return the identity rather than NaNs. */
    for (int i = 0; i < 12; ++i) {
        if (!isfinite(m[i])) {
            static const float identity[8] = {0, 0, 0, 1, 0, 0, 0, 0};
            memcpy(dq, identity, sizeof identity);
            if (scale_out) scale_out[0] = scale_out[1] = scale_out[2] = 1.0f;
            return SKIN_NONRIGID_DEGENERATE;
        }
    }
    uint32_t flags = 0;
    double col[3][3], s[3];
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) col[c][r] = m[4 * r + c];
        s[c] = sqrt(col[c][0] * col[c][0] + col[c][1] * col[c][1] + col[c][2] * col[c][2]);
    }
    double q[4] = {0, 0, 0, 1};
    if (s[0] < RIGID_TOLERANCE || s[1] < RIGID_TOLERANCE || s[2] < RIGID_TOLERANCE) {
        flags |= SKIN_NONRIGID_DEGENERATE;
    } else {
        double det = col[0][0] * (col[1][1] * col[2][2] - col[1][2] * col[2][1]) -
                     col[1][0] * (col[0][1] * col[2][2] - col[0][2] * col[2][1]) +
                     col[2][0] * (col[0][1] * col[1][2] - col[0][2] * col[1][1]);
        if (det < 0.0) {
            flags |= SKIN_NONRIGID_MIRROR;
            s[0] = -s[0];
        }
        double r[3][3];
        for (int c = 0; c < 3; ++c)
            for (int row = 0; row < 3; ++row) r[row][c] = col[c][row] / s[c];
        for (int a = 0; a < 3; ++a)
            for (int b = a + 1; b < 3; ++b) {
                double d = r[0][a] * r[0][b] + r[1][a] * r[1][b] + r[2][a] * r[2][b];
                if (fabs(d) > RIGID_TOLERANCE) flags |= SKIN_NONRIGID_SHEAR;
            }
        quat_from_rotation(r, q);
    }
    for (int c = 0; c < 3; ++c)
        if (fabs(fabs(s[c]) - 1.0) > RIGID_TOLERANCE) flags |= SKIN_NONRIGID_SCALE;
    double smax = fmax(fabs(s[0]), fmax(fabs(s[1]), fabs(s[2])));
    double smin = fmin(fabs(s[0]), fmin(fabs(s[1]), fabs(s[2])));
    if (smax - smin > RIGID_TOLERANCE * smax) flags |= SKIN_NONRIGID_NONUNIFORM;

    /* dual = 0.5 * (t, 0) * real */
    double t[3] = {m[3], m[7], m[11]};
    double d[4] = {
        0.5 * (t[0] * q[3] + t[1] * q[2] - t[2] * q[1]),
        0.5 * (t[1] * q[3] + t[2] * q[0] - t[0] * q[2]),
        0.5 * (t[2] * q[3] + t[0] * q[1] - t[1] * q[0]),
        -0.5 * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2]),
    };
    for (int i = 0; i < 4; ++i) {
        dq[i] = (float)q[i];
        dq[4 + i] = (float)d[i];
    }
    if (scale_out)
        for (int c = 0; c < 3; ++c) scale_out[c] = (float)s[c];
    return flags;
}

skin_status skin_matrices_to_dual_quats(uint32_t joint_count, const float *matrices,
                                        float *dual_quats, float *scales, uint32_t *nonrigid_count)
{
    if (!matrices || !dual_quats) return SKIN_ERROR_NULL_ARGUMENT;
    if (joint_count == 0) return SKIN_ERROR_INVALID_COUNT;
    const uint32_t representable =
        scales ? SKIN_NONRIGID_SCALE | SKIN_NONRIGID_NONUNIFORM | SKIN_NONRIGID_MIRROR : 0;
    uint32_t nonrigid = 0;
    for (size_t j = 0; j < joint_count; ++j) {
        uint32_t f = skin_matrix_to_dual_quat(matrices + 12 * j, dual_quats + 8 * j,
                                              scales ? scales + 3 * j : NULL);
        nonrigid += (f & ~representable) != 0;
    }
    if (nonrigid_count) *nonrigid_count = nonrigid;
    return SKIN_OK;
}

skin_status skin_dual_quat_to_matrix(const float dq[8], const float scale[3], float m[12])
{
    if (!dq || !m) return SKIN_ERROR_NULL_ARGUMENT;
    double n = sqrt((double)dq[0] * dq[0] + (double)dq[1] * dq[1] + (double)dq[2] * dq[2] +
                    (double)dq[3] * dq[3]);
    if (!(n > 0.0)) n = 1.0;
    double r[4], d[4];
    for (int i = 0; i < 4; ++i) r[i] = dq[i] / n, d[i] = dq[4 + i] / n;
    quat_to_rows(n > 0.0 && (r[0] || r[1] || r[2] || r[3]) ? r : (const double[4]){0, 0, 0, 1}, m);
    if (scale) scale_columns(m, scale);
    /* translation = 2 (rw d - dw r + r x d) */
    m[3] = (float)(2 * (r[3] * d[0] - d[3] * r[0] + r[1] * d[2] - r[2] * d[1]));
    m[7] = (float)(2 * (r[3] * d[1] - d[3] * r[1] + r[2] * d[0] - r[0] * d[2]));
    m[11] = (float)(2 * (r[3] * d[2] - d[3] * r[2] + r[0] * d[1] - r[1] * d[0]));
    return SKIN_OK;
}

static float clean_weight(float w) { return isfinite(w) && w > 0.0f ? w : 0.0f; }

skin_status skin_normalize_weights(size_t vertex_count, uint32_t influence_count,
                                   float *const *weights)
{
    if (!weights) return SKIN_ERROR_NULL_ARGUMENT;
    if (influence_count < 1 || influence_count > SKIN_MAX_INFLUENCES)
        return SKIN_ERROR_INVALID_INFLUENCES;
    for (uint32_t i = 0; i < influence_count; ++i)
        if (!weights[i]) return SKIN_ERROR_NULL_ARGUMENT;
    for (size_t v = 0; v < vertex_count; ++v) {
        double sum = 0.0;
        for (uint32_t i = 0; i < influence_count; ++i) sum += clean_weight(weights[i][v]);
        for (uint32_t i = 0; i < influence_count; ++i) {
            float w = clean_weight(weights[i][v]);
            weights[i][v] = sum > 0.0 ? (float)(w / sum) : (i == 0 ? 1.0f : 0.0f);
        }
    }
    return SKIN_OK;
}

static int valid_joint_format(skin_joint_format f) { return f == SKIN_JOINT_U8 || f == SKIN_JOINT_U16; }

/* Rounds one vertex's normalised weights w[0..k) to unorm (one = 65535 or
 * 255) and stores them at vertex v of the planar slots out[0..k): each weight
 * is rounded, then the remainder goes to the largest (lowest slot on ties),
 * so the integer sum is exactly `one` (what skin_validate demands). */
static void store_unorm_weights(const double *w, uint32_t k, skin_weight_format format, void *const *out,
                                size_t v)
{
    const double one = format == SKIN_WEIGHT_UNORM16 ? 65535.0 : 255.0;
    long q[SKIN_MAX_INFLUENCES], total = 0;
    uint32_t largest = 0;
    for (uint32_t i = 0; i < k; ++i) {
        total += q[i] = lround(w[i] * one);
        if (w[i] > w[largest]) largest = i;
    }
    q[largest] += (long)one - total;
    for (uint32_t i = 0; i < k; ++i) {
        if (format == SKIN_WEIGHT_UNORM16)
            ((uint16_t *)out[i])[v] = (uint16_t)q[i];
        else
            ((uint8_t *)out[i])[v] = (uint8_t)q[i];
    }
}

/* Normalises w[0..k) in place (non-finite and negative weights are zero; a
 * zero sum puts everything on slot 0). */
static void normalize_row(double *w, uint32_t k)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < k; ++i) sum += w[i];
    for (uint32_t i = 0; i < k; ++i) w[i] = sum > 0.0 && isfinite(sum) ? w[i] / sum : (i == 0 ? 1.0 : 0.0);
}

static int valid_weight_format(skin_weight_format f)
{
    return f == SKIN_WEIGHT_F32 || f == SKIN_WEIGHT_UNORM16 || f == SKIN_WEIGHT_UNORM8;
}

static double read_weight(skin_weight_format f, const void *p, size_t at)
{
    switch (f) {
    case SKIN_WEIGHT_UNORM16: return ((const uint16_t *)p)[at] / 65535.0;
    case SKIN_WEIGHT_UNORM8: return ((const uint8_t *)p)[at] / 255.0;
    default: return clean_weight(((const float *)p)[at]);
    }
}

skin_status skin_deinterleave_influences_typed(size_t vertex_count, uint32_t set_count,
                                               skin_joint_format in_joint_format, const void *const *joint_sets,
                                               skin_weight_format in_weight_format, const void *const *weight_sets,
                                               skin_joint_format out_joint_format,
                                               skin_weight_format out_weight_format, void *const *joints_out,
                                               void *const *weights_out)
{
    if (!joint_sets || !weight_sets || !joints_out || !weights_out) return SKIN_ERROR_NULL_ARGUMENT;
    if (set_count < 1 || set_count > 2) return SKIN_ERROR_INVALID_INFLUENCES;
    if (!valid_joint_format(in_joint_format) || !valid_joint_format(out_joint_format))
        return SKIN_ERROR_INVALID_FORMAT;
    if (!valid_weight_format(in_weight_format) || !valid_weight_format(out_weight_format))
        return SKIN_ERROR_INVALID_FORMAT;
    if (vertex_count > SIZE_MAX / (4 * sizeof(float))) return SKIN_ERROR_INVALID_COUNT;
    const uint32_t k = 4 * set_count;
    for (uint32_t s = 0; s < set_count; ++s)
        if (!joint_sets[s] || !weight_sets[s]) return SKIN_ERROR_NULL_ARGUMENT;
    for (uint32_t i = 0; i < k; ++i)
        if (!joints_out[i] || !weights_out[i]) return SKIN_ERROR_NULL_ARGUMENT;

    /* Every joint is checked before anything is written, so a failure
     * leaves the outputs untouched. */
    if (in_joint_format == SKIN_JOINT_U16 && out_joint_format == SKIN_JOINT_U8)
        for (uint32_t s = 0; s < set_count; ++s)
            for (size_t i = 0; i < 4 * vertex_count; ++i)
                if (((const uint16_t *)joint_sets[s])[i] > 255) return SKIN_ERROR_INVALID_FORMAT;

    for (size_t v = 0; v < vertex_count; ++v) {
        uint32_t joint[8];
        double w[8];
        for (uint32_t i = 0; i < k; ++i) {
            size_t at = 4 * v + (i & 3);
            const void *js = joint_sets[i >> 2];
            joint[i] = in_joint_format == SKIN_JOINT_U8 ? ((const uint8_t *)js)[at]
                                                        : ((const uint16_t *)js)[at];
            w[i] = read_weight(in_weight_format, weight_sets[i >> 2], at);
        }
        normalize_row(w, k);
        if (out_weight_format == SKIN_WEIGHT_F32) {
            for (uint32_t i = 0; i < k; ++i) ((float *)weights_out[i])[v] = (float)w[i];
        } else {
            store_unorm_weights(w, k, out_weight_format, weights_out, v);
        }
        for (uint32_t i = 0; i < k; ++i) {
            if (out_joint_format == SKIN_JOINT_U8)
                ((uint8_t *)joints_out[i])[v] = (uint8_t)joint[i];
            else
                ((uint16_t *)joints_out[i])[v] = (uint16_t)joint[i];
        }
    }
    return SKIN_OK;
}

skin_status skin_deinterleave_influences(size_t vertex_count, uint32_t set_count,
                                         skin_joint_format in_joint_format,
                                         const void *const *joint_sets,
                                         const float *const *weight_sets,
                                         skin_joint_format out_joint_format,
                                         skin_weight_format out_weight_format,
                                         void *const *joints_out, void *const *weights_out)
{
    return skin_deinterleave_influences_typed(vertex_count, set_count, in_joint_format, joint_sets,
                                              SKIN_WEIGHT_F32, (const void *const *)weight_sets,
                                              out_joint_format, out_weight_format, joints_out, weights_out);
}

/* One attribute's check, when it is given: its soa streams set, a stride of at least its
 * element, and its last element addressable. */
static skin_status check_attribute(size_t n, const void *src, size_t stride, size_t floats,
                                   float *const *soa)
{
    if (!src) return SKIN_OK;
    for (size_t c = 0; c < floats; ++c)
        if (!soa[c]) return SKIN_ERROR_NULL_ARGUMENT;
    if (stride < floats * sizeof(float)) return SKIN_ERROR_INVALID_STRIDE;
    if (n > 1 && stride > (size_t)PTRDIFF_MAX / (n - 1)) return SKIN_ERROR_INVALID_COUNT;
    return SKIN_OK;
}

static void gather(size_t n, const void *src, size_t stride, size_t floats, float *const *soa)
{
    const unsigned char *p = src;
    for (size_t v = 0; v < n; ++v, p += stride)
        for (size_t c = 0; c < floats; ++c) memcpy(&soa[c][v], p + c * sizeof(float), sizeof(float));
}

skin_status skin_deinterleave_vertices(size_t vertex_count, const void *position, size_t position_stride,
                                       const void *normal, size_t normal_stride, const void *tangent,
                                       size_t tangent_stride, float *const soa[10])
{
    if (!position || !soa) return SKIN_ERROR_NULL_ARGUMENT;
    const struct {
        const void *src;
        size_t stride, floats;
        float *const *soa;
    } attr[3] = {{position, position_stride, 3, soa}, {normal, normal_stride, 3, soa + 3},
                 {tangent, tangent_stride, 4, soa + 6}};
    for (int a = 0; a < 3; ++a) {
        skin_status s = check_attribute(vertex_count, attr[a].src, attr[a].stride, attr[a].floats, attr[a].soa);
        if (s != SKIN_OK) return s;
    }
    for (int a = 0; a < 3; ++a)
        if (attr[a].src) gather(vertex_count, attr[a].src, attr[a].stride, attr[a].floats, attr[a].soa);
    return SKIN_OK;
}

/* ------------------------------------------- glTF and engine helpers */

skin_status skin_quantize_weights(size_t vertex_count, uint32_t influence_count, const float *const *weights,
                                  skin_weight_format format, void *const *out)
{
    if (!weights || !out) return SKIN_ERROR_NULL_ARGUMENT;
    if (influence_count < 1 || influence_count > SKIN_MAX_INFLUENCES) return SKIN_ERROR_INVALID_INFLUENCES;
    if (format != SKIN_WEIGHT_UNORM16 && format != SKIN_WEIGHT_UNORM8) return SKIN_ERROR_INVALID_FORMAT;
    for (uint32_t i = 0; i < influence_count; ++i)
        if (!weights[i] || !out[i]) return SKIN_ERROR_NULL_ARGUMENT;
    for (size_t v = 0; v < vertex_count; ++v) {
        double w[SKIN_MAX_INFLUENCES];
        for (uint32_t i = 0; i < influence_count; ++i) w[i] = clean_weight(weights[i][v]);
        normalize_row(w, influence_count);
        store_unorm_weights(w, influence_count, format, out, v);
    }
    return SKIN_OK;
}

skin_status skin_matrices_from_4x4(uint32_t count, const float *column_major, float *out)
{
    if (!column_major || !out) return SKIN_ERROR_NULL_ARGUMENT;
    for (uint32_t j = 0; j < count; ++j) {
        const float *c = column_major + 16 * (size_t)j;
        float m[12];
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 4; ++k) m[4 * r + k] = c[4 * k + r]; /* element (r, k) */
        memcpy(out + 12 * (size_t)j, m, sizeof m);
    }
    return SKIN_OK;
}

void skin_matrix_multiply(const float a[12], const float b[12], float out[12])
{
    if (!a || !b || !out) return; /* documented: NULL writes nothing */
    float m[12];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 4; ++k)
            m[4 * i + k] = a[4 * i] * b[k] + a[4 * i + 1] * b[4 + k] + a[4 * i + 2] * b[8 + k] +
                           (k == 3 ? a[4 * i + 3] : 0.0f);
    memcpy(out, m, sizeof m);
}

/* Cofactors c of the 3x3 part of m (double) and its determinant. */
static double cofactors(const float *m, double c[3][3])
{
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            c[i][k] = (double)m[4 * ((i + 1) % 3) + (k + 1) % 3] * m[4 * ((i + 2) % 3) + (k + 2) % 3] -
                      (double)m[4 * ((i + 1) % 3) + (k + 2) % 3] * m[4 * ((i + 2) % 3) + (k + 1) % 3];
    return m[0] * c[0][0] + m[1] * c[0][1] + m[2] * c[0][2];
}

skin_status skin_matrix_invert(const float m[12], float out[12])
{
    if (!m || !out) return SKIN_ERROR_NULL_ARGUMENT;
    double c[3][3];
    const double det = cofactors(m, c);
    if (!(fabs(det) > 0.0) || !isfinite(det)) return SKIN_ERROR_NON_FINITE;
    float r[12];
    for (int i = 0; i < 3; ++i) { /* inverse = transpose(cofactors) / det */
        for (int k = 0; k < 3; ++k) r[4 * i + k] = (float)(c[k][i] / det);
        r[4 * i + 3] = (float)(-(c[0][i] * m[3] + c[1][i] * m[7] + c[2][i] * m[11]) / det);
    }
    /* a tiny determinant's inverse can leave float's range, and a NaN
     * translation leaves det finite */
    for (int i = 0; i < 12; ++i)
        if (!isfinite(r[i])) return SKIN_ERROR_NON_FINITE;
    memcpy(out, r, sizeof r);
    return SKIN_OK;
}

skin_status skin_normal_matrices(uint32_t count, const float *palette, float *out)
{
    if (!palette || !out) return SKIN_ERROR_NULL_ARGUMENT;
    for (uint32_t j = 0; j < count; ++j) {
        double c[3][3];
        const double det = cofactors(palette + 12 * (size_t)j, c);
        /* inverse-transpose = cofactors / det; a singular matrix keeps its
         * cofactors (the normal directions, unnormalised), and so does one
         * whose inverse would leave float's range */
        double inv = fabs(det) > 0.0 && isfinite(det) ? 1.0 / det : 1.0;
        for (int i = 0; i < 9; ++i)
            if (fabs(c[i / 3][i % 3] * inv) > FLT_MAX && fabs(c[i / 3][i % 3]) <= FLT_MAX) inv = 1.0;
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) out[9 * (size_t)j + 3 * i + k] = (float)(c[i][k] * inv);
    }
    return SKIN_OK;
}

skin_status skin_add_identity_remainder(size_t vertex_count, uint32_t influence_count, skin_joint_format joint_format,
                                        void *const *joints, float *const *weights, uint32_t identity_joint)
{
    if (!joints || !weights) return SKIN_ERROR_NULL_ARGUMENT;
    if (influence_count < 2 || influence_count > SKIN_MAX_INFLUENCES) return SKIN_ERROR_INVALID_INFLUENCES;
    if (!valid_joint_format(joint_format) || (joint_format == SKIN_JOINT_U8 && identity_joint > 255) ||
        identity_joint > 65535)
        return SKIN_ERROR_INVALID_FORMAT;
    for (uint32_t i = 0; i < influence_count; ++i)
        if (!joints[i] || !weights[i]) return SKIN_ERROR_NULL_ARGUMENT;
    const uint32_t last = influence_count - 1;
    for (size_t v = 0; v < vertex_count; ++v) {
        double sum = 0.0;
        for (uint32_t i = 0; i < last; ++i) sum += clean_weight(weights[i][v]);
        /* over one: normalise the given weights, nothing is left over */
        const double scale = sum > 1.0 && isfinite(sum) ? 1.0 / sum : 1.0;
        for (uint32_t i = 0; i < last; ++i) weights[i][v] = (float)(clean_weight(weights[i][v]) * scale);
        weights[last][v] = sum < 1.0 ? (float)(1.0 - sum) : 0.0f;
        if (joint_format == SKIN_JOINT_U8)
            ((uint8_t *)joints[last])[v] = (uint8_t)identity_joint;
        else
            ((uint16_t *)joints[last])[v] = (uint16_t)identity_joint;
    }
    return SKIN_OK;
}
