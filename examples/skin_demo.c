/* skin-demo: renders the twisted candy-wrapper cylinder skinned with LBS (left
 * half) and DQS (right half), offscreen with Vulkan, into a PNG.
 *
 * The skinned vertices take the product path: a skin_vk stream ring, two
 * slots of one frame filled by skin_mesh_parallel, committed, and bound as
 * vertex buffers of a plain graphics pipeline.
 *
 * Usage: skin-demo [-o out.png] [--check] [--joints N] [--twist DEGREES]
 * --check reads the written PNG back and verifies that both halves are lit
 * and that the LBS middle is thinner than the DQS middle.
 * Exit: 0 ok, 1 failure, 77 no Vulkan device (1 when CI=true).
 * SKIN_DEMO_VALIDATION=1 enables VK_LAYER_KHRONOS_validation; then any
 * warning or error it reports fails the run. */
#include "rig.h"
#include "vk_boot.h"

#include <skin/skin_vk.h>

#include <png.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t vert_spv[] =
#include "demo.vert.spv.inc"
    ;
static const uint32_t frag_spv[] =
#include "demo.frag.spv.inc"
    ;

enum { WIDTH = 1024, HEIGHT = 512, HALF = WIDTH / 2, EXIT_SKIP = 77 };
static const uint8_t BACKGROUND[3] = {24, 26, 34};

static int g_messages; /* validation messages of the run, from vkb_destroy */

/* Everything the demo creates, so one cleanup path frees whatever exists. */
typedef struct demo {
    vkb vk; /* instance, validation messenger, device: the shared bootstrap */
    /* copies of vk's handles, for brevity */
    VkPhysicalDevice phys;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
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
    VkBuffer host_buf; /* indices, then the static per-vertex stripe coordinate */
    VkDeviceMemory host_mem;
    VkBuffer readback;
    VkDeviceMemory readback_mem;
    void *readback_ptr;
    skin_vk_stream *ring;
} demo;

