/* SPDX-License-Identifier: MIT */
/* Vertex layouts and skinning into a slot: the core packs normals and
 * tangents itself (skin_output.vector_format), in its single pass. */
#include "skin/skin_vk.h"
#include "vk_internal.h"

#include <string.h>

skin_status skin_vk_vertex_layout_init(uint32_t attributes, skin_vk_packing packing,
                                       skin_vk_vertex_layout *l)
{
    if (!l) return SKIN_ERROR_NULL_ARGUMENT;
    if (attributes & ~(SKIN_VK_NORMAL | SKIN_VK_TANGENT)) return SKIN_ERROR_INVALID_FLAGS;
    uint32_t nsize, tsize;
    VkFormat nf, tf;
    switch (packing) {
    case SKIN_VK_PACK_FLOAT:
        nsize = 12, tsize = 16;
        nf = VK_FORMAT_R32G32B32_SFLOAT, tf = VK_FORMAT_R32G32B32A32_SFLOAT;
        break;
    case SKIN_VK_PACK_1010102:
        nsize = tsize = 4;
        nf = tf = VK_FORMAT_A2B10G10R10_SNORM_PACK32;
        break;
    case SKIN_VK_PACK_SNORM16:
        nsize = tsize = 8;
        nf = tf = VK_FORMAT_R16G16B16A16_SNORM;
        break;
    default:
        return SKIN_ERROR_INVALID_FORMAT;
    }
    memset(l, 0, sizeof *l);
    l->attributes = attributes;
    l->packing = packing;
    l->position_format = VK_FORMAT_R32G32B32_SFLOAT;
    l->stride = 12;
    if (attributes & SKIN_VK_NORMAL) {
        l->normal_offset = l->stride;
        l->normal_format = nf;
        l->stride += nsize;
    }
    if (attributes & SKIN_VK_TANGENT) {
        l->tangent_offset = l->stride;
        l->tangent_format = tf;
        l->stride += tsize;
    }
    return SKIN_OK;
}

void vk_slot_output(void *mapped, const skin_vk_vertex_layout *layout, skin_output *o)
{
    char *base = mapped;
    memset(o, 0, sizeof *o);
    o->layout = SKIN_LAYOUT_STRIDED;
    o->flags = SKIN_OUTPUT_STREAMING;
    o->vector_format = layout->packing == SKIN_VK_PACK_1010102  ? SKIN_VECTOR_1010102
                       : layout->packing == SKIN_VK_PACK_SNORM16 ? SKIN_VECTOR_SNORM16
                                                                 : SKIN_VECTOR_F32;
    o->position = (float *)base;
    o->position_stride = layout->stride;
    if (layout->attributes & SKIN_VK_NORMAL) {
        o->normal = (float *)(base + layout->normal_offset);
        o->normal_stride = layout->stride;
    }
    if (layout->attributes & SKIN_VK_TANGENT) {
        o->tangent = (float *)(base + layout->tangent_offset);
        o->tangent_stride = layout->stride;
    }
}

skin_status skin_vk_skin(const skin_vk_slot *slot, const skin_mesh_desc *mesh,
                         const skin_palette *palette, skin_method method, size_t first,
                         size_t count)
{
    if (!slot || !mesh || !slot->mapped) return SKIN_ERROR_NULL_ARGUMENT;
    if (mesh->vertex_count != slot->vertex_count || first > slot->vertex_count ||
        count > slot->vertex_count - first)
        return SKIN_ERROR_INVALID_RANGE;
    /* The slot is user-writable: the writes stay inside it only with a
     * layout skin_vk_vertex_layout_init would produce, and the one it was
     * allocated with, which slot->output describes (another layout, wider
     * records, would run into the next slot). */
    const skin_vk_vertex_layout *l = &slot->layout;
    skin_vk_vertex_layout check;
    if (skin_vk_vertex_layout_init(l->attributes, l->packing, &check) != SKIN_OK ||
        memcmp(&check, l, sizeof check) != 0)
        return SKIN_ERROR_INVALID_STRIDE;
    skin_output o;
    vk_slot_output(slot->mapped, l, &o);
    const skin_output *a = &slot->output;
    if (o.position != a->position || o.position_stride != a->position_stride || o.normal != a->normal ||
        o.normal_stride != a->normal_stride || o.tangent != a->tangent || o.tangent_stride != a->tangent_stride ||
        o.vector_format != a->vector_format || a->layout != SKIN_LAYOUT_STRIDED)
        return SKIN_ERROR_INVALID_STRIDE;
    o.flags |= slot->output.flags & SKIN_OUTPUT_NORMALIZE;
    o.bounds = slot->output.bounds;
    return skin_mesh(mesh, palette, method, &o, first, count);
}
