/* SPDX-License-Identifier: MIT */
/* Every SIMD kernel against the scalar reference.  The kernel set under test
 * is the one SKIN_ISA selects (CTest runs this once per ISA); the reference is
 * forced with skin_set_isa(SKIN_ISA_SCALAR) around each comparison.
 * Covers: LBS/DQS, 1..8 influences, u8/u16 joints, f32/unorm16/unorm8
 * weights, palettes on both fetch paths (<= 64 joints: tables, more: rows),
 * normal matrices, DQS scales, antipodal dual quaternions, zero and
 * unnormalised weights, clamped joints, the DQS near-zero fallback, DQS
 * influences sorted largest first (slot 0 the pivot), palettes with no
 * negative sign (DQS's sign tests skipped), vertex
 * counts 0, 1, W-1, W+1 and 10,000 at unaligned offsets, interleaved / strided
 * / SoA / position-only outputs, packed normals and tangents (interleaved,
 * in separate arrays, tangents without normals), streaming stores,
 * normalisation (also of
 * vectors too short or long to square in float), bounds,
 * streams aliased modulo 4 KiB, and bit-identical output under any split. */
#include "rig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATTERN 0xA5
#define PAD 64

static int failures;
static double worst;

#define EXPECT(cond, ...)                                              \
    do {                                                               \
        if (!(cond)) {                                                 \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
            fprintf(stderr, __VA_ARGS__);                              \
            fputc('\n', stderr);                                       \
            ++failures;                                                \
        }                                                              \
    } while (0)

/* Where component e of vertex v lives: buffer byte PAD + off[e] + v * stride[e]. */
typedef struct layout {
    const char *name;
    int soa;
    int normals, tangents;
    size_t off[10], stride[10];
    size_t misalign; /* bytes added to every base (still float aligned) */
    skin_vector_format format; /* normals and tangents; packed: element at off[3] / off[6] */
} layout;

static layout make_interleaved(const char *name, int normals, int tangents, size_t misalign)
{
    layout l = {name, 0, normals, tangents, {0}, {0}, misalign, SKIN_VECTOR_F32};
    size_t stride = 12 + 12 * (size_t)normals + 16 * (size_t)tangents;
    for (int e = 0; e < 10; ++e) l.stride[e] = stride;
    for (int e = 0; e < 3; ++e) l.off[e] = 4 * (size_t)e;
    for (int e = 3; e < 6; ++e) l.off[e] = 4 * (size_t)e;
    for (int e = 6; e < 10; ++e) l.off[e] = (normals ? 24 : 12) + 4 * (size_t)(e - 6);
    return l;
}

/* p (12 bytes), then packed normal and tangent elements. */
static layout make_packed(const char *name, skin_vector_format format, int tangents, size_t misalign)
{
    const size_t vb = format == SKIN_VECTOR_1010102 ? 4 : 8;
    layout l = make_interleaved(name, 1, tangents, misalign);
    l.format = format;
    const size_t stride = 12 + vb * (tangents ? 2 : 1);
    for (int e = 0; e < 10; ++e) l.stride[e] = stride;
    for (int e = 3; e < 6; ++e) l.off[e] = 12 + vb - 4; /* the element's last word, for layout_bytes */
    for (int e = 6; e < 10; ++e) l.off[e] = 12 + 2 * vb - 4;
    l.off[3] = 12, l.off[6] = 12 + vb;
    return l;
}

/* Component c (0..3) of a packed element, in units of its last bit. */
static int unpack_component(skin_vector_format format, const unsigned char *p, int c)
{
    if (format == SKIN_VECTOR_SNORM16) {
        int16_t x;
        memcpy(&x, p + 2 * c, 2);
        return x;
    }
    uint32_t w;
    memcpy(&w, p, 4);
    int bits = c < 3 ? 10 : 2;
    int32_t x = (int32_t)((w >> (10 * c)) & ((1u << bits) - 1));
    return x >= 1 << (bits - 1) ? x - (1 << bits) : x;
}

static size_t layout_bytes(const layout *l, size_t n)
{
    size_t end = 0;
    for (int e = 0; e < 10; ++e) {
        size_t last = l->off[e] + (n ? n - 1 : 0) * l->stride[e] + 4;
        if (last > end) end = last;
    }
    return PAD + l->misalign + end + PAD;
}

static int used(const layout *l, int e) { return e < 3 || (e < 6 ? l->normals : l->tangents); }

