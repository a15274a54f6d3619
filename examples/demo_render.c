/* SPDX-License-Identifier: MIT */
/* demo_render: skin-demo's Vulkan set-up, drawing and picture helpers
 * (see demo_render.h). */
#include "demo_render.h"

#include "vk_boot.h"

#include <png.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t vert_spv[] =
#include "demo.vert.spv.inc"
    ;
static const uint32_t frag_spv[] =
#include "demo.frag.spv.inc"
    ;

const uint8_t demo_background[3] = {24, 26, 34};

/* Everything the renderer creates, so one cleanup path frees whatever exists. */
struct demo_gpu {
    vkb vk; /* instance, validation messenger, device: the shared bootstrap */
    VkDevice device; /* = vk.device, for brevity */
    uint32_t width, height;
    skin_vk_vertex_layout layout_vk;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkImage color, depth;
    VkDeviceMemory color_mem, depth_mem;
    VkImageView color_view, depth_view;
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    VkShaderModule vert, frag;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkBuffer host_buf; /* static data: indices and stripe coordinates */
    VkDeviceMemory host_mem;
    VkBuffer readback;
    VkDeviceMemory readback_mem;
    void *readback_ptr;
    skin_vk_stream *ring;
    skin_vk_frame frame;
};

#define VK_TRY(call)                                                                     \
    do {                                                                                 \
        VkResult r_ = (call);                                                            \
        if (r_ != VK_SUCCESS) {                                                          \
            fprintf(stderr, "skin-demo: %s failed (VkResult %d)\n", #call, (int)r_);     \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

static int bind_memory(demo_gpu *d, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                       VkDeviceMemory *mem)
{
    uint32_t type = vkb_memory_type(&d->vk, req.memoryTypeBits, want);
    if (type == UINT32_MAX) {
        fprintf(stderr, "skin-demo: no suitable memory type\n");
        return 1;
    }
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    VK_TRY(vkAllocateMemory(d->device, &ai, NULL, mem));
    return 0;
}

static int create_buffer(demo_gpu *d, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                         VkDeviceMemory *mem, void **mapped)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VK_TRY(vkCreateBuffer(d->device, &bi, NULL, buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->device, *buf, &req);
    /* Coherent, so host writes before submit and reads after the fence need
     * no flush or invalidate. */
    if (bind_memory(d, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                    mem))
        return 1;
    VK_TRY(vkBindBufferMemory(d->device, *buf, *mem, 0));
    VK_TRY(vkMapMemory(d->device, *mem, 0, VK_WHOLE_SIZE, 0, mapped));
    return 0;
}

static int create_image(demo_gpu *d, VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                        VkImage *image, VkDeviceMemory *mem, VkImageView *view)
{
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {d->width, d->height, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VK_TRY(vkCreateImage(d->device, &ii, NULL, image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(d->device, *image, &req);
    if (bind_memory(d, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, mem)) return 1;
    VK_TRY(vkBindImageMemory(d->device, *image, *mem, 0));
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = *image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = format,
                                .subresourceRange = {aspect, 0, 1, 0, 1}};
    VK_TRY(vkCreateImageView(d->device, &vi, NULL, view));
    return 0;
}

static int create_targets(demo_gpu *d)
{
    if (create_image(d, VK_FORMAT_R8G8B8A8_UNORM,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                     VK_IMAGE_ASPECT_COLOR_BIT, &d->color, &d->color_mem, &d->color_view) ||
        create_image(d, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                     VK_IMAGE_ASPECT_DEPTH_BIT, &d->depth, &d->depth_mem, &d->depth_view))
        return 1;
    VkAttachmentDescription att[2] = {
        {.format = VK_FORMAT_R8G8B8A8_UNORM,
         .samples = VK_SAMPLE_COUNT_1_BIT,
         .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
         .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
         .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
         .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
         .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
         .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
        {.format = VK_FORMAT_D32_SFLOAT,
         .samples = VK_SAMPLE_COUNT_1_BIT,
         .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
         .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
         .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
         .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
         .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
         .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}};
    VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .colorAttachmentCount = 1,
                                .pColorAttachments = &cref,
                                .pDepthStencilAttachment = &dref};
    /* The copy to the readback buffer follows the pass: order it after the
     * colour writes and the final layout transition. */
    VkSubpassDependency dep = {.srcSubpass = 0,
                               .dstSubpass = VK_SUBPASS_EXTERNAL,
                               .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                               .dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT,
                               .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
    VkRenderPassCreateInfo rp = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                 .attachmentCount = 2,
                                 .pAttachments = att,
                                 .subpassCount = 1,
                                 .pSubpasses = &sub,
                                 .dependencyCount = 1,
                                 .pDependencies = &dep};
    VK_TRY(vkCreateRenderPass(d->device, &rp, NULL, &d->pass));
    VkImageView views[2] = {d->color_view, d->depth_view};
    VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                  .renderPass = d->pass,
                                  .attachmentCount = 2,
                                  .pAttachments = views,
                                  .width = d->width,
                                  .height = d->height,
                                  .layers = 1};
    VK_TRY(vkCreateFramebuffer(d->device, &fi, NULL, &d->framebuffer));
    return 0;
}

typedef struct push {
    float mvp[16]; /* column-major */
    float color[4];
    float light[4];
    float view[4];
} push;

static int create_pipeline(demo_gpu *d, const skin_vk_vertex_layout *vl)
{
    VkShaderModuleCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = sizeof vert_spv,
                                   .pCode = vert_spv};
    VK_TRY(vkCreateShaderModule(d->device, &si, NULL, &d->vert));
    si.codeSize = sizeof frag_spv, si.pCode = frag_spv;
    VK_TRY(vkCreateShaderModule(d->device, &si, NULL, &d->frag));
    VkPushConstantRange range = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                 sizeof(push)};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &range};
    VK_TRY(vkCreatePipelineLayout(d->device, &li, NULL, &d->layout));
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = d->vert, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = d->frag, .pName = "main"}};
    /* Binding 0: the ring slot, formats and offsets from the skin_vk layout;
     * from the static buffer, binding 1: the stripe coordinate, binding 2: the
     * vertex colours of the difference view. */
    VkVertexInputBindingDescription bindings[3] = {
        {0, vl->stride, VK_VERTEX_INPUT_RATE_VERTEX},
        {1, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX},
        {2, 4, VK_VERTEX_INPUT_RATE_VERTEX}};
    VkVertexInputAttributeDescription attrs[4] = {
        {0, 0, vl->position_format, 0},
        {1, 0, vl->normal_format, vl->normal_offset},
        {2, 1, VK_FORMAT_R32_SFLOAT, 0},
        {3, 2, VK_FORMAT_R8G8B8A8_UNORM, 0}};
    VkPipelineVertexInputStateCreateInfo vin = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = 3,
        .pVertexBindingDescriptions = bindings,
        .vertexAttributeDescriptionCount = 4,
        .pVertexAttributeDescriptions = attrs};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE, /* open cylinder: its inside shows at the ends */
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = VK_TRUE,
        .depthWriteEnable = VK_TRUE,
        .depthCompareOp = VK_COMPARE_OP_LESS};
    VkPipelineColorBlendAttachmentState blend = {.colorWriteMask = 0xF};
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &blend};
    VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                           .dynamicStateCount = 2,
                                           .pDynamicStates = dyn};
    VkGraphicsPipelineCreateInfo gi = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                       .stageCount = 2,
                                       .pStages = stages,
                                       .pVertexInputState = &vin,
                                       .pInputAssemblyState = &ia,
                                       .pViewportState = &vp,
                                       .pRasterizationState = &rs,
                                       .pMultisampleState = &ms,
                                       .pDepthStencilState = &ds,
                                       .pColorBlendState = &cb,
                                       .pDynamicState = &dy,
                                       .layout = d->layout,
                                       .renderPass = d->pass};
    VK_TRY(vkCreateGraphicsPipelines(d->device, VK_NULL_HANDLE, 1, &gi, NULL, &d->pipeline));
    return 0;
}

