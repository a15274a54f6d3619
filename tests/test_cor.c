/* SPDX-License-Identifier: MIT */
/* skin_cor_compute against a brute-force double-precision integral over
 * every triangle (no pruning, no sharing), on a cylinder whose middle
 * blends two joints (and a third near one end) and on a random mesh, in
 * every joint, weight and index format, on one thread and on four; that
 * blended ring vertices get centers on the cylinder's axis; and bad input. */
#include "check.h"
#include "skin/skin.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { JOINTS = 6, MAX_V = 2048 };

typedef struct test_mesh {
    size_t n, tri_count;
    float p[3][MAX_V];
    uint16_t j16[4][MAX_V];
    uint8_t j8[4][MAX_V];
    float wf[4][MAX_V];
    uint16_t w16[4][MAX_V];
    uint8_t w8[4][MAX_V];
    uint32_t idx32[6 * MAX_V];
    uint16_t idx16[6 * MAX_V];
} test_mesh;

static uint32_t rng = 12345;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

/* Quantized forms of the float weights, and the joints as bytes. */
static void finish_mesh(test_mesh *t)
{
    for (int i = 0; i < 4; ++i)
        for (size_t v = 0; v < t->n; ++v) {
            t->j8[i][v] = (uint8_t)t->j16[i][v];
            t->w16[i][v] = (uint16_t)lrintf(t->wf[i][v] * 65535.0f);
            t->w8[i][v] = (uint8_t)lrintf(t->wf[i][v] * 255.0f);
        }
    for (size_t i = 0; i < 3 * t->tri_count; ++i) t->idx16[i] = (uint16_t)t->idx32[i];
}

/* A cylinder of radius 1 along z from 0 to 4: rings of `seg` vertices,
 * joint 0 below z = 1.5, joint 1 above z = 2.5, blended between, and
 * joint 2 sharing the top ring's weight with joint 1. */
static void cylinder(test_mesh *t, int rings, int seg)
{
    t->n = (size_t)rings * (size_t)seg, t->tri_count = 0;
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < seg; ++s) {
            const size_t v = (size_t)r * (size_t)seg + (size_t)s;
            const float a = 6.2831853f * (float)s / (float)seg, z = 4.0f * (float)r / (float)(rings - 1);
            t->p[0][v] = cosf(a), t->p[1][v] = sinf(a), t->p[2][v] = z;
            float b = (z - 1.5f) / 1.0f;
            b = b < 0 ? 0 : b > 1 ? 1 : b;
            for (int i = 0; i < 4; ++i) t->j16[i][v] = 0, t->wf[i][v] = 0;
            t->j16[0][v] = 0, t->wf[0][v] = 1 - b;
            t->j16[1][v] = 1, t->wf[1][v] = b;
            if (r == rings - 1) t->j16[2][v] = 2, t->wf[1][v] = 0.5f * b, t->wf[2][v] = 0.5f * b;
        }
    for (int r = 0; r + 1 < rings; ++r)
        for (int s = 0; s < seg; ++s) {
            const uint32_t a = (uint32_t)(r * seg + s), b = (uint32_t)(r * seg + (s + 1) % seg);
            const uint32_t c = a + (uint32_t)seg, d = b + (uint32_t)seg;
            uint32_t *q = t->idx32 + 3 * t->tri_count;
            q[0] = a, q[1] = b, q[2] = d, q[3] = a, q[4] = d, q[5] = c;
            t->tri_count += 2;
        }
    finish_mesh(t);
}

/* A jittered grid with up to 4 random influences among JOINTS joints (some
 * vertices with one), and a few repeated weight sets. */
