/* GPU compute skinning (LBS) into the stream ring, for comparison with the
 * CPU path.  The shader is compiled by glslc at build time and embedded. */
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

static const uint32_t skin_lbs_spv[] =
#include "skin_lbs.spv.inc"
    ;

#define GROUP 64u

typedef struct push_params {
    uint32_t n, k, joint_count, has_normal, has_tangent, stride, out_normal, out_tangent;
} push_params;

struct skin_vk_gpu {
    vk_ctx c;
    VkPipelineStageFlags dst_stage;
    VkAccessFlags dst_access;
    VkDescriptorSetLayout set_layout;   /* set 0: the mesh streams */
    VkDescriptorSetLayout frame_layout; /* set 1: palette and output, see vk_internal.h */
    VkPipelineLayout layout;
    VkPipeline pipeline;
};

struct skin_vk_gpu_mesh {
    skin_vk_gpu *gpu;
    size_t vertex_count;
    uint32_t influence_count, joint_count, has_normal, has_tangent;
    vk_block streams; /* planar input, see the shader */
    VkDescriptorPool pool;
    VkDescriptorSet set; /* written once: bindings never change */
};

VkResult skin_vk_gpu_create(const skin_vk_gpu_create_info *info, skin_vk_gpu **out)
{
    if (out) *out = NULL;
    if (!info || !out || !info->physical_device || !info->device ||
        (info->get_instance_proc_addr && !info->instance))
        return VK_ERROR_VALIDATION_FAILED_EXT;
    skin_vk_gpu *g = calloc(1, sizeof *g);
    if (!g) return VK_ERROR_OUT_OF_HOST_MEMORY;
    VkResult r = vk_ctx_init(&g->c, info->physical_device, info->device,
                             info->get_instance_proc_addr, info->instance, info->allocator);
    if (r != VK_SUCCESS) {
        free(g);
        return r;
    }
    g->dst_stage = info->dst_stage ? info->dst_stage : VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    g->dst_access = info->dst_access ? info->dst_access : VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
    const vk_fns *f = &g->c.fn;
    VkDevice dev = g->c.device;
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                      VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo sli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &b};
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push_params)};
    VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = sizeof skin_lbs_spv,
                                    .pCode = skin_lbs_spv};
    VkShaderModule module = VK_NULL_HANDLE;
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
    if ((r = f->CreateShaderModule(dev, &smi, g->c.allocator, &module)) != VK_SUCCESS) {
        module = VK_NULL_HANDLE;
        goto fail;
    }
    VkComputePipelineCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module,
                  .pName = "main"},
        .layout = g->layout};
    r = f->CreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, g->c.allocator, &g->pipeline);
    f->DestroyShaderModule(dev, module, g->c.allocator); /* not needed after creation */
    if (r != VK_SUCCESS) {
        g->pipeline = VK_NULL_HANDLE;
        goto fail;
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
    if (g->pipeline) f->DestroyPipeline(g->c.device, g->pipeline, g->c.allocator);
    if (g->layout) f->DestroyPipelineLayout(g->c.device, g->layout, g->c.allocator);
    if (g->set_layout) f->DestroyDescriptorSetLayout(g->c.device, g->set_layout, g->c.allocator);
    if (g->frame_layout)
        f->DestroyDescriptorSetLayout(g->c.device, g->frame_layout, g->c.allocator);
    free(g);
}

/* Weight of slot i at vertex v as float, whatever the input format. */
static float weight_at(const skin_mesh_desc *m, uint32_t i, size_t v)
{
    switch (m->weight_format) {
    case SKIN_WEIGHT_F32: return ((const float *)m->weights[i])[v];
    case SKIN_WEIGHT_UNORM16: return (float)((const uint16_t *)m->weights[i])[v] / 65535.0f;
    default: return (float)((const uint8_t *)m->weights[i])[v] / 255.0f;
    }
}

static uint32_t joint_at(const skin_mesh_desc *m, uint32_t i, size_t v)
{
    return m->joint_format == SKIN_JOINT_U8 ? ((const uint8_t *)m->joints[i])[v]
                                            : ((const uint16_t *)m->joints[i])[v];
}