int demo_gpu_destroy(demo_gpu *d)
{
    if (!d) return 0;
    if (d->device) {
        vkDeviceWaitIdle(d->device);
        skin_vk_stream_destroy(d->ring);
        if (d->readback) vkDestroyBuffer(d->device, d->readback, NULL);
        if (d->readback_mem) vkFreeMemory(d->device, d->readback_mem, NULL);
        if (d->host_buf) vkDestroyBuffer(d->device, d->host_buf, NULL);
        if (d->host_mem) vkFreeMemory(d->device, d->host_mem, NULL);
        if (d->pipeline) vkDestroyPipeline(d->device, d->pipeline, NULL);
        if (d->layout) vkDestroyPipelineLayout(d->device, d->layout, NULL);
        if (d->vert) vkDestroyShaderModule(d->device, d->vert, NULL);
        if (d->frag) vkDestroyShaderModule(d->device, d->frag, NULL);
        if (d->framebuffer) vkDestroyFramebuffer(d->device, d->framebuffer, NULL);
        if (d->pass) vkDestroyRenderPass(d->device, d->pass, NULL);
        if (d->color_view) vkDestroyImageView(d->device, d->color_view, NULL);
        if (d->depth_view) vkDestroyImageView(d->device, d->depth_view, NULL);
        if (d->color) vkDestroyImage(d->device, d->color, NULL);
        if (d->depth) vkDestroyImage(d->device, d->depth, NULL);
        if (d->color_mem) vkFreeMemory(d->device, d->color_mem, NULL);
        if (d->depth_mem) vkFreeMemory(d->device, d->depth_mem, NULL);
        if (d->fence) vkDestroyFence(d->device, d->fence, NULL);
        if (d->pool) vkDestroyCommandPool(d->device, d->pool, NULL);
    }
    int messages = vkb_destroy(&d->vk); /* the device too */
    free(d);
    return messages;
}


