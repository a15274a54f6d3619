/* SPDX-License-Identifier: MIT */
/* Vulkan stream-ring benchmarks: skinning into mapped ring memory vs
 * ordinary memory, per-frame flush cost, staging-copy cost. */
#define _POSIX_C_SOURCE 200809L
#include "bench_vk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rig.h"
#include "vk_boot.h"
#include "skin/skin_vk.h"

#define VERTS 100000

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

typedef struct stats {
    double med, min;
} stats;

static stats summarize(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return (stats){n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]), t[0]};
}

typedef struct ctx {
    vkb vk; /* instance, device, queue: the shared bootstrap */
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool timestamps; /* VK_NULL_HANDLE if the queue has none */
} ctx;

static void ctx_destroy(ctx *c)
{
    if (c->vk.device) {
        vkDeviceWaitIdle(c->vk.device);
        if (c->timestamps) vkDestroyQueryPool(c->vk.device, c->timestamps, NULL);
        if (c->fence) vkDestroyFence(c->vk.device, c->fence, NULL);
        if (c->pool) vkDestroyCommandPool(c->vk.device, c->pool, NULL);
    }
    vkb_destroy(&c->vk);
    memset(c, 0, sizeof *c);
}

/* 0 ready, 1 no device, -1 other failure.  device: as skin_bench_vk's;
 * NULL takes the first, where Mesa's device-select layer puts real GPUs
 * before lavapipe. */
static int ctx_create(ctx *c, const char *device)
{
    memset(c, 0, sizeof *c);
    vkb_options o = {.app_name = "skin-bench-vk", .queue_flags = VK_QUEUE_COMPUTE_BIT, .device = device};
    int st = vkb_create(&o, &c->vk, NULL, 0);
    if (st != VKB_OK) return st == VKB_NO_DEVICE ? 1 : -1;
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = c->vk.family};
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (vkCreateCommandPool(c->vk.device, &pi, NULL, &c->pool) != VK_SUCCESS ||
        (cai.commandPool = c->pool,
         vkAllocateCommandBuffers(c->vk.device, &cai, &c->cmd) != VK_SUCCESS) ||
        vkCreateFence(c->vk.device, &fi, NULL, &c->fence) != VK_SUCCESS) {
        ctx_destroy(c);
        return -1;
    }
    if (c->vk.family_props.timestampValidBits) {
        VkQueryPoolCreateInfo qpi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                     .queryCount = 2};
        if (vkCreateQueryPool(c->vk.device, &qpi, NULL, &c->timestamps) != VK_SUCCESS)
            c->timestamps = VK_NULL_HANDLE;
    }
    return 0;
}

static skin_vk_stream *ring_create(ctx *c, VkDeviceSize region, uint32_t flags)
{
    skin_vk_stream_create_info ci = {.physical_device = c->vk.phys,
                                     .device = c->vk.device,
                                     .queue_family_index = c->vk.family,
                                     .region_size = region,
                                     .region_count = 2,
                                     .flags = flags};
    skin_vk_stream *s = NULL;
    return skin_vk_stream_create(&ci, &s) == VK_SUCCESS ? s : NULL;
}

/* Skinning into ordinary memory vs into the mapped ring (and packed into the
 * ring), interleaved rep by rep so both see the same machine noise. */
