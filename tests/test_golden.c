/* SPDX-License-Identifier: MIT */
/* Golden cases: skin_mesh against numbers computed by hand.
 *
 * A palette of 8 joints, each written out twice by hand (3x4 matrix and dual
 * quaternion), and a table of vertices whose skinned results were derived on
 * paper (see the comment on each case).  Every case is run through LBS and
 * DQS with 1, 2, 4 and 8 influence slots (unused slots padded with weight
 * 0), every joint format (u8, u16) and weight format (f32, unorm16, unorm8),
 * and several outputs: an interleaved 40-byte vertex, separate tight arrays,
 * planar SoA streams, positions alone in a padded stride, normalised normals
 * and streaming stores; bounds are checked against the hand values too.
 *
 * Weights are written in fifteenths so they are exact in every format:
 * 1/15 = 17/255 = 4369/65535. */
#include "check.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define TOL 1e-5
#define SQRT2 1.41421356237309504880
#define C 0.70710678118654752440 /* sqrt(1/2) = cos 45 = sin 45 */

/* ---------------------------------------------------------------- palette
 * J0 identity.
 * J1 translate (1,2,3).           dual = 0.5 (t,0) (0,0,0,1) = (0.5, 1, 1.5, 0)
 * J2 rotate +90 about z:          (x,y,z) -> (-y,x,z); q = (0,0,C,C), dual 0
 * J3 J2 then translate (10,0,0):  dual = 0.5 (t,0) q
 *      = 0.5 (t0 qw + t1 qz - t2 qy, t1 qw + t2 qx - t0 qz, t2 qw + t0 qy - t1 qx, -t.q)
 *      = 0.5 (10C, -10C, 0, 0) = (5C, -5C, 0, 0)
 * J4 the same transform as J2 with the antipodal dual quaternion -q.
 * J5 rotate 180 about x (x,y,z) -> (x,-y,-z), q = (1, 0, 0, 1e-7)
 * J6 the same rotation, q = (-1, 0, 0, 1e-7) (1e-7: both have a tiny
 *    positive dot with J2's q, yet cancel each other when blended).
 * J7 translate (0,5,0):           dual = (0, 2.5, 0, 0). */
static const float golden_matrices[8 * 12] = {
    1, 0, 0, 0,   0, 1, 0, 0,   0, 0, 1, 0,  /* J0 */
    1, 0, 0, 1,   0, 1, 0, 2,   0, 0, 1, 3,  /* J1 */
    0, -1, 0, 0,  1, 0, 0, 0,   0, 0, 1, 0,  /* J2 */
    0, -1, 0, 10, 1, 0, 0, 0,   0, 0, 1, 0,  /* J3 */
    0, -1, 0, 0,  1, 0, 0, 0,   0, 0, 1, 0,  /* J4 */
    1, 0, 0, 0,   0, -1, 0, 0,  0, 0, -1, 0, /* J5 */
    1, 0, 0, 0,   0, -1, 0, 0,  0, 0, -1, 0, /* J6 */
    1, 0, 0, 0,   0, 1, 0, 5,   0, 0, 1, 0,  /* J7 */
};
static const float golden_dual_quats[8 * 8] = {
    0, 0, 0, 1,             0, 0, 0, 0,                  /* J0 */
    0, 0, 0, 1,             0.5f, 1, 1.5f, 0,            /* J1 */
    0, 0, (float)C, (float)C, 0, 0, 0, 0,                /* J2 */
    0, 0, (float)C, (float)C, (float)(5 * C), (float)(-5 * C), 0, 0, /* J3 */
    0, 0, (float)-C, (float)-C, 0, 0, 0, 0,              /* J4 */
    1, 0, 0, 1e-7f,         0, 0, 0, 0,                  /* J5 */
    -1, 0, 0, 1e-7f,        0, 0, 0, 0,                  /* J6 */
    0, 0, 0, 1,             0, 2.5f, 0, 0,               /* J7 */
};
#define GOLDEN_JOINTS 8

/* ------------------------------------------------------------------ cases */
typedef struct golden_case {
    const char *name;
    uint32_t slots;       /* influence slots the case needs */
    uint16_t joint[4];
    int w15[4];           /* weights in fifteenths */
    float p[3], n[3], t[4];
    double lbs_p[3], lbs_n[3], lbs_t[3];
    int dqs_checked;      /* 0: DQS result not computed by hand */
    double dqs_p[3], dqs_n[3], dqs_t[3];
} golden_case;

/* DQS of case C: blending identity (1/3) and q = (0,0,C,C) (2/3) gives a
 * rotation about z by theta with tan(theta/2) = (2/3 C) / (1/3 + 2/3 C)
 * = 2C / (1 + 2C) = 2 - sqrt2.  With u = tan(theta/2), u^2 = 6 - 4 sqrt2:
 * cos theta = (1-u^2)/(1+u^2) = (4 sqrt2 - 5)/(7 - 4 sqrt2) = (8 sqrt2 - 3)/17,
 * sin theta = 2u/(1+u^2) = (4 - 2 sqrt2)/(7 - 4 sqrt2) = (12 + 2 sqrt2)/17. */
#define COS_T ((8 * SQRT2 - 3) / 17) /* 0.48904 */
#define SIN_T ((12 + 2 * SQRT2) / 17) /* 0.87226 */

