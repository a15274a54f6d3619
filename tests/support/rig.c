/* SPDX-License-Identifier: MIT */
#include "rig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rig_isa_under_test(skin_isa *isa)
{
    const char *want = getenv("SKIN_ISA");
    *isa = skin_get_isa();
    if (!want || strcmp(want, skin_isa_name(*isa)) == 0) return 0;
    for (int i = SKIN_ISA_SCALAR; i <= SKIN_ISA_SIMD128; ++i) {
        if (strcmp(want, skin_isa_name((skin_isa)i)) == 0 && !skin_isa_supported((skin_isa)i)) {
            printf("skipped: this CPU or build cannot run ISA %s\n", want);
            return 77;
        }
    }
    fprintf(stderr, "SKIN_ISA=%s did not select that ISA (got %s)\n", want, skin_isa_name(*isa));
    return 1;
}

uint64_t rig_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float rig_uniform(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)((rig_next(s) >> 40) * (1.0 / 16777216.0));
}

static size_t joint_size(skin_joint_format f) { return f == SKIN_JOINT_U8 ? 1 : 2; }
static size_t weight_size(skin_weight_format f)
{
    return f == SKIN_WEIGHT_F32 ? 4 : f == SKIN_WEIGHT_UNORM16 ? 2 : 1;
}

static int rig_alloc(rig *r, const rig_options *o)
{
    memset(r, 0, sizeof *r);
    size_t n = o->vertex_count ? o->vertex_count : 1;
    int ok = 1;
    for (int c = 0; c < 10; ++c) ok &= (r->streams[c] = calloc(n, sizeof(float))) != NULL;
    for (uint32_t i = 0; i < o->influence_count; ++i) {
        ok &= (r->joints[i] = calloc(n, joint_size(o->joint_format))) != NULL;
        ok &= (r->weights[i] = calloc(n, weight_size(o->weight_format))) != NULL;
    }
    ok &= (r->matrices = calloc(12 * (size_t)o->joint_count, sizeof(float))) != NULL;
    ok &= (r->dual_quats = calloc(8 * (size_t)o->joint_count, sizeof(float))) != NULL;
    if (o->with_scales) ok &= (r->scales = calloc(3 * (size_t)o->joint_count, sizeof(float))) != NULL;
    if (!ok) {
        rig_free(r);
        return -1;
    }
    skin_mesh_desc *m = &r->mesh;
    m->vertex_count = o->vertex_count;
    m->px = r->streams[0], m->py = r->streams[1], m->pz = r->streams[2];
    m->nx = r->streams[3], m->ny = r->streams[4], m->nz = r->streams[5];
    m->tx = r->streams[6], m->ty = r->streams[7], m->tz = r->streams[8], m->tw = r->streams[9];
    m->influence_count = o->influence_count;
    m->joint_format = o->joint_format;
    m->weight_format = o->weight_format;
    for (uint32_t i = 0; i < o->influence_count; ++i)
        m->joints[i] = r->joints[i], m->weights[i] = r->weights[i];
    r->palette = (skin_palette){.joint_count = o->joint_count, .matrices = r->matrices, .dual_quats = r->dual_quats, .scales = r->scales};
    r->seed = o->seed;
    return 0;
}

void rig_free(rig *r)
{
    for (int c = 0; c < 10; ++c) free(r->streams[c]);
    for (int i = 0; i < SKIN_MAX_INFLUENCES; ++i) free(r->joints[i]), free(r->weights[i]);
    free(r->matrices), free(r->dual_quats), free(r->scales);
    memset(r, 0, sizeof *r);
}

void rig_swap_slots(rig *r, size_t v, uint32_t a, uint32_t b)
{
    const size_t js = joint_size(r->mesh.joint_format), ws = weight_size(r->mesh.weight_format);
    unsigned char t[4];
    memcpy(t, (char *)r->joints[a] + v * js, js);
    memcpy((char *)r->joints[a] + v * js, (char *)r->joints[b] + v * js, js);
    memcpy((char *)r->joints[b] + v * js, t, js);
    memcpy(t, (char *)r->weights[a] + v * ws, ws);
    memcpy((char *)r->weights[a] + v * ws, (char *)r->weights[b] + v * ws, ws);
    memcpy((char *)r->weights[b] + v * ws, t, ws);
}

