/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* setenv */
/* GPU compute skinning vs the CPU path: per frame (new palette, 2 in
 * flight) the CPU skins into one slot of the ring and the compute shader
 * into another slot of the same region; both are copied back and compared.
 * Direct and staging modes. */
#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 8
#define IN_FLIGHT 2

static int compare(const float *cpu, const float *gpu, size_t n, uint32_t stride_floats,
                   double *max_err)
{
    int bad = 0;
    for (size_t v = 0; v < n; ++v)
        for (uint32_t c = 0; c < stride_floats; ++c) {
            float a = cpu[v * stride_floats + c], b = gpu[v * stride_floats + c];
            double e = fabs((double)a - (double)b) / fmax(1.0, fabs((double)a));
            if (e > *max_err) *max_err = e;
            if (!(e <= 1e-5) && bad++ < 5)
                fprintf(stderr, "  vertex %zu float %u: cpu %.9g gpu %.9g\n", v, c, a, b);
        }
    return bad;
}

static int run(vkh *h, rig *r, uint32_t flags)
{
    /* flags: the ring's SKIN_VK_FORCE_* bits; SKIN_VK_FORCE_STAGING also
     * uploads the mesh through staging. */
    skin_vk_vertex_layout l;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &l);
    size_t n = r->mesh.vertex_count;
    VkDeviceSize bytes = (VkDeviceSize)n * l.stride;
    skin_vk_stream_create_info ci = {
        .physical_device = h->vk.phys, .device = h->vk.device, .queue_family_index = h->vk.family,
        .region_size = 2 * bytes + r->palette.joint_count * 48u + 1024, .region_count = IN_FLIGHT, .flags = flags,
        .staging_dst_stage = VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        .staging_dst_access = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT};
    skin_vk_gpu_create_info gi = {
        .physical_device = h->vk.phys, .device = h->vk.device,
        .dst_stage = VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        .dst_access = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT,
        .flags = flags & SKIN_VK_FORCE_STAGING};
    skin_vk_stream *ring = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    VKH_CHECK(skin_vk_gpu_create(&gi, &gpu));
    VKH_CHECK(skin_vk_gpu_mesh_create(gpu, &r->mesh, r->palette.joint_count, &gm));

    vkh_buffer rb;
    VkCommandBuffer cmd[IN_FLIGHT];
    VkFence fence[IN_FLIGHT];
    VKH_CHECK(vkh_readback_create(h, 2 * bytes * IN_FLIGHT, &rb));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = h->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = IN_FLIGHT};
    VKH_CHECK(vkAllocateCommandBuffers(h->vk.device, &cai, cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    for (int f = 0; f < IN_FLIGHT; ++f) VKH_CHECK(vkCreateFence(h->vk.device, &fi, NULL, &fence[f]));

    int bad = 0, pending[IN_FLIGHT] = {0};
    double max_err = 0;
    for (int i = 0; i < FRAMES + IN_FLIGHT; ++i) {
        int f = i % IN_FLIGHT;
        skin_vk_frame fr;
        if (i < FRAMES) VKH_CHECK(skin_vk_stream_acquire(ring, UINT64_MAX, &fr));
        else if (pending[f])
            VKH_CHECK(vkWaitForFences(h->vk.device, 1, &fence[f], VK_TRUE, UINT64_MAX));
        if (pending[f]) { /* frame i-2 finished: CPU half vs GPU half */
            vkh_readback_invalidate(h, &rb);
            const float *base = (const float *)((const char *)rb.mapped + 2 * bytes * f);
            bad += compare(base, base + bytes / 4, n, l.stride / 4, &max_err);
            /* ... and the CPU half against skin_mesh into ordinary memory, so
             * two equally wrong halves cannot pass. */
            rig_random_pose(r, 700 + (uint64_t)(i - IN_FLIGHT));
            float *ref = malloc((size_t)bytes);
            skin_output o = {.layout = SKIN_LAYOUT_STRIDED,
                             .position = ref, .position_stride = l.stride,
                             .normal = ref + 3, .normal_stride = l.stride,
                             .tangent = ref + 6, .tangent_stride = l.stride};
            double ref_err = 0;
            if (!ref || skin_mesh(&r->mesh, &r->palette, SKIN_LBS, &o, 0, n) != SKIN_OK) return 1;
            bad += compare(ref, base, n, l.stride / 4, &ref_err);
            free(ref);
            pending[f] = 0;
        }
        if (i >= FRAMES) continue;
        VKH_CHECK(vkResetFences(h->vk.device, 1, &fence[f]));
        rig_random_pose(r, 700 + (uint64_t)i);
        skin_vk_slot cpu, gpu_slot;
        VKH_CHECK(skin_vk_frame_alloc(ring, &fr, n, &l, &cpu));
        if (skin_vk_skin(&cpu, &r->mesh, &r->palette, SKIN_LBS, 0, n) != SKIN_OK) return 1;
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        VKH_CHECK(vkBeginCommandBuffer(cmd[f], &bi));
        skin_vk_gpu_call call = {SKIN_LBS, &r->palette, SKIN_VK_NORMAL | SKIN_VK_TANGENT,
                                 SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 0, n};
        VKH_CHECK(skin_vk_gpu_skin(gm, ring, &fr, cmd[f], &call, &gpu_slot));
        VKH_CHECK(skin_vk_stream_commit(ring, &fr, cmd[f], fence[f]));
        VkBufferCopy copies[2] = {{cpu.offset, 2 * bytes * f, bytes},
                                  {gpu_slot.offset, 2 * bytes * f + bytes, bytes}};
        vkCmdCopyBuffer(cmd[f], fr.buffer, rb.buffer, 2, copies);
        vkh_readback_barrier(cmd[f], &rb, 2 * bytes * f, 2 * bytes);
        VKH_CHECK(vkEndCommandBuffer(cmd[f]));
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .commandBufferCount = 1,
                           .pCommandBuffers = &cmd[f]};
        VKH_CHECK(vkQueueSubmit(h->vk.queue, 1, &si, fence[f]));
        pending[f] = 1;
    }
    vkDeviceWaitIdle(h->vk.device);
    printf("mode %s: %d frames, GPU vs CPU largest relative error %.3g%s\n",
           skin_vk_memory_mode_name(skin_vk_stream_mode(ring)), FRAMES, max_err,
           bad ? " FAIL" : "");
    for (int f = 0; f < IN_FLIGHT; ++f) vkDestroyFence(h->vk.device, fence[f], NULL);
    vkFreeCommandBuffers(h->vk.device, h->pool, IN_FLIGHT, cmd);
    vkh_buffer_destroy(h, &rb);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    return bad != 0;
}