static const golden_case golden_cases[] = {
    /* A: one influence, J3: p (1,0,0) -> rotate (0,1,0) -> + (10,0,0);
     * n (1,0,0) -> (0,1,0); t (0,1,0) -> (-1,0,0), w copied. */
    {"A 1 inf J3", 1, {3}, {15}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0, -1},
     {10, 1, 0}, {0, 1, 0}, {-1, 0, 0}, 1, {10, 1, 0}, {0, 1, 0}, {-1, 0, 0}},
    /* B: one influence, J1: p + (1,2,3); directions unchanged. */
    {"B 1 inf J1", 1, {1}, {15}, {1, 1, 1}, {0, 0, 1}, {1, 0, 0, 1},
     {2, 3, 4}, {0, 0, 1}, {1, 0, 0}, 1, {2, 3, 4}, {0, 0, 1}, {1, 0, 0}},
    /* I: joint 200 >= joint_count 8 is clamped to J7: p + (0,5,0). */
    {"I clamp 200->J7", 1, {200}, {15}, {1, 0, 0}, {0, 0, 1}, {1, 0, 0, 1},
     {1, 5, 0}, {0, 0, 1}, {1, 0, 0}, 1, {1, 5, 0}, {0, 0, 1}, {1, 0, 0}},
    /* C: J0 1/3 + J2 2/3.  LBS: M = I/3 + 2/3 Rz90: (1,0,0) -> (1/3, 2/3, 0)
     * for p and n; t (0,1,0) -> 1/3 (0,1,0) + 2/3 (-1,0,0) = (-2/3, 1/3, 0).
     * DQS: rotation by theta (see COS_T): p, n -> (cos, sin, 0),
     * t -> (-sin, cos, 0). */
    {"C 2 inf J0+J2", 2, {0, 2}, {5, 10}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0, 1},
     {1.0 / 3, 2.0 / 3, 0}, {1.0 / 3, 2.0 / 3, 0}, {-2.0 / 3, 1.0 / 3, 0},
     1, {COS_T, SIN_T, 0}, {COS_T, SIN_T, 0}, {-SIN_T, COS_T, 0}},
    /* D: pure translations J1 1/3 + J7 2/3, p = 0: 1/3 (1,2,3) + 2/3 (0,5,0)
     * = (1/3, 4, 1); DQS blends the duals linearly: same. */
    {"D 2 inf J1+J7", 2, {1, 7}, {5, 10}, {0, 0, 0}, {0, 1, 0}, {1, 0, 0, -1},
     {1.0 / 3, 4, 1}, {0, 1, 0}, {1, 0, 0}, 1, {1.0 / 3, 4, 1}, {0, 1, 0}, {1, 0, 0}},
    /* J: joint 255 clamps to J7; same numbers as D. */
    {"J clamp 255->J7", 2, {1, 255}, {5, 10}, {0, 0, 0}, {0, 1, 0}, {1, 0, 0, -1},
     {1.0 / 3, 4, 1}, {0, 1, 0}, {1, 0, 0}, 1, {1.0 / 3, 4, 1}, {0, 1, 0}, {1, 0, 0}},
    /* H: all weights zero.  LBS: M = 0, everything 0 (tw still copied).
     * DQS: |b.real| = 0 < 1e-6 -> the pivot (slot 0, J3) alone, as in A. */
    {"H zero weights", 2, {3, 1}, {0, 0}, {1, 0, 0}, {1, 0, 0}, {0, 1, 0, -1},
     {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1, {10, 1, 0}, {0, 1, 0}, {-1, 0, 0}},
    /* G: J2 0, J5 7/15, J6 7/15.  LBS: M = 14/15 diag(1,-1,-1):
     * p (1,0,0) -> (14/15,0,0); n (0,1,0) -> (0,-14/15,0); t (1,0,0) ->
     * (14/15,0,0).  DQS: the pivot is J5 (largest weight, lowest slot on the
     * tie), not the zero-weight J2; J6 has a negative dot with J5 and is
     * flipped, so b.real = 7/15 (2,0,0,0): the 180 degree turn about x,
     * p -> (1,0,0), n -> (0,-1,0), t -> (1,0,0).  (With J2 as the pivot both
     * dots are positive, the real parts cancel and the fallback would give
     * J2's 90 degrees about z.) */
    {"G DQS pivot = largest weight", 3, {2, 5, 6}, {0, 7, 7}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0, 1},
     {14.0 / 15, 0, 0}, {0, -14.0 / 15, 0}, {14.0 / 15, 0, 0},
     1, {1, 0, 0}, {0, -1, 0}, {1, 0, 0}},
    /* E: J0 3/15, J1 3/15, J2 4/15, J3 5/15 at p (1,1,1): the joints send p to
     * (1,1,1), (2,3,4), (-1,1,1), (9,1,1); LBS = ((3+6-4+45)/15, (3+9+4+5)/15,
     * (3+12+4+5)/15) = (10/3, 1.4, 1.6).  n (1,0,0): J0,J1 keep it, J2,J3 give
     * (0,1,0): (6/15, 9/15, 0).  t (0,0,1) is on every rotation axis.
     * (DQS of mixed rotations is not done by hand: see F.) */
    {"E 4 inf mixed", 4, {0, 1, 2, 3}, {3, 3, 4, 5}, {1, 1, 1}, {1, 0, 0}, {0, 0, 1, 1},
     {10.0 / 3, 1.4, 1.6}, {0.4, 0.6, 0}, {0, 0, 1}, 0, {0}, {0}, {0}},
    /* F: J2 3/15, J4 4/15 (antipodal to J2), J3 5/15, J2 3/15: all rotate by
     * Rz90, J3 adds (10,0,0) with weight 1/3.  p (1,2,3) -> (-2,1,3) +
     * (10/3,0,0) = (4/3, 1, 3); n (1,0,0) -> (0,1,0); t (0,1,0) -> (-1,0,0).
     * DQS: with the sign flip of J4 the real parts add to q with weight 1 and
     * the dual to 1/3 of J3's: the same.  (Without the flip: p.x = 10*5/7-2.) */
    {"F 4 inf antipodal", 4, {2, 4, 3, 2}, {3, 4, 5, 3}, {1, 2, 3}, {1, 0, 0}, {0, 1, 0, 1},
     {4.0 / 3, 1, 3}, {0, 1, 0}, {-1, 0, 0}, 1, {4.0 / 3, 1, 3}, {0, 1, 0}, {-1, 0, 0}},
};
#define CASES ((int)(sizeof golden_cases / sizeof golden_cases[0]))
#define PAD_JOINT 3 /* zero-weight padding slots point at a joint that moves */