static double weight_value(const rig *r, uint32_t i, size_t v)
{
    switch (r->mesh.weight_format) {
    case SKIN_WEIGHT_UNORM16: return ((const uint16_t *)r->weights[i])[v];
    case SKIN_WEIGHT_UNORM8: return ((const uint8_t *)r->weights[i])[v];
    default: return ((const float *)r->weights[i])[v];
    }
}

void rig_sort_influences(rig *r, size_t first, size_t count)
{
    for (size_t v = first; v < first + count; ++v)
        for (uint32_t i = 1; i < r->mesh.influence_count; ++i) /* insertion sort: stable */
            for (uint32_t s = i; s > 0 && weight_value(r, s - 1, v) < weight_value(r, s, v); --s)
                rig_swap_slots(r, v, s - 1, s);
}

static void set_joint(rig *r, uint32_t i, size_t v, uint32_t j)
{
    if (r->mesh.joint_format == SKIN_JOINT_U8)
        ((uint8_t *)r->joints[i])[v] = (uint8_t)j;
    else
        ((uint16_t *)r->joints[i])[v] = (uint16_t)j;
}

/* Stores normalised weights w[0..k) in the rig's format; unorm sums exact. */
static void set_weights(rig *r, size_t v, const double *w)
{
    uint32_t k = r->mesh.influence_count, largest = 0;
    double sum = 0.0;
    for (uint32_t i = 0; i < k; ++i) sum += w[i];
    for (uint32_t i = 1; i < k; ++i)
        if (w[i] > w[largest]) largest = i;
    if (r->mesh.weight_format == SKIN_WEIGHT_F32) {
        for (uint32_t i = 0; i < k; ++i) ((float *)r->weights[i])[v] = (float)(w[i] / sum);
        return;
    }
    long one = r->mesh.weight_format == SKIN_WEIGHT_UNORM16 ? 65535 : 255, q[8], total = 0;
    for (uint32_t i = 0; i < k; ++i) total += q[i] = lround(w[i] / sum * (double)one);
    q[largest] += one - total;
    for (uint32_t i = 0; i < k; ++i) {
        if (r->mesh.weight_format == SKIN_WEIGHT_UNORM16)
            ((uint16_t *)r->weights[i])[v] = (uint16_t)q[i];
        else
            ((uint8_t *)r->weights[i])[v] = (uint8_t)q[i];
    }
}

static void unit3(uint64_t *s, float *x, float *y, float *z)
{
    float a, b, c, l;
    do {
        a = rig_uniform(s, -1, 1), b = rig_uniform(s, -1, 1), c = rig_uniform(s, -1, 1);
        l = a * a + b * b + c * c;
    } while (l < 0.01f || l > 1.0f);
    l = 1.0f / sqrtf(l);
    *x = a * l, *y = b * l, *z = c * l;
}

/* Fills dual_quats (and scales) from rotation q and translation t, then
 * the matching matrices. */
static void set_joint_transform(rig *r, uint32_t j, const float q[4], const float t[3])
{
    float *dq = r->dual_quats + 8 * j;
    for (int i = 0; i < 4; ++i) dq[i] = q[i];
    dq[4] = 0.5f * (t[0] * q[3] + t[1] * q[2] - t[2] * q[1]);
    dq[5] = 0.5f * (t[1] * q[3] + t[2] * q[0] - t[0] * q[2]);
    dq[6] = 0.5f * (t[2] * q[3] + t[0] * q[1] - t[1] * q[0]);
    dq[7] = -0.5f * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2]);
    skin_dual_quat_to_matrix(dq, r->scales ? r->scales + 3 * j : NULL, r->matrices + 12 * j);
}