/* Three instances of one mesh in one frame, each with its own pose, in one
 * command buffer: each call must take its own palette (the bug this guards
 * against rewrote one palette and a bound descriptor set, so every instance
 * but the last read wrong data).  A fourth call finds the region full. */
#define INSTANCES 3
static int instances(vkh *h, rig *r, uint32_t flags)
{
    skin_vk_vertex_layout l;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &l);
    size_t n = r->mesh.vertex_count;
    VkDeviceSize bytes = (VkDeviceSize)n * l.stride, pal = r->palette.joint_count * 48u;
    /* Room for exactly INSTANCES slots and palettes (each rounded up to the
     * alignment, at most 256 here), not for one more. */
    skin_vk_stream_create_info ci = {
        .physical_device = h->vk.phys, .device = h->vk.device, .queue_family_index = h->vk.family,
        .region_size = INSTANCES * (bytes + pal + 2 * 256), .region_count = 1, .flags = flags,
        .staging_dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
        .staging_dst_access = VK_ACCESS_TRANSFER_READ_BIT};
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device,
                                  .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
                                  .dst_access = VK_ACCESS_TRANSFER_READ_BIT};
    skin_vk_stream *ring = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    if (skin_vk_stream_alignment(ring) > 256) {
        fprintf(stderr, "alignment %llu > 256: resize the test's region\n",
                (unsigned long long)skin_vk_stream_alignment(ring));
        return 1;
    }
    VKH_CHECK(skin_vk_gpu_create(&gi, &gpu));
    VKH_CHECK(skin_vk_gpu_mesh_create(gpu, &r->mesh, r->palette.joint_count, &gm));
    vkh_buffer rb;
    VKH_CHECK(vkh_readback_create(h, bytes * INSTANCES, &rb));

    skin_vk_frame fr;
    VKH_CHECK(skin_vk_stream_acquire(ring, UINT64_MAX, &fr));
    VkCommandBuffer cmd;
    VkFence fence;
    VKH_CHECK(vkh_once_begin(h, &cmd, &fence));
    int bad = 0;
    skin_vk_slot slot[INSTANCES + 1];
    VkBufferCopy copies[INSTANCES];
    skin_vk_gpu_call call = {SKIN_LBS, &r->palette, SKIN_VK_NORMAL | SKIN_VK_TANGENT,
                             SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 0, n};
    for (int i = 0; i < INSTANCES; ++i) {
        rig_random_pose(r, 900 + (uint64_t)i);
        VKH_CHECK(skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot[i]));
        copies[i] = (VkBufferCopy){slot[i].offset, bytes * (VkDeviceSize)i, bytes};
    }
    if (skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot[INSTANCES]) !=
        VK_ERROR_OUT_OF_POOL_MEMORY) {
        fprintf(stderr, "a fourth instance fit in a region sized for three\n");
        ++bad;
    }
    VKH_CHECK(skin_vk_stream_commit(ring, &fr, cmd, fence));
    vkCmdCopyBuffer(cmd, fr.buffer, rb.buffer, INSTANCES, copies);
    vkh_readback_barrier(cmd, &rb, 0, VK_WHOLE_SIZE);
    VKH_CHECK(vkh_once_submit(h, cmd, fence));
    vkh_readback_invalidate(h, &rb);

    float *ref = malloc((size_t)bytes);
    if (!ref) return 1;
    double max_err = 0;
    for (int i = 0; i < INSTANCES; ++i) {
        rig_random_pose(r, 900 + (uint64_t)i);
        skin_output o = {.layout = SKIN_LAYOUT_STRIDED,
                         .position = ref, .position_stride = l.stride,
                         .normal = ref + 3, .normal_stride = l.stride,
                         .tangent = ref + 6, .tangent_stride = l.stride};
        if (skin_mesh(&r->mesh, &r->palette, SKIN_LBS, &o, 0, n) != SKIN_OK) return 1;
        const float *got = (const float *)((const char *)rb.mapped + bytes * (VkDeviceSize)i);
        int e = compare(ref, got, n, l.stride / 4, &max_err);
        if (e) fprintf(stderr, "instance %d: %d wrong floats\n", i, e);
        bad += e;
    }
    free(ref);
    printf("mode %s: %d instances in one frame, GPU vs CPU largest relative error %.3g%s\n",
           skin_vk_memory_mode_name(skin_vk_stream_mode(ring)), INSTANCES, max_err,
           bad ? " FAIL" : "");
    vkh_buffer_destroy(h, &rb);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    return bad != 0;
}

