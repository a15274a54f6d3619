/* SPDX-License-Identifier: MIT */
/* Properties on seeded random rigs, and the palette / influence helpers:
 *  - DQS equals LBS for rigid single-influence vertices;
 *  - negating any joint's dual quaternion leaves DQS unchanged;
 *  - identity skinning returns the inputs;
 *  - matrix -> dual quaternion -> matrix round trips (rigid, near 180 degrees,
 *    mirrored, scaled), with the non-rigid flags reported;
 *  - skin_pose_to_matrices and skin_apply_inverse_bind against hand-composed
 *    matrices, and rejection of a bad hierarchy;
 *  - skin_normalize_weights and skin_deinterleave_influences. */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-5
#define C 0.70710678118654752440 /* sqrt(1/2) */

/* Planar output for a whole mesh. */
typedef struct soa_out {
    float *s[10];
    size_t n;
} soa_out;

static void soa_alloc(soa_out *o, size_t n)
{
    o->n = n;
    for (int c = 0; c < 10; ++c) {
        o->s[c] = calloc(n ? n : 1, sizeof(float));
        if (!o->s[c]) abort();
    }
}

static void soa_free(soa_out *o)
{
    for (int c = 0; c < 10; ++c) free(o->s[c]);
}

static skin_status skin_to(const skin_mesh_desc *mesh, const skin_palette *pal,
                           skin_method method, soa_out *o)
{
    skin_output out = {.layout = SKIN_LAYOUT_SOA};
    for (int c = 0; c < 10; ++c) out.soa[c] = o->s[c];
    return skin_mesh(mesh, pal, method, &out, 0, mesh->vertex_count);
}

static void compare_soa(const soa_out *a, const soa_out *b, double tol, const char *what)
{
    static const char *const names[10] = {"px", "py", "pz", "nx", "ny", "nz",
                                          "tx", "ty", "tz", "tw"};
    int reported = 0;
    for (int c = 0; c < 10; ++c)
        for (size_t v = 0; v < a->n; ++v) {
            double e = check_rel_error(a->s[c][v], b->s[c][v]);
            if (e > check_max_error) check_max_error = e;
            if (e <= tol) continue;
            ++check_failed_count;
            if (reported++ < 10)
                fprintf(stderr, "FAILED: %s: vertex %zu %s %.9g vs %.9g\n", what, v, names[c],
                        a->s[c][v], b->s[c][v]);
        }
    if (!reported) ++check_passed_count;
}

static rig make_rig(size_t n, uint32_t joints, uint32_t k, skin_joint_format jf,
                    skin_weight_format wf, int scales, uint64_t seed)
{
    rig r;
    rig_options o = {n, joints, k, jf, wf, scales, seed};
    if (rig_random(&r, &o)) abort();
    return r;
}

/* ------------------------------------------------------ DQS == LBS rigid */
static void set_joint_slot(rig *r, uint32_t i, size_t v, uint32_t j)
{
    if (r->mesh.joint_format == SKIN_JOINT_U8)
        ((uint8_t *)r->joints[i])[v] = (uint8_t)j;
    else
        ((uint16_t *)r->joints[i])[v] = (uint16_t)j;
}

static void prop_dqs_equals_lbs_rigid(void)
{
    struct {
        uint32_t k;
        skin_joint_format jf;
        skin_weight_format wf;
    } cfg[] = {{1, SKIN_JOINT_U8, SKIN_WEIGHT_F32},
               {1, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16},
               {4, SKIN_JOINT_U8, SKIN_WEIGHT_UNORM8},
               {8, SKIN_JOINT_U16, SKIN_WEIGHT_F32}};
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; ++c) {
        rig r = make_rig(1000, 20, cfg[c].k, cfg[c].jf, cfg[c].wf, 0, 100 + c);
        /* Every slot on the same joint: a rigid vertex however many slots. */
        for (size_t v = 0; v < r.mesh.vertex_count; ++v) {
            uint32_t j = r.mesh.joint_format == SKIN_JOINT_U8 ? ((uint8_t *)r.joints[0])[v]
                                                              : ((uint16_t *)r.joints[0])[v];
            for (uint32_t i = 1; i < cfg[c].k; ++i) set_joint_slot(&r, i, v, j);
        }
        soa_out lbs, dqs;
        soa_alloc(&lbs, r.mesh.vertex_count);
        soa_alloc(&dqs, r.mesh.vertex_count);
        CHECK_STATUS(skin_to(&r.mesh, &r.palette, SKIN_LBS, &lbs), SKIN_OK);
        CHECK_STATUS(skin_to(&r.mesh, &r.palette, SKIN_DQS, &dqs), SKIN_OK);
        compare_soa(&dqs, &lbs, TOL, "DQS vs LBS, rigid vertices");
        soa_free(&lbs), soa_free(&dqs);
        rig_free(&r);
    }
    check_error_report("DQS == LBS on rigid vertices (k=1,1,4,8)");
}

