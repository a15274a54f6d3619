/* SPDX-License-Identifier: MIT */
/* The scalar reference kernels: the oracle every SIMD kernel is tested
 * against.  Written for clarity, one vertex at a time, in double precision. */
#include "skin_internal.h"

#include <math.h>
#include <string.h>

typedef struct vec3 { double x, y, z; } vec3;

static vec3 cross(vec3 a, vec3 b)
{
    return (vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static vec3 add(vec3 a, vec3 b) { return (vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static vec3 scale(vec3 a, double s) { return (vec3){a.x * s, a.y * s, a.z * s}; }
static vec3 mul(vec3 a, vec3 b) { return (vec3){a.x * b.x, a.y * b.y, a.z * b.z}; }

static vec3 normalized(vec3 a)
{
    double len = sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
    return len > 0.0 ? scale(a, 1.0 / len) : a;
}

/* Rows of a 3x3 (stride 3) or the 3x3 part of a 3x4 (stride 4). */
static vec3 apply3(const double *m, int row_stride, vec3 v)
{
    const double *r0 = m, *r1 = m + row_stride, *r2 = m + 2 * row_stride;
    return (vec3){r0[0] * v.x + r0[1] * v.y + r0[2] * v.z, r1[0] * v.x + r1[1] * v.y + r1[2] * v.z,
                  r2[0] * v.x + r2[1] * v.y + r2[2] * v.z};
}

typedef struct vertex {
    vec3 p, n, t;
    float tw; /* copied as it is: through a double a signalling NaN would come back quiet */
} vertex;

static uint32_t clamped_joint(const skin_job *job, uint32_t i, size_t v)
{
    uint32_t j = skin_joint_at(job->mesh, i, v);
    return j > job->joint_max ? job->joint_max : j;
}

static void lbs(const skin_job *job, size_t v, vertex *x)
{
    const skin_palette *pal = job->palette;
    double m[12] = {0}, nm[9] = {0};
    for (uint32_t i = 0; i < job->mesh->influence_count; ++i) {
        uint32_t j = clamped_joint(job, i, v);
        double w = skin_weight_at(job->mesh, i, v);
        for (int e = 0; e < 12; ++e) m[e] += w * pal->matrices[12 * j + e];
        if (pal->normal_matrices)
            for (int e = 0; e < 9; ++e) nm[e] += w * pal->normal_matrices[9 * j + e];
    }
    x->p = add(apply3(m, 4, x->p), (vec3){m[3], m[7], m[11]});
    x->n = pal->normal_matrices ? apply3(nm, 3, x->n) : apply3(m, 4, x->n);
    x->t = apply3(m, 4, x->t);
}

static void load_dq(const float *f, double q[8])
{
    for (int e = 0; e < 8; ++e) q[e] = f[e];
}

static void dqs(const skin_job *job, size_t v, vertex *x)
{
    const skin_palette *pal = job->palette;
    double pivot[8], b[8] = {0};
    vec3 s = {0, 0, 0};
    /* The pivot: the slot with the largest weight, the first one on ties. */
    uint32_t pivot_slot = 0;
    for (uint32_t i = 1; i < job->mesh->influence_count; ++i)
        if (skin_weight_at(job->mesh, i, v) > skin_weight_at(job->mesh, pivot_slot, v)) pivot_slot = i;
    const uint32_t pivot_joint = clamped_joint(job, pivot_slot, v);
    load_dq(pal->dual_quats + 8 * pivot_joint, pivot);
    for (uint32_t i = 0; i < job->mesh->influence_count; ++i) {
        uint32_t j = clamped_joint(job, i, v);
        double w = skin_weight_at(job->mesh, i, v), q[8];
        load_dq(pal->dual_quats + 8 * j, q);
        double d = q[0] * pivot[0] + q[1] * pivot[1] + q[2] * pivot[2] + q[3] * pivot[3];
        double sw = d < 0.0 ? -w : w;
        for (int e = 0; e < 8; ++e) b[e] += sw * q[e];
        if (pal->scales) {
            const float *sc = pal->scales + 3 * j;
            s = add(s, scale((vec3){sc[0], sc[1], sc[2]}, w));
        }
    }
    double norm = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
    if (norm < SKIN_DQS_MIN_NORM) { /* the pivot joint's own transform */
        memcpy(b, pivot, sizeof b);
        norm = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
        if (pal->scales) {
            const float *sc = pal->scales + 3 * pivot_joint;
            s = (vec3){sc[0], sc[1], sc[2]};
        }
    }
    for (int e = 0; e < 8; ++e) b[e] /= norm;

    if (pal->scales) {
        x->p = mul(x->p, s);
        x->t = mul(x->t, s);
        x->n = mul(x->n, (vec3){1.0 / s.x, 1.0 / s.y, 1.0 / s.z});
    }
    vec3 r = {b[0], b[1], b[2]}, d = {b[4], b[5], b[6]};
    double rw = b[3], dw = b[7];
    /* v' = v + 2 r x (r x v + rw v);  translation = 2 (rw d - dw r + r x d) */
    vec3 *vs[3] = {&x->p, &x->n, &x->t};
    for (int k = 0; k < 3; ++k) {
        vec3 u = *vs[k];
        *vs[k] = add(u, scale(cross(r, add(cross(r, u), scale(u, rw))), 2.0));
    }
    vec3 tr = scale(add(add(scale(d, rw), scale(r, -dw)), cross(r, d)), 2.0);
    x->p = add(x->p, tr);
}

/* The delta of sparse target t for vertex v, entry e, if v is listed (an
 * unsorted list just finds fewer entries). */
static int sparse_entry(const skin_morph_target *t, size_t v, size_t *e)
{
    *e = skin_morph_first_at(t, v);
    return *e < t->count && t->indices[*e] == v;
}

/* p, n, t += sum_k w_k d_k over the call's active targets, in double. */
static void morph(const skin_job *job, size_t v, vertex *x)
{
    const skin_mesh_desc *m = job->mesh;
    vec3 *attr[3] = {&x->p, &x->n, &x->t};
    vec3 sum[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    for (uint32_t a = 0; a < job->morph_count; ++a) {
        const skin_morph_target *t = &m->morph_targets[job->morph_index[a]];
        const double w = job->palette->morph_weights[job->morph_index[a]];
        size_t e = v;
        if (t->indices && !sparse_entry(t, v, &e)) continue;
        for (int g = 0; g < 3; ++g) {
            if (!skin_morph_group_used(job, t, g)) continue;
            const float *const *d = skin_morph_deltas(t, g);
            sum[g] = add(sum[g], scale((vec3){d[0][e], d[1][e], d[2][e]}, w));
        }
    }
    for (int g = 0; g < 3; ++g) *attr[g] = add(*attr[g], sum[g]);
}

static void put(const skin_job *job, int c, size_t v, float f)
{
    memcpy(job->dst[c] + v * job->dst_stride[c], &f, sizeof f);
}

static void put_packed(const skin_job *job, int c, size_t v, const float x[4])
{
    uint32_t word[2];
    skin_pack_vector(job->vector_format, x, word);
    memcpy(job->dst[c] + v * job->dst_stride[c], word, skin_vector_bytes(job->vector_format, c == 6));
}

void skin_kernel_scalar(const skin_job *job)
{
    const skin_mesh_desc *m = job->mesh;
    for (size_t v = job->first; v < job->first + job->count; ++v) {
        vertex x = {{m->px[v], m->py[v], m->pz[v]}, {0, 0, 0}, {0, 0, 0}, 0};
        if (job->normals) x.n = (vec3){m->nx[v], m->ny[v], m->nz[v]};
        if (job->tangents) x.t = (vec3){m->tx[v], m->ty[v], m->tz[v]}, x.tw = m->tw[v];
        if (job->morph_count) morph(job, v, &x);
        if (job->method == SKIN_LBS)
            lbs(job, v, &x);
        else
            dqs(job, v, &x);
        if (job->normalize) x.n = normalized(x.n), x.t = normalized(x.t);

        double out[SKIN_COMPONENTS - 1] = {x.p.x, x.p.y, x.p.z, x.n.x, x.n.y, x.n.z, x.t.x, x.t.y, x.t.z};
        for (int c = 0; c < SKIN_COMPONENTS - 1; ++c) {
            int used = c < 3 || (c < 6 ? job->normals : job->tangents);
            if (used && (c < 3 || job->vector_format == SKIN_VECTOR_F32)) put(job, c, v, (float)out[c]);
        }
        if (job->tangents && job->vector_format == SKIN_VECTOR_F32) put(job, 9, v, x.tw);
        if (job->vector_format != SKIN_VECTOR_F32) {
            if (job->normals) put_packed(job, 3, v, (float[4]){(float)out[3], (float)out[4], (float)out[5], 0.0f});
            if (job->tangents) put_packed(job, 6, v, (float[4]){(float)out[6], (float)out[7], (float)out[8], x.tw});
        }
        if (job->bounds) {
            for (int c = 0; c < 3; ++c) {
                float f = (float)out[c];
                if (f < job->bounds[c]) job->bounds[c] = f;
                if (f > job->bounds[3 + c]) job->bounds[3 + c] = f;
            }
        }
    }
}