static void random_mesh(test_mesh *t, int side)
{
    t->n = (size_t)side * (size_t)side, t->tri_count = 0;
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
            const size_t v = (size_t)y * (size_t)side + (size_t)x;
            t->p[0][v] = (float)x + 0.3f * frand(), t->p[1][v] = (float)y + 0.3f * frand(), t->p[2][v] = frand();
            const int k = 1 + (int)(frand() * 4.0f);
            float sum = 0;
            for (int i = 0; i < 4; ++i) {
                t->j16[i][v] = (uint16_t)(frand() * JOINTS);
                t->wf[i][v] = i < k ? 0.05f + frand() : 0.0f;
                sum += t->wf[i][v];
            }
            for (int i = 0; i < 4; ++i) t->wf[i][v] /= sum;
            if (v % 7 == 3) /* the weight set of vertex v - 1 */
                for (int i = 0; i < 4; ++i) t->j16[i][v] = t->j16[i][v - 1], t->wf[i][v] = t->wf[i][v - 1];
        }
    for (int y = 0; y + 1 < side; ++y)
        for (int x = 0; x + 1 < side; ++x) {
            const uint32_t a = (uint32_t)(y * side + x), b = a + 1, c = a + (uint32_t)side, d = c + 1;
            uint32_t *q = t->idx32 + 3 * t->tri_count;
            q[0] = a, q[1] = b, q[2] = d, q[3] = a, q[4] = d, q[5] = c;
            t->tri_count += 2;
        }
    finish_mesh(t);
}

static skin_mesh_desc desc_of(const test_mesh *t, skin_joint_format jf, skin_weight_format wf)
{
    skin_mesh_desc d;
    memset(&d, 0, sizeof d);
    d.vertex_count = t->n, d.influence_count = 4, d.joint_format = jf, d.weight_format = wf;
    d.px = t->p[0], d.py = t->p[1], d.pz = t->p[2];
    for (int i = 0; i < 4; ++i) {
        d.joints[i] = jf == SKIN_JOINT_U8 ? (const void *)t->j8[i] : (const void *)t->j16[i];
        d.weights[i] = wf == SKIN_WEIGHT_UNORM16  ? (const void *)t->w16[i]
                       : wf == SKIN_WEIGHT_UNORM8 ? (const void *)t->w8[i]
                                                  : (const void *)t->wf[i];
    }
    return d;
}

/* Vertex v's weights as a dense vector over JOINTS joints. */
static void dense_weights(const skin_mesh_desc *d, size_t v, double w[JOINTS])
{
    for (int j = 0; j < JOINTS; ++j) w[j] = 0;
    for (uint32_t i = 0; i < d->influence_count; ++i) {
        const int j = d->joint_format == SKIN_JOINT_U8 ? ((const uint8_t *)d->joints[i])[v]
                                                       : ((const uint16_t *)d->joints[i])[v];
        double x = d->weight_format == SKIN_WEIGHT_UNORM16  ? ((const uint16_t *)d->weights[i])[v] / 65535.0
                   : d->weight_format == SKIN_WEIGHT_UNORM8 ? ((const uint8_t *)d->weights[i])[v] / 255.0
                                                            : ((const float *)d->weights[i])[v];
        if (x > 0) w[j] += x;
    }
}

/* The paper's integral over every triangle; returns the vertices without a
 * similar triangle (center: the position). */
static size_t brute_force(const skin_mesh_desc *d, const uint32_t *idx, size_t tri_count, double sigma,
                          double (*out)[3])
{
    size_t undefined = 0;
    for (size_t v = 0; v < d->vertex_count; ++v) {
        double a[JOINTS], num[3] = {0, 0, 0}, den = 0;
        dense_weights(d, v, a);
        for (size_t t = 0; t < tri_count; ++t) {
            double b[JOINTS] = {0}, c[3] = {0, 0, 0}, p[3][3];
            for (int k = 0; k < 3; ++k) {
                double wk[JOINTS];
                const size_t u = idx[3 * t + (size_t)k];
                dense_weights(d, u, wk);
                for (int j = 0; j < JOINTS; ++j) b[j] += wk[j] / 3;
                p[k][0] = d->px[u], p[k][1] = d->py[u], p[k][2] = d->pz[u];
                for (int e = 0; e < 3; ++e) c[e] += p[k][e] / 3;
            }
            const double e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
            const double e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
            const double nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2],
                         nz = e1[0] * e2[1] - e1[1] * e2[0];
            const double area = 0.5 * sqrt(nx * nx + ny * ny + nz * nz);
            double s = 0;
            for (int j = 0; j < JOINTS; ++j)
                for (int k = 0; k < JOINTS; ++k) {
                    if (j == k) continue;
                    const double x = a[j] * b[k] - a[k] * b[j];
                    s += a[j] * a[k] * b[j] * b[k] * exp(-x * x / (sigma * sigma));
                }
            for (int e = 0; e < 3; ++e) num[e] += s * area * c[e];
            den += s * area;
        }
        if (den > 0) {
            for (int e = 0; e < 3; ++e) out[v][e] = num[e] / den;
        } else {
            out[v][0] = d->px[v], out[v][1] = d->py[v], out[v][2] = d->pz[v], ++undefined;
        }
    }
    return undefined;
}