/* ------------------------------------------------ antipodal invariance */
static void prop_negation(void)
{
    for (int scales = 0; scales < 2; ++scales) {
        const uint32_t jc = 12;
        rig r = make_rig(800, jc, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, scales, 200 + scales);
        soa_out ref, neg;
        soa_alloc(&ref, r.mesh.vertex_count);
        soa_alloc(&neg, r.mesh.vertex_count);
        CHECK_STATUS(skin_to(&r.mesh, &r.palette, SKIN_DQS, &ref), SKIN_OK);
        for (uint32_t j = 0; j <= jc; ++j) {
            /* j < jc: negate joint j alone; j == jc: negate every other one. */
            for (uint32_t q = 0; q < jc; ++q)
                if (q == j || (j == jc && (q & 1)))
                    for (int e = 0; e < 8; ++e) r.dual_quats[8 * q + e] = -r.dual_quats[8 * q + e];
            CHECK_STATUS(skin_to(&r.mesh, &r.palette, SKIN_DQS, &neg), SKIN_OK);
            compare_soa(&neg, &ref, TOL, "DQS with a negated dual quaternion");
            for (uint32_t q = 0; q < jc; ++q)
                if (q == j || (j == jc && (q & 1)))
                    for (int e = 0; e < 8; ++e) r.dual_quats[8 * q + e] = -r.dual_quats[8 * q + e];
        }
        soa_free(&ref), soa_free(&neg);
        rig_free(&r);
    }
    check_error_report("DQS unchanged by negating any joint's dual quaternion");
}

/* ------------------------------------------------------------- identity */
static void prop_identity(void)
{
    static const skin_weight_format wfs[3] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16,
                                              SKIN_WEIGHT_UNORM8};
    for (int f = 0; f < 3; ++f) {
        const uint32_t jc = 7;
        rig r = make_rig(500, jc, 1 + 3 * (uint32_t)f, SKIN_JOINT_U8, wfs[f], 1, 300 + f);
        for (uint32_t j = 0; j < jc; ++j) {
            static const float im[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
            static const float idq[8] = {0, 0, 0, 1, 0, 0, 0, 0};
            memcpy(r.matrices + 12 * j, im, sizeof im);
            memcpy(r.dual_quats + 8 * j, idq, sizeof idq);
            for (int e = 0; e < 3; ++e) r.scales[3 * j + e] = 1.0f;
        }
        soa_out in = {{0}, r.mesh.vertex_count}, o;
        for (int c = 0; c < 10; ++c) in.s[c] = r.streams[c];
        soa_alloc(&o, r.mesh.vertex_count);
        for (int m = 0; m < 2; ++m) {
            skin_palette pal = r.palette;
            if (m == 0) pal.scales = NULL;
            CHECK_STATUS(skin_to(&r.mesh, &pal, m ? SKIN_DQS : SKIN_LBS, &o), SKIN_OK);
            compare_soa(&o, &in, TOL, m ? "DQS identity palette" : "LBS identity palette");
        }
        soa_free(&o);
        rig_free(&r);
    }
    check_error_report("identity palette returns the inputs (LBS, DQS+scale)");
}

/* -------------------------------------------- matrix <-> dual quaternion */
static void rotation(const double axis[3], double angle, double r[3][3])
{
    double l = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    double k[3] = {axis[0] / l, axis[1] / l, axis[2] / l};
    double c = cos(angle), s = sin(angle), t = 1 - c;
    /* Rodrigues: R = c I + s [k]x + (1-c) k k^T */
    r[0][0] = c + t * k[0] * k[0], r[0][1] = t * k[0] * k[1] - s * k[2], r[0][2] = t * k[0] * k[2] + s * k[1];
    r[1][0] = t * k[1] * k[0] + s * k[2], r[1][1] = c + t * k[1] * k[1], r[1][2] = t * k[1] * k[2] - s * k[0];
    r[2][0] = t * k[2] * k[0] - s * k[1], r[2][1] = t * k[2] * k[1] + s * k[0], r[2][2] = c + t * k[2] * k[2];
}

/* m = [R * diag(scale) | t] as floats. */
static void compose(const double r[3][3], const double scale[3], const double t[3], float m[12])
{
    for (int row = 0; row < 3; ++row) {
        for (int c = 0; c < 3; ++c) m[4 * row + c] = (float)(r[row][c] * scale[c]);
        m[4 * row + 3] = (float)t[row];
    }
}