static int bench_skinning(ctx *c, rig *r, int warm, int reps, FILE *out, skin_bench_vk_summary *sum)
{
    skin_vk_vertex_layout fl, pl;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &fl);
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_1010102, &pl);
    skin_vk_stream *ring = ring_create(c, (VkDeviceSize)VERTS * fl.stride, 0);
    float *plain = aligned_alloc(64, (size_t)VERTS * fl.stride);
    double *t = malloc(sizeof(double) * 3 * (size_t)reps);
    int rc = -1;
    if (!ring || !plain || !t) goto done;
    skin_output po = {.layout = SKIN_LAYOUT_STRIDED,
                      .flags = SKIN_OUTPUT_STREAMING,
                      .position = plain, .position_stride = fl.stride,
                      .normal = plain + 3, .normal_stride = fl.stride,
                      .tangent = plain + 6, .tangent_stride = fl.stride};
    for (int i = -warm; i < reps; ++i) {
        skin_vk_frame f;
        skin_vk_slot slot;
        double t0 = now_ns();
        if (skin_mesh(&r->mesh, &r->palette, SKIN_LBS, &po, 0, VERTS) != SKIN_OK) goto done;
        double t1 = now_ns();
        if (skin_vk_stream_acquire(ring, UINT64_MAX, &f) != VK_SUCCESS ||
            skin_vk_frame_alloc(ring, &f, VERTS, &fl, &slot) != VK_SUCCESS)
            goto done;
        double t2 = now_ns();
        if (skin_mesh(&r->mesh, &r->palette, SKIN_LBS, &slot.output, 0, VERTS) != SKIN_OK)
            goto done;
        double t3 = now_ns();
        if (skin_vk_stream_commit(ring, &f, VK_NULL_HANDLE, VK_NULL_HANDLE) != VK_SUCCESS ||
            skin_vk_stream_acquire(ring, UINT64_MAX, &f) != VK_SUCCESS ||
            skin_vk_frame_alloc(ring, &f, VERTS, &pl, &slot) != VK_SUCCESS)
            goto done;
        double t4 = now_ns();
        if (skin_vk_skin(&slot, &r->mesh, &r->palette, SKIN_LBS, 0, VERTS) != SKIN_OK) goto done;
        double t5 = now_ns();
        if (skin_vk_stream_commit(ring, &f, VK_NULL_HANDLE, VK_NULL_HANDLE) != VK_SUCCESS)
            goto done;
        if (i >= 0) t[i] = t1 - t0, t[reps + i] = t3 - t2, t[2 * reps + i] = t5 - t4;
    }
    stats plain_s = summarize(t, reps), ring_s = summarize(t + reps, reps),
          packed_s = summarize(t + 2 * reps, reps);
    double ratio = ring_s.med / plain_s.med;
    fprintf(out, "  %-46s %9.2f %9.2f\n", "LBS4 p+n+t -> malloc'd memory (streaming)",
            plain_s.med / VERTS, plain_s.min / VERTS);
    fprintf(out, "  %-46s %9.2f %9.2f\n", "LBS4 p+n+t -> mapped ring (streaming)",
            ring_s.med / VERTS, ring_s.min / VERTS);
    fprintf(out, "  %-46s %9.2f %9.2f\n", "LBS4 p+n+t -> mapped ring, packed 1010102",
            packed_s.med / VERTS, packed_s.min / VERTS);
    fprintf(out, "  mapped ring / malloc'd memory: %.3f (median), %.3f (min)\n", ratio, ring_s.min / plain_s.min);
    sum->ring_over_malloc = ratio, sum->cpu_ns_per_vertex = ring_s.med / VERTS;
    rc = 0;
done:
    free(t);
    free(plain);
    skin_vk_stream_destroy(ring);
    return rc;
}

/* Per-frame flush of a full region in forced non-coherent mode (commit). */
static int bench_flush(ctx *c, int warm, int reps, FILE *out)
{
    skin_vk_vertex_layout fl;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &fl);
    VkDeviceSize bytes = (VkDeviceSize)VERTS * fl.stride;
    skin_vk_stream *ring = ring_create(c, bytes, SKIN_VK_FORCE_NONCOHERENT);
    double *t = malloc(sizeof(double) * (size_t)reps);
    int rc = -1;
    if (!ring || !t) goto done;
    for (int i = -warm; i < reps; ++i) {
        skin_vk_frame f;
        skin_vk_slot slot;
        if (skin_vk_stream_acquire(ring, UINT64_MAX, &f) != VK_SUCCESS ||
            skin_vk_frame_alloc(ring, &f, VERTS, &fl, &slot) != VK_SUCCESS)
            goto done;
        double t0 = now_ns();
        if (skin_vk_stream_commit(ring, &f, VK_NULL_HANDLE, VK_NULL_HANDLE) != VK_SUCCESS)
            goto done;
        if (i >= 0) t[i] = now_ns() - t0;
    }
    stats s = summarize(t, reps);
    fprintf(out, "  %-46s %9.2f %9.2f us/frame (%.1f MiB)\n", "flush (forced non-coherent)",
            s.med / 1e3, s.min / 1e3, (double)bytes / 1048576.0);
    rc = 0;
done:
    free(t);
    skin_vk_stream_destroy(ring);
    return rc;
}

/* Begins c->cmd for one timed submission, with a timestamp at the top. */
static int begin_timed(ctx *c, int have_gpu)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    if (vkBeginCommandBuffer(c->cmd, &bi) != VK_SUCCESS) return -1;
    if (have_gpu) {
        vkCmdResetQueryPool(c->cmd, c->timestamps, 0, 2);
        vkCmdWriteTimestamp(c->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->timestamps, 0);
    }
    return 0;
}