/* The ring's fallback under an artificially small BAR heap (the
 * SKIN_VK_TEST_BAR_HEAP hook): a ring that needs more than half of it must
 * not take mapped device-local memory, and the GPU and CPU paths must still
 * agree through whatever it chose (host memory, or staging on lavapipe,
 * whose only memory type is device-local). */
static int fallback(vkh *h, rig *r)
{
    int bad = 0;
    skin_vk_stream_create_info ci = {.physical_device = h->vk.phys, .device = h->vk.device,
                                     .queue_family_index = h->vk.family,
                                     .region_size = 1 << 20};
    skin_vk_stream *ring = NULL;
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    skin_vk_memory_mode normal = skin_vk_stream_mode(ring);
    skin_vk_stream_destroy(ring);
    setenv("SKIN_VK_TEST_BAR_HEAP", "65536", 1);
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    skin_vk_memory_mode small = skin_vk_stream_mode(ring);
    skin_vk_stream_destroy(ring);
    printf("ring of 2 MiB: mode %s; with a 64 KiB BAR heap: mode %s\n",
           skin_vk_memory_mode_name(normal), skin_vk_memory_mode_name(small));
    if (small == SKIN_VK_MEMORY_DEVICE_LOCAL) {
        fprintf(stderr, "the ring took mapped device-local memory from a too-small heap\n");
        ++bad;
    }
    bad += run(h, r, 0); /* the whole GPU-vs-CPU frame loop through the fallback */
    unsetenv("SKIN_VK_TEST_BAR_HEAP");
    /* A family the device does not have. */
    ci.queue_family_index = 1000;
    if (skin_vk_stream_create(&ci, &ring) != VK_ERROR_VALIDATION_FAILED_EXT || ring) ++bad;
    return bad;
}

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_gpu");
    if (rc) return rc;
    rig r;
    rig_options o = {3001, 90, 4, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16, 0, 11};
    if (rig_random(&r, &o)) {
        vkh_finish(&h);
        return 1;
    }
    int failed = run(&h, &r, 0) + run(&h, &r, SKIN_VK_FORCE_STAGING) +
                 instances(&h, &r, 0) + instances(&h, &r, SKIN_VK_FORCE_STAGING) +
                 fallback(&h, &r);

    /* Bad arguments. */
    skin_vk_gpu_create_info gi = {.physical_device = h.vk.phys, .device = h.vk.device,
                                  .get_instance_proc_addr = vkGetInstanceProcAddr};
    skin_vk_gpu *gpu = NULL;
    if (skin_vk_gpu_create(&gi, &gpu) != VK_ERROR_VALIDATION_FAILED_EXT || gpu) ++failed;
    gi.instance = h.vk.instance; /* the loader-table path */
    skin_vk_gpu_mesh *gm = NULL;
    if (skin_vk_gpu_create(NULL, &gpu) != VK_ERROR_VALIDATION_FAILED_EXT) ++failed;
    gi.flags = 1u << 5;
    if (skin_vk_gpu_create(&gi, &gpu) != VK_ERROR_VALIDATION_FAILED_EXT || gpu) ++failed;
    gi.flags = 0;
    gi.dst_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT; /* without its access */
    if (skin_vk_gpu_create(&gi, &gpu) != VK_ERROR_VALIDATION_FAILED_EXT || gpu) ++failed;
    gi.dst_stage = 0, gi.dst_access = VK_ACCESS_SHADER_READ_BIT; /* without its stage */
    if (skin_vk_gpu_create(&gi, &gpu) != VK_ERROR_VALIDATION_FAILED_EXT || gpu) ++failed;
    gi.dst_access = 0;
    if (skin_vk_gpu_create(&gi, &gpu) != VK_SUCCESS) ++failed;
    skin_mesh_desc broken = r.mesh;
    broken.influence_count = 9;
    if (skin_vk_gpu_mesh_create(gpu, &broken, 90, &gm) != VK_ERROR_VALIDATION_FAILED_EXT || gm)
        ++failed;
    if (skin_vk_gpu_mesh_create(gpu, &r.mesh, 0, &gm) != VK_ERROR_VALIDATION_FAILED_EXT || gm)
        ++failed;
    /* palettes skin_mesh refuses (no call could use the mesh), no vertices */
    if (skin_vk_gpu_mesh_create(gpu, &r.mesh, SKIN_MAX_JOINTS + 1, &gm) != VK_ERROR_VALIDATION_FAILED_EXT ||
        gm)
        ++failed;
    skin_mesh_desc empty = r.mesh;
    empty.vertex_count = 0;
    if (skin_vk_gpu_mesh_create(gpu, &empty, 90, &gm) != VK_ERROR_VALIDATION_FAILED_EXT || gm)
        ++failed;
    skin_vk_gpu_destroy(gpu);
    skin_vk_gpu_destroy(NULL);
    skin_vk_gpu_mesh_destroy(NULL);
    rig_free(&r);
    int messages = vkh_finish(&h);
    printf("test_vk_gpu: %d failure(s), %d validation message(s)\n", failed, messages);
    return failed || messages ? 1 : 0;
}
