/* SPDX-License-Identifier: MIT */
/* Error paths of the stream ring: every misuse returns a clear status, and
 * nothing leaks (the validation layer reports leaked objects when the device
 * is destroyed, which fails the test). */
#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static skin_vk_stream_create_info base_info(vkh *h, VkDeviceSize size, uint32_t flags)
{
    return (skin_vk_stream_create_info){.physical_device = h->vk.phys,
                                        .device = h->vk.device,
                                        .queue_family_index = h->vk.family,
                                        .region_size = size,
                                        .flags = flags};
}

static void bad_arguments(vkh *h)
{
    skin_vk_stream *s = (skin_vk_stream *)(uintptr_t)1;
    skin_vk_stream_create_info ci = base_info(h, 4096, 0);
    VKH_EXPECT(skin_vk_stream_create(NULL, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    VKH_EXPECT(skin_vk_stream_create(&ci, NULL) == VK_ERROR_VALIDATION_FAILED_EXT);
    ci.region_size = 0;
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    ci = base_info(h, 4096, 1u << 7);
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    ci = base_info(h, 4096, 0);
    ci.region_count = 17;
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    ci = base_info(h, 4096, 0);
    ci.device = VK_NULL_HANDLE;
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    ci = base_info(h, 4096, 0);
    ci.get_instance_proc_addr = vkGetInstanceProcAddr; /* but no instance */
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    ci = base_info(h, 4096, SKIN_VK_FORCE_STAGING); /* a stage without its access, and the reverse */
    ci.staging_dst_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    ci.staging_dst_stage = 0, ci.staging_dst_access = VK_ACCESS_SHADER_READ_BIT;
    VKH_EXPECT(skin_vk_stream_create(&ci, &s) == VK_ERROR_VALIDATION_FAILED_EXT && !s);
    skin_vk_stream_destroy(NULL);
    VKH_EXPECT(skin_vk_stream_mode(NULL) == 0 && skin_vk_stream_region_count(NULL) == 0 &&
               skin_vk_stream_flushes(NULL) == VK_FALSE && skin_vk_stream_region_size(NULL) == 0 &&
               skin_vk_stream_alignment(NULL) == 0);
    VKH_EXPECT(strcmp(skin_vk_memory_mode_name((skin_vk_memory_mode)99), "unknown") == 0);
    skin_vk_frame fr;
    VKH_EXPECT(skin_vk_stream_acquire(NULL, 0, &fr) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_stream_commit(NULL, &fr, VK_NULL_HANDLE, VK_NULL_HANDLE) ==
               VK_ERROR_VALIDATION_FAILED_EXT);
    ci = base_info(h, 4096, 0);
    if (skin_vk_stream_create(&ci, &s) == VK_SUCCESS) {
        skin_vk_vertex_layout fl;
        skin_vk_slot slot;
        skin_vk_vertex_layout_init(0, SKIN_VK_PACK_FLOAT, &fl);
        VKH_EXPECT(skin_vk_stream_acquire(s, 0, NULL) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_stream_acquire(s, 0, &fr) == VK_SUCCESS);
        VKH_EXPECT(skin_vk_frame_alloc(NULL, &fr, 1, &fl, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_frame_alloc(s, NULL, 1, &fl, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_frame_alloc(s, &fr, 1, NULL, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_frame_alloc(s, &fr, 1, &fl, NULL) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_stream_commit(s, NULL, VK_NULL_HANDLE, VK_NULL_HANDLE) ==
                   VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_stream_commit(s, &fr, VK_NULL_HANDLE, VK_NULL_HANDLE) == VK_SUCCESS);
        skin_vk_stream_destroy(s);
    } else {
        VKH_EXPECT(!"create");
    }

    skin_vk_vertex_layout l;
    VKH_EXPECT(skin_vk_vertex_layout_init(1u << 5, SKIN_VK_PACK_FLOAT, &l) == SKIN_ERROR_INVALID_FLAGS);
    VKH_EXPECT(skin_vk_vertex_layout_init(0, (skin_vk_packing)9, &l) == SKIN_ERROR_INVALID_FORMAT);
    VKH_EXPECT(skin_vk_vertex_layout_init(0, SKIN_VK_PACK_FLOAT, NULL) == SKIN_ERROR_NULL_ARGUMENT);
    VKH_EXPECT(skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_1010102, &l) ==
               SKIN_OK &&
           l.stride == 20 && l.normal_format == VK_FORMAT_A2B10G10R10_SNORM_PACK32);
    VKH_EXPECT(skin_vk_vertex_layout_init(SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &l) == SKIN_OK &&
           l.stride == 28 && l.tangent_offset == 12 && l.normal_format == VK_FORMAT_UNDEFINED);
}

/* Absurd sizes: a clear out-of-memory result, no stream, nothing leaked. */
static void out_of_memory(vkh *h)
{
    const uint32_t flags[3] = {0, SKIN_VK_FORCE_NONCOHERENT, SKIN_VK_FORCE_STAGING};
    const VkDeviceSize sizes[2] = {(VkDeviceSize)1 << 50, UINT64_MAX - 3};
    for (int f = 0; f < 3; ++f)
        for (int z = 0; z < 2; ++z) {
            skin_vk_stream *s = (skin_vk_stream *)(uintptr_t)1;
            skin_vk_stream_create_info ci = base_info(h, sizes[z], flags[f]);
            VkResult r = skin_vk_stream_create(&ci, &s);
            VKH_EXPECT(r == VK_ERROR_OUT_OF_DEVICE_MEMORY && s == NULL);
        }
}

static void ring_misuse(vkh *h)
{
    /* Region too small for the mesh. */
    skin_vk_stream_create_info ci = base_info(h, 1024, 0);
    skin_vk_stream *s = NULL;
    if (skin_vk_stream_create(&ci, &s) != VK_SUCCESS) {
        VKH_EXPECT(!"create");
        return;
    }
    VKH_EXPECT(skin_vk_stream_region_count(s) == 2 && skin_vk_stream_region_size(s) >= 1024);
    skin_vk_vertex_layout l;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &l);
    skin_vk_frame f[3] = {{0}};
    skin_vk_slot slot;
    VKH_EXPECT(skin_vk_frame_alloc(s, &f[0], 10, &l, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_stream_acquire(s, UINT64_MAX, &f[0]) == VK_SUCCESS);
    VKH_EXPECT(skin_vk_frame_alloc(s, &f[0], 1000, &l, &slot) == VK_ERROR_OUT_OF_POOL_MEMORY);
    VKH_EXPECT(skin_vk_frame_alloc(s, &f[0], SIZE_MAX, &l, &slot) == VK_ERROR_OUT_OF_POOL_MEMORY);
    VKH_EXPECT(skin_vk_frame_alloc(s, &f[0], 10, &l, &slot) == VK_SUCCESS && slot.mapped);
    skin_vk_vertex_layout bad = l;
    bad.stride = 4;
    VKH_EXPECT(skin_vk_frame_alloc(s, &f[0], 10, &bad, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);

    /* skin_vk_skin range and attribute checks, nothing written. */
    rig r;
    rig_options o = {10, 4, 2, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 3};
    if (rig_random(&r, &o) == 0) {
        VKH_EXPECT(skin_vk_skin(&slot, &r.mesh, &r.palette, SKIN_LBS, 5, 6) ==
               SKIN_ERROR_INVALID_RANGE);
        VKH_EXPECT(skin_vk_skin(NULL, &r.mesh, &r.palette, SKIN_LBS, 0, 1) == SKIN_ERROR_NULL_ARGUMENT);
        VKH_EXPECT(skin_vk_skin(&slot, NULL, &r.palette, SKIN_LBS, 0, 1) == SKIN_ERROR_NULL_ARGUMENT);
        VKH_EXPECT(skin_vk_skin(&slot, &r.mesh, &r.palette, SKIN_LBS, 11, 0) == SKIN_ERROR_INVALID_RANGE);
        skin_mesh_desc longer = r.mesh; /* not the slot's vertex count */
        longer.vertex_count = 9;
        VKH_EXPECT(skin_vk_skin(&slot, &longer, &r.palette, SKIN_LBS, 0, 1) == SKIN_ERROR_INVALID_RANGE);
        skin_vk_slot tampered = slot;
        tampered.mapped = NULL;
        VKH_EXPECT(skin_vk_skin(&tampered, &r.mesh, &r.palette, SKIN_LBS, 0, 1) == SKIN_ERROR_NULL_ARGUMENT);
        /* a layout no slot can have (unknown packing or attribute bits), or
         * the output switched to planar: changed after allocation */
        tampered = slot, tampered.layout.packing = (skin_vk_packing)7;
        VKH_EXPECT(skin_vk_skin(&tampered, &r.mesh, &r.palette, SKIN_LBS, 0, 10) == SKIN_ERROR_INVALID_STRIDE);
        tampered = slot, tampered.layout.attributes = 4;
        VKH_EXPECT(skin_vk_skin(&tampered, &r.mesh, &r.palette, SKIN_LBS, 0, 10) == SKIN_ERROR_INVALID_STRIDE);
        tampered = slot, tampered.output.layout = SKIN_LAYOUT_SOA;
        VKH_EXPECT(skin_vk_skin(&tampered, &r.mesh, &r.palette, SKIN_LBS, 0, 10) == SKIN_ERROR_INVALID_STRIDE);
        VKH_EXPECT(skin_vk_skin(&slot, &r.mesh, &r.palette, SKIN_LBS, 0, 10) == SKIN_OK);
        skin_vk_slot packed;
        skin_vk_vertex_layout pl;
        skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_SNORM16, &pl);
        VKH_EXPECT(skin_vk_frame_alloc(s, &f[0], 10, &pl, &packed) == VK_SUCCESS);
        /* packed slots take skin_mesh directly: the core packs */
        VKH_EXPECT(packed.output.vector_format == SKIN_VECTOR_SNORM16);
        VKH_EXPECT(skin_mesh(&r.mesh, &r.palette, SKIN_LBS, &packed.output, 0, 10) == SKIN_OK);
        skin_mesh_desc no_tangents = r.mesh;
        no_tangents.tx = no_tangents.ty = no_tangents.tz = no_tangents.tw = NULL;
        VKH_EXPECT(skin_vk_skin(&packed, &no_tangents, &r.palette, SKIN_LBS, 0, 10) ==
               SKIN_ERROR_MISSING_ATTRIBUTE);
        VKH_EXPECT(skin_vk_skin(&packed, &r.mesh, &r.palette, (skin_method)9, 0, 10) ==
               SKIN_ERROR_INVALID_METHOD);
        VKH_EXPECT(skin_vk_skin(&packed, &r.mesh, &r.palette, SKIN_DQS, 0, 10) == SKIN_OK);
        packed.layout.stride = 4096; /* a tampered slot must not write past the slot */
        VKH_EXPECT(skin_vk_skin(&packed, &r.mesh, &r.palette, SKIN_LBS, 0, 10) ==
               SKIN_ERROR_INVALID_STRIDE);
        /* nor another valid layout: wider records would run into the next slot */
        skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_FLOAT, &packed.layout);
        VKH_EXPECT(skin_vk_skin(&packed, &r.mesh, &r.palette, SKIN_LBS, 0, 10) ==
               SKIN_ERROR_INVALID_STRIDE);
        rig_free(&r);
    }

    /* More regions acquired than exist. */
    VKH_EXPECT(skin_vk_stream_acquire(s, UINT64_MAX, &f[1]) == VK_SUCCESS && f[1].region == 1);
    VKH_EXPECT(skin_vk_stream_acquire(s, UINT64_MAX, &f[2]) == VK_ERROR_TOO_MANY_OBJECTS);
    VKH_EXPECT(skin_vk_stream_commit(s, &f[0], VK_NULL_HANDLE, VK_NULL_HANDLE) == VK_SUCCESS);
    VKH_EXPECT(skin_vk_stream_commit(s, &f[0], VK_NULL_HANDLE, VK_NULL_HANDLE) ==
           VK_ERROR_VALIDATION_FAILED_EXT); /* already committed */
    VKH_EXPECT(skin_vk_stream_acquire(s, UINT64_MAX, &f[2]) == VK_SUCCESS && f[2].region == 0);

    /* A fence that never signals: acquire times out and changes nothing. */
    VkFence fence;
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (vkCreateFence(h->vk.device, &fi, NULL, &fence) == VK_SUCCESS) {
        VKH_EXPECT(skin_vk_stream_commit(s, &f[1], VK_NULL_HANDLE, fence) == VK_SUCCESS);
        VKH_EXPECT(skin_vk_stream_commit(s, &f[2], VK_NULL_HANDLE, VK_NULL_HANDLE) == VK_SUCCESS);
        VKH_EXPECT(skin_vk_stream_acquire(s, 1000, &f[0]) == VK_TIMEOUT);
        VKH_EXPECT(skin_vk_stream_acquire(s, 1000, &f[0]) == VK_TIMEOUT);
        vkDestroyFence(h->vk.device, fence, NULL);
    }
    skin_vk_stream_destroy(s);

    /* Staging needs a command buffer to record the copy into. */
    ci = base_info(h, 4096, SKIN_VK_FORCE_STAGING);
    ci.get_instance_proc_addr = vkGetInstanceProcAddr; /* the loader-table path */
    ci.instance = h->vk.instance;
    if (skin_vk_stream_create(&ci, &s) != VK_SUCCESS) {
        VKH_EXPECT(!"create staging");
        return;
    }
    VKH_EXPECT(skin_vk_stream_mode(s) == SKIN_VK_MEMORY_STAGING);
    VKH_EXPECT(skin_vk_stream_acquire(s, UINT64_MAX, &f[0]) == VK_SUCCESS);
    VKH_EXPECT(skin_vk_stream_commit(s, &f[0], VK_NULL_HANDLE, VK_NULL_HANDLE) ==
           VK_ERROR_VALIDATION_FAILED_EXT);
    skin_vk_stream_destroy(s);
}

/* skin_vk_gpu_skin: each documented bad argument, and a frame of another
 * ring or one already committed, gives VK_ERROR_VALIDATION_FAILED_EXT and
 * takes nothing from the frame (the good call afterwards gets the region's
 * last slot).  frame_alloc and commit refuse a frame of another ring too. */
static void gpu_misuse(vkh *h)
{
    rig r;
    rig_options o = {64, 6, 2, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM8, 1, 9};
    if (rig_random(&r, &o)) {
        VKH_EXPECT(!"rig");
        return;
    }
    skin_mesh_desc no_tangents = r.mesh;
    no_tangents.tx = no_tangents.ty = no_tangents.tz = no_tangents.tw = NULL;
    skin_vk_stream_create_info ci = base_info(h, 1 << 16, 0), oi = base_info(h, 1 << 17, 0);
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device};
    skin_vk_stream *s = NULL, *other = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    skin_vk_frame f[2], g[2];
    if (skin_vk_stream_create(&ci, &s) || skin_vk_stream_create(&oi, &other) ||
        skin_vk_gpu_create(&gi, &gpu) || skin_vk_gpu_mesh_create(gpu, &no_tangents, 6, &gm) ||
        vkh_once_begin(h, &cmd, &fence) || skin_vk_stream_acquire(s, UINT64_MAX, &f[0]) ||
        skin_vk_stream_acquire(s, UINT64_MAX, &f[1]) ||
        skin_vk_stream_acquire(other, UINT64_MAX, &g[0]) ||
        skin_vk_stream_acquire(other, UINT64_MAX, &g[1])) {
        VKH_EXPECT(!"set-up");
        goto done;
    }
    const skin_vk_gpu_call good = {SKIN_LBS, &r.palette, SKIN_VK_NORMAL, SKIN_VK_PACK_FLOAT,
                                   SKIN_LAYOUT_STRIDED, 0, 0, 64};
    skin_palette five = r.palette, no_matrices = r.palette, no_dqs = r.palette;
    five.joint_count = 5;
    no_matrices.matrices = NULL;
    no_dqs.dual_quats = NULL;
    skin_vk_gpu_call bad[16];
    int nb = 0;
#define BAD(field, value) (bad[nb] = good, bad[nb++].field = (value))
    BAD(palette, NULL);
    BAD(palette, &five);
    BAD(palette, &no_matrices);
    BAD(method, (skin_method)7);
    BAD(attributes, SKIN_VK_NORMAL | SKIN_VK_TANGENT); /* the mesh has no tangents */
    BAD(attributes, 1u << 4);
    BAD(packing, (skin_vk_packing)3);
    BAD(layout, (skin_layout)9);
    BAD(flags, SKIN_OUTPUT_ALL_FLAGS + 1);
    BAD(count, 0);
    BAD(first, 1);       /* 1 + 64 > 64 */
    BAD(first, SIZE_MAX); /* wraps */
    BAD(packing, SKIN_VK_PACK_SNORM16), bad[nb - 1].layout = SKIN_LAYOUT_SOA;
    BAD(palette, &no_dqs), bad[nb - 1].method = SKIN_DQS;
#undef BAD
    skin_vk_slot slot;
    for (int i = 0; i < nb; ++i)
        if (skin_vk_gpu_skin(gm, s, &f[0], cmd, &bad[i], &slot) != VK_ERROR_VALIDATION_FAILED_EXT) {
            fprintf(stderr, "bad GPU call %d accepted\n", i);
            ++vkh_failures;
        }
    VKH_EXPECT(skin_vk_gpu_skin(NULL, s, &f[0], cmd, &good, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_gpu_skin(gm, NULL, &f[0], cmd, &good, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_gpu_skin(gm, s, NULL, cmd, &good, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_gpu_skin(gm, s, &f[0], VK_NULL_HANDLE, &good, &slot) ==
               VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_gpu_skin(gm, s, &f[0], cmd, NULL, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_gpu_skin(gm, s, &f[0], cmd, &good, NULL) == VK_ERROR_VALIDATION_FAILED_EXT);
    skin_vk_gpu_mesh *none = (skin_vk_gpu_mesh *)(uintptr_t)1;
    VKH_EXPECT(skin_vk_gpu_mesh_create(NULL, &r.mesh, 6, &none) == VK_ERROR_VALIDATION_FAILED_EXT &&
               !none);
    VKH_EXPECT(skin_vk_gpu_mesh_create(gpu, NULL, 6, &none) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_gpu_mesh_create(gpu, &r.mesh, 6, NULL) == VK_ERROR_VALIDATION_FAILED_EXT);
    /* Frames of the other ring (same region indices, other buffer and
     * offsets) and a tampered frame. */
    skin_vk_vertex_layout l;
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL, SKIN_VK_PACK_FLOAT, &l);
    skin_vk_frame moved = f[1];
    moved.offset = 0;
    for (int i = 0; i < 2; ++i) {
        const skin_vk_frame *wrong = i ? &moved : &g[1];
        VKH_EXPECT(skin_vk_gpu_skin(gm, s, wrong, cmd, &good, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_frame_alloc(s, wrong, 64, &l, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
        VKH_EXPECT(skin_vk_stream_commit(s, wrong, cmd, VK_NULL_HANDLE) ==
                   VK_ERROR_VALIDATION_FAILED_EXT);
    }
    VkDeviceSize a = skin_vk_stream_alignment(s);
    VKH_EXPECT(skin_vk_gpu_skin(gm, s, &f[0], cmd, &good, &slot) == VK_SUCCESS &&
               slot.offset == f[0].offset + f[0].size - (64 * 24 + a - 1) / a * a);
    VKH_EXPECT(skin_vk_stream_commit(s, &f[0], cmd, VK_NULL_HANDLE) == VK_SUCCESS);
    /* A committed frame is not acquired any more. */
    VKH_EXPECT(skin_vk_gpu_skin(gm, s, &f[0], cmd, &good, &slot) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_stream_commit(s, &f[1], cmd, VK_NULL_HANDLE) == VK_SUCCESS);
    VKH_EXPECT(skin_vk_stream_commit(other, &g[0], cmd, VK_NULL_HANDLE) == VK_SUCCESS);
    VKH_EXPECT(skin_vk_stream_commit(other, &g[1], cmd, VK_NULL_HANDLE) == VK_SUCCESS);
done:
    if (cmd) VKH_EXPECT(vkh_once_submit(h, cmd, fence) == VK_SUCCESS);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(other);
    skin_vk_stream_destroy(s);
    rig_free(&r);
}

/* A device that cannot read A2B10G10R10_SNORM_PACK32 from vertex buffers
 * (faked through get_instance_proc_addr). */
static void VKAPI_PTR no_1010102(VkPhysicalDevice pd, VkFormat format, VkFormatProperties *p)
{
    vkGetPhysicalDeviceFormatProperties(pd, format, p);
    if (format == VK_FORMAT_A2B10G10R10_SNORM_PACK32) p->bufferFeatures &= ~VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT;
}
static PFN_vkVoidFunction VKAPI_PTR no_1010102_proc(VkInstance instance, const char *name)
{
    if (!strcmp(name, "vkGetPhysicalDeviceFormatProperties")) return (PFN_vkVoidFunction)no_1010102;
    return vkGetInstanceProcAddr(instance, name);
}

/* skin_vk_frame_alloc refuses a layout whose formats the device cannot read,
 * and only the formats the layout uses count. */
static void unreadable_formats(vkh *h)
{
    skin_vk_stream_create_info ci = base_info(h, 4096, 0);
    ci.get_instance_proc_addr = no_1010102_proc, ci.instance = h->vk.instance;
    skin_vk_stream *s = NULL;
    skin_vk_frame f;
    if (skin_vk_stream_create(&ci, &s) != VK_SUCCESS || skin_vk_stream_acquire(s, UINT64_MAX, &f) != VK_SUCCESS) {
        VKH_EXPECT(!"set-up");
        skin_vk_stream_destroy(s);
        return;
    }
    skin_vk_vertex_layout l;
    skin_vk_slot slot;
    skin_vk_vertex_layout_init(0, SKIN_VK_PACK_1010102, &l); /* positions only: floats */
    VKH_EXPECT(skin_vk_frame_alloc(s, &f, 10, &l, &slot) == VK_SUCCESS);
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL, SKIN_VK_PACK_1010102, &l);
    VKH_EXPECT(skin_vk_frame_alloc(s, &f, 10, &l, &slot) == VK_ERROR_FORMAT_NOT_SUPPORTED);
    skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_SNORM16, &l);
    VKH_EXPECT(skin_vk_frame_alloc(s, &f, 10, &l, &slot) == VK_SUCCESS);
    VKH_EXPECT(skin_vk_stream_commit(s, &f, VK_NULL_HANDLE, VK_NULL_HANDLE) == VK_SUCCESS);
    skin_vk_stream_destroy(s);
}

/* Meshes too large for the device: FEATURE_NOT_PRESENT from
 * skin_vk_gpu_mesh_create (past the shaders' 2^27 vertices too), and
 * skin_vk_choose_path counting only the streams a mesh has.  Nothing
 * reads the streams (the checks come first), so a small rig's serve. */
static void large_meshes(vkh *h)
{
    rig r;
    rig_options o = {64, 4, 1, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 9};
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device};
    skin_vk_gpu *gpu = NULL;
    if (rig_random(&r, &o) || skin_vk_gpu_create(&gi, &gpu) != VK_SUCCESS) {
        VKH_EXPECT(!"set-up");
        rig_free(&r);
        return;
    }
    skin_mesh_desc m = r.mesh;
    m.nx = m.ny = m.nz = m.tx = m.ty = m.tz = m.tw = NULL;
    skin_vk_gpu_mesh *gm = (skin_vk_gpu_mesh *)(uintptr_t)1;
    m.vertex_count = (size_t)UINT32_MAX / 32 + 1;
    VKH_EXPECT(skin_vk_gpu_mesh_create(gpu, &m, 4, &gm) == VK_ERROR_FEATURE_NOT_PRESENT && !gm);
    /* Positions only, one u8 joint and f32 weight: 17 bytes of streams a
     * vertex, within the device's maxStorageBufferRange; all ten planes,
     * 45, would not be. */
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(h->vk.phys, &props);
    const VkDeviceSize range = props.limits.maxStorageBufferRange;
    VkDeviceSize n = range / 17;
    if (n > 64 * (VkDeviceSize)props.limits.maxComputeWorkGroupCount[0])
        n = 64 * (VkDeviceSize)props.limits.maxComputeWorkGroupCount[0];
    if (n > UINT32_MAX / 32) n = UINT32_MAX / 32;
    if (45 * n > range) {
        m.vertex_count = (size_t)n;
        skin_vk_path_query q = {.physical_device = h->vk.phys, .device = h->vk.device,
                                .queue_family_index = h->vk.family, .mesh = &m, .palette = &r.palette,
                                .method = SKIN_LBS};
        skin_vk_path_report rep;
        VKH_EXPECT(skin_vk_choose_path(&q, &rep) == VK_SUCCESS && rep.gpu_supported);
    }
    skin_vk_gpu_destroy(gpu);
    rig_free(&r);
}

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_errors");
    if (rc) return rc;
    bad_arguments(&h);
    out_of_memory(&h);
    ring_misuse(&h);
    gpu_misuse(&h);
    unreadable_formats(&h);
    large_meshes(&h);
    int messages = vkh_finish(&h);
    printf("test_vk_errors: %d failed check(s), %d validation message(s)\n", vkh_failures, messages);
    return vkh_failures || messages ? 1 : 0;
}