static int init(demo_gpu *d, uint32_t width, uint32_t height, size_t static_bytes, size_t vertex_count,
                size_t slot_count, int validation, void **static_data)
{
    vkb_options o = {.app_name = "skin-demo",
                     .validation = validation ? VKB_VALIDATION_ON : VKB_VALIDATION_OFF,
                     .queue_flags = VK_QUEUE_GRAPHICS_BIT};
    char why[128];
    int st = vkb_create(&o, &d->vk, why, sizeof why);
    if (st == VKB_NO_DEVICE) {
        const char *ci = getenv("CI");
        if (ci && strcmp(ci, "true") == 0) {
            fprintf(stderr, "skin-demo: %s (CI=true: a Vulkan device is required)\n", why);
            return 1;
        }
        fprintf(stderr, "skin-demo: skipped: %s\n", why);
        return DEMO_SKIP;
    }
    if (st != VKB_OK) {
        fprintf(stderr, "skin-demo: %s\n", why);
        return 1;
    }
    d->device = d->vk.device;
    d->width = width, d->height = height;
    if (skin_vk_vertex_layout_init(SKIN_VK_NORMAL, SKIN_VK_PACK_FLOAT, &d->layout_vk) != SKIN_OK) {
        fprintf(stderr, "skin-demo: skin_vk_vertex_layout_init failed\n");
        return 1;
    }
    if (create_targets(d) || create_pipeline(d, &d->layout_vk)) return 1;
    if (create_buffer(d, static_bytes ? static_bytes : 4,
                      VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &d->host_buf,
                      &d->host_mem, static_data) ||
        create_buffer(d, (VkDeviceSize)width * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &d->readback,
                      &d->readback_mem, &d->readback_ptr))
        return 1;
    skin_vk_stream_create_info ci = {.physical_device = d->vk.phys,
                                     .device = d->device,
                                     .queue_family_index = d->vk.family,
                                     /* room for each slot's alignment */
                                     .region_size = vertex_count * d->layout_vk.stride + slot_count * 4096,
                                     .region_count = 2};
    VK_TRY(skin_vk_stream_create(&ci, &d->ring));
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = d->vk.family};
    VK_TRY(vkCreateCommandPool(d->device, &pi, NULL, &d->pool));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = d->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VK_TRY(vkAllocateCommandBuffers(d->device, &cai, &d->cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_TRY(vkCreateFence(d->device, &fi, NULL, &d->fence));
    return 0;
}

int demo_gpu_create(uint32_t width, uint32_t height, size_t static_bytes, size_t vertex_count, size_t slot_count,
                    int validation, demo_gpu **out, void **static_data)
{
    *out = NULL;
    demo_gpu *d = calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "skin-demo: out of memory\n");
        return 1;
    }
    int rc = init(d, width, height, static_bytes, vertex_count, slot_count, validation, static_data);
    if (rc) {
        demo_gpu_destroy(d);
        return rc;
    }
    *out = d;
    return 0;
}