void rig_random_pose(rig *r, uint64_t seed)
{
    for (uint32_t j = 0; j < r->palette.joint_count; ++j) {
        float q[4], t[3], l;
        do {
            for (int i = 0; i < 4; ++i) q[i] = rig_uniform(&seed, -1, 1);
            l = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        } while (l < 0.01f || l > 1.0f);
        l = 1.0f / sqrtf(l);
        for (int i = 0; i < 4; ++i) q[i] *= l;
        for (int i = 0; i < 3; ++i) t[i] = rig_uniform(&seed, -2, 2);
        if (r->scales)
            for (int i = 0; i < 3; ++i) r->scales[3 * j + i] = rig_uniform(&seed, 0.5f, 1.5f);
        set_joint_transform(r, j, q, t);
    }
}

int rig_random(rig *r, const rig_options *o)
{
    if (rig_alloc(r, o)) return -1;
    uint64_t s = o->seed;
    for (size_t v = 0; v < o->vertex_count; ++v) {
        for (int c = 0; c < 3; ++c) r->streams[c][v] = rig_uniform(&s, -1, 1);
        unit3(&s, &r->streams[3][v], &r->streams[4][v], &r->streams[5][v]);
        unit3(&s, &r->streams[6][v], &r->streams[7][v], &r->streams[8][v]);
        r->streams[9][v] = (rig_next(&s) & 1) ? 1.0f : -1.0f;
        double w[8];
        for (uint32_t i = 0; i < o->influence_count; ++i) {
            set_joint(r, i, v, (uint32_t)(rig_next(&s) % o->joint_count));
            w[i] = rig_uniform(&s, 0.05f, 1.0f);
        }
        set_weights(r, v, w);
    }
    rig_random_pose(r, rig_next(&s));
    return 0;
}

int rig_coherent(rig *r, const rig_options *o)
{
    if (rig_alloc(r, o)) return -1;
    uint64_t s = o->seed;
    const size_t n = o->vertex_count;
    const uint32_t jc = o->joint_count, k = o->influence_count;
    size_t run_left = 0;
    uint32_t used = 1;
    for (size_t v = 0; v < n; ++v) {
        for (int c = 0; c < 3; ++c) r->streams[c][v] = rig_uniform(&s, -1, 1);
        unit3(&s, &r->streams[3][v], &r->streams[4][v], &r->streams[5][v]);
        unit3(&s, &r->streams[6][v], &r->streams[7][v], &r->streams[8][v]);
        r->streams[9][v] = (rig_next(&s) & 1) ? 1.0f : -1.0f;
        if (!run_left) {
            /* A new run: its length and influence count (50/30/10/10 %). */
            run_left = 4 + rig_next(&s) % 29;
            uint32_t pct = (uint32_t)(rig_next(&s) % 100);
            used = pct < 50 ? 1 : pct < 80 ? 2 : pct < 90 ? 3 : 4;
            if (used > k) used = k;
        }
        --run_left;
        const uint32_t base = (uint32_t)((double)v * jc / (double)(n ? n : 1));
        double w[8];
        for (uint32_t i = 0; i < k; ++i) {
            uint32_t j = base + i < jc ? base + i : jc - 1;
            set_joint(r, i, v, i < used ? j : base);
            w[i] = i < used ? rig_uniform(&s, 0.05f, 1.0f) / (double)(i + 1) : 0.0;
        }
        set_weights(r, v, w);
    }
    rig_random_pose(r, rig_next(&s));
    return 0;
}

#define CANDY_LENGTH 4.0f
#define CANDY_RADIUS 0.5f

static float candy_joint_x(uint32_t j, uint32_t count)
{
    return count > 1 ? -0.5f * CANDY_LENGTH + CANDY_LENGTH * (float)j / (float)(count - 1) : 0.0f;
}