static double diagonal(const test_mesh *t)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t v = 0; v < t->n; ++v)
        for (int e = 0; e < 3; ++e) { /* (ifs: aarch64 gcc 12 fails vectorizing fmin/fmax reductions here) */
            if (t->p[e][v] < lo[e]) lo[e] = t->p[e][v];
            if (t->p[e][v] > hi[e]) hi[e] = t->p[e][v];
        }
    return sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

static float centers_a[3][MAX_V], centers_b[3][MAX_V];
static double expect[MAX_V][3];

/* Every format against the brute force, and threads against one thread. */
static void check_mesh(const char *name, const test_mesh *t)
{
    static const skin_joint_format jfs[2] = {SKIN_JOINT_U16, SKIN_JOINT_U8};
    static const skin_weight_format wfs[3] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16, SKIN_WEIGHT_UNORM8};
    const double diag = diagonal(t);
    for (int jf = 0; jf < 2; ++jf)
        for (int wf = 0; wf < 3; ++wf) {
            const skin_mesh_desc d = desc_of(t, jfs[jf], wfs[wf]);
            const size_t undefined = brute_force(&d, t->idx32, t->tri_count, 0.1, expect);
            for (int f = 0; f < 2; ++f) {
                float *const a[3] = {centers_a[0], centers_a[1], centers_a[2]};
                float *const b[3] = {centers_b[0], centers_b[1], centers_b[2]};
                const void *idx = f ? (const void *)t->idx16 : (const void *)t->idx32;
                const skin_index_format ifmt = f ? SKIN_INDEX_U16 : SKIN_INDEX_U32;
                skin_cor_report r, r4;
                CHECK_STATUS(skin_cor_compute(&d, idx, ifmt, 3 * t->tri_count, 0.0f, 1, a, &r), SKIN_OK);
                CHECK_STATUS(skin_cor_compute(&d, idx, ifmt, 3 * t->tri_count, 0.0f, 4, b, &r4), SKIN_OK);
                CHECK_INT(r.undefined_vertices, undefined);
                CHECK_INT(r4.undefined_vertices, undefined);
                CHECK_INT(r.degenerate_triangles, 0);
                for (int e = 0; e < 3; ++e) /* any thread count, the same bits */
                    CHECK(memcmp(centers_a[e], centers_b[e], t->n * sizeof(float)) == 0);
                double worst = 0;
                for (size_t v = 0; v < t->n; ++v)
                    for (int e = 0; e < 3; ++e) worst = fmax(worst, fabs(centers_a[e][v] - expect[v][e]) / diag);
                if (!(worst <= 1e-4))
                    fprintf(stderr, "%s joints %d weights %d indices %d: %.3g of the diagonal off\n", name, jf, wf,
                            f, worst);
                CHECK(worst <= 1e-4);
                /* vertices with equal weight sets share a sum: count the sets */
                size_t sets = 0;
                for (size_t v = 0; v < t->n; ++v) {
                    double wv[JOINTS];
                    dense_weights(&d, v, wv);
                    int seen = 0;
                    for (size_t u = 0; u < v && !seen; ++u) {
                        double wu[JOINTS];
                        dense_weights(&d, u, wu);
                        seen = memcmp(wu, wv, sizeof wu) == 0;
                    }
                    sets += !seen;
                }
                CHECK_INT(r.unique_influences, sets);
            }
        }
}

