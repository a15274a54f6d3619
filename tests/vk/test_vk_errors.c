/* Error paths of the stream ring: every misuse returns a clear status, and
 * nothing leaks (the validation layer reports leaked objects when the device
 * is destroyed, which fails the test). */
#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <stdint.h>
#include <stdio.h>


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
    skin_vk_stream_destroy(NULL);
    VKH_EXPECT(skin_vk_stream_mode(NULL) == 0 && skin_vk_stream_region_count(NULL) == 0);

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

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_errors");
    if (rc) return rc;
    bad_arguments(&h);
    out_of_memory(&h);
    ring_misuse(&h);
    int messages = vkh_finish(&h);
    printf("test_vk_errors: %d failed check(s), %d validation message(s)\n", vkh_failures, messages);
    return vkh_failures || messages ? 1 : 0;
}