int rig_candy_wrapper(rig *r, const rig_options *o)
{
    if (rig_alloc(r, o)) return -1;
    size_t n = o->vertex_count;
    uint32_t jc = o->joint_count, k = o->influence_count;
    size_t rings = (size_t)sqrt((double)n) + 1;
    for (size_t v = 0; v < n; ++v) {
        float u = (float)(v / rings) / (float)((n + rings - 1) / rings);
        float a = 6.2831853f * (float)(v % rings) / (float)rings;
        float x = -0.5f * CANDY_LENGTH + CANDY_LENGTH * u;
        r->streams[0][v] = x;
        r->streams[1][v] = CANDY_RADIUS * cosf(a);
        r->streams[2][v] = CANDY_RADIUS * sinf(a);
        r->streams[3][v] = 0, r->streams[4][v] = cosf(a), r->streams[5][v] = sinf(a);
        r->streams[6][v] = 1, r->streams[7][v] = 0, r->streams[8][v] = 0, r->streams[9][v] = 1;
        /* The k nearest joints along x, weighted by a tent of one segment. */
        uint32_t nearest[8];
        double w[8];
        float seg = jc > 1 ? CANDY_LENGTH / (float)(jc - 1) : CANDY_LENGTH;
        for (uint32_t i = 0; i < k; ++i) {
            uint32_t best = 0;
            float bestd = INFINITY;
            for (uint32_t j = 0; j < jc; ++j) {
                int taken = 0;
                for (uint32_t p = 0; p < i; ++p) taken |= nearest[p] == j;
                float d = fabsf(x - candy_joint_x(j, jc));
                if (!taken && d < bestd) bestd = d, best = j;
            }
            nearest[i] = i < jc ? best : nearest[0];
            float d = fabsf(x - candy_joint_x(nearest[i], jc));
            w[i] = i < jc ? fmax(1e-3, 1.0 - d / seg) : 1e-3;
            set_joint(r, i, v, nearest[i]);
        }
        set_weights(r, v, w);
    }
    if (r->scales)
        for (uint32_t j = 0; j < 3 * jc; ++j) r->scales[j] = 1.0f;
    rig_candy_pose(r, 0.0f);
    return 0;
}

void rig_candy_pose(rig *r, float angle)
{
    uint32_t jc = r->palette.joint_count;
    for (uint32_t j = 0; j < jc; ++j) {
        /* Rotation about x through the joint's own centre: q p q* + c - q c q*
         * is a pure rotation when the centre is on the axis, so t = 0. */
        float a = jc > 1 ? angle * (float)j / (float)(jc - 1) : angle;
        float q[4] = {sinf(0.5f * a), 0, 0, cosf(0.5f * a)}, t[3] = {0, 0, 0};
        set_joint_transform(r, j, q, t);
    }
}

int rig_morph_targets(rig_morphs *m, size_t vertex_count, uint32_t count, double sparse_fraction, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    if (count > RIG_MORPH_MAX) return -1;
    m->count = count;
    const size_t region = sparse_fraction > 0 ? (size_t)((double)vertex_count * sparse_fraction / 0.8) : 0;
    const size_t start = vertex_count / 2 - region / 2;
    for (uint32_t t = 0; t < count; ++t) {
        skin_morph_target *mt = &m->targets[t];
        m->weights[t] = 0.1f * (float)(t + 1);
        size_t len = vertex_count;
        if (region) {
            uint32_t *idx = m->indices[t] = malloc(region * sizeof(uint32_t));
            if (!idx) return rig_morphs_free(m), -1;
            len = 0;
            for (size_t v = start; v < start + region; ++v)
                if (rig_next(&seed) % 5 != 0) idx[len++] = (uint32_t)v;
            mt->indices = idx, mt->count = len;
        }
        for (int e = 0; e < 6; ++e) {
            float *d = m->deltas[t][e] = malloc((len ? len : 1) * sizeof(float));
            if (!d) return rig_morphs_free(m), -1;
            for (size_t i = 0; i < len; ++i) d[i] = rig_uniform(&seed, -0.05f, 0.05f);
        }
        float *const *d = m->deltas[t];
        mt->dpx = d[0], mt->dpy = d[1], mt->dpz = d[2], mt->dnx = d[3], mt->dny = d[4], mt->dnz = d[5];
    }
    return 0;
}

void rig_morphs_free(rig_morphs *m)
{
    for (uint32_t t = 0; t < RIG_MORPH_MAX; ++t) {
        free(m->indices[t]);
        for (int e = 0; e < 6; ++e) free(m->deltas[t][e]);
    }
    memset(m, 0, sizeof *m);
}