/* ------------------------------------------------------------ mesh build */
typedef struct golden_mesh {
    skin_mesh_desc mesh;
    int case_of[CASES]; /* vertex -> case index */
    float s[10][CASES];
    uint8_t j8[8][CASES];
    uint16_t j16[8][CASES];
    float wf[8][CASES];
    uint16_t w16[8][CASES];
    uint8_t w8[8][CASES];
} golden_mesh;

static void build_mesh(golden_mesh *g, uint32_t k, skin_joint_format jf, skin_weight_format wf)
{
    memset(g, 0, sizeof *g);
    size_t n = 0;
    for (int c = 0; c < CASES; ++c) {
        const golden_case *gc = &golden_cases[c];
        if (gc->slots > k) continue;
        g->case_of[n] = c;
        for (int e = 0; e < 3; ++e) {
            g->s[e][n] = gc->p[e];
            g->s[3 + e][n] = gc->n[e];
        }
        for (int e = 0; e < 4; ++e) g->s[6 + e][n] = gc->t[e];
        for (uint32_t i = 0; i < k; ++i) {
            uint16_t j = i < gc->slots ? gc->joint[i] : PAD_JOINT;
            int w = i < gc->slots ? gc->w15[i] : 0;
            g->j8[i][n] = (uint8_t)j;
            g->j16[i][n] = j;
            g->wf[i][n] = (float)w / 15.0f;
            g->w16[i][n] = (uint16_t)(w * 4369);
            g->w8[i][n] = (uint8_t)(w * 17);
        }
        ++n;
    }
    skin_mesh_desc *m = &g->mesh;
    m->vertex_count = n;
    m->px = g->s[0], m->py = g->s[1], m->pz = g->s[2];
    m->nx = g->s[3], m->ny = g->s[4], m->nz = g->s[5];
    m->tx = g->s[6], m->ty = g->s[7], m->tz = g->s[8], m->tw = g->s[9];
    m->influence_count = k;
    m->joint_format = jf;
    m->weight_format = wf;
    for (uint32_t i = 0; i < k; ++i) {
        m->joints[i] = jf == SKIN_JOINT_U8 ? (const void *)g->j8[i] : (const void *)g->j16[i];
        m->weights[i] = wf == SKIN_WEIGHT_F32       ? (const void *)g->wf[i]
                        : wf == SKIN_WEIGHT_UNORM16 ? (const void *)g->w16[i]
                                                    : (const void *)g->w8[i];
    }
}

/* --------------------------------------------------------------- outputs */
typedef struct vertex40 {
    float p[3], n[3], t[4];
} vertex40;
_Static_assert(sizeof(vertex40) == 40, "interleaved vertex is 40 bytes");

enum { OUT_INTERLEAVED, OUT_SOA_NORMALIZE, OUT_POSITIONS_PADDED, OUT_STREAMING_NORMALIZE,
       OUT_SEPARATE, OUT_KINDS };
static const char *const out_names[OUT_KINDS] = {"interleaved40", "soa+normalize",
                                                 "positions stride 16", "streaming+normalize",
                                                 "separate arrays 12/12/16"};

static void expected_dir(const double *v, int normalize, double out[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int e = 0; e < 3; ++e) out[e] = normalize && len > 0 ? v[e] / len : v[e];
}

/* 1 if all bytes still hold the 0xA5 canary. */
static int untouched(const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != 0xA5) return 0;
    return 1;
}

