/* SPDX-License-Identifier: MIT */
/* Internal interface between the API layer (src/skin.c), the scalar
 * reference (src/reference.c) and the SIMD kernels (simd/). */
#ifndef SKIN_INTERNAL_H
#define SKIN_INTERNAL_H

#include "skin/skin.h"

#include <math.h>

/* Output components in the order px py pz nx ny nz tx ty tz tw. */
enum { SKIN_COMPONENTS = 10 };

/* A checked skin_mesh call, with the output resolved into one address and
 * byte stride per component so kernels need not care about the layout. */
typedef struct skin_job {
    const skin_mesh_desc *mesh;
    const skin_palette *palette;
    skin_method method;
    size_t first, count;
    uint32_t joint_max;   /* joint_count - 1: joints are clamped to it */
    int normals;          /* write normals */
    int tangents;         /* write tangents */
    int soa;              /* layout is SKIN_LAYOUT_SOA */
    int streaming;        /* SKIN_OUTPUT_STREAMING */
    int normalize;        /* SKIN_OUTPUT_NORMALIZE */
    skin_vector_format vector_format; /* normals and tangents; non-F32: the
                                         element starts at dst[3] / dst[6] */
    float *bounds;        /* NULL or 6 floats to fill */
    /* Morph targets with a non-zero weight, in target order (the weights
     * are the palette's; morph_count 0: none). */
    uint32_t morph_count;
    uint32_t morph_index[SKIN_MAX_ACTIVE_MORPH_TARGETS];
    char *dst[SKIN_COMPONENTS];
    size_t dst_stride[SKIN_COMPONENTS];
} skin_job;

/* A kernel handles a whole job.  The SIMD kernel sets have one entry point
 * per method (simd/kernel.c is built once per ISA and method, so the two
 * halves compile in parallel); the scalar reference takes both. */
typedef void (*skin_kernel_fn)(const skin_job *job);

void skin_kernel_scalar(const skin_job *job);
void skin_kernel_sse2_lbs(const skin_job *job);
void skin_kernel_sse2_dqs(const skin_job *job);
void skin_kernel_avx2_lbs(const skin_job *job);
void skin_kernel_avx2_dqs(const skin_job *job);
void skin_kernel_avx512_lbs(const skin_job *job);
void skin_kernel_avx512_dqs(const skin_job *job);
#if defined(SKIN_HAVE_NEON_KERNELS)
void skin_kernel_neon_lbs(const skin_job *job);
void skin_kernel_neon_dqs(const skin_job *job);
#endif
#if defined(SKIN_HAVE_SIMD128_KERNELS)
void skin_kernel_simd128_lbs(const skin_job *job);
void skin_kernel_simd128_dqs(const skin_job *job);
#endif

/* The kernel for the current ISA and a method (dispatch.c). */
skin_kernel_fn skin_current_kernel(skin_method method);

/* Checks arguments in O(1) and fills *job (skin.c). */
skin_status skin_prepare_job(const skin_mesh_desc *mesh, const skin_palette *palette,
                             skin_method method, const skin_output *out,
                             size_t first, size_t count, skin_job *job);

/* A finished call's bounds with -0 reported as +0: a range's smallest
 * and largest coordinates are unique but for the sign of a zero, which the
 * kernels take from whichever zero they meet first, and the parallel
 * driver's chunks finish in any order. */
static inline void skin_bounds_finish(float bounds[6])
{
    for (int k = 0; k < 6; ++k)
        if (bounds[k] == 0.0f) bounds[k] = 0.0f;
}

/* Bounds that hold nothing yet: min = +inf, max = -inf. */
static inline void skin_bounds_empty(float bounds[6])
{
    for (int k = 0; k < 3; ++k) bounds[k] = INFINITY, bounds[3 + k] = -INFINITY;
}

/* A prepared job on the calling thread: its bounds from empty, then
 * finished. */
