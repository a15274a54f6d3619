/* SPDX-License-Identifier: MIT */
/* GPU compute skinning (LBS and DQS) into the stream ring, at parity with
 * the CPU kernels, for comparison with the CPU path.  The shaders
 * (shaders/skin_lbs.comp, skin_dqs.comp) are compiled by glslc at build time
 * and embedded; a mesh's formats and influence count are specialization
 * constants, so each mesh gets its own pipeline per method (created on first
 * use); everything that varies per call is a push constant. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

static const uint32_t skin_lbs_spv[] =
#include "skin_lbs.spv.inc"
    ;
static const uint32_t skin_dqs_spv[] =
#include "skin_dqs.spv.inc"
    ;

#define GROUP 64u

/* Matches Params in shaders/skin_common.glsl. */
typedef struct push_params {
    uint32_t n, first, count, joint_count, tangent_plane, joint_base, weight_base, flags;
    uint32_t vector_format, pos_off, nrm_off, tan_off, pos_stride, nrm_stride, tan_stride;
    uint32_t comp_step, morph_count, morph_base, morph_targets;
} push_params;
_Static_assert(sizeof(push_params) == VK_GPU_PUSH_BYTES, "push constants");

/* Matches the morph binding in shaders/skin_common.glsl. */
enum { MORPH_HEADER = 6, M_SPARSE = 1, M_POS = 2, M_NRM = 4, M_TAN = 8 };

enum { F_NORMAL = 1, F_TANGENT = 2, F_NORMALIZE = 4, F_EXTRA = 8 };

struct skin_vk_gpu {
    vk_ctx c;
    VkPipelineStageFlags dst_stage;
    VkAccessFlags dst_access;
    uint32_t flags;                     /* SKIN_VK_FORCE_STAGING */
    VkDescriptorSetLayout set_layout;   /* set 0: the mesh streams */
    VkDescriptorSetLayout frame_layout; /* set 1: palette and output, see vk_internal.h */
    VkPipelineLayout layout;
    VkShaderModule modules[2];          /* LBS, DQS */
};

struct skin_vk_gpu_mesh {
    skin_vk_gpu *gpu;
    size_t vertex_count;
    uint32_t influence_count, joint_count, has_normal, has_tangent;
    uint32_t joint_bytes, weight_format; /* specialization constants */
    uint32_t joint_base, weight_base;    /* word offsets in streams */
    uint32_t morph_count;                /* the mesh's morph targets */
    vk_block streams;                    /* device-local, see skin_common.glsl */
    vk_block staging;                    /* host copy when streams is not mappable */
    VkDeviceSize bytes;                  /* of streams (and morph targets after them) */
    int upload_recorded;                 /* staging copy recorded (first skin call) */
    VkDescriptorPool pool;
    VkDescriptorSet set; /* written once: bindings never change */
    VkPipeline pipelines[2]; /* LBS, DQS; created on first use */
};

VkResult skin_vk_gpu_create(const skin_vk_gpu_create_info *info, skin_vk_gpu **out)
{
    if (out) *out = NULL;
    if (!info || !out || !info->physical_device || !info->device ||
        (info->get_instance_proc_addr && !info->instance) || (info->flags & ~SKIN_VK_FORCE_STAGING) ||
        !info->dst_stage != !info->dst_access)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    skin_vk_gpu *g = calloc(1, sizeof *g);
    if (!g) return VK_ERROR_OUT_OF_HOST_MEMORY;
    VkResult r = vk_ctx_init(&g->c, info->physical_device, info->device,
                             info->get_instance_proc_addr, info->instance, info->allocator);
    if (r != VK_SUCCESS) {
        free(g);
        return r;
    }
    g->flags = info->flags;
    g->dst_stage = info->dst_stage ? info->dst_stage : VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    g->dst_access = info->dst_access ? info->dst_access : VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
    const vk_fns *f = &g->c.fn;
    VkDevice dev = g->c.device;
    VkDescriptorSetLayoutBinding b[2]; /* the streams, the morph targets */
    for (uint32_t i = 0; i < 2; ++i)
        b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                              VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo sli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 2,
        .pBindings = b};
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push_params)};
    r = f->CreateDescriptorSetLayout(dev, &sli, g->c.allocator, &g->set_layout);
    if (r != VK_SUCCESS) {
        g->set_layout = VK_NULL_HANDLE;
        goto fail;
    }
    if ((r = vk_frame_set_layout_create(&g->c, &g->frame_layout)) != VK_SUCCESS) goto fail;
    VkDescriptorSetLayout sets[2] = {g->set_layout, g->frame_layout};
    VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 2,
                                      .pSetLayouts = sets,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &pcr};
    if ((r = f->CreatePipelineLayout(dev, &pli, g->c.allocator, &g->layout)) != VK_SUCCESS) {
        g->layout = VK_NULL_HANDLE;
        goto fail;
    }
    const uint32_t *code[2] = {skin_lbs_spv, skin_dqs_spv};
    size_t size[2] = {sizeof skin_lbs_spv, sizeof skin_dqs_spv};
    for (int m = 0; m < 2; ++m) {
        VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                        .codeSize = size[m],
                                        .pCode = code[m]};
        if ((r = f->CreateShaderModule(dev, &smi, g->c.allocator, &g->modules[m])) != VK_SUCCESS) {
            g->modules[m] = VK_NULL_HANDLE;
            goto fail;
        }
    }
    *out = g;
    return VK_SUCCESS;