static void check_round_trip(const float m[12], int with_scale, uint32_t want_flags,
                             const char *what)
{
    float dq[8], sc[3], back[12];
    uint32_t flags = skin_matrix_to_dual_quat(m, dq, with_scale ? sc : NULL);
    if (flags != want_flags) {
        ++check_failed_count;
        fprintf(stderr, "FAILED: %s: flags 0x%x, expected 0x%x\n", what, flags, want_flags);
    } else {
        ++check_passed_count;
    }
    CHECK(dq[3] >= 0.0f);
    double n = sqrt((double)dq[0] * dq[0] + (double)dq[1] * dq[1] + (double)dq[2] * dq[2] +
                    (double)dq[3] * dq[3]);
    CHECK_CLOSE_AT(n, 1.0, 1e-6, "%s |real|", what);
    /* the dual part is orthogonal to the real part for a unit dual quaternion */
    double dot = (double)dq[0] * dq[4] + (double)dq[1] * dq[5] + (double)dq[2] * dq[6] +
                 (double)dq[3] * dq[7];
    CHECK_CLOSE_AT(dot, 0.0, 1e-6, "%s real.dual", what);
    skin_dual_quat_to_matrix(dq, with_scale ? sc : NULL, back);
    for (int e = 0; e < 12; ++e) CHECK_CLOSE_AT(back[e], m[e], 1e-6, "%s round trip m[%d]", what, e);
}

