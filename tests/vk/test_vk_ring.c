/* SPDX-License-Identifier: MIT */
/* Stream ring end to end on a real device: 10 frames, 2 in flight, a new
 * palette per frame, two meshes per region; the GPU copies each region into
 * a readback buffer and the result must match skin_mesh into ordinary memory.
 * Every memory mode (direct, forced non-coherent, forced staging) times every
 * packing (float, A2B10G10R10 snorm, snorm16). */
#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAMES 10
#define IN_FLIGHT 2

typedef struct mesh_case {
    rig r;
    skin_method method;
    uint64_t seed_base;
} mesh_case;

/* Decodes one attribute of a packed vertex into 4 floats. */
static void decode(skin_vk_packing p, const unsigned char *src, float out[4])
{
    if (p == SKIN_VK_PACK_FLOAT) {
        memcpy(out, src, 16);
    } else if (p == SKIN_VK_PACK_1010102) {
        uint32_t w;
        memcpy(&w, src, 4);
        for (int c = 0; c < 3; ++c) {
            int v = (int)(w >> (10 * c) & 0x3ffu);
            if (v >= 512) v -= 1024;
            out[c] = fmaxf((float)v / 511.0f, -1.0f);
        }
        int a = (int)(w >> 30);
        out[3] = (float)(a >= 2 ? a - 4 : a);
        if (out[3] < -1.0f) out[3] = -1.0f;
    } else {
        int16_t v[4];
        memcpy(v, src, 8);
        for (int c = 0; c < 4; ++c) out[c] = fmaxf((float)v[c] / 32767.0f, -1.0f);
    }
}

static float clampf(float f) { return f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f; }

/* Compares one mesh's slot contents (as read back) with the CPU result for
 * the same pose.  Returns the number of mismatches; *max_err grows. */
static int verify(mesh_case *m, uint64_t seed, const skin_vk_vertex_layout *l,
                  const unsigned char *got, double *max_err)
{
    rig_random_pose(&m->r, seed);
    size_t n = m->r.mesh.vertex_count;
    float *ref = malloc(n * 40);
    if (!ref) return 1;
    skin_output o = {.layout = SKIN_LAYOUT_STRIDED,
                     .position = ref, .position_stride = 40,
                     .normal = ref + 3, .normal_stride = 40,
                     .tangent = ref + 6, .tangent_stride = 40};
    int bad = 0;
    if (skin_mesh(&m->r.mesh, &m->r.palette, m->method, &o, 0, n) != SKIN_OK) bad = 1;
    double qn = l->packing == SKIN_VK_PACK_FLOAT     ? 0.0
                : l->packing == SKIN_VK_PACK_1010102 ? 0.5 / 511.0
                                                     : 0.5 / 32767.0;
    for (size_t v = 0; v < n && bad < 10; ++v) {
        const float *e = ref + 10 * v;
        const unsigned char *g = got + v * l->stride;
        float pos[3], nrm[4], tan[4];
        memcpy(pos, g, 12);
        decode(l->packing, g + l->normal_offset, nrm);
        decode(l->packing, g + l->tangent_offset, tan);
        double err = 0;
        for (int c = 0; c < 3; ++c) {
            double tol_p = 1e-5 * fmax(1.0, fabs(e[c]));
            double ep = fabs(pos[c] - e[c]);
            double en = fabs(nrm[c] - (qn ? clampf(e[3 + c]) : e[3 + c]));
            double et = fabs(tan[c] - (qn ? clampf(e[6 + c]) : e[6 + c]));
            if (ep > tol_p || en > qn + 1e-5 || et > qn + 1e-5) err = 1e9;
            err = fmax(err, fmax(ep, fmax(en, et)));
        }
        if (qn && nrm[3] != 0.0f) err = 1e9;
        if (tan[3] != e[9]) err = 1e9;
        if (err > *max_err) *max_err = err;
        if (err >= 1e9) {
            fprintf(stderr, "  vertex %zu differs: pos %g %g %g vs %g %g %g, tw %g vs %g\n", v,
                    pos[0], pos[1], pos[2], e[0], e[1], e[2], tan[3], e[9]);
            ++bad;
        }
    }
    free(ref);
    return bad;
}

static int submit(vkh *h, VkCommandBuffer cmd, VkFence fence)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &cmd};
    VKH_CHECK(vkQueueSubmit(h->vk.queue, 1, &si, fence));
    return 0;
}

