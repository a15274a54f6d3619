/* SPDX-License-Identifier: MIT */
/* CPU or GPU path for a device and a mesh: what the GPU path can run, and
 * (when asked) both paths measured on that device. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vk_internal.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, uint32_t n)
{
    qsort(t, n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Why the GPU path cannot run, or NULL. */
static const char *gpu_unsupported(const vk_ctx *c, const skin_vk_path_query *q, size_t stride)
{
    const VkPhysicalDeviceLimits *lim = &c->props.limits;
    const char *mesh_limit = vk_gpu_mesh_limit(lim, q->mesh, q->palette->joint_count);
    if (mesh_limit) return mesh_limit;
    if ((VkDeviceSize)q->mesh->vertex_count * stride > lim->maxStorageBufferRange)
        return "output exceeds maxStorageBufferRange";
    if (lim->maxPushConstantsSize < VK_GPU_PUSH_BYTES) return "too few bytes of push constants";
    if (lim->maxBoundDescriptorSets < 2) return "fewer than 2 bound descriptor sets";
    uint32_t families = 0;
    c->fn.GetPhysicalDeviceQueueFamilyProperties(q->physical_device, &families, NULL);
    VkQueueFamilyProperties fp[32];
    if (families > 32) families = 32;
    c->fn.GetPhysicalDeviceQueueFamilyProperties(q->physical_device, &families, fp);
    if (q->queue_family_index >= families) return "queue_family_index is not a family of the device";
    if (!(fp[q->queue_family_index].queueFlags & VK_QUEUE_COMPUTE_BIT))
        return "the queue family has no compute";
    return NULL;
}

typedef struct bench {
    vk_ctx c;
    const skin_vk_path_query *q;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool stamps;
    skin_vk_vertex_layout layout;
} bench;

static VkResult submit(bench *b, double *wall)
{
    const vk_fns *f = &b->c.fn;
    VkResult r = f->EndCommandBuffer(b->cmd);
    if (r != VK_SUCCESS) return r;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                       .pCommandBuffers = &b->cmd};
    double t0 = now_ns();
    if ((r = f->QueueSubmit(b->q->queue, 1, &si, b->fence)) != VK_SUCCESS) return r;
    r = f->WaitForFences(b->c.device, 1, &b->fence, VK_TRUE, UINT64_MAX);
    if (wall) *wall = now_ns() - t0;
    return r;
}

static VkResult begin(bench *b)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    return b->c.fn.BeginCommandBuffer(b->cmd, &bi);
}