static skin_output make_output(const layout *l, unsigned char *buf, uint32_t flags, float *bounds)
{
    skin_output o;
    memset(&o, 0, sizeof o);
    unsigned char *base = buf + PAD + l->misalign;
    o.flags = flags;
    o.bounds = bounds;
    o.vector_format = l->format;
    if (l->soa) {
        o.layout = SKIN_LAYOUT_SOA;
        for (int e = 0; e < 10; ++e)
            if (used(l, e)) o.soa[e] = (float *)(base + l->off[e]);
        return o;
    }
    o.position = (float *)(base + l->off[0]);
    o.position_stride = l->stride[0];
    if (l->normals) o.normal = (float *)(base + l->off[3]), o.normal_stride = l->stride[3];
    if (l->tangents) o.tangent = (float *)(base + l->off[6]), o.tangent_stride = l->stride[6];
    return o;
}

static unsigned char *alloc_buffer(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    unsigned char *b = aligned_alloc(64, rounded);
    if (!b) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(b, PATTERN, rounded);
    return b;
}

/* Compares the SIMD output `got` with the reference `want` over vertices
 * [first, first+count); every other byte must still be the pattern. */
static void compare(const layout *l, const unsigned char *want, const unsigned char *got,
                    size_t bytes, size_t first, size_t count, const char *what)
{
    unsigned char *written = calloc(bytes, 1);
    const size_t base = PAD + l->misalign;
    int reported = 0;
    for (size_t v = first; v < first + count; ++v) {
        for (int a = 0; a < 3; ++a) { /* attribute: position, normal, tangent */
            int e0 = 3 * a, n = a == 2 ? 4 : 3;
            if (!used(l, e0)) continue;
            if (a && l->format != SKIN_VECTOR_F32) {
                /* packed: at most one step apart (float rounding may cross a
                 * rounding boundary) */
                size_t at = base + l->off[e0] + v * l->stride[e0];
                memset(written + at, 1, l->format == SKIN_VECTOR_1010102 ? 4 : 8);
                for (int c = 0; c < 4; ++c) {
                    int w = unpack_component(l->format, want + at, c), g = unpack_component(l->format, got + at, c);
                    if (abs(w - g) > 1 && reported++ < 3)
                        EXPECT(0, "%s: vertex %zu attribute %d component %d: want %d got %d", what, v, a, c, w, g);
                }
                continue;
            }
            double mag = 1.0;
            for (int e = e0; e < e0 + n; ++e) {
                float w;
                memcpy(&w, want + base + l->off[e] + v * l->stride[e], 4);
                mag = fmax(mag, fabs(w));
            }
            for (int e = e0; e < e0 + n; ++e) {
                size_t at = base + l->off[e] + v * l->stride[e];
                float w, g;
                memcpy(&w, want + at, 4);
                memcpy(&g, got + at, 4);
                memset(written + at, 1, 4);
                double err = fabs((double)w - (double)g) / mag;
                if (!(err <= worst)) worst = isnan(err) ? INFINITY : fmax(worst, err);
                if (!(err <= 1e-5) && reported++ < 3)
                    EXPECT(0, "%s: vertex %zu component %d: want %.9g got %.9g (rel err %.3g)", what, v, e,
                           w, g, err);
            }
        }
    }
    size_t stray = 0;
    for (size_t i = 0; i < bytes; ++i)
        if (!written[i] && got[i] != PATTERN) ++stray;
    EXPECT(stray == 0, "%s: %zu bytes written outside the range", what, stray);
    free(written);
}

static skin_isa isa_under_test;

/* Runs reference and kernel on the same call and compares. */
static void check_call(const rig *r, const skin_palette *pal, skin_method method, const layout *l,
                       uint32_t flags, size_t first, size_t count, const char *what)
{
    size_t n = r->mesh.vertex_count, bytes = layout_bytes(l, n);
    unsigned char *want = alloc_buffer(bytes), *got = alloc_buffer(bytes);
    float wb[6], gb[6];
    skin_output ow = make_output(l, want, flags, wb), og = make_output(l, got, flags, gb);
    skin_set_isa(SKIN_ISA_SCALAR);
    skin_status sw = skin_mesh(&r->mesh, pal, method, &ow, first, count);
    skin_set_isa(isa_under_test);
    skin_status sg = skin_mesh(&r->mesh, pal, method, &og, first, count);
    EXPECT(sw == SKIN_OK && sg == SKIN_OK, "%s: status %d / %d", what, sw, sg);
    compare(l, want, got, bytes, first, count, what);
    for (int e = 0; e < 6; ++e) {
        double mag = fmax(1.0, fabs(wb[e]));
        if (isinf(wb[e]) || isinf(gb[e]))
            EXPECT(wb[e] == gb[e], "%s: bounds[%d] %g vs %g", what, e, wb[e], gb[e]);
        else
            EXPECT(fabs(wb[e] - gb[e]) <= 1e-5 * mag, "%s: bounds[%d] %g vs %g", what, e, wb[e], gb[e]);
    }
    free(want);
    free(got);
}