static void run_variant(const golden_mesh *g, skin_method method, int kind, const char *label)
{
    const skin_palette pal = {GOLDEN_JOINTS, golden_matrices, NULL, golden_dual_quats, NULL, NULL};
    const size_t n = g->mesh.vertex_count;
    vertex40 inter[CASES + 2];
    float soa[10][CASES + 2];
    float padded[4 * (CASES + 2)];
    float sep_p[3 * (CASES + 2)], sep_n[3 * (CASES + 2)], sep_t[4 * (CASES + 2)];
    float bounds[6];
    memset(sep_p, 0xA5, sizeof sep_p);
    memset(sep_n, 0xA5, sizeof sep_n);
    memset(sep_t, 0xA5, sizeof sep_t);
    memset(inter, 0xA5, sizeof inter);
    memset(soa, 0xA5, sizeof soa);
    memset(padded, 0xA5, sizeof padded);

    skin_output out = {0};
    out.bounds = bounds;
    int normalize = kind == OUT_SOA_NORMALIZE || kind == OUT_STREAMING_NORMALIZE;
    int with_nt = kind != OUT_POSITIONS_PADDED;
    if (normalize) out.flags |= SKIN_OUTPUT_NORMALIZE;
    if (kind == OUT_STREAMING_NORMALIZE) out.flags |= SKIN_OUTPUT_STREAMING;
    if (kind == OUT_SOA_NORMALIZE) {
        out.layout = SKIN_LAYOUT_SOA;
        for (int c = 0; c < 10; ++c) out.soa[c] = soa[c] + 1; /* element 0 at [1] */
    } else if (kind == OUT_POSITIONS_PADDED) {
        out.position = padded + 4; /* element 0 at float 4 */
        out.position_stride = 16;
    } else if (kind == OUT_SEPARATE) { /* element 0 at element 1 of each array */
        out.position = sep_p + 3, out.position_stride = 12;
        out.normal = sep_n + 3, out.normal_stride = 12;
        out.tangent = sep_t + 4, out.tangent_stride = 16;
    } else {
        out.position = inter[1].p, out.position_stride = sizeof(vertex40);
        out.normal = inter[1].n, out.normal_stride = sizeof(vertex40);
        out.tangent = inter[1].t, out.tangent_stride = sizeof(vertex40);
    }
    CHECK_STATUS(skin_mesh(&g->mesh, &pal, method, &out, 0, n), SKIN_OK);

    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int checked = 0;
    for (size_t v = 0; v < n; ++v) {
        const golden_case *gc = &golden_cases[g->case_of[v]];
        const double *ep = method == SKIN_LBS ? gc->lbs_p : gc->dqs_p;
        const double *en = method == SKIN_LBS ? gc->lbs_n : gc->dqs_n;
        const double *et = method == SKIN_LBS ? gc->lbs_t : gc->dqs_t;
        float p[3] = {0}, nn[3] = {0}, t[4] = {0};
        for (int e = 0; e < 3; ++e) {
            if (kind == OUT_SOA_NORMALIZE) {
                p[e] = soa[e][1 + v], nn[e] = soa[3 + e][1 + v], t[e] = soa[6 + e][1 + v];
            } else if (kind == OUT_POSITIONS_PADDED) {
                p[e] = padded[4 + 4 * v + e];
            } else if (kind == OUT_SEPARATE) {
                p[e] = sep_p[3 + 3 * v + e], nn[e] = sep_n[3 + 3 * v + e], t[e] = sep_t[4 + 4 * v + e];
            } else {
                p[e] = inter[1 + v].p[e], nn[e] = inter[1 + v].n[e], t[e] = inter[1 + v].t[e];
            }
        }
        t[3] = kind == OUT_SOA_NORMALIZE ? soa[9][1 + v]
               : kind == OUT_SEPARATE    ? sep_t[4 + 4 * v + 3]
                                         : inter[1 + v].t[3];
        if (method == SKIN_DQS && !gc->dqs_checked) {
            /* Not hand computed: still finite, still inside the bounds. */
            for (int e = 0; e < 3; ++e) {
                CHECK(isfinite(p[e]));
                lo[e] = fmin(lo[e], p[e]), hi[e] = fmax(hi[e], p[e]);
            }
            continue;
        }
        ++checked;
        double dn[3], dt[3];
        expected_dir(en, normalize, dn);
        expected_dir(et, normalize, dt);
        for (int e = 0; e < 3; ++e) {
            CHECK_CLOSE_AT(p[e], ep[e], TOL, "%s %s case %s p[%d]", label, out_names[kind],
                           gc->name, e);
            lo[e] = fmin(lo[e], ep[e]), hi[e] = fmax(hi[e], ep[e]);
            if (!with_nt) continue;
            CHECK_CLOSE_AT(nn[e], dn[e], TOL, "%s %s case %s n[%d]", label, out_names[kind],
                           gc->name, e);
            CHECK_CLOSE_AT(t[e], dt[e], TOL, "%s %s case %s t[%d]", label, out_names[kind],
                           gc->name, e);
        }
        if (with_nt) CHECK(t[3] == gc->t[3]); /* tangent w copied exactly */
    }
    CHECK(checked > 0);
    for (int e = 0; e < 3; ++e) {
        CHECK_CLOSE_AT(bounds[e], lo[e], TOL, "%s %s bounds min[%d]", label, out_names[kind], e);
        CHECK_CLOSE_AT(bounds[3 + e], hi[e], TOL, "%s %s bounds max[%d]", label,
                       out_names[kind], e);
    }

    /* Nothing outside the range (and, for the padded stride, between the
     * elements) was written. */
    if (kind == OUT_SOA_NORMALIZE) {
        for (int c = 0; c < 10; ++c) {
            CHECK(untouched(&soa[c][0], sizeof(float)));
            CHECK(untouched(&soa[c][1 + n], sizeof(float) * (CASES + 1 - n)));
        }
    } else if (kind == OUT_POSITIONS_PADDED) {
        CHECK(untouched(padded, 16));
        for (size_t v = 0; v < n; ++v) CHECK(untouched(&padded[4 + 4 * v + 3], 4));
        CHECK(untouched(&padded[4 + 4 * n], sizeof(float) * 4 * (CASES + 1 - n)));
    } else if (kind == OUT_SEPARATE) {
        CHECK(untouched(sep_p, 12) && untouched(sep_n, 12) && untouched(sep_t, 16));
        CHECK(untouched(&sep_p[3 + 3 * n], sizeof(float) * 3 * (CASES + 1 - n)));
        CHECK(untouched(&sep_n[3 + 3 * n], sizeof(float) * 3 * (CASES + 1 - n)));
        CHECK(untouched(&sep_t[4 + 4 * n], sizeof(float) * 4 * (CASES + 1 - n)));
    } else {
        CHECK(untouched(&inter[0], sizeof inter[0]));
        CHECK(untouched(&inter[1 + n], sizeof inter[0] * (CASES + 1 - n)));
    }
}

static void golden_table(void)
{
    static const uint32_t ks[] = {1, 2, 4, 8};
    static const skin_joint_format jfs[] = {SKIN_JOINT_U8, SKIN_JOINT_U16};
    static const skin_weight_format wfs[] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16,
                                             SKIN_WEIGHT_UNORM8};
    static const char *const jnames[] = {"u8", "u16"};
    static const char *const wnames[] = {"f32", "unorm16", "unorm8"};
    golden_mesh g;
    for (int m = 0; m < 2; ++m) {
        skin_method method = m ? SKIN_DQS : SKIN_LBS;
        for (size_t ki = 0; ki < 4; ++ki)
            for (int ji = 0; ji < 2; ++ji)
                for (int wi = 0; wi < 3; ++wi) {
                    build_mesh(&g, ks[ki], jfs[ji], wfs[wi]);
                    char label[64];
                    snprintf(label, sizeof label, "%s k=%u %s/%s", m ? "DQS" : "LBS",
                             (unsigned)ks[ki], jnames[ji], wnames[wi]);
                    for (int kind = 0; kind < OUT_KINDS; ++kind) run_variant(&g, method, kind, label);
                }
        check_error_report(m ? "golden table DQS (k=1,2,4,8; all formats and outputs)"
                             : "golden table LBS (k=1,2,4,8; all formats and outputs)");
    }
}