/* Measures q->frames frames after q->warmup of each path into one ring. */
static VkResult measure(bench *b, skin_vk_path_report *rep)
{
    const skin_vk_path_query *q = b->q;
    const vk_fns *f = &b->c.fn;
    size_t n = q->mesh->vertex_count;
    uint32_t frames = q->frames, total = q->warmup + frames;
    skin_vk_stream_create_info ci = {.physical_device = q->physical_device, .device = q->device,
                                     .queue_family_index = q->queue_family_index,
                                     .region_size = (VkDeviceSize)n * b->layout.stride +
                                                    (VkDeviceSize)q->palette->joint_count * 84 +
                                                    VK_GPU_MORPH_LIST_BYTES + 4096,
                                     .region_count = 2,
                                     .allocator = q->allocator,
                                     .get_instance_proc_addr = q->get_instance_proc_addr,
                                     .instance = q->instance};
    skin_vk_gpu_create_info gi = {.physical_device = q->physical_device, .device = q->device,
                                  .allocator = q->allocator,
                                  .get_instance_proc_addr = q->get_instance_proc_addr,
                                  .instance = q->instance};
    skin_vk_stream *ring = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    double *t = malloc(sizeof(double) * 3 * frames);
    VkResult r = t ? skin_vk_stream_create(&ci, &ring) : VK_ERROR_OUT_OF_HOST_MEMORY;
    if (r == VK_SUCCESS) r = skin_vk_gpu_create(&gi, &gpu);
    if (r == VK_SUCCESS) r = skin_vk_gpu_mesh_create(gpu, q->mesh, q->palette->joint_count, &gm);
    int stamps = b->stamps != VK_NULL_HANDLE;
    skin_vk_gpu_call call = {q->method, q->palette, q->attributes, SKIN_VK_PACK_FLOAT,
                             SKIN_LAYOUT_STRIDED, 0, 0, n};
    for (uint32_t i = 0; r == VK_SUCCESS && i < 2 * total; ++i) {
        int on_gpu = i >= total;
        uint32_t rep_i = on_gpu ? i - total : i;
        skin_vk_frame fr;
        skin_vk_slot slot;
        double t0 = now_ns(), wall = 0;
        if ((r = skin_vk_stream_acquire(ring, UINT64_MAX, &fr)) != VK_SUCCESS) break;
        if ((r = f->ResetFences(b->c.device, 1, &b->fence)) != VK_SUCCESS) break;
        if (!on_gpu) { /* CPU: skin into the ring, record, submit, fence */
            if ((r = skin_vk_frame_alloc(ring, &fr, n, &b->layout, &slot)) != VK_SUCCESS) break;
            if (skin_mesh_parallel(q->mesh, q->palette, q->method, &slot.output, 0) != SKIN_OK) {
                r = VK_ERROR_VALIDATION_FAILED_EXT;
                break;
            }
            if ((r = begin(b)) != VK_SUCCESS) break;
        } else { /* GPU: palette upload, dispatch and barrier; timestamps around them */
            if ((r = begin(b)) != VK_SUCCESS) break;
            if (stamps) {
                f->CmdResetQueryPool(b->cmd, b->stamps, 0, 2);
                f->CmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, b->stamps, 0);
            }
            if ((r = skin_vk_gpu_skin(gm, ring, &fr, b->cmd, &call, &slot)) != VK_SUCCESS) break;
            if (stamps)
                f->CmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, b->stamps, 1);
        }
        if ((r = skin_vk_stream_commit(ring, &fr, b->cmd, b->fence)) != VK_SUCCESS) break;
        if ((r = submit(b, &wall)) != VK_SUCCESS) break;
        double frame = now_ns() - t0;
        if (rep_i < q->warmup) continue;
        rep_i -= q->warmup;
        if (!on_gpu) {
            t[rep_i] = frame;
        } else {
            t[frames + rep_i] = wall;
            uint64_t ts[2] = {0, 0};
            if (stamps && f->GetQueryPoolResults(b->c.device, b->stamps, 0, 2, sizeof ts, ts,
                                                 sizeof ts[0], VK_QUERY_RESULT_64_BIT |
                                                                   VK_QUERY_RESULT_WAIT_BIT) !=
                              VK_SUCCESS)
                stamps = 0;
            t[2 * frames + rep_i] = (double)(ts[1] - ts[0]) * b->c.props.limits.timestampPeriod;
        }
    }
    if (r == VK_SUCCESS) {
        rep->measured = VK_TRUE;
        rep->frames = frames;
        rep->cpu_ns_per_frame = median(t, frames);
        rep->gpu_submit_ns_per_frame = median(t + frames, frames);
        rep->gpu_timestamps = stamps ? VK_TRUE : VK_FALSE;
        rep->gpu_ns_per_frame = stamps ? median(t + 2 * frames, frames) : rep->gpu_submit_ns_per_frame;
        rep->ring_mode = skin_vk_stream_mode(ring);
    }
    free(t);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    return r;
}