static void prop_matrix_dual_quat(void)
{
    uint64_t s = 4242;
    static const double one[3] = {1, 1, 1};
    char what[96];
    /* Random rigid transforms. */
    for (int i = 0; i < 2000; ++i) {
        double axis[3], t[3], r[3][3];
        for (int e = 0; e < 3; ++e) axis[e] = rig_uniform(&s, -1, 1) + 1e-3;
        for (int e = 0; e < 3; ++e) t[e] = rig_uniform(&s, -5, 5);
        double angle = rig_uniform(&s, 0, 3.14159265f);
        rotation(axis, angle, r);
        float m[12];
        compose(r, one, t, m);
        snprintf(what, sizeof what, "random rigid #%d", i);
        check_round_trip(m, i & 1, 0, what);
    }
    check_error_report("matrix -> DQ -> matrix, 2000 random rigid transforms");

    /* Near and at 180 degrees, where a trace-based extraction breaks down;
     * the quaternion must also be the expected one (up to sign at 180). */
    static const double axes[][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0},
                                     {1, 1, 1}, {-1, 2, 0.5}, {0.3, -0.1, -2}};
    static const double angles[] = {3.14159265358979323846, 3.14159265358979323846 - 1e-6,
                                    3.14159265358979323846 - 1e-3, 3.0, 0.0, 1e-6};
    for (size_t a = 0; a < sizeof axes / sizeof axes[0]; ++a)
        for (size_t g = 0; g < sizeof angles / sizeof angles[0]; ++g) {
            double r[3][3], t[3] = {1.5, -2, 0.25};
            rotation(axes[a], angles[g], r);
            float m[12], dq[8];
            compose(r, one, t, m);
            snprintf(what, sizeof what, "axis %zu angle %.9g", a, angles[g]);
            check_round_trip(m, 0, 0, what);
            skin_matrix_to_dual_quat(m, dq, NULL);
            const double *k = axes[a];
            double l = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
            double sh = sin(angles[g] / 2) / l, q[4] = {k[0] * sh, k[1] * sh, k[2] * sh,
                                                        cos(angles[g] / 2)};
            double d = q[0] * dq[0] + q[1] * dq[1] + q[2] * dq[2] + q[3] * dq[3];
            CHECK_CLOSE_AT(fabs(d), 1.0, 1e-6, "%s: |q . expected|", what);
        }
    check_error_report("matrix -> DQ -> matrix near/at 180 degrees and near 0");

    /* Non-rigid: mirrored, scaled, sheared, degenerate. */
    double r[3][3], t[3] = {0.5, 1, -3};
    static const double ax[3] = {0.2, 1, -0.4};
    rotation(ax, 2.0, r);
    float m[12];
    static const double mirror_x[3] = {-1, 1, 1}, mirror_z[3] = {1, 1, -1};
    static const double nonuni[3] = {2, 1, 0.5}, uni[3] = {3, 3, 3};
    static const double mirror_scaled[3] = {1, -2, 1};
    compose(r, mirror_x, t, m);
    check_round_trip(m, 1, SKIN_NONRIGID_MIRROR, "mirrored x");
    compose(r, mirror_z, t, m);
    check_round_trip(m, 1, SKIN_NONRIGID_MIRROR, "mirrored z");
    compose(r, nonuni, t, m);
    check_round_trip(m, 1, SKIN_NONRIGID_SCALE | SKIN_NONRIGID_NONUNIFORM, "non-uniform scale");
    compose(r, uni, t, m);
    check_round_trip(m, 1, SKIN_NONRIGID_SCALE, "uniform scale 3");
    compose(r, mirror_scaled, t, m);
    check_round_trip(m, 1, SKIN_NONRIGID_SCALE | SKIN_NONRIGID_NONUNIFORM | SKIN_NONRIGID_MIRROR,
                     "mirrored y, scale 2");
    {
        float sc[3], dq[8];
        compose(r, nonuni, t, m);
        skin_matrix_to_dual_quat(m, dq, sc);
        CHECK_CLOSE(sc[0], 2.0, 1e-6);
        CHECK_CLOSE(sc[1], 1.0, 1e-6);
        CHECK_CLOSE(sc[2], 0.5, 1e-6);
        compose(r, mirror_z, t, m);
        skin_matrix_to_dual_quat(m, dq, sc);
        CHECK_CLOSE(sc[0], -1.0, 1e-6); /* the mirror is put on x */
        CHECK_CLOSE(sc[1], 1.0, 1e-6);
        CHECK_CLOSE(sc[2], 1.0, 1e-6);
    }
    /* Shear: M = R * [[1, 0.3, 0], [0, 1, 0], [0, 0, 1]]: columns 0 and 1
     * are no longer orthogonal. */
    float shear[12];
    for (int row = 0; row < 3; ++row) {
        shear[4 * row + 0] = (float)r[row][0];
        shear[4 * row + 1] = (float)(0.3 * r[row][0] + r[row][1]);
        shear[4 * row + 2] = (float)r[row][2];
        shear[4 * row + 3] = (float)t[row];
    }
    float dq[8], sc[3];
    uint32_t f = skin_matrix_to_dual_quat(shear, dq, sc);
    CHECK((f & SKIN_NONRIGID_SHEAR) != 0);
    CHECK((f & SKIN_NONRIGID_MIRROR) == 0);
    static const float flat[12] = {1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 1, 3}; /* y axis zero */
    f = skin_matrix_to_dual_quat(flat, dq, sc);
    CHECK((f & SKIN_NONRIGID_DEGENERATE) != 0);
    CHECK(isfinite(dq[0]) && isfinite(dq[3]) && isfinite(dq[4]) && isfinite(dq[7]));

    /* Palette form: counts what the output cannot represent. */
    float mats[5 * 12], dqs[5 * 8], scs[5 * 3];
    compose(r, one, t, mats);
    compose(r, uni, t, mats + 12);
    compose(r, nonuni, t, mats + 24);
    compose(r, mirror_x, t, mats + 36);
    memcpy(mats + 48, shear, sizeof shear);
    uint32_t count = 99;
    CHECK_STATUS(skin_matrices_to_dual_quats(5, mats, dqs, NULL, &count), SKIN_OK);
    CHECK_INT(count, 4); /* scale, non-uniform, mirror, shear */
    CHECK_STATUS(skin_matrices_to_dual_quats(5, mats, dqs, scs, &count), SKIN_OK);
    CHECK_INT(count, 1); /* only the shear */
    for (int j = 0; j < 5; ++j) {
        float one_dq[8], one_sc[3];
        skin_matrix_to_dual_quat(mats + 12 * j, one_dq, one_sc);
        CHECK(memcmp(one_dq, dqs + 8 * j, sizeof one_dq) == 0);
        CHECK(memcmp(one_sc, scs + 3 * j, sizeof one_sc) == 0);
    }
    CHECK_STATUS(skin_matrices_to_dual_quats(5, mats, dqs, scs, NULL), SKIN_OK);
    CHECK_STATUS(skin_matrices_to_dual_quats(0, mats, dqs, scs, &count), SKIN_ERROR_INVALID_COUNT);
    CHECK_STATUS(skin_matrices_to_dual_quats(5, NULL, dqs, scs, &count), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_matrices_to_dual_quats(5, mats, NULL, scs, &count), SKIN_ERROR_NULL_ARGUMENT);

    /* skin_dual_quat_to_matrix normalises a non-unit real part (and the dual
     * with it): 2 * dq gives the same matrix. */
    compose(r, one, t, m);
    skin_matrix_to_dual_quat(m, dq, NULL);
    float dq2[8], m1[12], m2[12];
    for (int e = 0; e < 8; ++e) dq2[e] = 2 * dq[e];
    skin_dual_quat_to_matrix(dq, NULL, m1);
    skin_dual_quat_to_matrix(dq2, NULL, m2);
    for (int e = 0; e < 12; ++e) CHECK_CLOSE_AT(m2[e], m1[e], 1e-6, "2*dq m[%d]", e);
    check_error_report("matrix <-> DQ non-rigid cases and palette form");
}