typedef struct in_flight {
    int pending;
    uint64_t frame;
    VkDeviceSize slot_offset[2]; /* in the readback region */
} in_flight;

static int run_case(vkh *h, mesh_case *meshes, uint32_t flags, skin_vk_packing packing,
                    VkBufferUsageFlags extra_usage)
{
    skin_vk_vertex_layout layout;
    if (skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, packing, &layout) != SKIN_OK)
        return 1;
    size_t n0 = meshes[0].r.mesh.vertex_count, n1 = meshes[1].r.mesh.vertex_count;
    skin_vk_stream_create_info ci = {
        .physical_device = h->vk.phys,
        .device = h->vk.device,
        .queue_family_index = h->vk.family,
        .region_size = (n0 + n1) * layout.stride + 256,
        .region_count = IN_FLIGHT,
        .flags = flags,
        .extra_usage = extra_usage,
        .staging_dst_stage = VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        .staging_dst_access = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT};
    skin_vk_stream *ring = NULL;
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    skin_vk_memory_mode mode = skin_vk_stream_mode(ring);
    VkDeviceSize region = skin_vk_stream_region_size(ring);
    printf("case flags=%u packing=%d extra usage 0x%x: mode %s, flushes %u, region %llu B, alignment %llu\n",
           flags, (int)packing, (unsigned)extra_usage, skin_vk_memory_mode_name(mode), skin_vk_stream_flushes(ring),
           (unsigned long long)region, (unsigned long long)skin_vk_stream_alignment(ring));
    int fail = 0;
    if ((flags & SKIN_VK_FORCE_STAGING) && mode != SKIN_VK_MEMORY_STAGING) fail = 1;
    if (!(flags & SKIN_VK_FORCE_STAGING) && mode == SKIN_VK_MEMORY_STAGING) fail = 1;
    if ((flags & SKIN_VK_FORCE_NONCOHERENT) && !skin_vk_stream_flushes(ring)) fail = 1;
    if (flags == SKIN_VK_FORCE_NONCOHERENT && mode != SKIN_VK_MEMORY_HOST_NONCOHERENT) fail = 1;
    if (fail) fprintf(stderr, "  unexpected mode\n");

    vkh_buffer rb;
    VkCommandBuffer cmd[IN_FLIGHT] = {0};
    VkFence fence[IN_FLIGHT] = {0};
    VKH_CHECK(vkh_readback_create(h, region * IN_FLIGHT, &rb));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = h->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = IN_FLIGHT};
    VKH_CHECK(vkAllocateCommandBuffers(h->vk.device, &cai, cmd));
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    for (int f = 0; f < IN_FLIGHT; ++f) VKH_CHECK(vkCreateFence(h->vk.device, &fi, NULL, &fence[f]));

    in_flight fl[IN_FLIGHT] = {{0}};
    double max_err = 0;
    for (uint64_t i = 0; i < FRAMES + IN_FLIGHT && !fail; ++i) {
        int f = (int)(i % IN_FLIGHT);
        if (i >= FRAMES) { /* drain: wait for the last frames and check them */
            if (fl[f].pending)
                VKH_CHECK(vkWaitForFences(h->vk.device, 1, &fence[f], VK_TRUE, UINT64_MAX));
        } else {
            skin_vk_frame fr;
            VKH_CHECK(skin_vk_stream_acquire(ring, UINT64_MAX, &fr)); /* waits on fence[f] */
            if (fr.region != (uint32_t)f) fail = 1;
            if ((extra_usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) && i == 0) {
                const VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                                      .buffer = fr.buffer};
                if (vkGetBufferDeviceAddress(h->vk.device, &ai) == 0) fail = 1;
            }
            if (fl[f].pending) { /* the frame that used this region before is done */
                vkh_readback_invalidate(h, &rb);
                for (int m = 0; m < 2; ++m)
                    fail += verify(&meshes[m], meshes[m].seed_base + fl[f].frame, &layout,
                                   (unsigned char *)rb.mapped + fl[f].slot_offset[m], &max_err);
                fl[f].pending = 0;
            }
            VKH_CHECK(vkResetFences(h->vk.device, 1, &fence[f]));
            skin_vk_slot slot[2];
            for (int m = 0; m < 2; ++m) {
                mesh_case *mc = &meshes[m];
                rig_random_pose(&mc->r, mc->seed_base + i);
                size_t n = mc->r.mesh.vertex_count;
                VKH_CHECK(skin_vk_frame_alloc(ring, &fr, n, &layout, &slot[m]));
                if ((slot[m].offset - fr.offset) % skin_vk_stream_alignment(ring)) fail = 1;
                skin_status st;
                if (m == 0 && packing == SKIN_VK_PACK_FLOAT) {
                    st = skin_mesh_parallel(&mc->r.mesh, &mc->r.palette, mc->method,
                                            &slot[m].output, 2);
                } else { /* two ranges, split off a block boundary */
                    st = skin_vk_skin(&slot[m], &mc->r.mesh, &mc->r.palette, mc->method, 0, n / 3);
                    if (st == SKIN_OK)
                        st = skin_vk_skin(&slot[m], &mc->r.mesh, &mc->r.palette, mc->method,
                                          n / 3, n - n / 3);
                }
                if (st != SKIN_OK) {
                    fprintf(stderr, "  skinning failed: %s\n", skin_status_string(st));
                    fail = 1;
                }
            }
            VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                           .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
            VKH_CHECK(vkBeginCommandBuffer(cmd[f], &bi));
            VKH_CHECK(skin_vk_stream_commit(ring, &fr, cmd[f], fence[f]));
            /* Copy both slots (and the gap between them) to the readback. */
            VkDeviceSize start = slot[0].offset;
            VkDeviceSize end = slot[1].offset + n1 * layout.stride;
            VkBufferCopy copy = {start, (VkDeviceSize)f * region, end - start};
            vkCmdCopyBuffer(cmd[f], fr.buffer, rb.buffer, 1, &copy);
            vkh_readback_barrier(cmd[f], &rb, copy.dstOffset, copy.size);
            VKH_CHECK(vkEndCommandBuffer(cmd[f]));
            if (submit(h, cmd[f], fence[f])) return 1;
            fl[f].pending = 1;
            fl[f].frame = i;
            fl[f].slot_offset[0] = copy.dstOffset;
            fl[f].slot_offset[1] = copy.dstOffset + (slot[1].offset - start);
            continue;
        }
        if (fl[f].pending) {
            vkh_readback_invalidate(h, &rb);
            for (int m = 0; m < 2; ++m)
                fail += verify(&meshes[m], meshes[m].seed_base + fl[f].frame, &layout,
                               (unsigned char *)rb.mapped + fl[f].slot_offset[m], &max_err);
            fl[f].pending = 0;
        }
    }
    vkDeviceWaitIdle(h->vk.device);
    printf("  %d frames checked, largest error %.3g%s\n", FRAMES, max_err, fail ? " FAIL" : "");
    for (int f = 0; f < IN_FLIGHT; ++f) vkDestroyFence(h->vk.device, fence[f], NULL);
    vkFreeCommandBuffers(h->vk.device, h->pool, IN_FLIGHT, cmd);
    vkh_buffer_destroy(h, &rb);
    skin_vk_stream_destroy(ring);
    return fail != 0;
}

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_ring");
    if (rc) return rc;
    mesh_case meshes[2] = {{.method = SKIN_LBS, .seed_base = 100},
                           {.method = SKIN_DQS, .seed_base = 5000}};
    rig_options o0 = {1000, 40, 4, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 1};
    rig_options o1 = {77, 300, 3, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16, 0, 2};
    if (rig_random(&meshes[0].r, &o0) || rig_random(&meshes[1].r, &o1)) {
        vkh_finish(&h);
        return 1;
    }
    const uint32_t modes[3] = {0, SKIN_VK_FORCE_NONCOHERENT, SKIN_VK_FORCE_STAGING};
    const skin_vk_packing packs[3] = {SKIN_VK_PACK_FLOAT, SKIN_VK_PACK_1010102,
                                      SKIN_VK_PACK_SNORM16};
    int failed = 0;
    for (int p = 0; p < 3; ++p)
        for (int m = 0; m < 3; ++m) failed += run_case(&h, meshes, modes[m], packs[p], 0);
    /* A ring the GPU reads by address (an acceleration structure build's
     * input): its memory must be allocated with an address too. */
    if (h.vk.device_address)
        for (int m = 0; m < 3; m += 2)
            failed += run_case(&h, meshes, modes[m], SKIN_VK_PACK_FLOAT,
                               VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    else
        printf("no bufferDeviceAddress: the device-address cases are not run\n");
    rig_free(&meshes[0].r);
    rig_free(&meshes[1].r);
    int messages = vkh_finish(&h);
    printf("test_vk_ring: %d case(s) failed, %d validation message(s)\n", failed, messages);
    return failed || messages ? 1 : 0;
}
