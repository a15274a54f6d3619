/* SPDX-License-Identifier: MIT */
/* Public entry points: version, status strings, argument checks, skin_mesh. */
#include "skin_internal.h"

#include <math.h>
#include <stdint.h>

uint32_t skin_version(void) { return SKIN_VERSION; }

#define SKIN_STR2(x) #x
#define SKIN_STR(x) SKIN_STR2(x)
const char *skin_version_string(void)
{
    return SKIN_STR(SKIN_VERSION_MAJOR) "." SKIN_STR(SKIN_VERSION_MINOR) "." SKIN_STR(
        SKIN_VERSION_PATCH);
}

const char *skin_status_string(skin_status status)
{
    switch (status) {
    case SKIN_OK: return "ok";
    case SKIN_ERROR_NULL_ARGUMENT: return "a required pointer is NULL";
    case SKIN_ERROR_INVALID_COUNT: return "a count is zero or too large";
    case SKIN_ERROR_INVALID_RANGE: return "vertex range exceeds the mesh";
    case SKIN_ERROR_INVALID_INFLUENCES: return "influence count must be 1..8";
    case SKIN_ERROR_INVALID_FORMAT: return "unknown joint, weight or output format";
    case SKIN_ERROR_INVALID_STRIDE: return "output stride or pointer invalid";
    case SKIN_ERROR_INVALID_METHOD: return "unknown skinning method";
    case SKIN_ERROR_INVALID_FLAGS: return "unknown output flags";
    case SKIN_ERROR_MISSING_ATTRIBUTE: return "output asks for an attribute the mesh lacks";
    case SKIN_ERROR_MISSING_PALETTE: return "palette lacks what the method needs";
    case SKIN_ERROR_JOINT_OUT_OF_RANGE: return "joint index >= joint count";
    case SKIN_ERROR_INVALID_WEIGHT: return "negative or non-finite weight";
    case SKIN_ERROR_WEIGHT_SUM: return "weights do not sum to one";
    case SKIN_ERROR_NON_FINITE: return "non-finite vertex attribute";
    case SKIN_ERROR_INVALID_HIERARCHY: return "parent joint does not precede its child";
    case SKIN_ERROR_UNSUPPORTED: return "ISA not supported by this CPU or build";
    case SKIN_ERROR_MORPH_INDEX_ORDER: return "sparse morph indices not strictly increasing";
    case SKIN_ERROR_MORPH_INDEX_RANGE: return "sparse morph index >= vertex count";
    case SKIN_ERROR_MORPH_WEIGHT: return "non-finite morph weight";
    case SKIN_ERROR_INDEX_RANGE: return "triangle index out of range";
    case SKIN_ERROR_INVALID_VALUE: return "parameter outside its domain";
    case SKIN_ERROR_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown status";
}

/* Largest output element is a 16-byte tangent; keeping every byte offset
 * below PTRDIFF_MAX keeps kernel address arithmetic well defined. */
#define SKIN_MAX_VERTICES ((size_t)PTRDIFF_MAX / 64)

static int misaligned(const void *p) { return ((uintptr_t)p & 3u) != 0; }

/* The kernels address element v at base + v * stride for v < vertex_count:
 * the limit follows from this mesh's count (stride * vertex_count <=
 * PTRDIFF_MAX), not from the largest count any mesh may have. */
static skin_status check_stride(const float *base, size_t stride, size_t element,
                                size_t vertex_count)
{
    if (stride < element || (stride & 3u) || misaligned(base)) return SKIN_ERROR_INVALID_STRIDE;
    if (vertex_count && stride > (size_t)PTRDIFF_MAX / vertex_count)
        return SKIN_ERROR_INVALID_STRIDE;
    return SKIN_OK;
}

static void set_strided(skin_job *job, int c0, int n, float *base, size_t stride)
{
    for (int c = 0; c < n; ++c) {
        job->dst[c0 + c] = (char *)(base + c);
        job->dst_stride[c0 + c] = stride;
    }
}

static skin_status prepare_output(const skin_mesh_desc *mesh, const skin_output *out,
                                  skin_job *job)
{
    const float *want_n, *want_t;
    if (out->layout == SKIN_LAYOUT_STRIDED) {
        want_n = out->normal;
        want_t = out->tangent;
    } else if (out->layout == SKIN_LAYOUT_SOA) {
        want_n = out->soa[3];
        want_t = out->soa[6];
    } else {
        return SKIN_ERROR_INVALID_FORMAT;
    }
    const skin_vector_format vf = out->vector_format;
    if (vf != SKIN_VECTOR_F32 && vf != SKIN_VECTOR_SNORM16 && vf != SKIN_VECTOR_1010102)
        return SKIN_ERROR_INVALID_FORMAT;
    if (vf != SKIN_VECTOR_F32 && out->layout == SKIN_LAYOUT_SOA) return SKIN_ERROR_INVALID_FORMAT;
    job->vector_format = vf;
    job->normals = want_n != NULL;
    job->tangents = want_t != NULL;
    /* a group the mesh lacks entirely is missing; one partly set, a NULL
     * argument, whichever of its pointers is NULL */
    if (job->normals && !mesh->nx && !mesh->ny && !mesh->nz) return SKIN_ERROR_MISSING_ATTRIBUTE;
    if (job->tangents && !mesh->tx && !mesh->ty && !mesh->tz && !mesh->tw) return SKIN_ERROR_MISSING_ATTRIBUTE;
    if (job->normals && (!mesh->nx || !mesh->ny || !mesh->nz)) return SKIN_ERROR_NULL_ARGUMENT;
    if (job->tangents && (!mesh->tx || !mesh->ty || !mesh->tz || !mesh->tw)) return SKIN_ERROR_NULL_ARGUMENT;
    if (misaligned(out->bounds)) return SKIN_ERROR_INVALID_STRIDE;

    if (out->layout == SKIN_LAYOUT_SOA) {
        job->soa = 1;
        for (int c = 0; c < SKIN_COMPONENTS; ++c) {
            int used = c < 3 || (c < 6 ? job->normals : job->tangents);
            if (!used) continue;
            if (!out->soa[c]) return SKIN_ERROR_NULL_ARGUMENT;
            if (misaligned(out->soa[c])) return SKIN_ERROR_INVALID_STRIDE;
            job->dst[c] = (char *)out->soa[c];
            job->dst_stride[c] = sizeof(float);
        }
        return SKIN_OK;
    }
    skin_status s;
    const size_t n = mesh->vertex_count;
    if (!out->position) return SKIN_ERROR_NULL_ARGUMENT;
    if ((s = check_stride(out->position, out->position_stride, 12, n)) != SKIN_OK) return s;
    set_strided(job, 0, 3, out->position, out->position_stride);
    if (job->normals) {
        if ((s = check_stride(out->normal, out->normal_stride, skin_vector_bytes(vf, 0), n)) != SKIN_OK)
            return s;
        set_strided(job, 3, 3, out->normal, out->normal_stride);
    }
    if (job->tangents) {
        if ((s = check_stride(out->tangent, out->tangent_stride, skin_vector_bytes(vf, 1), n)) != SKIN_OK)
            return s;
        set_strided(job, 6, 4, out->tangent, out->tangent_stride);
    }
    return SKIN_OK;
}

/* Morph targets: every delta group complete (checked for every target, so
 * a mesh is accepted or refused whatever its weights), weights finite, and
 * the targets with a non-zero weight listed in job->morph_index. */
static skin_status prepare_morphs(const skin_mesh_desc *mesh, const float *weights, skin_job *job)
{
    if (!mesh->morph_target_count) return SKIN_OK;
    if (!mesh->morph_targets) return SKIN_ERROR_NULL_ARGUMENT;
    for (uint32_t k = 0; k < mesh->morph_target_count; ++k) {
        const skin_morph_target *t = &mesh->morph_targets[k];
        for (int g = 0; g < 3; ++g) {
            const float *const *d = skin_morph_deltas(t, g);
            if ((d[0] || d[1] || d[2]) && !(d[0] && d[1] && d[2])) return SKIN_ERROR_NULL_ARGUMENT;
        }
    }
    if (!weights) return SKIN_OK;
    /* every weight is checked before the count: the status does not
     * depend on where a non-finite weight sits */
    int too_many = 0;
    for (uint32_t k = 0; k < mesh->morph_target_count; ++k) {
        if (!isfinite(weights[k])) return SKIN_ERROR_MORPH_WEIGHT;
        if (weights[k] == 0.0f) continue;
        if (job->morph_count == SKIN_MAX_ACTIVE_MORPH_TARGETS)
            too_many = 1;
        else
            job->morph_index[job->morph_count++] = k;
    }
    return too_many ? SKIN_ERROR_INVALID_COUNT : SKIN_OK;
}

skin_status skin_prepare_job(const skin_mesh_desc *mesh, const skin_palette *palette,
                             skin_method method, const skin_output *out, size_t first,
                             size_t count, skin_job *job)
{
    if (!mesh || !palette || !out || !job) return SKIN_ERROR_NULL_ARGUMENT;
    *job = (skin_job){0};
    if (method != SKIN_LBS && method != SKIN_DQS) return SKIN_ERROR_INVALID_METHOD;
    if (out->flags & ~SKIN_OUTPUT_ALL_FLAGS) return SKIN_ERROR_INVALID_FLAGS;
    if (!mesh->px || !mesh->py || !mesh->pz) return SKIN_ERROR_NULL_ARGUMENT;
    if (mesh->vertex_count > SKIN_MAX_VERTICES) return SKIN_ERROR_INVALID_COUNT;
    if (first > mesh->vertex_count || count > mesh->vertex_count - first)
        return SKIN_ERROR_INVALID_RANGE;
    if (mesh->influence_count < 1 || mesh->influence_count > SKIN_MAX_INFLUENCES)
        return SKIN_ERROR_INVALID_INFLUENCES;
    if (mesh->joint_format != SKIN_JOINT_U8 && mesh->joint_format != SKIN_JOINT_U16)
        return SKIN_ERROR_INVALID_FORMAT;
    if (mesh->weight_format != SKIN_WEIGHT_F32 && mesh->weight_format != SKIN_WEIGHT_UNORM16 &&
        mesh->weight_format != SKIN_WEIGHT_UNORM8)
        return SKIN_ERROR_INVALID_FORMAT;
    for (uint32_t i = 0; i < mesh->influence_count; ++i)
        if (!mesh->joints[i] || !mesh->weights[i]) return SKIN_ERROR_NULL_ARGUMENT;
    if (palette->joint_count == 0 || palette->joint_count > SKIN_MAX_JOINTS)
        return SKIN_ERROR_INVALID_COUNT;
    if (method == SKIN_LBS ? !palette->matrices : !palette->dual_quats)
        return SKIN_ERROR_MISSING_PALETTE;

    skin_status s = prepare_output(mesh, out, job);
    if (s != SKIN_OK) return s;
    if ((s = prepare_morphs(mesh, palette->morph_weights, job)) != SKIN_OK) return s;
    job->mesh = mesh;
    job->palette = palette;
    job->method = method;
    job->first = first;
    job->count = count;
    job->joint_max = palette->joint_count - 1;
    job->streaming = (out->flags & SKIN_OUTPUT_STREAMING) != 0;
    job->normalize = (out->flags & SKIN_OUTPUT_NORMALIZE) != 0;
    job->bounds = out->bounds;
    return SKIN_OK;
}

skin_status skin_mesh(const skin_mesh_desc *mesh, const skin_palette *palette, skin_method method,
                      const skin_output *out, size_t first, size_t count)
{
    skin_job job;
    skin_status s = skin_prepare_job(mesh, palette, method, out, first, count, &job);
    if (s != SKIN_OK) return s;
    skin_run_job(&job, skin_current_kernel(method));
    return SKIN_OK;
}