/* ------------------------------------------------- pose and inverse bind */
static void check_matrix(const float *m, const double *e, const char *what)
{
    for (int i = 0; i < 12; ++i) CHECK_CLOSE_AT(m[i], e[i], TOL, "%s m[%d]", what, i);
}

static void prop_pose(void)
{
    /* joint 0: root, T (1,0,0), R = Rz90, S = 2:
     *   model0 = [[0,-2,0 | 1], [2,0,0 | 0], [0,0,2 | 0]]
     * joint 1: parent 0, T (0,1,0): model1 = model0 * [I | (0,1,0)]:
     *   3x3 unchanged, t = model0 (0,1,0) = (1,0,0) + 2 Rz90 (0,1,0)
     *   = (1,0,0) + (-2,0,0) = (-1,0,0)
     * joint 2: parent 1, T (0,0,1), R = Rx90 ((x,y,z) -> (x,-z,y)), S (1,1,3):
     *   local 3x3 = Rx90 diag(1,1,3) = [[1,0,0],[0,0,-1],[0,1,0]] with column
     *   2 times 3 = [[1,0,0],[0,0,-3],[0,1,0]]
     *   model2 3x3 = [[0,-2,0],[2,0,0],[0,0,2]] * local = [[0,0,6],[2,0,0],[0,2,0]]
     *   t = model1 (0,0,1) = (-1,0,0) + (0,0,2) = (-1,0,2)
     * joint 3: root, identity (no scale, rotation, translation given: defaults
     *   are checked separately below). */
    static const int32_t parents[4] = {-1, 0, 1, -1};
    static const float tr[4 * 3] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    static const float rot[4 * 4] = {0, 0, (float)C, (float)C, 0, 0, 0, 1,
                                     (float)C, 0, 0, (float)C, 0, 0, 0, 1};
    static const float sc[4 * 3] = {2, 2, 2, 1, 1, 1, 1, 1, 3, 1, 1, 1};
    static const double e[4][12] = {
        {0, -2, 0, 1, 2, 0, 0, 0, 0, 0, 2, 0},
        {0, -2, 0, -1, 2, 0, 0, 0, 0, 0, 2, 0},
        {0, 0, 6, -1, 2, 0, 0, 0, 0, 2, 0, 2},
        {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0},
    };
    float model[4 * 12];
    CHECK_STATUS(skin_pose_to_matrices(4, parents, tr, rot, sc, model), SKIN_OK);
    check_matrix(model, e[0], "pose joint 0");
    check_matrix(model + 12, e[1], "pose joint 1");
    check_matrix(model + 24, e[2], "pose joint 2");
    check_matrix(model + 36, e[3], "pose joint 3");

    /* NULL translations/rotations/scales: identity locals. */
    float idm[4 * 12];
    CHECK_STATUS(skin_pose_to_matrices(4, parents, NULL, NULL, NULL, idm), SKIN_OK);
    for (int j = 0; j < 4; ++j) check_matrix(idm + 12 * j, e[3], "pose defaults");
    /* Translations only: they add up along the chain: joint 2 at (1,1,1). */
    CHECK_STATUS(skin_pose_to_matrices(4, parents, tr, NULL, NULL, idm), SKIN_OK);
    static const double e2[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    check_matrix(idm + 24, e2, "pose translations only, joint 2");

    /* A parent after its child, or a joint its own parent: rejected, and
     * nothing written. */
    static const int32_t bad1[4] = {-1, 2, 0, -1}, bad2[4] = {-1, 1, 1, -1};
    float canary[4 * 12];
    memset(canary, 0x5A, sizeof canary);
    memcpy(idm, canary, sizeof idm);
    CHECK_STATUS(skin_pose_to_matrices(4, bad1, tr, rot, sc, idm), SKIN_ERROR_INVALID_HIERARCHY);
    CHECK_STATUS(skin_pose_to_matrices(4, bad2, tr, rot, sc, idm), SKIN_ERROR_INVALID_HIERARCHY);
    CHECK(memcmp(idm, canary, sizeof idm) == 0);
    CHECK_STATUS(skin_pose_to_matrices(4, NULL, tr, rot, sc, idm), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_pose_to_matrices(4, parents, tr, rot, sc, NULL), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_pose_to_matrices(0, parents, tr, rot, sc, idm), SKIN_ERROR_INVALID_COUNT);
    CHECK(memcmp(idm, canary, sizeof idm) == 0);

    /* Inverse bind.  joint 0: inverse bind [I | (-1,-2,-3)]:
     *   t = model0 3x3 (-1,-2,-3) + (1,0,0) = (4,-2,-6) + (1,0,0) = (5,-2,-6).
     * joint 1: its true inverse: (2 Rz90)^-1 = 0.5 Rz(-90) =
     *   [[0,.5,0],[-.5,0,0],[0,0,.5]], t = -(that)(-1,0,0) = (0,-0.5,0):
     *   the product is the identity.
     * joint 2: identity inverse bind: model2.
     * joint 3: model3 = I, inverse bind [2 I | (1,1,1)]: itself. */
    static const float inv[4 * 12] = {
        1, 0, 0, -1, 0, 1, 0, -2, 0, 0, 1, -3,
        0, 0.5f, 0, 0, -0.5f, 0, 0, -0.5f, 0, 0, 0.5f, 0,
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
        2, 0, 0, 1, 0, 2, 0, 1, 0, 0, 2, 1,
    };
    static const double ei[4][12] = {
        {0, -2, 0, 5, 2, 0, 0, -2, 0, 0, 2, -6},
        {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0},
        {0, 0, 6, -1, 2, 0, 0, 0, 0, 2, 0, 2},
        {2, 0, 0, 1, 0, 2, 0, 1, 0, 0, 2, 1},
    };
    float out[4 * 12];
    CHECK_STATUS(skin_apply_inverse_bind(4, model, inv, out), SKIN_OK);
    for (int j = 0; j < 4; ++j) check_matrix(out + 12 * j, ei[j], "inverse bind");
    /* out may alias model */
    CHECK_STATUS(skin_apply_inverse_bind(4, model, inv, model), SKIN_OK);
    CHECK(memcmp(out, model, sizeof out) == 0);
    CHECK_STATUS(skin_apply_inverse_bind(0, model, inv, out), SKIN_ERROR_INVALID_COUNT);
    CHECK_STATUS(skin_apply_inverse_bind(4, NULL, inv, out), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_apply_inverse_bind(4, model, NULL, out), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_apply_inverse_bind(4, model, inv, NULL), SKIN_ERROR_NULL_ARGUMENT);
    check_error_report("skin_pose_to_matrices / skin_apply_inverse_bind by hand");
}

/* ------------------------------------------------------ weight helpers */
static void prop_normalize_weights(void)
{
    enum { V = 7 };
    float w[4][V] = {
        /* v0   v1  v2  v3        v4  v5    v6 */
        {1, 0, -1, INFINITY, -1, 0, 3},
        {1, 0, 3, 1, -2, 0, 1},
        {2, 0, 1, 0, 0, 0.5f, 0},
        {0, 0, NAN, 0, 0, 0, 0},
    };
    /* v0 (1,1,2,0)/4; v1 all zero -> slot 0; v2 negative and NaN dropped:
     * (0,3,1,0)/4; v3 inf dropped: (0,1,0,0); v4 all negative -> slot 0;
     * v5 (0,0,1,0); v6 (3,1,0,0)/4. */
    static const double e[4][V] = {
        {0.25, 1, 0, 0, 1, 0, 0.75},
        {0.25, 0, 0.75, 1, 0, 0, 0.25},
        {0.5, 0, 0.25, 0, 0, 1, 0},
        {0, 0, 0, 0, 0, 0, 0},
    };
    float *const slots[4] = {w[0], w[1], w[2], w[3]};
    CHECK_STATUS(skin_normalize_weights(V, 4, slots), SKIN_OK);
    for (int i = 0; i < 4; ++i)
        for (int v = 0; v < V; ++v) CHECK_CLOSE_AT(w[i][v], e[i][v], 1e-7, "normalized w[%d][%d]", i, v);
    /* The result validates. */
    float zeros[V] = {0};
    uint8_t j[V] = {0};
    skin_mesh_desc mesh = {V, zeros, zeros, zeros, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 4,
                           SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j, j, j, j}, {w[0], w[1], w[2], w[3]}, 0, NULL};
    skin_validation_report rep;
    CHECK_STATUS(skin_validate(&mesh, 1, &rep), SKIN_OK);
    CHECK_STATUS(skin_normalize_weights(V, 0, slots), SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_normalize_weights(V, 9, slots), SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_normalize_weights(V, 4, NULL), SKIN_ERROR_NULL_ARGUMENT);
    float *const holey[2] = {w[0], NULL};
    CHECK_STATUS(skin_normalize_weights(V, 2, holey), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_normalize_weights(0, 4, slots), SKIN_OK);
    check_error_report("skin_normalize_weights");
}