#define VK_TRY(call)                                                                     \
    do {                                                                                 \
        VkResult r_ = (call);                                                            \
        if (r_ != VK_SUCCESS) {                                                          \
            fprintf(stderr, "skin-demo: %s failed (VkResult %d)\n", #call, (int)r_);     \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

static int no_device(const char *why)
{
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) {
        fprintf(stderr, "skin-demo: %s (CI=true: a Vulkan device is required)\n", why);
        return 1;
    }
    fprintf(stderr, "skin-demo: skipped: %s\n", why);
    return EXIT_SKIP;
}

static int init_device(demo *d, int validation)
{
    vkb_options o = {.app_name = "skin-demo",
                     .validation = validation ? VKB_VALIDATION_ON : VKB_VALIDATION_OFF,
                     .queue_flags = VK_QUEUE_GRAPHICS_BIT};
    char why[128];
    int st = vkb_create(&o, &d->vk, why, sizeof why);
    if (st == VKB_NO_DEVICE) return no_device(why);
    if (st != VKB_OK) {
        fprintf(stderr, "skin-demo: %s\n", why);
        return 1;
    }
    d->phys = d->vk.phys;
    d->memory = d->vk.memory;
    d->device = d->vk.device;
    d->family = d->vk.family;
    d->queue = d->vk.queue;
    printf("device: %s%s\n", d->vk.props.deviceName, validation ? " (validation on)" : "");
    return 0;
}

static uint32_t memory_type(const demo *d, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < d->memory.memoryTypeCount; ++i)
        if ((bits >> i & 1u) && (d->memory.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
}

static int bind_memory(demo *d, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                       VkDeviceMemory *mem)
{
    uint32_t type = memory_type(d, req.memoryTypeBits, want);
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

static int create_buffer(demo *d, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
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

static int create_image(demo *d, VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                        VkImage *image, VkDeviceMemory *mem, VkImageView *view)
{
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {WIDTH, HEIGHT, 1},
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

static int create_targets(demo *d)
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
                                  .width = WIDTH,
                                  .height = HEIGHT,
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

static int create_pipeline(demo *d, const skin_vk_vertex_layout *vl)
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
    /* Binding 0: the ring slot, formats and offsets from the skin_vk layout. */
    VkVertexInputBindingDescription bindings[2] = {
        {0, vl->stride, VK_VERTEX_INPUT_RATE_VERTEX},
        {1, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX}};
    VkVertexInputAttributeDescription attrs[3] = {
        {0, 0, vl->position_format, 0},
        {1, 0, vl->normal_format, vl->normal_offset},
        {2, 1, VK_FORMAT_R32_SFLOAT, 0}};
    VkPipelineVertexInputStateCreateInfo vin = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = 2,
        .pVertexBindingDescriptions = bindings,
        .vertexAttributeDescriptionCount = 3,
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

static void destroy(demo *d)
{
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
    g_messages += vkb_destroy(&d->vk); /* the device too */
    memset(d, 0, sizeof *d);
}

/* Orthographic camera looking down -z, tilted about x so the cylinder shows
 * its top; `scale` maps world units to NDC, Vulkan's y points down. */
static void camera(float tilt, float scale, float m[16])
{
    float c = cosf(tilt), s = sinf(tilt);
    /* rows of view: x' = x; y' = c y - s z; z' = s y + c z (towards the eye) */
    memset(m, 0, 16 * sizeof(float));
    m[0] = scale;                           /* column 0 */
    m[5] = -scale * c, m[6] = -0.2f * s;    /* column 1: ndc.y, depth from y */
    m[9] = scale * s, m[10] = -0.2f * c;    /* column 2 */
    m[15] = 1.0f, m[14] = 0.5f;             /* depth = 0.5 - 0.2 z' */
}

/* Triangle list over the cylinder grid: vertex v = ring * around + segment
 * (rig.c's layout, `around` = floor(sqrt(n)) + 1 vertices per ring). */
static size_t build_indices(size_t n, size_t around, uint32_t *out)
{
    size_t count = 0, rings = n / around;
    for (size_t r = 0; r + 1 < rings; ++r)
        for (size_t s = 0; s < around; ++s) {
            uint32_t a = (uint32_t)(r * around + s), b = (uint32_t)(r * around + (s + 1) % around);
            uint32_t c = a + (uint32_t)around, e = b + (uint32_t)around;
            if (out) {
                uint32_t *t = out + count;
                t[0] = a, t[1] = b, t[2] = e, t[3] = a, t[4] = e, t[5] = c;
            }
            count += 6;
        }
    return count;
}

static int write_png(const char *path, const uint8_t *rgba)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = WIDTH, img.height = HEIGHT;
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&img, path, 0, rgba, 0, NULL)) {
        fprintf(stderr, "skin-demo: cannot write %s: %s\n", path, img.message);
        return 1;
    }
    return 0;
}

static int covered(const uint8_t *p)
{
    int diff = 0;
    for (int c = 0; c < 3; ++c) diff += abs((int)p[c] - (int)BACKGROUND[c]);
    return diff > 24;
}

/* Reads the PNG back and checks what the picture must show. */
static int check_png(const char *path)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) {
        fprintf(stderr, "skin-demo: --check: cannot read %s: %s\n", path, img.message);
        return 1;
    }
    if (img.width != WIDTH || img.height != HEIGHT) {
        fprintf(stderr, "skin-demo: --check: %s is %ux%u, expected %dx%d\n", path, img.width,
                img.height, WIDTH, HEIGHT);
        png_image_free(&img);
        return 1;
    }
    img.format = PNG_FORMAT_RGB;
    uint8_t *px = malloc((size_t)WIDTH * HEIGHT * 3);
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        fprintf(stderr, "skin-demo: --check: cannot decode %s\n", path);
        free(px);
        png_image_free(&img);
        return 1;
    }
    long lit[2] = {0, 0}, middle[2] = {0, 0};
    for (int y = 0; y < HEIGHT; ++y)
        for (int x = 0; x < WIDTH; ++x) {
            if (!covered(px + 3 * ((size_t)y * WIDTH + x))) continue;
            int h = x >= HALF, cx = x - h * HALF;
            ++lit[h];
            if (cx >= HALF / 2 - 8 && cx < HALF / 2 + 8) ++middle[h]; /* 16 middle columns */
        }
    free(px);
    printf("check: covered pixels LBS %ld, DQS %ld; middle 16 columns LBS %ld, DQS %ld\n",
           lit[0], lit[1], middle[0], middle[1]);
    int ok = lit[0] > 5000 && lit[1] > 5000 && middle[1] > 0 && middle[0] * 10 < middle[1] * 7;
    if (!ok)
        fprintf(stderr, "skin-demo: --check failed: both halves must be lit and the LBS middle "
                        "must be under 70%% of the DQS middle\n");
    return ok ? 0 : 1;
}