int main(void)
{
    static test_mesh t;
    cylinder(&t, 17, 12);
    check_mesh("cylinder", &t);

    /* Vertices of the blended band (weights of both joints) get centers on
     * the axis: every similar triangle has its twin across it.  Those of
     * the rigid ends (one joint) have none: their own position. */
    float *const c[3] = {centers_a[0], centers_a[1], centers_a[2]};
    skin_mesh_desc d = desc_of(&t, SKIN_JOINT_U16, SKIN_WEIGHT_F32);
    skin_cor_report r;
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, 3 * t.tri_count, 0.1f, 1, c, &r), SKIN_OK);
    size_t band = 0;
    for (size_t v = 0; v < t.n; ++v) {
        if (t.wf[0][v] > 0 && t.wf[1][v] > 0) {
            ++band;
            CHECK(hypot(c[0][v], c[1][v]) < 1e-5);
            CHECK(fabsf(c[2][v] - t.p[2][v]) < 0.75f); /* near its own ring */
        } else if (t.wf[1][v] == 0 || t.wf[0][v] == 0) {
            if (t.wf[2][v] == 0) CHECK(c[0][v] == t.p[0][v] && c[1][v] == t.p[1][v] && c[2][v] == t.p[2][v]);
        }
    }
    CHECK(band > 0);

    rng = 777;
    random_mesh(&t, 12);
    check_mesh("random", &t);

    /* Bad input: a status, and no center written. */
    cylinder(&t, 4, 6);
    d = desc_of(&t, SKIN_JOINT_U16, SKIN_WEIGHT_F32);
    const size_t ic = 3 * t.tri_count;
    for (size_t v = 0; v < t.n; ++v) c[0][v] = c[1][v] = c[2][v] = -7.0f;
    float *const nulls[3] = {c[0], NULL, c[2]};
    CHECK_STATUS(skin_cor_compute(NULL, t.idx32, SKIN_INDEX_U32, ic, 0, 1, c, NULL), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_cor_compute(&d, NULL, SKIN_INDEX_U32, ic, 0, 1, c, NULL), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, NULL, NULL), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, nulls, NULL), SKIN_ERROR_NULL_ARGUMENT);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, (skin_index_format)2, ic, 0, 1, c, NULL), SKIN_ERROR_INVALID_FORMAT);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic - 1, 0, 1, c, NULL), SKIN_ERROR_INVALID_COUNT);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, -0.1f, 1, c, NULL), SKIN_ERROR_INVALID_VALUE);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, NAN, 1, c, NULL), SKIN_ERROR_INVALID_VALUE);
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, INFINITY, 1, c, NULL), SKIN_ERROR_INVALID_VALUE);
    t.idx32[4] = (uint32_t)t.n; /* one past the last vertex */
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, c, NULL), SKIN_ERROR_INDEX_RANGE);
    t.idx32[4] = 1;
    t.p[1][3] = NAN;
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, c, NULL), SKIN_ERROR_NON_FINITE);
    t.p[1][3] = 0;
    t.wf[0][2] = -0.5f;
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, c, NULL), SKIN_ERROR_INVALID_WEIGHT);
    t.wf[0][2] = 1;
    d.influence_count = 9;
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, c, NULL), SKIN_ERROR_INVALID_INFLUENCES);
    d.influence_count = 4;
    for (size_t v = 0; v < t.n; ++v) CHECK(c[0][v] == -7.0f && c[1][v] == -7.0f && c[2][v] == -7.0f);

    /* A degenerate triangle (a repeated corner) is counted and left out;
     * no triangles at all: every vertex undefined. */
    t.idx32[2] = t.idx32[1];
    CHECK_STATUS(skin_cor_compute(&d, t.idx32, SKIN_INDEX_U32, ic, 0, 1, c, &r), SKIN_OK);
    CHECK_INT(r.degenerate_triangles, 1);
    CHECK_STATUS(skin_cor_compute(&d, NULL, SKIN_INDEX_U32, 0, 0, 2, c, &r), SKIN_OK);
    CHECK_INT(r.undefined_vertices, t.n);
    for (size_t v = 0; v < t.n; ++v) CHECK(c[0][v] == t.p[0][v] && c[1][v] == t.p[1][v] && c[2][v] == t.p[2][v]);
    return check_finish("test_cor");
}