/* DQS with per-joint scale, and LBS with normal matrices, by hand.
 * K0: scale (2,1,1), then Rz90, then translate (0,0,1).
 *     dual = 0.5 (t,0) q = 0.5 (0, 0, 1*C, -1*C) = (0, 0, C/2, -C/2).
 *     LBS matrix R S = [[0,-1,0],[2,0,0],[0,0,1]] | (0,0,1);
 *     normal matrix (R S)^-T = R S^-1 = [[0,-1,0],[0.5,0,0],[0,0,1]].
 * K1: scale 2, K2: scale 4 (identity rotation, no translation).
 * v0 = K0 alone: p (1,1,0) -> scale (2,1,0) -> Rz90 (-1,2,0) -> + t = (-1,2,1);
 *     n (1,0,0) -> / scale (0.5,0,0) -> (0,0.5,0); normalised (0,1,0);
 *     t (1,0,0) -> * scale (2,0,0) -> (0,2,0).  LBS: the same (n through the
 *     normal matrix, t through the matrix: R S (1,0,0) = (0,2,0)).
 * v1 = K1 1/2 + K2 1/2: blended scale 3: p (1,0,0) -> (3,0,0);
 *     DQS n (0,1,0) -> (0,1/3,0), t (0,0,1) -> (0,0,3);
 *     LBS normal matrix 1/2 (I/2) + 1/2 (I/4) = 3/8 I: n -> (0,3/8,0);
 *     t through 3 I: (0,0,3).
 * v2 = K0 and K1, both weight 0: DQS falls back to the pivot K0's own
 *     transform, scale included: as v0.  LBS: M = 0, all zero. */
static void golden_scale(void)
{
    static const float dq[3 * 8] = {
        0, 0, (float)C, (float)C, 0, 0, (float)(C / 2), (float)(-C / 2),
        0, 0, 0, 1, 0, 0, 0, 0,
        0, 0, 0, 1, 0, 0, 0, 0,
    };
    static const float scales[3 * 3] = {2, 1, 1, 2, 2, 2, 4, 4, 4};
    static const float mats[3 * 12] = {
        0, -1, 0, 0, 2, 0, 0, 0, 0, 0, 1, 1,
        2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0,
        4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4, 0,
    };
    static const float nmats[3 * 9] = {
        0, -1, 0, 0.5f, 0, 0, 0, 0, 1,
        0.5f, 0, 0, 0, 0.5f, 0, 0, 0, 0.5f,
        0.25f, 0, 0, 0, 0.25f, 0, 0, 0, 0.25f,
    };
    enum { V = 3 };
    static const float px[V] = {1, 1, 1}, py[V] = {1, 0, 1}, pz[V] = {0, 0, 0};
    static const float nx[V] = {1, 0, 1}, ny[V] = {0, 1, 0}, nz[V] = {0, 0, 0};
    static const float tx[V] = {1, 0, 1}, ty[V] = {0, 0, 0}, tz[V] = {0, 1, 0};
    static const float tw[V] = {1, -1, 1};
    static const uint8_t j0[V] = {0, 1, 0}, j1[V] = {1, 2, 1};
    static const float w0[V] = {1, 0.5f, 0}, w1[V] = {0, 0.5f, 0};
    skin_mesh_desc mesh = {V, px, py, pz, nx, ny, nz, tx, ty, tz, tw, 2,
                           SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j0, j1}, {w0, w1}, 0, NULL};
    skin_palette pal = {3, mats, nmats, dq, scales, NULL};
    static const double dqs_p[V][3] = {{-1, 2, 1}, {3, 0, 0}, {-1, 2, 1}};
    static const double dqs_n[V][3] = {{0, 0.5, 0}, {0, 1.0 / 3, 0}, {0, 0.5, 0}};
    static const double dqs_t[V][3] = {{0, 2, 0}, {0, 0, 3}, {0, 2, 0}};
    static const double lbs_p[V][3] = {{-1, 2, 1}, {3, 0, 0}, {0, 0, 0}};
    static const double lbs_n[V][3] = {{0, 0.5, 0}, {0, 0.375, 0}, {0, 0, 0}};
    static const double lbs_t[V][3] = {{0, 2, 0}, {0, 0, 3}, {0, 0, 0}};

    for (int normalize = 0; normalize < 2; ++normalize)
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            const int is_dqs = method == SKIN_DQS;
            vertex40 o[V];
            float bounds[6];
            skin_output out = {.layout = SKIN_LAYOUT_STRIDED,
                               .flags = normalize ? SKIN_OUTPUT_NORMALIZE : 0u,
                               .position = o[0].p, .position_stride = 40,
                               .normal = o[0].n, .normal_stride = 40,
                               .tangent = o[0].t, .tangent_stride = 40,
                               .bounds = bounds};
            memset(o, 0, sizeof o);
            CHECK_STATUS(skin_mesh(&mesh, &pal, (skin_method)method, &out, 0, V), SKIN_OK);
            const char *name = is_dqs ? "DQS scale" : "LBS normal matrices";
            for (int v = 0; v < V; ++v) {
                double dn[3], dt[3];
                expected_dir(is_dqs ? dqs_n[v] : lbs_n[v], normalize, dn);
                expected_dir(is_dqs ? dqs_t[v] : lbs_t[v], normalize, dt);
                const double *ep = is_dqs ? dqs_p[v] : lbs_p[v];
                for (int e = 0; e < 3; ++e) {
                    CHECK_CLOSE_AT(o[v].p[e], ep[e], TOL, "%s v%d p[%d]", name, v, e);
                    CHECK_CLOSE_AT(o[v].n[e], dn[e], TOL, "%s v%d n[%d]", name, v, e);
                    CHECK_CLOSE_AT(o[v].t[e], dt[e], TOL, "%s v%d t[%d]", name, v, e);
                }
                CHECK(o[v].t[3] == tw[v]);
            }
            /* bounds: min (-1,0,0), max (3,2,1) for both methods */
            const double eb[6] = {-1, 0, 0, 3, 2, 1};
            for (int e = 0; e < 6; ++e)
                CHECK_CLOSE_AT(bounds[e], eb[e], TOL, "%s bounds[%d]", name, e);
        }
    check_error_report("golden DQS per-joint scale / LBS normal matrices");
}