/* Zero, unnormalised and out-of-range influences on some vertices. */
static void roughen(rig *r)
{
    skin_mesh_desc *m = &r->mesh;
    uint32_t jmax = m->joint_format == SKIN_JOINT_U8 ? 255 : 65535;
    for (size_t v = 0; v < m->vertex_count; ++v) {
        for (uint32_t i = 0; i < m->influence_count; ++i) {
            if (m->weight_format == SKIN_WEIGHT_F32) {
                float *w = (float *)r->weights[i];
                if (v % 97 == 3) w[v] = 0.0f;
                if (v % 89 == 5) w[v] *= 1.5f;
            } else if (v % 97 == 3) {
                if (m->weight_format == SKIN_WEIGHT_UNORM16)
                    ((uint16_t *)r->weights[i])[v] = 0;
                else
                    ((uint8_t *)r->weights[i])[v] = 0;
            }
        }
        if (v % 101 == 7) {
            uint32_t j = r->palette.joint_count + 5 > jmax ? jmax : r->palette.joint_count + 5;
            if (m->joint_format == SKIN_JOINT_U8)
                ((uint8_t *)r->joints[0])[v] = (uint8_t)j;
            else
                ((uint16_t *)r->joints[0])[v] = (uint16_t)j;
        }
        if (v % 103 == 11 || v % 107 == 13) { /* the joint type's top bit set: clamped unsigned */
            uint32_t j = v % 103 == 11 ? jmax : (jmax + 1) / 2, i = (uint32_t)(v % m->influence_count);
            if (m->joint_format == SKIN_JOINT_U8)
                ((uint8_t *)r->joints[i])[v] = (uint8_t)j;
            else
                ((uint16_t *)r->joints[i])[v] = (uint16_t)j;
        }
    }
    /* antipodal: every third joint's dual quaternion negated */
    for (uint32_t j = 0; j < r->palette.joint_count; j += 3)
        for (int e = 0; e < 8; ++e) r->dual_quats[8 * j + e] = -r->dual_quats[8 * j + e];
}

/* 3x3 inverse transposes of the matrices (for LBS normal matrices). */
static float *normal_matrices(const rig *r)
{
    uint32_t jc = r->palette.joint_count;
    float *nm = malloc(9 * (size_t)jc * sizeof(float));
    for (uint32_t j = 0; j < jc; ++j) {
        const float *m = r->matrices + 12 * j;
        double a[3][3], c[3][3];
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) a[i][k] = m[4 * i + k];
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) /* cofactor matrix = det * inverse transpose */
                c[i][k] = a[(i + 1) % 3][(k + 1) % 3] * a[(i + 2) % 3][(k + 2) % 3] -
                          a[(i + 1) % 3][(k + 2) % 3] * a[(i + 2) % 3][(k + 1) % 3];
        double det = a[0][0] * c[0][0] + a[0][1] * c[0][1] + a[0][2] * c[0][2];
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) nm[9 * j + 3 * i + k] = (float)(c[i][k] / det);
    }
    return nm;
}

static const uint32_t joint_counts[] = {3, 16, 31, 64, 100, 255, 300};