const char *demo_gpu_device(const demo_gpu *g) { return g->vk.props.deviceName; }
const char *demo_gpu_memory_mode(const demo_gpu *g)
{
    return skin_vk_memory_mode_name(skin_vk_stream_mode(g->ring));
}

int demo_gpu_begin(demo_gpu *d)
{
    VK_TRY(skin_vk_stream_acquire(d->ring, UINT64_MAX, &d->frame));
    return 0;
}

int demo_gpu_slot(demo_gpu *d, size_t vertex_count, skin_vk_slot *slot)
{
    VK_TRY(skin_vk_frame_alloc(d->ring, &d->frame, vertex_count, &d->layout_vk, slot));
    return 0;
}

int demo_gpu_render(demo_gpu *d, const demo_draw *draws, size_t count, uint8_t *rgba)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_TRY(vkBeginCommandBuffer(d->cmd, &begin));
    VK_TRY(skin_vk_stream_commit(d->ring, &d->frame, d->cmd, d->fence));
    const uint8_t *bg = demo_background;
    VkClearValue clear[2] = {{.color = {{bg[0] / 255.0f, bg[1] / 255.0f, bg[2] / 255.0f, 1.0f}}},
                             {.depthStencil = {1.0f, 0}}};
    VkRenderPassBeginInfo rb = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                .renderPass = d->pass,
                                .framebuffer = d->framebuffer,
                                .renderArea = {{0, 0}, {d->width, d->height}},
                                .clearValueCount = 2,
                                .pClearValues = clear};
    vkCmdBeginRenderPass(d->cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(d->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->pipeline);
    for (size_t i = 0; i < count; ++i) {
        const demo_draw *w = &draws[i];
        VkViewport vp = {(float)w->x, (float)w->y, (float)w->width, (float)w->height, 0, 1};
        VkRect2D sc = {{w->x, w->y}, {(uint32_t)w->width, (uint32_t)w->height}};
        vkCmdSetViewport(d->cmd, 0, 1, &vp);
        vkCmdSetScissor(d->cmd, 0, 1, &sc);
        /* without vertex colours binding 2 reads the stripe coordinates (4 bytes
         * a vertex too), which the shader then ignores */
        VkBuffer bufs[3] = {w->slot->buffer, d->host_buf, d->host_buf};
        VkDeviceSize offs[3] = {w->slot->offset, w->coord_offset,
                                w->vertex_colors ? w->color_offset : w->coord_offset};
        vkCmdBindVertexBuffers(d->cmd, 0, 3, bufs, offs);
        vkCmdBindIndexBuffer(d->cmd, d->host_buf, w->index_offset, VK_INDEX_TYPE_UINT32);
        push p;
        memcpy(p.mvp, w->mvp, sizeof p.mvp);
        memcpy(p.color, w->color, sizeof w->color), p.color[3] = w->vertex_colors ? 0.0f : 1.0f;
        memcpy(p.light, w->light, sizeof w->light), p.light[3] = 0;
        memcpy(p.view, w->view, sizeof w->view), p.view[3] = 0;
        vkCmdPushConstants(d->cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                           0, sizeof p, &p);
        vkCmdDrawIndexed(d->cmd, w->index_count, 1, 0, 0, 0);
    }
    vkCmdEndRenderPass(d->cmd);
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              .imageExtent = {d->width, d->height, 1}};
    vkCmdCopyImageToBuffer(d->cmd, d->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, d->readback, 1, &copy);
    VkBufferMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                     .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                     .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                     .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .buffer = d->readback,
                                     .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(d->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL,
                         1, &to_host, 0, NULL);
    VK_TRY(vkEndCommandBuffer(d->cmd));
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .commandBufferCount = 1,
                           .pCommandBuffers = &d->cmd};
    VK_TRY(vkQueueSubmit(d->vk.queue, 1, &submit, d->fence));
    VK_TRY(vkWaitForFences(d->device, 1, &d->fence, VK_TRUE, UINT64_MAX));
    memcpy(rgba, d->readback_ptr, (size_t)d->width * d->height * 4);
    return 0;
}