/* Bounds of a single vertex and of an empty range. */
/* The DQS pivot is the largest weight, not slot 0 (glTF does not sort
 * weights).  K0 identity; K1 and K2 turn 170 and 190 degrees about z and
 * move by (0,0,2): real (0, 0, s_i, c_i) with s_i, c_i = sin, cos of 85 and
 * 95 degrees, dual = 0.5 (t,0) q = (0, 0, c_i, -s_i).  Weights 0, 1/2, 1/2
 * (in any slot order): the pivot is K1 or K2, whose dot is cos 10 > 0, so
 * b = (0, 0, s, 0 | 0, 0, 0, -s) with s = sin 85: after normalising, the
 * 180 degree turn about z and the move (0,0,2).  p (1,0,0) -> (-1,0,2),
 * n (0,1,0) -> (0,-1,0), t (1,0,0) -> (-1,0,0).  With slot 0 (K0) as the
 * pivot, K2 (dot cos 95 < 0) would be flipped and the turns would cancel.
 * Every ISA the CPU has. */
static void golden_pivot(void)
{
    float dq[3 * 8] = {0, 0, 0, 1, 0, 0, 0, 0};
    for (int i = 1; i <= 2; ++i) {
        const double half = (i == 1 ? 85.0 : 95.0) * 3.14159265358979323846 / 180.0;
        float *q = dq + 8 * i;
        q[0] = q[1] = q[4] = q[5] = 0.0f;
        q[2] = (float)sin(half), q[3] = (float)cos(half);
        q[6] = (float)cos(half), q[7] = (float)-sin(half);
    }
    enum { V = 3 };
    /* vertex v has K0 (weight 0) in slot v */
    static const uint8_t j0[V] = {0, 1, 2}, j1[V] = {1, 0, 1}, j2[V] = {2, 2, 0};
    static const float w0[V] = {0, 0.5f, 0.5f}, w1[V] = {0.5f, 0, 0.5f}, w2[V] = {0.5f, 0.5f, 0};
    static const float px[V] = {1, 1, 1}, zero[V] = {0, 0, 0};
    static const float ny[V] = {1, 1, 1}, tw[V] = {1, -1, 1};
    const skin_mesh_desc mesh = {V, px, zero, zero, zero, ny, zero, px, zero, zero, tw, 3,
                                 SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j0, j1, j2}, {w0, w1, w2}, 0, NULL};
    const skin_palette pal = {3, NULL, NULL, dq, NULL, NULL};
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
        float vtx[V][10];
        const skin_output out = {.position = vtx[0], .position_stride = 40, .normal = vtx[0] + 3,
                                 .normal_stride = 40, .tangent = vtx[0] + 6, .tangent_stride = 40};
        CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_DQS, &out, 0, V), SKIN_OK);
        static const double expect[10] = {-1, 0, 2, 0, -1, 0, -1, 0, 0};
        for (int v = 0; v < V; ++v) {
            for (int e = 0; e < 9; ++e)
                CHECK_CLOSE_AT(vtx[v][e], expect[e], TOL, "pivot %s vertex %d component %d",
                               skin_isa_name((skin_isa)isa), v, e);
            CHECK(vtx[v][9] == tw[v]);
        }
    }
    CHECK_STATUS(skin_set_isa(SKIN_ISA_AUTO), SKIN_OK);
}

/* Packed normals and tangents, bit for bit: one vertex under the identity
 * so the floats are exact.  n = (0.5, -0.25, 1.5), t = (-1, 0.001, 0.75, -1).
 * 1010102 (scale 511, ties to even): n -> 255.5 -> 256, -127.75 -> -128
 * (0x380), 1.5 clamps to 511 (0x1ff), w 0; t -> -511 (0x201), 0.511 -> 1,
 * 383.25 -> 383 (0x17f), w -1 (3).  snorm16 (scale 32767): n -> 16383.5 ->
 * 16384, -8191.75 -> -8192, 32767, 0; t -> -32767, 32.767 -> 33,
 * 24575.25 -> 24575, -32767.  Every ISA; then the statuses of bad uses. */