static void random_rigs(int lanes)
{
    static const skin_weight_format wfs[] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16, SKIN_WEIGHT_UNORM8};
    layout layouts[15];
    layouts[0] = make_interleaved("interleaved pnt", 1, 1, 0);
    layouts[1] = make_interleaved("interleaved pn", 1, 0, 0);
    layouts[2] = make_interleaved("positions only", 0, 0, 0);
    layouts[3] = make_interleaved("interleaved pnt, misaligned", 1, 1, 4);
    layout sep = {"separate strided", 0, 1, 1, {0}, {0}, 0, SKIN_VECTOR_F32};
    const size_t n = 10000;
    for (int e = 0; e < 3; ++e) sep.off[e] = 4 * (size_t)e, sep.stride[e] = 16;
    for (int e = 3; e < 6; ++e) sep.off[e] = 16 * n + 4 * (size_t)(e - 3), sep.stride[e] = 12;
    for (int e = 6; e < 10; ++e) sep.off[e] = 28 * n + 4 * (size_t)(e - 6), sep.stride[e] = 32;
    layouts[4] = sep;
    layout soa = {"soa", 1, 1, 1, {0}, {0}, 0, SKIN_VECTOR_F32};
    for (int e = 0; e < 10; ++e) soa.off[e] = (size_t)e * (4 * n + 64), soa.stride[e] = 4;
    layouts[5] = soa;
    layout pt = soa;
    pt.name = "soa p+t";
    pt.normals = 0;
    layouts[6] = pt;
    layouts[7] = make_packed("interleaved pnt 1010102", SKIN_VECTOR_1010102, 1, 0);
    layouts[8] = make_packed("interleaved pnt snorm16", SKIN_VECTOR_SNORM16, 1, 0);
    layouts[9] = make_packed("interleaved pn 1010102, misaligned", SKIN_VECTOR_1010102, 0, 4);
    layouts[10] = make_packed("interleaved pn snorm16", SKIN_VECTOR_SNORM16, 0, 0);
    /* packed vectors elsewhere than right after the position: the lane-by-
     * lane store (separate arrays, the tangents with a 4-byte gap; tangents
     * without normals) */
    layout sep_packed = {"separate strided snorm16", 0, 1, 1, {0}, {0}, 0, SKIN_VECTOR_SNORM16};
    for (int e = 0; e < 3; ++e) sep_packed.off[e] = 4 * (size_t)e, sep_packed.stride[e] = 12;
    for (int e = 3; e < 6; ++e) sep_packed.off[e] = 12 * n + 4, sep_packed.stride[e] = 8;
    for (int e = 6; e < 10; ++e) sep_packed.off[e] = 20 * n + 4, sep_packed.stride[e] = 12;
    sep_packed.off[3] = 12 * n, sep_packed.off[6] = 20 * n; /* (the others: each element's last word) */
    layouts[11] = sep_packed;
    layout pt_packed = make_packed("interleaved pt 1010102", SKIN_VECTOR_1010102, 1, 0);
    pt_packed.normals = 0;
    for (int e = 0; e < 10; ++e) pt_packed.stride[e] = 16;
    for (int e = 6; e < 10; ++e) pt_packed.off[e] = 12;
    layouts[12] = pt_packed;
    /* positions, normals and tangents each in an array of their own, back
     * to back (glTF's and three.js's buffers); then without tangents */
    layout xyz = {"separate xyz arrays", 0, 1, 1, {0}, {0}, 0, SKIN_VECTOR_F32};
    for (int e = 0; e < 3; ++e) xyz.off[e] = 4 * (size_t)e, xyz.stride[e] = 12;
    for (int e = 3; e < 6; ++e) xyz.off[e] = 12 * n + 68 + 4 * (size_t)(e - 3), xyz.stride[e] = 12;
    for (int e = 6; e < 10; ++e) xyz.off[e] = 24 * n + 136 + 4 * (size_t)(e - 6), xyz.stride[e] = 16;
    layouts[13] = xyz;
    xyz.name = "separate xyz arrays, p+n", xyz.tangents = 0;
    layouts[14] = xyz;
    const int layout_count = (int)(sizeof layouts / sizeof layouts[0]);
    const size_t L = (size_t)lanes;
    const size_t ranges[][2] = {{0, 0}, {5, 1}, {3, L - 1}, {5, L + 1}, {0, n}, {7, 999}, {L, 2 * L}};
    int combo = 0;
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
        for (uint32_t k = 1; k <= 8; ++k)
            for (int jf = SKIN_JOINT_U8; jf <= SKIN_JOINT_U16; ++jf)
                for (int wi = 0; wi < 3; ++wi, ++combo) {
                    uint32_t jc = joint_counts[combo % 7];
                    if (jf == SKIN_JOINT_U8 && jc > 256) jc = 64;
                    rig r;
                    rig_options o = {n, jc, k, (skin_joint_format)jf, wfs[wi], method == SKIN_DQS && combo % 2,
                                     0x1234u + (uint64_t)combo};
                    if (rig_random(&r, &o)) exit(1);
                    roughen(&r);
                    skin_palette pal = r.palette;
                    float *nm = NULL;
                    if (method == SKIN_LBS && combo % 3 == 0) pal.normal_matrices = nm = normal_matrices(&r);
                    for (int li = 0; li < layout_count; ++li) {
                        uint32_t flags = ((combo + li) & 1 ? SKIN_OUTPUT_STREAMING : 0) |
                                         (combo % 5 == 0 ? SKIN_OUTPUT_NORMALIZE : 0);
                        for (size_t ri = 0; ri < sizeof ranges / sizeof ranges[0]; ++ri) {
                            /* the full 10k range on two layouts per combo keeps the run short */
                            if (ranges[ri][1] == n && li != combo % layout_count && li != (combo + 3) % layout_count) continue;
                            char what[160];
                            snprintf(what, sizeof what, "%s k=%u joints=%u %s %s, %s, range %zu+%zu%s",
                                     method == SKIN_LBS ? "lbs" : "dqs", k, jc, jf == SKIN_JOINT_U8 ? "u8" : "u16",
                                     wi == 0 ? "f32" : wi == 1 ? "unorm16" : "unorm8", layouts[li].name,
                                     ranges[ri][0], ranges[ri][1], flags & SKIN_OUTPUT_STREAMING ? " streaming" : "");
                            check_call(&r, &pal, (skin_method)method, &layouts[li], flags, ranges[ri][0],
                                       ranges[ri][1], what);
                        }
                    }
                    free(nm);
                    rig_free(&r);
                }
}