/* ------------------------------------------------------------- picture */

void demo_camera(const float b[6], float yaw, float tilt, int width, int height, demo_draw *d)
{
    /* R = Rx(tilt) Ry(yaw): rows are the view axes in world space. */
    float cy = cosf(yaw), sy = sinf(yaw), ct = cosf(tilt), st = sinf(tilt);
    const float r[3][3] = {{cy, 0, sy}, {st * sy, ct, -st * cy}, {-ct * sy, st, ct * cy}};
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int c = 0; c < 8; ++c) { /* the box's corners in view space */
        float p[3] = {b[(c & 1) ? 3 : 0], b[(c & 2) ? 4 : 1], b[(c & 4) ? 5 : 2]};
        for (int k = 0; k < 3; ++k) {
            float q = r[k][0] * p[0] + r[k][1] * p[1] + r[k][2] * p[2];
            lo[k] = fminf(lo[k], q), hi[k] = fmaxf(hi[k], q);
        }
    }
    float ext[3], mid[3];
    for (int k = 0; k < 3; ++k) ext[k] = fmaxf(hi[k] - lo[k], 1e-6f), mid[k] = 0.5f * (lo[k] + hi[k]);
    /* pixels per world unit, 8% margin; NDC spans width (height) pixels */
    float ppu = 0.92f * fminf((float)width / ext[0], (float)height / ext[1]);
    float sx = 2 * ppu / (float)width, sy_ = -2 * ppu / (float)height; /* Vulkan y points down */
    float sz = -0.8f / ext[2];                                         /* nearer: smaller depth */
    float row[3][4] = {{sx * r[0][0], sx * r[0][1], sx * r[0][2], -sx * mid[0]},
                       {sy_ * r[1][0], sy_ * r[1][1], sy_ * r[1][2], -sy_ * mid[1]},
                       {sz * r[2][0], sz * r[2][1], sz * r[2][2], 0.5f - sz * mid[2]}};
    memset(d->mvp, 0, sizeof d->mvp);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) d->mvp[j * 4 + i] = row[i][j];
    d->mvp[15] = 1;
    /* light from the upper left front of the view, the eye along view +z */
    const float lv[3] = {-0.4f, 0.5f, 0.85f};
    for (int k = 0; k < 3; ++k) {
        d->light[k] = r[0][k] * lv[0] + r[1][k] * lv[1] + r[2][k] * lv[2];
        d->view[k] = r[2][k];
    }
}