fail:
    skin_vk_gpu_destroy(g);
    return r;
}

void skin_vk_gpu_destroy(skin_vk_gpu *g)
{
    if (!g) return;
    const vk_fns *f = &g->c.fn;
    for (int m = 0; m < 2; ++m)
        if (g->modules[m]) f->DestroyShaderModule(g->c.device, g->modules[m], g->c.allocator);
    if (g->layout) f->DestroyPipelineLayout(g->c.device, g->layout, g->c.allocator);
    if (g->set_layout) f->DestroyDescriptorSetLayout(g->c.device, g->set_layout, g->c.allocator);
    if (g->frame_layout)
        f->DestroyDescriptorSetLayout(g->c.device, g->frame_layout, g->c.allocator);
    free(g);
}

static size_t joint_bytes(skin_joint_format f) { return f == SKIN_JOINT_U8 ? 1 : 2; }
static size_t weight_bytes(skin_weight_format f)
{
    return f == SKIN_WEIGHT_F32 ? 4 : f == SKIN_WEIGHT_UNORM16 ? 2 : 1;
}
static VkDeviceSize plane_words(size_t n, size_t elem) { return ((VkDeviceSize)n * elem + 3) / 4; }

/* Which delta groups of target t are uploaded (M_POS/M_NRM/M_TAN): those
 * it has for attributes the mesh has. */
static uint32_t morph_groups(const skin_morph_target *t, int has_normal, int has_tangent)
{
    return (t->dpx ? M_POS : 0) | (has_normal && t->dnx ? M_NRM : 0) |
           (has_tangent && t->dtx ? M_TAN : 0);
}
static uint32_t popcount3(uint32_t g) { return !!(g & M_POS) + !!(g & M_NRM) + !!(g & M_TAN); }

/* Words of a mesh's morph binding (headers, sparse index lists, delta
 * planes of the groups for attributes the mesh has), 0 without targets, or
 * UINT64_MAX when more than max_words.  The mesh must pass skin_mesh's
 * checks (targets present, delta groups complete). */
static VkDeviceSize morph_words_of(const skin_mesh_desc *mesh, int has_normal, int has_tangent,
                                   VkDeviceSize max_words)
{
    /* Headers, then per target: its index list (sparse, when it has a
     * group) and 3 planes per group.  Checked as it grows, so no product
     * overflows (max_words < 2^30). */
    VkDeviceSize words = (VkDeviceSize)mesh->morph_target_count * MORPH_HEADER;
    if (words > max_words) return UINT64_MAX;
    for (uint32_t k = 0; k < mesh->morph_target_count; ++k) {
        const skin_morph_target *t = &mesh->morph_targets[k];
        uint32_t groups = popcount3(morph_groups(t, has_normal, has_tangent));
        if (!groups) continue;
        if ((t->indices ? t->count : mesh->vertex_count) > max_words) return UINT64_MAX;
        VkDeviceSize len = t->indices ? t->count : mesh->vertex_count;
        words += (t->indices ? len : 0) + 3 * groups * len;
        if (words > max_words) return UINT64_MAX;
    }
    return words;
}