static void prop_deinterleave(void)
{
    enum { V = 300 };
    static uint16_t in_j16[2][4 * V];
    static uint8_t in_j8[2][4 * V];
    static float in_w[2][4 * V];
    uint64_t s = 777;
    for (int set = 0; set < 2; ++set)
        for (int i = 0; i < 4 * V; ++i) {
            in_j16[set][i] = (uint16_t)(rig_next(&s) % 1000);
            in_j8[set][i] = (uint8_t)(in_j16[set][i] % 256);
            float w = rig_uniform(&s, -0.2f, 1.0f);
            in_w[set][i] = w < 0.1f ? 0.0f : w; /* some zeros, some negative kept */
            if (w < -0.1f) in_w[set][i] = w;
        }
    /* A few special vertices: all zero, one-hot, exactly equal weights. */
    for (int set = 0; set < 2; ++set)
        for (int i = 0; i < 4; ++i) {
            in_w[set][4 * 0 + i] = 0;
            in_w[set][4 * 1 + i] = (set == 0 && i == 2) ? 5.0f : 0.0f;
            in_w[set][4 * 2 + i] = 1.0f;
        }

    static const skin_joint_format jfs[2] = {SKIN_JOINT_U8, SKIN_JOINT_U16};
    static const skin_weight_format wfs[3] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16,
                                              SKIN_WEIGHT_UNORM8};
    static uint16_t oj[8][V];
    void *ow[8]; /* malloc'd: any element type may be stored */
    for (int i = 0; i < 8; ++i)
        if (!(ow[i] = malloc(V * sizeof(float)))) abort();
    for (uint32_t sets = 1; sets <= 2; ++sets)
        for (int ji = 0; ji < 2; ++ji)
            for (int jo = 0; jo < 2; ++jo)
                for (int wo = 0; wo < 3; ++wo) {
                    const skin_joint_format jin = jfs[ji], jout = jfs[jo];
                    const skin_weight_format wfmt = wfs[wo];
                    /* u16 input with joints >= 256 cannot go to u8: use the
                     * u8-range copy of the joints as u16 input then. */
                    static uint16_t in_small[2][4 * V];
                    for (int set = 0; set < 2; ++set)
                        for (int i = 0; i < 4 * V; ++i) in_small[set][i] = in_j8[set][i];
                    const void *js[2];
                    for (int set = 0; set < 2; ++set)
                        js[set] = jin == SKIN_JOINT_U8 ? (const void *)in_j8[set]
                                  : jout == SKIN_JOINT_U8 ? (const void *)in_small[set]
                                                          : (const void *)in_j16[set];
                    const float *ws[2] = {in_w[0], in_w[1]};
                    void *jo_p[8], *wo_p[8];
                    for (int i = 0; i < 8; ++i) jo_p[i] = oj[i], wo_p[i] = ow[i];
                    memset(oj, 0, sizeof oj);
                    for (int i = 0; i < 8; ++i) memset(ow[i], 0, V * sizeof(float));
                    CHECK_STATUS(skin_deinterleave_influences(V, sets, jin, js, ws, jout, wfmt,
                                                              jo_p, wo_p),
                                 SKIN_OK);
                    const uint32_t k = 4 * sets;
                    const double one = wfmt == SKIN_WEIGHT_UNORM16 ? 65535
                                       : wfmt == SKIN_WEIGHT_UNORM8 ? 255 : 1;
                    int bad = 0;
                    uint32_t max_joint = 0;
                    for (size_t v = 0; v < V && bad < 5; ++v) {
                        double w[8], sum = 0;
                        for (uint32_t i = 0; i < k; ++i) {
                            size_t at = 4 * v + (i & 3);
                            uint32_t want = jin == SKIN_JOINT_U8 ? in_j8[i >> 2][at]
                                            : jout == SKIN_JOINT_U8 ? in_small[i >> 2][at]
                                                                    : in_j16[i >> 2][at];
                            uint32_t got = jout == SKIN_JOINT_U8 ? ((uint8_t *)oj[i])[v]
                                                                 : ((uint16_t *)oj[i])[v];
                            if (got != want) {
                                ++bad;
                                fprintf(stderr, "FAILED: deinterleave v%zu slot %u joint %u != %u\n",
                                        v, i, got, want);
                            }
                            if (got > max_joint) max_joint = got;
                            float x = in_w[i >> 2][at];
                            w[i] = x > 0 ? x : 0;
                            sum += w[i];
                        }
                        uint32_t largest = 0;
                        for (uint32_t i = 0; i < k; ++i) {
                            w[i] = sum > 0 ? w[i] / sum : (i == 0 ? 1 : 0);
                            if (w[i] > w[largest]) largest = i;
                        }
                        long isum = 0;
                        for (uint32_t i = 0; i < k; ++i) {
                            double got;
                            if (wfmt == SKIN_WEIGHT_F32) {
                                got = ((float *)ow[i])[v];
                                double err = fabs(got - w[i]);
                                if (err > check_max_error) check_max_error = err;
                                if (err > 1e-6) ++bad;
                            } else {
                                long q = wfmt == SKIN_WEIGHT_UNORM16 ? ((uint16_t *)ow[i])[v]
                                                                     : ((uint8_t *)ow[i])[v];
                                isum += q;
                                /* rounded; the largest also takes the remainder */
                                double slack = i == largest ? 0.5 * k : 0.5 + 1e-9;
                                if (fabs((double)q - w[i] * one) > slack) ++bad;
                            }
                        }
                        if (wfmt != SKIN_WEIGHT_F32 && isum != (long)one) {
                            ++bad;
                            fprintf(stderr, "FAILED: deinterleave v%zu unorm sum %ld != %ld\n", v,
                                    isum, (long)one);
                        }
                    }
                    if (bad) {
                        ++check_failed_count;
                        fprintf(stderr, "FAILED: deinterleave sets=%u in=%d out=%d w=%d\n", sets,
                                (int)jin, (int)jout, (int)wfmt);
                    } else {
                        ++check_passed_count;
                    }
                    /* skin_validate accepts what it produced. */
                    static float zeros[V];
                    skin_mesh_desc mesh = {V, zeros, zeros, zeros, NULL, NULL, NULL, NULL,
                                           NULL, NULL, NULL, k, jout, wfmt, {0}, {0}, 0, NULL};
                    for (uint32_t i = 0; i < k; ++i) mesh.joints[i] = oj[i], mesh.weights[i] = ow[i];
                    skin_validation_report rep;
                    CHECK_STATUS(skin_validate(&mesh, max_joint + 1, &rep), SKIN_OK);
                }
    for (int i = 0; i < 8; ++i) free(ow[i]);
    check_error_report("skin_deinterleave_influences f32 weights (abs. error)");

    /* A u16 joint that does not fit u8: INVALID_FORMAT, no output touched
     * (not even the vertices before the offending one). */
    uint16_t j16[4 * 6] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 300, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    float w4[4 * 6];
    for (int i = 0; i < 24; ++i) w4[i] = 0.25f;
    uint8_t o8[4][6];
    float of[4][6];
    memset(o8, 0xEE, sizeof o8);
    memset(of, 0xEE, sizeof of);
    const void *js[1] = {j16};
    const float *ws[1] = {w4};
    void *jo_p[4] = {o8[0], o8[1], o8[2], o8[3]}, *wo_p[4] = {of[0], of[1], of[2], of[3]};
    CHECK_STATUS(skin_deinterleave_influences(6, 1, SKIN_JOINT_U16, js, ws, SKIN_JOINT_U8,
                                              SKIN_WEIGHT_F32, jo_p, wo_p),
                 SKIN_ERROR_INVALID_FORMAT);
    for (int i = 0; i < 4; ++i)
        for (int v = 0; v < 6; ++v) CHECK_INT(o8[i][v], 0xEE);
    CHECK_STATUS(skin_deinterleave_influences(6, 3, SKIN_JOINT_U16, js, ws, SKIN_JOINT_U16,
                                              SKIN_WEIGHT_F32, jo_p, wo_p),
                 SKIN_ERROR_INVALID_INFLUENCES);
    CHECK_STATUS(skin_deinterleave_influences(6, 1, SKIN_JOINT_U16, js, ws, SKIN_JOINT_U16,
                                              (skin_weight_format)9, jo_p, wo_p),
                 SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_deinterleave_influences(6, 1, SKIN_JOINT_U16, NULL, ws, SKIN_JOINT_U16,
                                              SKIN_WEIGHT_F32, jo_p, wo_p),
                 SKIN_ERROR_NULL_ARGUMENT);
}

int main(void)
{
    prop_dqs_equals_lbs_rigid();
    prop_negation();
    prop_identity();
    prop_matrix_dual_quat();
    prop_pose();
    prop_normalize_weights();
    prop_deinterleave();
    return check_finish("test_properties");
}