/* Ends c->cmd, submits it with c->fence and waits: *wall gets submit ->
 * fence on the CPU clock, *gpu the time between the timestamps (and
 * *have_gpu is cleared if they cannot be read). */
static int submit_timed(ctx *c, int *have_gpu, double *wall, double *gpu)
{
    if (*have_gpu) vkCmdWriteTimestamp(c->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->timestamps, 1);
    if (vkEndCommandBuffer(c->cmd) != VK_SUCCESS) return -1;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                       .pCommandBuffers = &c->cmd};
    double t0 = now_ns();
    if (vkQueueSubmit(c->vk.queue, 1, &si, c->fence) != VK_SUCCESS ||
        vkWaitForFences(c->vk.device, 1, &c->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
        return -1;
    *wall = now_ns() - t0;
    uint64_t ts[2] = {0, 0};
    if (*have_gpu &&
        vkGetQueryPoolResults(c->vk.device, c->timestamps, 0, 2, sizeof ts, ts, sizeof ts[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        *have_gpu = 0;
    *gpu = (double)(ts[1] - ts[0]) * c->vk.props.limits.timestampPeriod;
    return 0;
}

/* Staging: commit records the copy + barrier; time submit to fence, and
 * the GPU's own time between timestamps around the copy. */
static int bench_staging(ctx *c, int warm, int reps, FILE *out)
{
    skin_vk_vertex_layout fl;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &fl);
    VkDeviceSize bytes = (VkDeviceSize)VERTS * fl.stride;
    skin_vk_stream *ring = ring_create(c, bytes, SKIN_VK_FORCE_STAGING);
    double *t = malloc(sizeof(double) * 2 * (size_t)reps);
    int rc = -1, have_gpu = c->timestamps != VK_NULL_HANDLE;
    if (!ring || !t) goto done;
    for (int i = -warm; i < reps; ++i) {
        skin_vk_frame f;
        skin_vk_slot slot;
        if (skin_vk_stream_acquire(ring, UINT64_MAX, &f) != VK_SUCCESS ||
            skin_vk_frame_alloc(ring, &f, VERTS, &fl, &slot) != VK_SUCCESS)
            goto done;
        /* Reset the fence only after acquire has waited on it. */
        if (vkResetFences(c->vk.device, 1, &c->fence) != VK_SUCCESS) goto done;
        if (i == -warm) memset(slot.mapped, 0, (size_t)bytes); /* defined contents */
        double wall, gpu;
        if (begin_timed(c, have_gpu) || skin_vk_stream_commit(ring, &f, c->cmd, c->fence) != VK_SUCCESS ||
            submit_timed(c, &have_gpu, &wall, &gpu))
            goto done;
        if (i >= 0) t[i] = wall, t[reps + i] = gpu;
    }
    stats wall = summarize(t, reps);
    fprintf(out, "  %-46s %9.2f %9.2f us/frame (%.1f MiB)\n",
            "staging copy, submit -> fence (CPU clock)",
            wall.med / 1e3, wall.min / 1e3, (double)bytes / 1048576.0);
    if (have_gpu) {
        stats gpu = summarize(t + reps, reps);
        fprintf(out, "  %-46s %9.2f %9.2f us/frame\n", "staging copy + barrier (GPU timestamps)",
                gpu.med / 1e3, gpu.min / 1e3);
    }
    rc = 0;
done:
    free(t);
    skin_vk_stream_destroy(ring);
    return rc;
}

/* The same LBS in the compute shader into the ring: the device's time from
 * timestamps around the dispatch, and submit -> fence on the CPU clock. */
static int bench_gpu(ctx *c, rig *r, int warm, int reps, FILE *out, skin_bench_vk_summary *sum)
{
    skin_vk_vertex_layout fl;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &fl);
    /* Room for the slot and, since each call takes its palette from the
     * region, the palette. */
    skin_vk_stream *ring = ring_create(
        c, (VkDeviceSize)VERTS * fl.stride + (VkDeviceSize)r->palette.joint_count * 48 + 1024, 0);
    skin_vk_gpu_create_info gi = {.physical_device = c->vk.phys, .device = c->vk.device};
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    double *t = malloc(sizeof(double) * 2 * (size_t)reps);
    int rc = -1, have_gpu = c->timestamps != VK_NULL_HANDLE;
    if (!ring || !t || skin_vk_gpu_create(&gi, &gpu) != VK_SUCCESS ||
        skin_vk_gpu_mesh_create(gpu, &r->mesh, r->palette.joint_count, &gm) != VK_SUCCESS)
        goto done;
    skin_vk_gpu_call call = {SKIN_LBS, &r->palette, SKIN_VK_NORMAL | SKIN_VK_TANGENT,
                             SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 0, VERTS};
    for (int i = -warm; i < reps; ++i) {
        skin_vk_frame f;
        skin_vk_slot slot;
        if (skin_vk_stream_acquire(ring, UINT64_MAX, &f) != VK_SUCCESS ||
            vkResetFences(c->vk.device, 1, &c->fence) != VK_SUCCESS)
            goto done;
        double wall, gpu_ns;
        if (begin_timed(c, have_gpu) ||
            skin_vk_gpu_skin(gm, ring, &f, c->cmd, &call, &slot) != VK_SUCCESS ||
            skin_vk_stream_commit(ring, &f, c->cmd, c->fence) != VK_SUCCESS ||
            submit_timed(c, &have_gpu, &wall, &gpu_ns))
            goto done;
        if (i >= 0) t[i] = wall, t[reps + i] = gpu_ns;
    }
    stats wall = summarize(t, reps);
    sum->gpu_ns_per_vertex = wall.med / VERTS;
    if (have_gpu) {
        stats g = summarize(t + reps, reps);
        fprintf(out, "  %-46s %9.2f %9.2f\n", "LBS4 p+n+t compute shader -> ring (timestamps)",
                g.med / VERTS, g.min / VERTS);
        sum->gpu_ns_per_vertex = g.med / VERTS;
    }
    fprintf(out, "  %-46s %9.2f %9.2f\n", "LBS4 p+n+t compute shader, submit -> fence",
            wall.med / VERTS, wall.min / VERTS);
    rc = 0;
done:
    free(t);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    return rc;
}

int skin_bench_vk(int quick, const char *device, FILE *out, skin_bench_vk_summary *summary)
{
    if (!out) out = stdout;
    skin_bench_vk_summary unused, *sum = summary ? summary : &unused;
    memset(sum, 0, sizeof *sum);
    sum->ring_over_malloc = sum->cpu_ns_per_vertex = sum->gpu_ns_per_vertex = NAN;
    ctx c;
    int rc = ctx_create(&c, device);
    if (rc) return rc;
    snprintf(sum->device, sizeof sum->device, "%s", c.vk.props.deviceName);
    sum->device_type = vkb_device_type_name(c.vk.props.deviceType);
    sum->cpu_device = c.vk.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    int warm = quick ? 3 : 5, reps = quick ? 15 : 31;
    rig r;
    rig_options o = {VERTS, 64, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 42};
    if (rig_random(&r, &o)) {
        ctx_destroy(&c);
        return -1;
    }
    skin_vk_stream *probe = ring_create(&c, 4096, 0);
    fprintf(out,
            "\nVulkan stream ring: %s (%s), default mode %s "
            "(%d reps after %d warm-up, 1 thread, %d vertices)\n",
            c.vk.props.deviceName, sum->cpu_device ? "software Vulkan (CPU)" : sum->device_type,
            probe ? skin_vk_memory_mode_name(skin_vk_stream_mode(probe)) : "?", reps, warm, VERTS);
    skin_vk_stream_destroy(probe);
    if (sum->cpu_device)
        fprintf(out, "  (software Vulkan: its compute shader runs on this CPU's threads, so its rows are\n"
                     "  no measure of a GPU)\n");
    fprintf(out, "  %-46s %9s %9s\n", "case", "median", "min");
    fprintf(out, "  %-46s %9s %9s\n", "", "ns/vert", "ns/vert");
    rc = bench_skinning(&c, &r, warm, reps, out, sum);
    if (rc == 0) rc = bench_gpu(&c, &r, warm, reps, out, sum);
    if (rc == 0) rc = bench_flush(&c, warm, reps, out);
    if (rc == 0) rc = bench_staging(&c, warm, reps, out);
    if (rc) fprintf(out, "  (a Vulkan measurement failed)\n");
    rig_free(&r);
    ctx_destroy(&c);
    return rc;
}