/* Writes the morph binding (morph_words_of words) at dst. */
static void upload_morphs(const skin_mesh_desc *mesh, int has_normal, int has_tangent,
                          uint32_t *dst)
{
    uint32_t at = mesh->morph_target_count * MORPH_HEADER; /* fits: checked by morph_words_of */
    for (uint32_t k = 0; k < mesh->morph_target_count; ++k) {
        const skin_morph_target *t = &mesh->morph_targets[k];
        uint32_t *h = dst + (size_t)k * MORPH_HEADER, groups = morph_groups(t, has_normal, has_tangent);
        size_t len = t->indices ? t->count : mesh->vertex_count;
        if (!groups) continue; /* header all zero: nothing to apply */
        h[0] = groups | (t->indices ? M_SPARSE : 0);
        h[1] = (uint32_t)len;
        if (t->indices) {
            h[2] = at;
            memcpy(dst + at, t->indices, len * 4);
            at += (uint32_t)len;
        }
        for (int g = 0; g < 3; ++g) {
            if (!(groups & (M_POS << g))) continue;
            const float *d[3] = {g == 0 ? t->dpx : g == 1 ? t->dnx : t->dtx,
                                 g == 0 ? t->dpy : g == 1 ? t->dny : t->dty,
                                 g == 0 ? t->dpz : g == 1 ? t->dnz : t->dtz};
            h[3 + g] = at;
            for (int c = 0; c < 3; ++c, at += (uint32_t)len) memcpy(dst + at, d[c], len * 4);
        }
    }
}

static int has_normals(const skin_mesh_desc *m) { return m->nx && m->ny && m->nz; }
static int has_tangents(const skin_mesh_desc *m) { return m->tx && m->ty && m->tz && m->tw; }

/* Words of the mesh's streams: its attribute planes, then its joint and
 * weight planes (each padded to a word). */
static VkDeviceSize stream_words(const skin_mesh_desc *m)
{
    const VkDeviceSize planes = 3 + 3 * (VkDeviceSize)has_normals(m) + 4 * (VkDeviceSize)has_tangents(m);
    const size_t n = m->vertex_count;
    return planes * n + m->influence_count * (plane_words(n, joint_bytes(m->joint_format)) +
                                              plane_words(n, weight_bytes(m->weight_format)));
}

const char *vk_gpu_mesh_limit(const VkPhysicalDeviceLimits *lim, const skin_mesh_desc *m, uint32_t joint_count)
{
    if (m->vertex_count == 0) return "empty mesh"; /* skin_vk_gpu_mesh_create refuses it */
    /* (the shaders address the streams in 32-bit words: at most 32 a vertex) */
    if (m->vertex_count > UINT32_MAX / 32) return "more than 2^27 vertices (the shaders' 32-bit offsets)";
    if ((m->vertex_count + GROUP - 1) / GROUP > lim->maxComputeWorkGroupCount[0])
        return "more vertices than maxComputeWorkGroupCount[0] * 64";
    if ((VkDeviceSize)joint_count * 84 + (m->morph_target_count ? VK_GPU_MORPH_LIST_BYTES : 0) >
        lim->maxStorageBufferRange) /* palette + extra + active morph targets */
        return "palette exceeds maxStorageBufferRange";
    if (stream_words(m) * 4 > lim->maxStorageBufferRange) return "mesh streams exceed maxStorageBufferRange";
    if (morph_words_of(m, has_normals(m), has_tangents(m), lim->maxStorageBufferRange / 4) == UINT64_MAX)
        return "morph targets exceed maxStorageBufferRange";
    return NULL;
}