static void golden_packed(void)
{
    static const float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    static const float p0[1] = {0}, nx[1] = {0.5f}, ny[1] = {-0.25f}, nz[1] = {1.5f};
    static const float tx[1] = {-1}, ty[1] = {0.001f}, tz[1] = {0.75f}, tw[1] = {-1};
    static const uint8_t j[1] = {0};
    static const float w[1] = {1};
    const skin_mesh_desc mesh = {1, p0, p0, p0, nx, ny, nz, tx, ty, tz, tw, 1,
                                 SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j}, {w}, 0, NULL};
    const skin_palette pal = {1, identity, NULL, NULL, NULL, NULL};
    const uint32_t n1010102 = 256u | 0x380u << 10 | 0x1ffu << 20;
    const uint32_t t1010102 = 0x201u | 1u << 10 | 0x17fu << 20 | 3u << 30;
    const int16_t n16[4] = {16384, -8192, 32767, 0}, t16[4] = {-32767, 33, 24575, -32767};
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
        unsigned char v[3][28];
        memset(v, 0xA5, sizeof v);
        skin_output out = {.position = (float *)v[1], .position_stride = 20,
                           .normal = (float *)(v[1] + 12), .normal_stride = 20,
                           .tangent = (float *)(v[1] + 16), .tangent_stride = 20,
                           .vector_format = SKIN_VECTOR_1010102};
        CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, 1), SKIN_OK);
        uint32_t got[2];
        memcpy(got, v[1] + 12, 8);
        CHECK_INT(got[0], n1010102);
        CHECK_INT(got[1], t1010102);
        CHECK(untouched(v[0], 28) && untouched(v[1] + 20, 8) && untouched(v[2], 28));
        memset(v, 0xA5, sizeof v);
        out.position_stride = out.normal_stride = out.tangent_stride = 28;
        out.tangent = (float *)(v[1] + 20);
        out.vector_format = SKIN_VECTOR_SNORM16;
        CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &out, 0, 1), SKIN_OK);
        int16_t gn[4], gt[4];
        memcpy(gn, v[1] + 12, 8);
        memcpy(gt, v[1] + 20, 8);
        for (int c = 0; c < 4; ++c) {
            CHECK_INT(gn[c], n16[c]);
            CHECK_INT(gt[c], t16[c]);
        }
        CHECK(untouched(v[0], 28) && untouched(v[2], 28));
    }
    CHECK_STATUS(skin_set_isa(SKIN_ISA_AUTO), SKIN_OK);
    float buf[16];
    skin_output bad = {.position = buf, .position_stride = 16, .normal = buf + 3, .normal_stride = 16,
                       .vector_format = SKIN_VECTOR_SNORM16}; /* 12 + 8 > 16 is fine: strides are per attribute */
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &bad, 0, 0), SKIN_OK);
    bad.normal_stride = 4; /* a snorm16 element is 8 bytes */
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &bad, 0, 0), SKIN_ERROR_INVALID_STRIDE);
    bad.vector_format = SKIN_VECTOR_1010102; /* 4 bytes fit */
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &bad, 0, 0), SKIN_OK);
    bad.vector_format = (skin_vector_format)3;
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &bad, 0, 0), SKIN_ERROR_INVALID_FORMAT);
    skin_output soa = {.layout = SKIN_LAYOUT_SOA, .soa = {buf, buf + 1, buf + 2, buf + 3, buf + 4, buf + 5},
                       .vector_format = SKIN_VECTOR_1010102};
    CHECK_STATUS(skin_mesh(&mesh, &pal, SKIN_LBS, &soa, 0, 0), SKIN_ERROR_INVALID_FORMAT);
}

/* Tangent w is copied bit for bit, whatever it holds: signalling and quiet
 * NaNs with payloads, -0, a denormal, infinities (the scalar reference kept
 * it in a double, which quiets a signalling NaN).  21 vertices: a 16-lane
 * block and a tail on every width.  Every ISA, LBS and DQS, two joints. */
static void golden_tangent_w_bits(void)
{
    enum { V = 21 };
    static const uint32_t patterns[] = {0x7f800001u, 0xff812345u, 0x7fc00abcu, 0x80000000u, 0x00000001u,
                                        0xff800000u, 0x3f800000u, 0xbf800000u, 0x7fbfffffu};
    float tw[V], one[V], zero[V], w0[V], w1[V], vtx[V][10];
    uint8_t j0[V], j1[V];
    for (int v = 0; v < V; ++v) {
        memcpy(&tw[v], &patterns[v % 9], sizeof(float));
        one[v] = 1, zero[v] = 0, w0[v] = 0.25f, w1[v] = 0.75f, j0[v] = 0, j1[v] = 2;
    }
    const skin_mesh_desc mesh = {V, one, zero, zero, zero, one, zero, one, zero, zero, tw, 2,
                                 SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j0, j1}, {w0, w1}, 0, NULL};
    const skin_palette pal = {GOLDEN_JOINTS, golden_matrices, NULL, golden_dual_quats, NULL, NULL};
    const skin_output out = {.position = vtx[0], .position_stride = 40, .normal = vtx[0] + 3,
                             .normal_stride = 40, .tangent = vtx[0] + 6, .tangent_stride = 40};
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            CHECK_STATUS(skin_mesh(&mesh, &pal, (skin_method)method, &out, 0, V), SKIN_OK);
            for (int v = 0; v < V; ++v) {
                uint32_t bits;
                memcpy(&bits, &vtx[v][9], sizeof bits);
                if (bits != patterns[v % 9])
                    fprintf(stderr, "  %s %s vertex %d: tangent w changed\n", skin_isa_name((skin_isa)isa),
                            method == SKIN_LBS ? "LBS" : "DQS", v);
                CHECK_INT(bits, patterns[v % 9]);
            }
        }
    }
    CHECK_STATUS(skin_set_isa(SKIN_ISA_AUTO), SKIN_OK);
}

/* The packed formats' clamps on values past [-1, 1], huge, infinite in w
 * and NaN, by the header's rule (clamp to [-1, 1], NaN -> 1, round half to
 * even), bit for bit: under the identity each finite component is exact,
 * and a NaN component makes its whole vector NaN (0 * NaN).  21 vertices,
 * tight records with and without tangents: a 16-lane block and a tail on
 * every width.  Every ISA, LBS and DQS. */
static int32_t expect_snorm(float f, float scale)
{
    if (isnan(f)) f = 1;
    return (int32_t)nearbyintf((f < -1 ? -1 : f > 1 ? 1 : f) * scale);
}

