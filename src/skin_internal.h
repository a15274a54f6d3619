/* Internal interface between the API layer (src/skin.c), the scalar
 * reference (src/reference.c) and the SIMD kernels (simd/). */
#ifndef SKIN_INTERNAL_H
#define SKIN_INTERNAL_H

#include "skin/skin.h"

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
    float *bounds;        /* NULL or 6 floats to fill */
    char *dst[SKIN_COMPONENTS];
    size_t dst_stride[SKIN_COMPONENTS];
} skin_job;

/* Every kernel set has one entry point; it handles the whole job. */
typedef void (*skin_kernel_fn)(const skin_job *job);

void skin_kernel_scalar(const skin_job *job);
#if defined(SKIN_HAVE_X86_KERNELS)
void skin_kernel_sse2(const skin_job *job);
void skin_kernel_avx2(const skin_job *job);
void skin_kernel_avx512(const skin_job *job);
#endif
#if defined(SKIN_HAVE_NEON_KERNELS)
void skin_kernel_neon(const skin_job *job);
#endif

/* The kernel for the current ISA (dispatch.c). */
skin_kernel_fn skin_current_kernel(void);

/* Checks arguments in O(1) and fills *job (skin.c). */
skin_status skin_prepare_job(const skin_mesh_desc *mesh, const skin_palette *palette,
                             skin_method method, const skin_output *out,
                             size_t first, size_t count, skin_job *job);

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

/* DQS: below this blended real-part norm the pivot's own dual quaternion is
 * used (see SKIN_DQS in skin.h). */
#define SKIN_DQS_MIN_NORM 1e-6f

#endif