VkResult skin_vk_gpu_mesh_create(skin_vk_gpu *g, const skin_mesh_desc *mesh, uint32_t joint_count,
                                 skin_vk_gpu_mesh **out)
{
    if (out) *out = NULL;
    if (!g || !mesh || !out || joint_count == 0 || joint_count > SKIN_MAX_JOINTS ||
        mesh->vertex_count == 0)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    /* Reuse the core's descriptor checks: a zero-length skin with an identity
     * palette validates formats, influence count and required pointers. */
    float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, dummy[10];
    skin_palette pal = {.joint_count = 1, .matrices = identity};
    skin_output probe = {.layout = SKIN_LAYOUT_SOA};
    for (int c = 0; c < 3; ++c) probe.soa[c] = dummy + c;
    if (skin_mesh(mesh, &pal, SKIN_LBS, &probe, 0, 0) != SKIN_OK)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    const VkPhysicalDeviceLimits *lim = &g->c.props.limits;
    if (vk_gpu_mesh_limit(lim, mesh, joint_count)) return VK_ERROR_FEATURE_NOT_PRESENT;

    size_t n = mesh->vertex_count;
    uint32_t k = mesh->influence_count;
    uint32_t has_normal = (uint32_t)has_normals(mesh), has_tangent = (uint32_t)has_tangents(mesh);
    uint32_t planes = 3 + 3 * has_normal + 4 * has_tangent;
    size_t jb = joint_bytes(mesh->joint_format), wb = weight_bytes(mesh->weight_format);
    VkDeviceSize jw = plane_words(n, jb), ww = plane_words(n, wb);
    VkDeviceSize words = stream_words(mesh);
    /* Morph targets: their own binding, after the streams at an aligned
     * offset (within maxStorageBufferRange too: vk_gpu_mesh_limit). */
    VkDeviceSize morph_words = morph_words_of(mesh, has_normal, has_tangent, lim->maxStorageBufferRange / 4);
    VkDeviceSize align = lim->minStorageBufferOffsetAlignment ? lim->minStorageBufferOffsetAlignment : 1;
    VkDeviceSize morph_at = (words * 4 + align - 1) / align * align;

    skin_vk_gpu_mesh *m = calloc(1, sizeof *m);
    if (!m) return VK_ERROR_OUT_OF_HOST_MEMORY;
    m->gpu = g;
    m->vertex_count = n;
    m->influence_count = k;
    m->joint_count = joint_count;
    m->has_normal = has_normal;
    m->has_tangent = has_tangent;
    m->joint_bytes = (uint32_t)jb;
    m->weight_format = mesh->weight_format == SKIN_WEIGHT_F32       ? 0
                       : mesh->weight_format == SKIN_WEIGHT_UNORM16 ? 1
                                                                    : 2;
    m->joint_base = (uint32_t)(planes * n);
    m->weight_base = (uint32_t)(m->joint_base + k * jw);
    m->morph_count = mesh->morph_target_count;
    VkDeviceSize bytes = morph_words ? morph_at + morph_words * 4 : words * 4;
    /* Device-local storage; written in place when it is also host-visible
     * (integrated GPUs, resizable BAR, lavapipe) unless staging is forced,
     * else through a staging buffer whose copy the first skin call records
     * (kept until the mesh is destroyed: the library never waits on the
     * GPU). */
    VkResult r = vk_block_create(&g->c, bytes,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 PICK_MESH, &m->streams);
    m->bytes = bytes;
    if (r == VK_SUCCESS && (!m->streams.mapped || (g->flags & SKIN_VK_FORCE_STAGING))) {
        m->upload_recorded = 0;
        r = vk_block_create(&g->c, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, PICK_HOST, &m->staging);
    } else {
        m->upload_recorded = 1;
    }
    if (r == VK_ERROR_FEATURE_NOT_PRESENT) r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (r != VK_SUCCESS) goto fail;
    vk_block *up = m->staging.buffer ? &m->staging : &m->streams;

    /* Upload once, as given: float planes, then the packed joint and weight
     * planes (each padded to a word). */
    const float *attr[10] = {mesh->px, mesh->py, mesh->pz, mesh->nx, mesh->ny,
                             mesh->nz, mesh->tx, mesh->ty, mesh->tz, mesh->tw};
    uint32_t *dst = up->mapped;
    memset(dst, 0, (size_t)bytes); /* defined padding */
    for (int c = 0; c < 10; ++c) {
        if ((c >= 3 && c < 6 && !has_normal) || (c >= 6 && !has_tangent)) continue;
        memcpy(dst, attr[c], n * 4);
        dst += n;
    }
    for (uint32_t i = 0; i < k; ++i, dst += jw) memcpy(dst, mesh->joints[i], n * jb);
    for (uint32_t i = 0; i < k; ++i, dst += ww) memcpy(dst, mesh->weights[i], n * wb);
    if (morph_words)
        upload_morphs(mesh, has_normal, has_tangent, (uint32_t *)((char *)up->mapped + morph_at));
    if ((r = vk_block_flush(&g->c, up, 0, bytes, 0)) != VK_SUCCESS) goto fail;

    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = 1,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &ps};
    if ((r = g->c.fn.CreateDescriptorPool(g->c.device, &dpi, g->c.allocator, &m->pool)) !=
        VK_SUCCESS) {
        m->pool = VK_NULL_HANDLE;
        goto fail;
    }
    VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = m->pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &g->set_layout};
    if ((r = g->c.fn.AllocateDescriptorSets(g->c.device, &dai, &m->set)) != VK_SUCCESS) goto fail;
    /* Binding 1: the morph targets, or (none) the streams again, never read. */
    VkDescriptorBufferInfo bi[2] = {{m->streams.buffer, 0, words * 4},
                                    {m->streams.buffer, morph_words ? morph_at : 0,
                                     morph_words ? morph_words * 4 : words * 4}};
    VkWriteDescriptorSet w[2];
    for (uint32_t i = 0; i < 2; ++i)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = m->set,
                                      .dstBinding = i,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &bi[i]};
    g->c.fn.UpdateDescriptorSets(g->c.device, 2, w, 0, NULL);
    *out = m;
    return VK_SUCCESS;