VkResult skin_vk_gpu_mesh_create(skin_vk_gpu *g, const skin_mesh_desc *mesh, uint32_t joint_count,
                                 skin_vk_gpu_mesh **out)
{
    if (out) *out = NULL;
    if (!g || !mesh || !out || joint_count == 0 || mesh->vertex_count == 0 ||
        mesh->vertex_count > UINT32_MAX / 32)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    /* Reuse the core's descriptor checks: a zero-length skin with an identity
     * palette validates formats, influence count and required pointers. */
    float identity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, dummy[10];
    skin_palette pal = {1, identity, NULL, NULL, NULL};
    skin_output probe = {.layout = SKIN_LAYOUT_SOA};
    for (int c = 0; c < 3; ++c) probe.soa[c] = dummy + c;
    if (skin_mesh(mesh, &pal, SKIN_LBS, &probe, 0, 0) != SKIN_OK)
        return VK_ERROR_VALIDATION_FAILED_EXT;

    /* Limits: one workgroup per GROUP vertices in x, the streams in one
     * storage-buffer binding. */
    const VkPhysicalDeviceLimits *lim = &g->c.props.limits;
    if ((mesh->vertex_count + GROUP - 1) / GROUP > lim->maxComputeWorkGroupCount[0])
        return VK_ERROR_FEATURE_NOT_PRESENT;
    skin_vk_gpu_mesh *m = calloc(1, sizeof *m);
    if (!m) return VK_ERROR_OUT_OF_HOST_MEMORY;
    m->gpu = g;
    m->vertex_count = mesh->vertex_count;
    m->influence_count = mesh->influence_count;
    m->joint_count = joint_count;
    m->has_normal = mesh->nx && mesh->ny && mesh->nz;
    m->has_tangent = mesh->tx && mesh->ty && mesh->tz && mesh->tw;

    size_t n = mesh->vertex_count;
    uint32_t planes = 3 + 3 * m->has_normal + 4 * m->has_tangent, k = mesh->influence_count;
    VkDeviceSize bytes = (VkDeviceSize)(planes + 2 * k) * n * 4;
    if (bytes > lim->maxStorageBufferRange) {
        free(m);
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    VkResult r = vk_block_create(&g->c, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, PICK_DIRECT,
                                 &m->streams);
    if (r == VK_ERROR_FEATURE_NOT_PRESENT) r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (r != VK_SUCCESS) goto fail;

    /* Upload once: planar floats, then u32 joints, then float weights. */
    const float *attr[10] = {mesh->px, mesh->py, mesh->pz, mesh->nx, mesh->ny,
                             mesh->nz, mesh->tx, mesh->ty, mesh->tz, mesh->tw};
    uint32_t *dst = m->streams.mapped;
    for (int c = 0; c < 10; ++c) {
        if ((c >= 3 && c < 6 && !m->has_normal) || (c >= 6 && !m->has_tangent)) continue;
        memcpy(dst, attr[c], n * 4);
        dst += n;
    }
    for (uint32_t i = 0; i < k; ++i, dst += n)
        for (size_t v = 0; v < n; ++v) dst[v] = joint_at(mesh, i, v);
    for (uint32_t i = 0; i < k; ++i, dst += n)
        for (size_t v = 0; v < n; ++v) {
            float w = weight_at(mesh, i, v);
            memcpy(&dst[v], &w, 4);
        }
    if ((r = vk_block_flush(&g->c, &m->streams, 0, bytes, 0)) != VK_SUCCESS) goto fail;

    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
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
    VkDescriptorBufferInfo bi = {m->streams.buffer, 0, bytes};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstSet = m->set,
                              .dstBinding = 0,
                              .descriptorCount = 1,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              .pBufferInfo = &bi};
    g->c.fn.UpdateDescriptorSets(g->c.device, 1, &w, 0, NULL);
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
    if (m->pool) c->fn.DestroyDescriptorPool(c->device, m->pool, c->allocator); /* frees the sets */
    vk_block_free(c, &m->streams);
    free(m);
}

VkResult skin_vk_gpu_skin(skin_vk_gpu_mesh *m, skin_vk_stream *stream, const skin_vk_frame *frame,
                          VkCommandBuffer cmd, const skin_palette *palette, uint32_t attributes,
                          skin_vk_slot *slot)
{
    if (!m || !stream || !frame || !cmd || !palette || !slot || !palette->matrices ||
        palette->joint_count != m->joint_count ||
        ((attributes & SKIN_VK_NORMAL) && !m->has_normal) ||
        ((attributes & SKIN_VK_TANGENT) && !m->has_tangent))
        return VK_ERROR_VALIDATION_FAILED_EXT;
    skin_vk_vertex_layout layout;
    if (skin_vk_vertex_layout_init(attributes, SKIN_VK_PACK_FLOAT, &layout) != SKIN_OK)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    /* This call's palette comes from the frame's region (the GPU is done
     * with it: acquire waited for the region's fence), with a descriptor set
     * of its own from the region's pools: any number of calls per frame, no
     * set is written after it is bound, and each set covers exactly the
     * bytes its dispatch reads and writes. */
    VkDescriptorSet frame_set;
    VkResult r = vk_stream_alloc_gpu(stream, frame, m->vertex_count, &layout, palette->matrices,
                                     (VkDeviceSize)m->joint_count * 48, &frame_set, slot);
    if (r != VK_SUCCESS) return r;
    const skin_vk_gpu *g = m->gpu;
    const vk_fns *f = &g->c.fn;
    VkDeviceSize out_bytes = (VkDeviceSize)m->vertex_count * layout.stride;
    push_params p = {(uint32_t)m->vertex_count, m->influence_count, m->joint_count,
                     m->has_normal, m->has_tangent, layout.stride / 4,
                     layout.normal_offset / 4, layout.tangent_offset / 4};
    VkDescriptorSet sets[2] = {m->set, frame_set};
    f->CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->pipeline);
    f->CmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g->layout, 0, 2, sets, 0,
                             NULL);
    f->CmdPushConstants(cmd, g->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof p, &p);
    f->CmdDispatch(cmd, (uint32_t)((m->vertex_count + GROUP - 1) / GROUP), 1, 1);
    VkBufferMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = g->dst_access,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .buffer = slot->buffer,
                               .offset = slot->offset,
                               .size = out_bytes};
    f->CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, g->dst_stage, 0, 0, NULL, 1,
                          &b, 0, NULL);
    return VK_SUCCESS;
}