/* All weights zero: the blended real part is zero and the pivot's own
 * transform is used; the pivot is the first slot on the tie.  (With the
 * largest weight as the pivot, nothing else can cancel the blend.) */
static void dqs_fallback(void)
{
    rig r;
    rig_options o = {40, 3, 3, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 99};
    if (rig_random(&r, &o)) exit(1);
    const float dq[3][8] = {{0, 0, 0, 1, 0.5f, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0, 0}, {-1, 0, 0, 0, 0, 0, 0, 0}};
    memcpy(r.dual_quats, dq, sizeof dq);
    for (size_t v = 0; v < 40; ++v)
        for (uint32_t i = 0; i < 3; ++i) {
            ((uint16_t *)r.joints[i])[v] = (uint16_t)i;
            ((float *)r.weights[i])[v] = 0.0f;
        }
    layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    check_call(&r, &r.palette, SKIN_DQS, &l, 0, 1, 38, "dqs near-zero fallback");
    /* and the result is the pivot's rigid transform: translation (1, 0, 0) */
    size_t bytes = layout_bytes(&l, 40);
    unsigned char *got = alloc_buffer(bytes);
    skin_output out = make_output(&l, got, 0, NULL);
    EXPECT(skin_mesh(&r.mesh, &r.palette, SKIN_DQS, &out, 0, 40) == SKIN_OK, "fallback status");
    for (size_t v = 0; v < 40; ++v)
        EXPECT(fabsf(out.position[10 * v] - (r.mesh.px[v] + 1.0f)) < 1e-5f, "fallback vertex %zu x", v);
    free(got);
    rig_free(&r);
}

/* SKIN_OUTPUT_NORMALIZE at lengths whose squares leave float's normal
 * range (a joint scaled near zero, or huge normal matrices): unit length
 * like the reference, a zero vector kept.  Identity palettes, so the
 * skinned vectors are the inputs. */