typedef struct options {
    const char *out;
    int check;
    uint32_t joints;
    float twist_deg;
} options;

static int parse_number(const char *s, double lo, double hi, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && *v >= lo && *v <= hi;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){"skin-demo.png", 0, 2, 170.0f};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        double v;
        if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && next) {
            o->out = next, ++i;
        } else if (!strcmp(a, "--check")) {
            o->check = 1;
        } else if (!strcmp(a, "--joints") && next && parse_number(next, 2, 255, &v) && v == floor(v)) {
            o->joints = (uint32_t)v, ++i;
        } else if (!strcmp(a, "--twist") && next && parse_number(next, -720, 720, &v)) {
            o->twist_deg = (float)v, ++i;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: skin-demo [-o out.png] [--check] [--joints 2..255] [--twist DEGREES]\n");
            exit(0);
        } else {
            fprintf(stderr, "skin-demo: bad or incomplete argument '%s' (try --help)\n", a);
            return 1;
        }
    }
    return 0;
}

static int run(demo *d, rig *cyl, uint8_t *pixels)
{
    const char *v = getenv("SKIN_DEMO_VALIDATION");
    int validation = v && strcmp(v, "1") == 0;
    int rc = init_device(d, validation);
    if (rc) return rc;

    size_t n = cyl->mesh.vertex_count, around = (size_t)sqrt((double)n) + 1;
    size_t index_count = build_indices(n, around, NULL);
    skin_vk_vertex_layout vl;
    if (skin_vk_vertex_layout_init(SKIN_VK_NORMAL, SKIN_VK_PACK_FLOAT, &vl) != SKIN_OK) {
        fprintf(stderr, "skin-demo: skin_vk_vertex_layout_init failed\n");
        return 1;
    }
    if (create_targets(d) || create_pipeline(d, &vl)) return 1;

    /* Static data: indices, then one float per vertex (position around the ring). */
    VkDeviceSize index_bytes = index_count * sizeof(uint32_t), around_off = (index_bytes + 63) & ~63ull;
    void *host;
    if (create_buffer(d, around_off + n * sizeof(float),
                      VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                      &d->host_buf, &d->host_mem, &host) ||
        create_buffer(d, (VkDeviceSize)WIDTH * HEIGHT * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                      &d->readback, &d->readback_mem, &d->readback_ptr))
        return 1;
    build_indices(n, around, host);
    float *around_coord = (float *)((char *)host + around_off);
    for (size_t i = 0; i < n; ++i) around_coord[i] = (float)(i % around) / (float)around;

    /* The ring: one frame holds both slots (LBS and DQS). */
    skin_vk_stream_create_info ci = {.physical_device = d->phys,
                                     .device = d->device,
                                     .queue_family_index = d->family,
                                     .region_size = 2 * (n * vl.stride + 4096),
                                     .region_count = 2};
    VK_TRY(skin_vk_stream_create(&ci, &d->ring));
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = d->family};
    VK_TRY(vkCreateCommandPool(d->device, &pi, NULL, &d->pool));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = d->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VK_TRY(vkAllocateCommandBuffers(d->device, &cai, &d->cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_TRY(vkCreateFence(d->device, &fi, NULL, &d->fence));

    skin_vk_frame frame;
    VK_TRY(skin_vk_stream_acquire(d->ring, UINT64_MAX, &frame));
    skin_vk_slot slot[2];
    const skin_method methods[2] = {SKIN_LBS, SKIN_DQS};
    for (int h = 0; h < 2; ++h) {
        VK_TRY(skin_vk_frame_alloc(d->ring, &frame, n, &vl, &slot[h]));
        skin_status s = skin_mesh_parallel(&cyl->mesh, &cyl->palette, methods[h], &slot[h].output, 0);
        if (s != SKIN_OK) {
            fprintf(stderr, "skin-demo: skin_mesh_parallel: %s\n", skin_status_string(s));
            return 1;
        }
    }
    printf("skinned %zu vertices twice (LBS, DQS) on %s kernels into the skin_vk ring (%s memory)\n",
           n, skin_isa_name(skin_get_isa()), skin_vk_memory_mode_name(skin_vk_stream_mode(d->ring)));

    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VK_TRY(vkBeginCommandBuffer(d->cmd, &begin));
    VK_TRY(skin_vk_stream_commit(d->ring, &frame, d->cmd, d->fence));
    VkClearValue clear[2] = {
        {.color = {{BACKGROUND[0] / 255.0f, BACKGROUND[1] / 255.0f, BACKGROUND[2] / 255.0f, 1.0f}}},
        {.depthStencil = {1.0f, 0}}};
    VkRenderPassBeginInfo rb = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                .renderPass = d->pass,
                                .framebuffer = d->framebuffer,
                                .renderArea = {{0, 0}, {WIDTH, HEIGHT}},
                                .clearValueCount = 2,
                                .pClearValues = clear};
    vkCmdBeginRenderPass(d->cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(d->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->pipeline);
    vkCmdBindIndexBuffer(d->cmd, d->host_buf, 0, VK_INDEX_TYPE_UINT32);
    const float tilt = 0.45f, colors[2][3] = {{0.95f, 0.55f, 0.35f}, {0.40f, 0.70f, 0.95f}};
    for (int h = 0; h < 2; ++h) {
        VkViewport vp = {(float)(h * HALF), 0, HALF, HEIGHT, 0, 1};
        VkRect2D sc = {{h * HALF, 0}, {HALF, HEIGHT}};
        vkCmdSetViewport(d->cmd, 0, 1, &vp);
        vkCmdSetScissor(d->cmd, 0, 1, &sc);
        VkBuffer bufs[2] = {slot[h].buffer, d->host_buf};
        VkDeviceSize offs[2] = {slot[h].offset, around_off};
        vkCmdBindVertexBuffers(d->cmd, 0, 2, bufs, offs);
        push p;
        camera(tilt, 1.0f / 2.4f, p.mvp);
        memcpy(p.color, colors[h], sizeof colors[h]), p.color[3] = 1;
        /* light from the upper left front; view = the camera's +z in world */
        p.light[0] = -0.4f, p.light[1] = 0.8f, p.light[2] = 0.6f, p.light[3] = 0;
        p.view[0] = 0, p.view[1] = sinf(tilt), p.view[2] = cosf(tilt), p.view[3] = 0;
        vkCmdPushConstants(d->cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                           0, sizeof p, &p);
        vkCmdDrawIndexed(d->cmd, (uint32_t)index_count, 1, 0, 0, 0);
    }
    vkCmdEndRenderPass(d->cmd);
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              .imageExtent = {WIDTH, HEIGHT, 1}};
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
    VK_TRY(vkQueueSubmit(d->queue, 1, &submit, d->fence));
    VK_TRY(vkWaitForFences(d->device, 1, &d->fence, VK_TRUE, UINT64_MAX));
    memcpy(pixels, d->readback_ptr, (size_t)WIDTH * HEIGHT * 4);
    printf("rendered %dx%d: left LBS, right DQS, %zu triangles each\n", WIDTH, HEIGHT, index_count / 3);
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o)) return 1;
    /* ~40k vertices on a full grid: 201 around x 200 rings. */
    rig cyl;
    rig_options ro = {.vertex_count = 200 * 201,
                      .joint_count = o.joints,
                      .influence_count = 4,
                      .joint_format = SKIN_JOINT_U8,
                      .weight_format = SKIN_WEIGHT_F32,
                      .seed = 1};
    if (rig_candy_wrapper(&cyl, &ro)) {
        fprintf(stderr, "skin-demo: out of memory\n");
        return 1;
    }
    rig_candy_pose(&cyl, o.twist_deg * 3.14159265f / 180.0f);
    printf("candy wrapper: %zu vertices, %u joints, 4 influences, twisted %.0f degrees\n",
           cyl.mesh.vertex_count, o.joints, (double)o.twist_deg);
    uint8_t *pixels = malloc((size_t)WIDTH * HEIGHT * 4);
    demo d;
    memset(&d, 0, sizeof d);
    int rc = pixels ? run(&d, &cyl, pixels) : 1;
    destroy(&d);
    rig_free(&cyl);
    if (rc == 0 && g_messages) {
        fprintf(stderr, "skin-demo: %d validation message(s)\n", g_messages);
        rc = 1;
    }
    if (rc == 0) rc = write_png(o.out, pixels);
    if (rc == 0) printf("wrote %s\n", o.out);
    free(pixels);
    if (rc == 0 && o.check) rc = check_png(o.out);
    return rc;
}