/* 5x7 glyphs, one byte a row, bit 4 = leftmost column. */
static const struct glyph {
    char c;
    uint8_t rows[7];
} GLYPHS[] = {{'B', {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}},
              {'D', {0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E}},
              {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}},
              {'Q', {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}},
              {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}},
              {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
              {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
              {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
              {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
              {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
              {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
              {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
              {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
              {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
              {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
              {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
              {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}},
              {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
              {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}}};

/* The labels' grey, which coverage does not count: a panel with only its
 * label drawn reads as empty. */
enum { LABEL_GREY = 235 };

void demo_label(uint8_t *rgba, int width, int height, int x, int y, int scale, const char *text)
{
    for (; *text; ++text, x += 6 * scale) {
        const struct glyph *g = NULL;
        for (size_t i = 0; i < sizeof GLYPHS / sizeof GLYPHS[0]; ++i)
            if (GLYPHS[i].c == *text) g = &GLYPHS[i];
        if (!g) continue;
        for (int py = 0; py < 7 * scale; ++py)
            for (int px = 0; px < 5 * scale; ++px) {
                int X = x + px, Y = y + py;
                if (X < 0 || Y < 0 || X >= width || Y >= height) continue;
                if (!(g->rows[py / scale] >> (4 - px / scale) & 1)) continue;
                uint8_t *p = rgba + 4 * ((size_t)Y * width + X);
                p[0] = p[1] = p[2] = LABEL_GREY, p[3] = 255;
            }
    }
}

void demo_colormap(float t, uint8_t rgb[3])
{
    /* viridis at 0, 1/8, ..., 1, linearly interpolated */
    static const uint8_t stops[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 82, 139},
                                        {44, 114, 142}, {33, 145, 140}, {40, 174, 128},
                                        {94, 201, 98},  {173, 220, 48}, {253, 231, 37}};
    float x = 8 * fminf(fmaxf(t, 0), 1); /* NaN: 0 */
    int i = x < 8 ? (int)x : 7;
    float f = x - (float)i;
    for (int c = 0; c < 3; ++c)
        rgb[c] = (uint8_t)lrintf((float)stops[i][c] + f * (float)(stops[i + 1][c] - stops[i][c]));
}

void demo_colorbar(uint8_t *rgba, int width, int height, int x, int y, int w, int h)
{
    for (int px = 0; px < w; ++px) {
        uint8_t rgb[3];
        demo_colormap(w > 1 ? (float)px / (float)(w - 1) : 0, rgb);
        for (int py = 0; py < h; ++py) {
            int X = x + px, Y = y + py;
            if (X < 0 || Y < 0 || X >= width || Y >= height) continue;
            uint8_t *p = rgba + 4 * ((size_t)Y * width + X);
            p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
        }
    }
}

int demo_write_png(const char *path, const uint8_t *rgba, int width, int height)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)width, img.height = (png_uint_32)height;
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&img, path, 0, rgba, 0, NULL)) {
        fprintf(stderr, "skin-demo: cannot write %s: %s\n", path, img.message);
        return 1;
    }
    return 0;
}

static int covered(const uint8_t *p)
{
    if (p[0] == LABEL_GREY && p[1] == LABEL_GREY && p[2] == LABEL_GREY) return 0;
    int diff = 0;
    for (int c = 0; c < 3; ++c) diff += abs((int)p[c] - (int)demo_background[c]);
    return diff > 24;
}

int demo_read_png_coverage(const char *path, int width, int height, int cols, int rows, long *cover,
                           long *middle)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        fprintf(stderr, "skin-demo: --check: cannot read %s: %s\n", path, img.message);
        return 1;
    }
    if (img.width != (png_uint_32)width || img.height != (png_uint_32)height) {
        fprintf(stderr, "skin-demo: --check: %s is %ux%u, expected %dx%d\n", path, img.width,
                img.height, width, height);
        png_image_free(&img);
        return 1;
    }
    img.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc((size_t)width * height * 3);
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        fprintf(stderr, "skin-demo: --check: cannot decode %s\n", path);
        free(px);
        png_image_free(&img);
        return 1;
    }
    int pw = width / cols, ph = height / rows;
    memset(cover, 0, sizeof *cover * (size_t)cols * rows);
    memset(middle, 0, sizeof *middle * (size_t)cols * rows);
    for (int y = 0; y < ph * rows; ++y)
        for (int x = 0; x < pw * cols; ++x) {
            if (!covered(px + 3 * ((size_t)y * width + x))) continue;
            int panel = (y / ph) * cols + x / pw, cx = x % pw;
            ++cover[panel];
            if (cx >= pw / 2 - 8 && cx < pw / 2 + 8) ++middle[panel];
        }
    free(px);
    return 0;
}