fail:
    skin_vk_gpu_mesh_destroy(m);
    return r;
}

void skin_vk_gpu_mesh_destroy(skin_vk_gpu_mesh *m)
{
    if (!m) return;
    const vk_ctx *c = &m->gpu->c;
    for (int i = 0; i < 2; ++i)
        if (m->pipelines[i]) c->fn.DestroyPipeline(c->device, m->pipelines[i], c->allocator);
    if (m->pool) c->fn.DestroyDescriptorPool(c->device, m->pool, c->allocator); /* frees the set */
    vk_block_free(c, &m->staging);
    vk_block_free(c, &m->streams);
    free(m);
}

/* The mesh's pipeline for method index mi (0 LBS, 1 DQS), created once. */
static VkResult mesh_pipeline(skin_vk_gpu_mesh *m, int mi)
{
    if (m->pipelines[mi]) return VK_SUCCESS;
    const skin_vk_gpu *g = m->gpu;
    uint32_t spec[3] = {m->influence_count, m->joint_bytes, m->weight_format};
    VkSpecializationMapEntry entries[3];
    for (uint32_t i = 0; i < 3; ++i) entries[i] = (VkSpecializationMapEntry){i, 4 * i, 4};
    VkSpecializationInfo si = {3, entries, sizeof spec, spec};
    VkComputePipelineCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = g->modules[mi],
                  .pName = "main",
                  .pSpecializationInfo = &si},
        .layout = g->layout};
    VkResult r = g->c.fn.CreateComputePipelines(g->c.device, VK_NULL_HANDLE, 1, &cpi,
                                                g->c.allocator, &m->pipelines[mi]);
    if (r != VK_SUCCESS) m->pipelines[mi] = VK_NULL_HANDLE;
    return r;
}

