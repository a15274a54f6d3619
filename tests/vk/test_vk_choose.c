/* SPDX-License-Identifier: MIT */
/* skin_vk_choose_path: the check-only answer (device type, GPU path
 * supported or why not), a measured answer with figures on both paths, and
 * bad arguments.  On lavapipe the device must be reported as CPU-type. */
#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <stdio.h>


static const char *path_name(skin_vk_path p) { return p == SKIN_VK_PATH_GPU ? "GPU" : "CPU"; }

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_choose");
    if (rc) return rc;
    rig r;
    rig_options o = {10000, 64, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 77};
    if (rig_random(&r, &o)) return 1;
    skin_vk_path_query q = {.physical_device = h.vk.phys, .device = h.vk.device,
                            .queue_family_index = h.vk.family, .queue = h.vk.queue,
                            .mesh = &r.mesh, .palette = &r.palette, .method = SKIN_LBS,
                            .attributes = SKIN_VK_NORMAL | SKIN_VK_TANGENT};
    skin_vk_path_report rep;
    int cpu_type = h.vk.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;

    /* Check only. */
    VKH_EXPECT(skin_vk_choose_path(&q, &rep) == VK_SUCCESS);
    VKH_EXPECT(rep.gpu_supported && !rep.gpu_reason && !rep.measured);
    VKH_EXPECT(rep.cpu_type_device == (VkBool32)cpu_type);
    VKH_EXPECT(rep.recommended == (cpu_type ? SKIN_VK_PATH_CPU : SKIN_VK_PATH_GPU));
    printf("%s (%s device): GPU path supported, unmeasured choice %s\n", rep.device_name,
           rep.cpu_type_device ? "CPU-type" : "GPU", path_name(rep.recommended));

    /* Too many vertices for one dispatch row: not supported, with a reason
     * (check-only reads no vertex data). */
    skin_mesh_desc huge = r.mesh;
    huge.vertex_count = (size_t)h.vk.props.limits.maxComputeWorkGroupCount[0] * 64 + 1;
    q.mesh = &huge;
    VKH_EXPECT(skin_vk_choose_path(&q, &rep) == VK_SUCCESS);
    VKH_EXPECT(!rep.gpu_supported && rep.gpu_reason && rep.recommended == SKIN_VK_PATH_CPU);
    printf("%zu vertices: GPU path %s (%s)\n", huge.vertex_count,
           rep.gpu_supported ? "supported" : "not supported", rep.gpu_reason ? rep.gpu_reason : "");
    /* No vertices (skin_mesh accepts the mesh, the GPU path refuses it): not
     * supported, and nothing measured either. */
    skin_mesh_desc empty = r.mesh;
    empty.vertex_count = 0;
    q.mesh = &empty;
    for (uint32_t frames = 0; frames < 2; ++frames) {
        q.frames = frames;
        VKH_EXPECT(skin_vk_choose_path(&q, &rep) == VK_SUCCESS);
        VKH_EXPECT(!rep.gpu_supported && rep.gpu_reason && !rep.measured &&
                   rep.recommended == SKIN_VK_PATH_CPU);
    }
    q.frames = 0;
    q.mesh = &r.mesh;

    /* Measured, both methods. */
    for (int m = 0; m < 2; ++m) {
        q.method = m ? SKIN_DQS : SKIN_LBS;
        q.frames = 5;
        q.warmup = 1;
        VKH_EXPECT(skin_vk_choose_path(&q, &rep) == VK_SUCCESS);
        VKH_EXPECT(rep.measured && rep.frames == 5 && rep.cpu_ns_per_frame > 0 &&
               rep.gpu_ns_per_frame > 0 && rep.gpu_submit_ns_per_frame > 0);
        VKH_EXPECT(rep.recommended == (rep.gpu_ns_per_frame < rep.cpu_ns_per_frame ? SKIN_VK_PATH_GPU
                                                                                : SKIN_VK_PATH_CPU));
        printf("%s, 10k vertices p+n+t: CPU %.0f ns/frame, GPU %.0f ns/frame (%s), ring %s: "
               "recommends %s\n",
               m ? "DQS" : "LBS", rep.cpu_ns_per_frame, rep.gpu_ns_per_frame,
               rep.gpu_timestamps ? "timestamps" : "submit to fence",
               skin_vk_memory_mode_name(rep.ring_mode), path_name(rep.recommended));
    }

    /* Bad arguments. */
    VKH_EXPECT(skin_vk_choose_path(NULL, &rep) == VK_ERROR_VALIDATION_FAILED_EXT);
    VKH_EXPECT(skin_vk_choose_path(&q, NULL) == VK_ERROR_VALIDATION_FAILED_EXT);
    skin_vk_path_query bad = q;
    bad.queue = VK_NULL_HANDLE; /* frames > 0 needs a queue */
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_ERROR_VALIDATION_FAILED_EXT);
    bad = q; /* 2 (warmup + frames) past 32 bits: refused before any frame */
    bad.warmup = UINT32_MAX - 1;
    bad.frames = 3;
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_ERROR_VALIDATION_FAILED_EXT && !rep.measured);
    bad.warmup = UINT32_MAX / 2; /* the largest accepted sum (check-only: never run) */
    bad.frames = 0;
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_SUCCESS);
    bad = q;
    bad.method = (skin_method)7;
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_ERROR_VALIDATION_FAILED_EXT);
    bad = q;
    bad.palette = NULL;
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_ERROR_VALIDATION_FAILED_EXT);
    bad = q;
    bad.attributes = 4; /* no such attribute bit */
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_ERROR_VALIDATION_FAILED_EXT);
    skin_mesh_desc refused = r.mesh; /* a mesh skin_mesh refuses */
    refused.influence_count = 0;
    bad = q;
    bad.mesh = &refused;
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_ERROR_VALIDATION_FAILED_EXT);
    bad = q;
    bad.frames = 0;
    bad.queue_family_index = 1000;
    VKH_EXPECT(skin_vk_choose_path(&bad, &rep) == VK_SUCCESS && !rep.gpu_supported && rep.gpu_reason);

    rig_free(&r);
    int messages = vkh_finish(&h);
    printf("test_vk_choose: %d failure(s), %d validation message(s)\n", vkh_failures, messages);
    return vkh_failures || messages ? 1 : 0;
}