static void normalize_extreme_lengths(void)
{
    static const double lengths[] = {0, 1e-30, 1e-24, 1e-21, 1e-19, 2e-19, 1e-18, 1,
                                     1e18, 1.5e19, 3e19, 1e25, 1e35};
    enum { N = 2 * (int)(sizeof lengths / sizeof lengths[0]) + 3 };
    rig r;
    rig_options o = {N, 2, 1, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 5};
    if (rig_random(&r, &o)) exit(1);
    static const float im[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, idq[8] = {0, 0, 0, 1, 0, 0, 0, 0};
    for (uint32_t j = 0; j < 2; ++j) memcpy(r.matrices + 12 * j, im, sizeof im), memcpy(r.dual_quats + 8 * j, idq, sizeof idq);
    for (size_t v = 0; v < N; ++v) /* the rig's unit normals and tangents, scaled */
        for (int e = 3; e < 9; ++e)
            r.streams[e][v] = (float)(r.streams[e][v] * lengths[(v / 2) % (sizeof lengths / sizeof lengths[0])]);
    layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    for (int m = 0; m < 2; ++m) {
        const skin_method method = m ? SKIN_DQS : SKIN_LBS;
        check_call(&r, &r.palette, method, &l, SKIN_OUTPUT_NORMALIZE, 0, N, "normalize, extreme lengths");
        size_t bytes = layout_bytes(&l, N);
        unsigned char *buf = alloc_buffer(bytes);
        skin_output out = make_output(&l, buf, SKIN_OUTPUT_NORMALIZE, NULL);
        EXPECT(skin_mesh(&r.mesh, &r.palette, method, &out, 0, N) == SKIN_OK, "normalize status");
        for (size_t v = 0; v < N; ++v)
            for (int a = 0; a < 2; ++a) {
                const float *x = out.position + 10 * v + 3 + 3 * a;
                const double in = fabs(r.streams[3 + 3 * a][v]) + fabs(r.streams[4 + 3 * a][v]) +
                                  fabs(r.streams[5 + 3 * a][v]);
                const double len = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
                EXPECT(in == 0 ? len == 0 : fabs(len - 1) < 1e-5, "%s vertex %zu %s: length %g (input |.|1 %g)",
                       m ? "DQS" : "LBS", v, a ? "tangent" : "normal", len, in);
            }
        free(buf);
    }
    rig_free(&r);
}

/* One call, many ranges and skin_mesh_parallel must agree to the bit. */
/* One call, random ranges and skin_mesh_parallel give the same bytes. */
static void check_splits(const rig *r, skin_method method, const char *what)
{
    const size_t n = r->mesh.vertex_count;
    layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    size_t bytes = layout_bytes(&l, n);
    unsigned char *one = alloc_buffer(bytes), *parts = alloc_buffer(bytes), *par = alloc_buffer(bytes);
    float b1[6], b3[6];
    skin_output o1 = make_output(&l, one, SKIN_OUTPUT_STREAMING, b1);
    skin_output o2 = make_output(&l, parts, 0, NULL), o3 = make_output(&l, par, 0, b3);
    skin_mesh(&r->mesh, &r->palette, method, &o1, 0, n);
    uint64_t s = 42;
    for (size_t v = 0; v < n;) {
        size_t c = 1 + rig_next(&s) % 77;
        if (c > n - v) c = n - v;
        skin_mesh(&r->mesh, &r->palette, method, &o2, v, c);
        v += c;
    }
    skin_mesh_parallel(&r->mesh, &r->palette, method, &o3, 2);
    EXPECT(memcmp(one, parts, bytes) == 0, "%s: ranges differ from one call (method %d)", what, method);
    EXPECT(memcmp(one, par, bytes) == 0, "%s: parallel differs from one call (method %d)", what, method);
    EXPECT(memcmp(b1, b3, sizeof b1) == 0, "%s: parallel bounds differ (method %d)", what, method);
    free(one), free(parts), free(par);
}

/* 24 and 40 joints: on 16 lanes one call takes each palette table kind
 * and, for DQS, the sign table; the pieces take the rows and the dot
 * products. */
static void splits(void)
{
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
        for (uint32_t joints = 24; joints <= 40; joints += 16) {
            rig r;
            rig_options o = {5003, joints, 4, SKIN_JOINT_U8, SKIN_WEIGHT_UNORM16, 0, 7};
            if (rig_random(&r, &o)) exit(1);
            check_splits(&r, (skin_method)method, "random rig");
            rig_free(&r);
        }
}

/* Real meshes leave unused slots zero at the end, and neighbours share
 * joints.  Vertex v uses 1 + (v / period) % k slots (runs that straddle
 * blocks), the rest weigh +0 or -0: blocks drop their all-zero trailing
 * slots.  In every other run of 2 * period + 1 vertices all vertices share
 * their joints: those blocks take the uniform-joint path (for LBS with
 * unorm8 weights also with normal matrices, which those blocks fetch by
 * joint, not by offset).  Against the reference, and bit-identical under
 * any split. */
static void trailing_zero_slots(int lanes)
{
    static const skin_weight_format wfs[] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM8, SKIN_WEIGHT_UNORM16};
    const size_t n = 3001, period = 3 * (size_t)lanes + 5;
    layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method)
        for (uint32_t k = 2; k <= 8; k += 3)
            for (int wi = 0; wi < 3; ++wi) {
                rig r;
                rig_options o = {n, 64, k, SKIN_JOINT_U16, wfs[wi], 0, 0x5107u + k};
                if (rig_random(&r, &o)) exit(1);
                for (size_t v = 0; v < n; ++v) {
                    const size_t run = v / (2 * period + 1);
                    if (run % 2)
                        for (uint32_t i = 0; i < k; ++i) ((uint16_t *)r.joints[i])[v] = (uint16_t)((run * 7 + i * 5) % 64);
                }
                for (size_t v = 0; v < n; ++v)
                    for (uint32_t i = 1 + (uint32_t)((v / period) % k); i < k; ++i) {
                        if (wfs[wi] == SKIN_WEIGHT_F32)
                            ((float *)r.weights[i])[v] = v % 3 ? 0.0f : -0.0f;
                        else if (wfs[wi] == SKIN_WEIGHT_UNORM8)
                            ((uint8_t *)r.weights[i])[v] = 0;
                        else
                            ((uint16_t *)r.weights[i])[v] = 0;
                    }
                skin_palette pal = r.palette;
                float *nm = NULL;
                if (method == SKIN_LBS && wfs[wi] == SKIN_WEIGHT_UNORM8) pal.normal_matrices = nm = normal_matrices(&r);
                char what[96];
                snprintf(what, sizeof what, "zero slots, shared joints %s k=%u weights %d%s",
                         method == SKIN_LBS ? "lbs" : "dqs", k, wi, nm ? " normal matrices" : "");
                const size_t ranges[][2] = {{0, n}, {3, 2 * (size_t)lanes + 1}, {period - 1, 3 * period}, {n - 7, 7}};
                for (size_t ri = 0; ri < 4; ++ri)
                    check_call(&r, &pal, (skin_method)method, &l, 0, ranges[ri][0], ranges[ri][1], what);
                check_splits(&r, (skin_method)method, what);
                free(nm);
                rig_free(&r);
            }
}