VkResult skin_vk_gpu_skin(skin_vk_gpu_mesh *m, skin_vk_stream *stream, const skin_vk_frame *frame,
                          VkCommandBuffer cmd, const skin_vk_gpu_call *call, skin_vk_slot *slot)
{
    if (!m || !stream || !frame || !cmd || !call || !slot || !call->palette) return VK_ERROR_VALIDATION_FAILED_EXT;
    const skin_palette *pal = call->palette;
    int dqs = call->method == SKIN_DQS;
    if ((call->method != SKIN_LBS && !dqs) || pal->joint_count != m->joint_count ||
        (dqs ? !pal->dual_quats : !pal->matrices) ||
        ((call->attributes & SKIN_VK_NORMAL) && !m->has_normal) ||
        ((call->attributes & SKIN_VK_TANGENT) && !m->has_tangent) ||
        (call->flags & ~SKIN_OUTPUT_ALL_FLAGS) ||
        (call->layout != SKIN_LAYOUT_STRIDED && call->layout != SKIN_LAYOUT_SOA) ||
        (call->layout == SKIN_LAYOUT_SOA && call->packing != SKIN_VK_PACK_FLOAT) ||
        call->count == 0 || call->first > m->vertex_count ||
        call->count > m->vertex_count - call->first)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    skin_vk_vertex_layout layout;
    if (skin_vk_vertex_layout_init(call->attributes, call->packing, &layout) != SKIN_OK)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    /* The frame's active morph targets, as skin_mesh takes them: finite
     * weights, at most SKIN_MAX_ACTIVE_MORPH_TARGETS non-zero; uploaded
     * with the palette as (target, weight bits) pairs in target order. */
    uint32_t active[2 * SKIN_MAX_ACTIVE_MORPH_TARGETS], na = 0;
    if (pal->morph_weights) {
        for (uint32_t t = 0; t < m->morph_count; ++t) {
            float w = pal->morph_weights[t];
            if (!isfinite(w)) return VK_ERROR_VALIDATION_FAILED_EXT;
            if (w == 0.0f) continue;
            if (na == SKIN_MAX_ACTIVE_MORPH_TARGETS) return VK_ERROR_VALIDATION_FAILED_EXT;
            active[2 * na] = t;
            memcpy(&active[2 * na + 1], &w, sizeof w);
            ++na;
        }
    }
    VkResult r = mesh_pipeline(m, dqs);
    if (r != VK_SUCCESS) return r;
    /* This call's palette comes from the frame's region (the GPU is done
     * with it: acquire waited for the region's fence), with a descriptor set
     * of its own from the region's pools: any number of calls per frame, no
     * set is written after it is bound, and each set covers exactly the
     * bytes its dispatch reads and writes. */
    VkDeviceSize J = m->joint_count;
    const void *extra = dqs ? (const void *)pal->scales : (const void *)pal->normal_matrices;
    VkDeviceSize pal_bytes = J * (dqs ? 32 : 48), extra_bytes = extra ? J * (dqs ? 12 : 36) : 0;
    VkDescriptorSet frame_set;
    r = vk_stream_alloc_gpu(stream, frame, call->count, &layout, dqs ? pal->dual_quats : pal->matrices,
                            pal_bytes, extra, extra_bytes, na ? active : NULL,
                            (VkDeviceSize)8 * na, &frame_set, slot);
    if (r != VK_SUCCESS) return r;
    const skin_vk_gpu *g = m->gpu;
    const vk_fns *f = &g->c.fn;
    if (!m->upload_recorded) { /* the mesh's one staging copy, before its first use */
        VkBufferCopy cp = {0, 0, m->bytes};
        f->CmdCopyBuffer(cmd, m->staging.buffer, m->streams.buffer, 1, &cp);
        VkBufferMemoryBarrier ub = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                    .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                    .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
                                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .buffer = m->streams.buffer,
                                    .offset = 0,
                                    .size = cp.size};
        f->CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1, &ub, 0, NULL);
        m->upload_recorded = 1;
    }
    uint32_t count = (uint32_t)call->count, nrm = !!(call->attributes & SKIN_VK_NORMAL);
    push_params p = {(uint32_t)m->vertex_count, (uint32_t)call->first, count, m->joint_count,
                     3 + 3 * m->has_normal, m->joint_base, m->weight_base,
                     (nrm ? F_NORMAL : 0) | ((call->attributes & SKIN_VK_TANGENT) ? F_TANGENT : 0) |
                         ((call->flags & SKIN_OUTPUT_NORMALIZE) ? F_NORMALIZE : 0) |
                         (extra ? F_EXTRA : 0),
                     call->packing == SKIN_VK_PACK_FLOAT ? 0
                     : call->packing == SKIN_VK_PACK_SNORM16 ? 1 : 2,
                     0, 0, 0, 0, 0, 0, 0, na, (uint32_t)((pal_bytes + extra_bytes) / 4),
                     m->morph_count};
    if (call->layout == SKIN_LAYOUT_SOA) { /* planes px py pz [nx ny nz] [tx ty tz tw] */
        p.nrm_off = 3 * count;
        p.tan_off = (3 + 3 * nrm) * count;
        p.pos_stride = p.nrm_stride = p.tan_stride = 1;
        p.comp_step = count;
    } else {
        p.nrm_off = layout.normal_offset / 4;
        p.tan_off = layout.tangent_offset / 4;
        p.pos_stride = p.nrm_stride = p.tan_stride = layout.stride / 4;
        p.comp_step = 1;
    }
    VkDescriptorSet sets[2] = {m->set, frame_set};
    f->CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m->pipelines[dqs]);
    f->CmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->layout, 0, 2, sets, 0,
                             NULL);
    f->CmdPushConstants(cmd, g->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof p, &p);
    f->CmdDispatch(cmd, (count + GROUP - 1) / GROUP, 1, 1);
    VkBufferMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = g->dst_access,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .buffer = slot->buffer,
                               .offset = slot->offset,
                               .size = (VkDeviceSize)count * layout.stride};
    f->CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, g->dst_stage, 0, 0, NULL, 1,
                          &b, 0, NULL);
    return VK_SUCCESS;
}