static inline void skin_run_job(skin_job *job, skin_kernel_fn kernel)
{
    if (job->bounds) skin_bounds_empty(job->bounds);
    if (job->count) kernel(job);
    if (job->bounds) skin_bounds_finish(job->bounds);
}

/* Influence slot i of vertex v, as stored and as used by the kernels. */
static inline uint32_t skin_joint_at(const skin_mesh_desc *m, uint32_t i, size_t v)
{
    return m->joint_format == SKIN_JOINT_U8 ? ((const uint8_t *)m->joints[i])[v]
                                            : ((const uint16_t *)m->joints[i])[v];
}

static inline float skin_weight_at(const skin_mesh_desc *m, uint32_t i, size_t v)
{
    switch (m->weight_format) {
    case SKIN_WEIGHT_UNORM16: return (float)((const uint16_t *)m->weights[i])[v] * (1.0f / 65535.0f);
    case SKIN_WEIGHT_UNORM8: return (float)((const uint8_t *)m->weights[i])[v] * (1.0f / 255.0f);
    default: return ((const float *)m->weights[i])[v];
    }
}

/* Packed vectors (see skin_vector_format): float -> snorm with NaN -> 1, as
 * the SIMD min/max/convert sequence gives, rounded to nearest even. */
static inline int32_t skin_snorm(float f, float scale)
{
    f = f < 1.0f ? f : 1.0f; /* NaN -> 1 */
    f = f > -1.0f ? f : -1.0f;
    return (int32_t)nearbyintf(f * scale);
}

/* The element of a normal (w = 0) or tangent in a packed format: one
 * uint32 (1010102) or two (snorm16: x | y << 16, z | w << 16). */
static inline void skin_pack_vector(skin_vector_format format, const float v[4], uint32_t word[2])
{
    if (format == SKIN_VECTOR_1010102) {
        word[0] = ((uint32_t)skin_snorm(v[0], 511.0f) & 0x3ffu) |
                  ((uint32_t)skin_snorm(v[1], 511.0f) & 0x3ffu) << 10 |
                  ((uint32_t)skin_snorm(v[2], 511.0f) & 0x3ffu) << 20 |
                  (uint32_t)skin_snorm(v[3], 1.0f) << 30;
    } else {
        word[0] = ((uint32_t)skin_snorm(v[0], 32767.0f) & 0xffffu) | (uint32_t)skin_snorm(v[1], 32767.0f) << 16;
        word[1] = ((uint32_t)skin_snorm(v[2], 32767.0f) & 0xffffu) | (uint32_t)skin_snorm(v[3], 32767.0f) << 16;
    }
}

/* Bytes of a normal / tangent element in each vector format. */
static inline size_t skin_vector_bytes(skin_vector_format format, int tangent)
{
    return format == SKIN_VECTOR_1010102 ? 4 : format == SKIN_VECTOR_SNORM16 ? 8 : tangent ? 16 : 12;
}

/* Delta group g (0 position, 1 normal, 2 tangent) of a morph target: its
 * three component pointers, as given (each may be NULL). */
static inline const float *const *skin_morph_deltas(const skin_morph_target *t, int g)
{
    return g == 0 ? &t->dpx : g == 1 ? &t->dnx : &t->dtx;
}

/* The first entry of a sparse target's list at or after vertex v (binary
 * search; an unsorted list gets some position, never one out of bounds). */
static inline size_t skin_morph_first_at(const skin_morph_target *t, size_t v)
{
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (t->indices[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Whether a call writing normals / tangents uses group g. */
static inline int skin_morph_group_used(const skin_job *job, const skin_morph_target *t, int g)
{
    return skin_morph_deltas(t, g)[0] && (g == 0 || (g == 1 ? job->normals : job->tangents));
}

/* DQS: below this blended real-part norm the pivot's own dual quaternion is
 * used (see SKIN_DQS in skin.h). */
#define SKIN_DQS_MIN_NORM 1e-6f

#endif