/* Influences sorted largest first, as skin_assets and most exporters store
 * them, make slot 0 every lane's DQS pivot, and the 16-lane kernels then
 * take the pivot's real part from slot 0's fetch.  Against the reference,
 * on every fetch kind (16, 64 and 100 joints on 16 lanes) and with runs of
 * shared joints (uniform blocks); and bit-identical to the general path:
 * with every odd vertex's first two slots swapped, a block is sorted only
 * where weights tie, and the even vertices must keep every bit. */
static void dqs_sorted_influences(int lanes)
{
    static const skin_weight_format wfs[] = {SKIN_WEIGHT_F32, SKIN_WEIGHT_UNORM16, SKIN_WEIGHT_UNORM8};
    static const uint32_t joint_choices[] = {16, 64, 100};
    const size_t n = 2003, run = 2 * (size_t)lanes + 3;
    const layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    const size_t bytes = layout_bytes(&l, n);
    for (uint32_t k = 2; k <= 8; k += 2)
        for (int wi = 0; wi < 3; ++wi) {
            const uint32_t jc = joint_choices[(k / 2 + (uint32_t)wi) % 3];
            rig r;
            rig_options o = {n, jc, k, SKIN_JOINT_U16, wfs[wi], wi == 1, 0x50e7u + 3 * k + (uint64_t)wi};
            if (rig_random(&r, &o)) exit(1);
            roughen(&r);
            rig_sort_influences(&r, 0, n);
            for (size_t v = 0; v < n; ++v) /* every other run shares its joints, slot by slot */
                if (v / run % 2)
                    for (uint32_t i = 0; i < k; ++i) ((uint16_t *)r.joints[i])[v] = (uint16_t)((v / run * 7 + i * 5) % jc);
            char what[96];
            snprintf(what, sizeof what, "dqs sorted influences k=%u joints=%u weights %d", k, jc, wi);
            check_call(&r, &r.palette, SKIN_DQS, &l, 0, 0, n, what);
            check_call(&r, &r.palette, SKIN_DQS, &l, 0, 3, n - 10, what);
            unsigned char *sorted = alloc_buffer(bytes), *mixed = alloc_buffer(bytes);
            skin_output os = make_output(&l, sorted, 0, NULL), om = make_output(&l, mixed, 0, NULL);
            EXPECT(skin_mesh(&r.mesh, &r.palette, SKIN_DQS, &os, 0, n) == SKIN_OK, "%s: status", what);
            for (size_t v = 1; v < n; v += 2) rig_swap_slots(&r, v, 0, 1);
            EXPECT(skin_mesh(&r.mesh, &r.palette, SKIN_DQS, &om, 0, n) == SKIN_OK, "%s: status", what);
            for (size_t v = 0; v < n; v += 2) {
                const size_t at = PAD + l.misalign + v * l.stride[0];
                EXPECT(memcmp(sorted + at, mixed + at, l.stride[0]) == 0, "%s: vertex %zu differs from the general path",
                       what, v);
            }
            free(sorted), free(mixed);
            rig_free(&r);
        }
}

/* A palette whose real parts have no negative dot with each other (joint
 * j turned by twist * j / (joints - 1) about x, twist under 180 degrees)
 * lets a long enough call skip DQS's sign tests: the same bits as the
 * short calls of a split, which test, and as the reference.  Twisted past
 * 180 degrees, the first and last joints' real parts have a negative dot,
 * and random influences blend them: the check must see it.  With scales
 * on 100 joints (the 16-lane rows path); 300 joints are not checked. */
static void dqs_positive_signs(void)
{
    static const uint32_t joint_choices[] = {24, 100, 300};
    static const float twists[] = {2.5f, 3.3f};
    const layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    for (int ji = 0; ji < 3; ++ji)
        for (int ti = 0; ti < 2; ++ti) {
            rig r;
            rig_options o = {5003, joint_choices[ji], 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, ji == 1, 0x5167u + (uint64_t)ji};
            if (rig_random(&r, &o)) exit(1);
            rig_candy_pose(&r, twists[ti]);
            char what[96];
            snprintf(what, sizeof what, "dqs twist %.1f joints=%u", (double)twists[ti], joint_choices[ji]);
            check_call(&r, &r.palette, SKIN_DQS, &l, 0, 0, r.mesh.vertex_count, what);
            check_splits(&r, SKIN_DQS, what);
            rig_free(&r);
        }
}