VkResult skin_vk_choose_path(const skin_vk_path_query *q, skin_vk_path_report *rep)
{
    if (rep) memset(rep, 0, sizeof *rep);
    if (!q || !rep || !q->physical_device || !q->device || !q->mesh || !q->palette ||
        (q->get_instance_proc_addr && !q->instance) || (q->frames && !q->queue) ||
        (uint64_t)q->warmup + q->frames > UINT32_MAX / 2 || /* 2 (warmup + frames) fits */
        (q->method != SKIN_LBS && q->method != SKIN_DQS))
        return VK_ERROR_VALIDATION_FAILED_EXT;
    bench b;
    memset(&b, 0, sizeof b);
    b.q = q;
    VkResult r = vk_ctx_init(&b.c, q->physical_device, q->device, q->get_instance_proc_addr,
                             q->instance, q->allocator);
    if (r != VK_SUCCESS) return r;
    if (skin_vk_vertex_layout_init(q->attributes, SKIN_VK_PACK_FLOAT, &b.layout) != SKIN_OK)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    /* The mesh and palette must be valid for the CPU path (O(1) checks). */
    skin_output probe = {.layout = SKIN_LAYOUT_SOA};
    float dummy[10];
    for (int c = 0; c < 10; ++c) probe.soa[c] = dummy + c;
    if (!(q->attributes & SKIN_VK_NORMAL)) probe.soa[3] = probe.soa[4] = probe.soa[5] = NULL;
    if (!(q->attributes & SKIN_VK_TANGENT))
        probe.soa[6] = probe.soa[7] = probe.soa[8] = probe.soa[9] = NULL;
    if (skin_mesh(q->mesh, q->palette, q->method, &probe, 0, 0) != SKIN_OK)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    rep->device_type = b.c.props.deviceType;
    rep->cpu_type_device = b.c.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    memcpy(rep->device_name, b.c.props.deviceName, sizeof rep->device_name);
    rep->gpu_reason = gpu_unsupported(&b.c, q, b.layout.stride);
    rep->gpu_supported = rep->gpu_reason == NULL;
    /* Without a measurement: the GPU path on a real GPU, the CPU path when
     * the GPU path cannot run or the "GPU" is CPU threads. */
    rep->recommended = rep->gpu_supported && !rep->cpu_type_device ? SKIN_VK_PATH_GPU : SKIN_VK_PATH_CPU;
    if (!q->frames || !rep->gpu_supported) return VK_SUCCESS;

    const vk_fns *f = &b.c.fn;
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = q->queue_family_index};
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = f->CreateCommandPool(b.c.device, &pi, b.c.allocator, &b.pool)) != VK_SUCCESS) {
        b.pool = VK_NULL_HANDLE;
        goto done;
    }
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = b.pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    if ((r = f->AllocateCommandBuffers(b.c.device, &cai, &b.cmd)) != VK_SUCCESS) goto done;
    if ((r = f->CreateFence(b.c.device, &fi, b.c.allocator, &b.fence)) != VK_SUCCESS) {
        b.fence = VK_NULL_HANDLE;
        goto done;
    }
    uint32_t families = 32;
    VkQueueFamilyProperties fp[32];
    f->GetPhysicalDeviceQueueFamilyProperties(q->physical_device, &families, fp);
    if (fp[q->queue_family_index].timestampValidBits && b.c.props.limits.timestampPeriod > 0) {
        VkQueryPoolCreateInfo qpi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                     .queryCount = 2};
        if (f->CreateQueryPool(b.c.device, &qpi, b.c.allocator, &b.stamps) != VK_SUCCESS)
            b.stamps = VK_NULL_HANDLE;
    }
    if ((r = measure(&b, rep)) == VK_SUCCESS)
        rep->recommended = rep->gpu_ns_per_frame < rep->cpu_ns_per_frame ? SKIN_VK_PATH_GPU
                                                                          : SKIN_VK_PATH_CPU;
done:
    if (b.stamps) f->DestroyQueryPool(b.c.device, b.stamps, b.c.allocator);
    if (b.fence) f->DestroyFence(b.c.device, b.fence, b.c.allocator);
    if (b.pool) f->DestroyCommandPool(b.c.device, b.pool, b.c.allocator); /* frees cmd */
    return r;
}