static void golden_packed_clamps(void)
{
    enum { V = 21, TRIPLES = 7 };
    static const float triples[TRIPLES][3] = {{-1.5f, 1.5f, -1e30f},
                                              {1e30f, -3e38f, 3e38f},
                                              {-1.0000001f, 1.0000001f, -1},
                                              {-0.99999994f, 0.99999994f, -0.0f},
                                              {NAN, NAN, NAN},
                                              {-0.25f, 0.001f, 0.75f},
                                              {-0.5000153f, 0.5000153f, -0.9999695f}};
    static const float tws[5] = {-1.5f, NAN, INFINITY, -INFINITY, -0.3f};
    float n[3][V], t[4][V], zero[V], one[V];
    uint8_t j[V];
    for (int v = 0; v < V; ++v) {
        for (int e = 0; e < 3; ++e) n[e][v] = triples[v % TRIPLES][e], t[e][v] = triples[(v + 3) % TRIPLES][e];
        t[3][v] = tws[v % 5], zero[v] = 0, one[v] = 1, j[v] = 0;
    }
    const skin_mesh_desc mesh = {V, zero, zero, zero, n[0], n[1], n[2], t[0], t[1], t[2], t[3], 1,
                                 SKIN_JOINT_U8, SKIN_WEIGHT_F32, {j}, {one}, 0, NULL};
    const skin_palette pal = {GOLDEN_JOINTS, golden_matrices, NULL, golden_dual_quats, NULL, NULL};
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
            for (int format = SKIN_VECTOR_SNORM16; format <= SKIN_VECTOR_1010102; ++format)
                for (int tangents = 0; tangents < 2; ++tangents) {
                    const int vw = format == SKIN_VECTOR_SNORM16 ? 8 : 4;
                    const size_t stride = 12 + (size_t)vw * (tangents ? 2 : 1);
                    unsigned char buf[V * 28 + 16];
                    memset(buf, 0xA5, sizeof buf);
                    const skin_output out = {.position = (float *)(void *)buf, .position_stride = stride,
                                             .normal = (float *)(void *)(buf + 12), .normal_stride = stride,
                                             .tangent = tangents ? (float *)(void *)(buf + 12 + vw) : NULL,
                                             .tangent_stride = stride,
                                             .vector_format = (skin_vector_format)format};
                    CHECK_STATUS(skin_mesh(&mesh, &pal, (skin_method)method, &out, 0, V), SKIN_OK);
                    CHECK(untouched(buf + V * stride, sizeof buf - V * stride));
                    for (int v = 0; v < V; ++v)
                        for (int g = 0; g < 1 + tangents; ++g) {
                            float x[4] = {0, 0, 0, g ? t[3][v] : 0};
                            for (int e = 0; e < 3; ++e) x[e] = g ? t[e][v] : n[e][v];
                            uint32_t want[2];
                            if (format == SKIN_VECTOR_SNORM16) {
                                int32_t q[4];
                                for (int e = 0; e < 4; ++e) q[e] = expect_snorm(x[e], 32767);
                                want[0] = ((uint32_t)q[0] & 0xffffu) | (uint32_t)q[1] << 16;
                                want[1] = ((uint32_t)q[2] & 0xffffu) | (uint32_t)q[3] << 16;
                            } else {
                                want[0] = ((uint32_t)expect_snorm(x[0], 511) & 0x3ffu) |
                                          ((uint32_t)expect_snorm(x[1], 511) & 0x3ffu) << 10 |
                                          ((uint32_t)expect_snorm(x[2], 511) & 0x3ffu) << 20 |
                                          (uint32_t)expect_snorm(x[3], 1) << 30;
                            }
                            uint32_t got[2] = {0, 0};
                            memcpy(got, buf + (size_t)v * stride + 12 + (size_t)(g * vw), (size_t)vw);
                            for (int i = 0; i < vw / 4; ++i) {
                                if (got[i] != want[i])
                                    fprintf(stderr, "  %s %s %s%s vertex %d %s word %d: %08x, want %08x\n",
                                            skin_isa_name((skin_isa)isa), method == SKIN_LBS ? "LBS" : "DQS",
                                            format == SKIN_VECTOR_SNORM16 ? "snorm16" : "1010102",
                                            tangents ? " pnt" : " pn", v, g ? "tangent" : "normal", i,
                                            (unsigned)got[i], (unsigned)want[i]);
                                CHECK_INT(got[i], want[i]);
                            }
                        }
                }
    }
    CHECK_STATUS(skin_set_isa(SKIN_ISA_AUTO), SKIN_OK);
}

static void golden_bounds_edges(void)
{
    golden_mesh g;
    build_mesh(&g, 1, SKIN_JOINT_U8, SKIN_WEIGHT_F32);
    const skin_palette pal = {GOLDEN_JOINTS, golden_matrices, NULL, golden_dual_quats, NULL, NULL};
    float pos[3 * CASES], bounds[6];
    skin_output out = {.position = pos, .position_stride = 12, .bounds = bounds};
    /* vertex 0 is case A: (10,1,0) */
    CHECK_STATUS(skin_mesh(&g.mesh, &pal, SKIN_LBS, &out, 0, 1), SKIN_OK);
    const double e1[6] = {10, 1, 0, 10, 1, 0};
    for (int e = 0; e < 6; ++e) CHECK_CLOSE_AT(bounds[e], e1[e], TOL, "one-vertex bounds[%d]", e);
    /* vertex 1 only (case B: (2,3,4)); vertex 0's output stays. */
    CHECK_STATUS(skin_mesh(&g.mesh, &pal, SKIN_DQS, &out, 1, 1), SKIN_OK);
    const double e2[6] = {2, 3, 4, 2, 3, 4};
    for (int e = 0; e < 6; ++e) CHECK_CLOSE_AT(bounds[e], e2[e], TOL, "range [1,2) bounds[%d]", e);
    CHECK_CLOSE(pos[0], 10.0, TOL);
    CHECK_CLOSE(pos[3], 2.0, TOL);
    CHECK_STATUS(skin_mesh(&g.mesh, &pal, SKIN_DQS, &out, 2, 0), SKIN_OK);
    for (int e = 0; e < 3; ++e) {
        CHECK(isinf(bounds[e]) && bounds[e] > 0);
        CHECK(isinf(bounds[3 + e]) && bounds[3 + e] < 0);
    }
    check_error_report("golden bounds of one vertex / sub-range / empty range");
}

int main(void)
{
    golden_table();
    golden_scale();
    golden_pivot();
    golden_packed();
    golden_packed_clamps();
    golden_bounds_edges();
    golden_tangent_w_bits();
    return check_finish("test_golden");
}