/* Attribute streams at the same address modulo 4 KiB, as separate large
 * allocations put them: the 4-lane kernels copy them chunk by chunk first,
 * the 8-lane ones only when they are not 32-byte aligned, the 16-lane ones
 * never.  Against the reference, over ranges that start and end inside
 * blocks and chunks, bit-identical to the same streams apart and under any
 * split; with normals alone (6 streams) and with tangents. */
static void aliased_streams(void)
{
    const size_t n = 3001, span = (n * sizeof(float) + 4095) / 4096 * 4096;
    const layout layouts[] = {make_interleaved("aliased, interleaved pnt", 1, 1, 0),
                              make_interleaved("aliased, interleaved pn", 1, 0, 4),
                              make_packed("aliased, snorm16 pnt", SKIN_VECTOR_SNORM16, 1, 0)};
    float *block = aligned_alloc(4096, 10 * span + 4096);
    if (!block) exit(1);
    /* page-aligned, and 16 bytes past (as malloc's large blocks are: 8 lanes copy only those) */
    for (size_t shift = 0; shift <= 16; shift += 16) {
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            rig r;
            rig_options o = {n, 64, 4, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 0xa11a5u};
            if (rig_random(&r, &o)) exit(1);
            rig apart = r;
            const float **a[10] = {&r.mesh.px, &r.mesh.py, &r.mesh.pz, &r.mesh.nx, &r.mesh.ny,
                                   &r.mesh.nz, &r.mesh.tx, &r.mesh.ty, &r.mesh.tz, &r.mesh.tw};
            for (int e = 0; e < 10; ++e) {
                float *copy = (float *)((char *)block + e * span + shift);
                memcpy(copy, *a[e], n * sizeof(float));
                *a[e] = copy;
            }
            for (size_t li = 0; li < sizeof layouts / sizeof *layouts; ++li) {
                const layout *l = &layouts[li];
                const size_t ranges[][2] = {{0, n}, {5, 1031}, {n - 517, 517}};
                for (size_t ri = 0; ri < 3; ++ri)
                    check_call(&r, &r.palette, (skin_method)method, l, 0, ranges[ri][0], ranges[ri][1], l->name);
                const size_t bytes = layout_bytes(l, n);
                unsigned char *same = alloc_buffer(bytes), *other = alloc_buffer(bytes);
                skin_output os = make_output(l, same, 0, NULL), oo = make_output(l, other, 0, NULL);
                EXPECT(skin_mesh(&r.mesh, &r.palette, (skin_method)method, &os, 0, n) == SKIN_OK &&
                           skin_mesh(&apart.mesh, &apart.palette, (skin_method)method, &oo, 0, n) == SKIN_OK &&
                           memcmp(same, other, bytes) == 0,
                       "%s: not bit-identical to the streams apart (method %d)", l->name, method);
                free(same), free(other);
            }
            check_splits(&r, (skin_method)method, "aliased streams");
            rig_free(&apart);
        }
    }
    free(block);
}

static void candy_wrapper(void)
{
    rig r;
    rig_options o = {10000, 12, 4, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 0};
    if (rig_candy_wrapper(&r, &o)) exit(1);
    rig_candy_pose(&r, 2.5f);
    layout l = make_interleaved("interleaved pnt", 1, 1, 0);
    check_call(&r, &r.palette, SKIN_LBS, &l, SKIN_OUTPUT_STREAMING, 0, 10000, "candy wrapper lbs");
    check_call(&r, &r.palette, SKIN_DQS, &l, 0, 0, 10000, "candy wrapper dqs");
    rig_free(&r);
}

int main(void)
{
    const int isa_status = rig_isa_under_test(&isa_under_test);
    if (isa_status) return isa_status;
    static const int lane_counts[] = {0, 1, 4, 8, 16, 4, 4};
    int lanes = lane_counts[isa_under_test];
    printf("kernels under test: %s (%d lanes)\n", skin_isa_name(isa_under_test), lanes);
    random_rigs(lanes);
    dqs_fallback();
    normalize_extreme_lengths();
    splits();
    trailing_zero_slots(lanes);
    dqs_sorted_influences(lanes);
    dqs_positive_signs();
    aliased_streams();
    candy_wrapper();
    printf("largest relative error vs the reference: %.3g\n", worst);
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
