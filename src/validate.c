/* SPDX-License-Identifier: MIT */
/* Load-time O(n) validation of mesh data. */
#include "skin_internal.h"

#include <math.h>

static skin_status fail(skin_validation_report *r, skin_status s, size_t v, uint32_t slot)
{
    r->status = s;
    r->vertex = v;
    r->slot = slot;
    r->morph_target = -1;
    return s;
}

static skin_status fail_morph(skin_validation_report *r, skin_status s, size_t v, uint32_t slot, uint32_t target)
{
    fail(r, s, v, slot);
    r->morph_target = (int32_t)target;
    return s;
}

/* Target k: sparse list sorted and in range, every delta finite. */
static skin_status validate_morph(const skin_mesh_desc *mesh, uint32_t k, skin_validation_report *r)
{
    const skin_morph_target *t = &mesh->morph_targets[k];
    const size_t n = t->indices ? t->count : mesh->vertex_count;
    if (t->indices) {
        for (size_t e = 0; e < n; ++e) {
            if (t->indices[e] >= mesh->vertex_count)
                return fail_morph(r, SKIN_ERROR_MORPH_INDEX_RANGE, t->indices[e], 0, k);
            if (e && t->indices[e] <= t->indices[e - 1])
                return fail_morph(r, SKIN_ERROR_MORPH_INDEX_ORDER, t->indices[e], 0, k);
        }
    }
    for (int g = 0; g < 3; ++g) {
        const float *const *d = skin_morph_deltas(t, g);
        if (!d[0]) continue;
        for (size_t e = 0; e < n; ++e)
            for (int c = 0; c < 3; ++c)
                if (!isfinite(d[c][e]))
                    return fail_morph(r, SKIN_ERROR_NON_FINITE, t->indices ? t->indices[e] : e,
                                      (uint32_t)(3 * g + c), k);
    }
    return SKIN_OK;
}

static int finite_at(const float *stream, size_t v) { return !stream || isfinite(stream[v]); }

skin_status skin_validate(const skin_mesh_desc *mesh, uint32_t joint_count,
                          skin_validation_report *report)
{
    skin_validation_report local;
    skin_validation_report *r = report ? report : &local;
    *r = (skin_validation_report){SKIN_OK, 0, 0, -1};

    /* The descriptor checks are skin_mesh's own, on an empty range. */
    float sink[4];
    skin_palette pal = {.joint_count = joint_count, .matrices = sink};
    skin_output out = {.layout = SKIN_LAYOUT_STRIDED, .position = sink, .position_stride = 12};
    skin_job job;
    skin_status s = skin_prepare_job(mesh, &pal, SKIN_LBS, &out, 0, 0, &job);
    if (s != SKIN_OK) return fail(r, s, 0, 0);
    if ((mesh->nx || mesh->ny || mesh->nz) && !(mesh->nx && mesh->ny && mesh->nz))
        return fail(r, SKIN_ERROR_NULL_ARGUMENT, 0, 3);
    if ((mesh->tx || mesh->ty || mesh->tz || mesh->tw) &&
        !(mesh->tx && mesh->ty && mesh->tz && mesh->tw))
        return fail(r, SKIN_ERROR_NULL_ARGUMENT, 0, 6);

    const float *attrs[SKIN_COMPONENTS] = {mesh->px, mesh->py, mesh->pz, mesh->nx, mesh->ny,
                                           mesh->nz, mesh->tx, mesh->ty, mesh->tz, mesh->tw};
    const uint32_t unorm_one = mesh->weight_format == SKIN_WEIGHT_UNORM16 ? 65535u : 255u;
    for (size_t v = 0; v < mesh->vertex_count; ++v) {
        for (uint32_t c = 0; c < SKIN_COMPONENTS; ++c)
            if (!finite_at(attrs[c], v)) return fail(r, SKIN_ERROR_NON_FINITE, v, c);
        double sum = 0.0;
        uint32_t isum = 0;
        for (uint32_t i = 0; i < mesh->influence_count; ++i) {
            if (skin_joint_at(mesh, i, v) >= joint_count)
                return fail(r, SKIN_ERROR_JOINT_OUT_OF_RANGE, v, i);
            if (mesh->weight_format == SKIN_WEIGHT_F32) {
                float w = ((const float *)mesh->weights[i])[v];
                if (!isfinite(w) || w < 0.0f) return fail(r, SKIN_ERROR_INVALID_WEIGHT, v, i);
                sum += w;
            } else {
                isum += mesh->weight_format == SKIN_WEIGHT_UNORM16
                            ? ((const uint16_t *)mesh->weights[i])[v]
                            : ((const uint8_t *)mesh->weights[i])[v];
            }
        }
        int ok = mesh->weight_format == SKIN_WEIGHT_F32 ? fabs(sum - 1.0) <= 1e-3
                                                        : isum == unorm_one;
        if (!ok) return fail(r, SKIN_ERROR_WEIGHT_SUM, v, 0);
    }
    for (uint32_t k = 0; k < mesh->morph_target_count; ++k)
        if (validate_morph(mesh, k, r) != SKIN_OK) return r->status;
    return SKIN_OK;
}
