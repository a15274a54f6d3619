/* SPDX-License-Identifier: MIT */
/* GPU-vs-CPU call checks shared by test_vk_gpu_parity and test_vk_gpu_morph
 * (see gpu_check.h). */
#include "gpu_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpu_check_errs_merge(gpu_check_errs *total, const gpu_check_errs *e)
{
    total->pos = fmax(total->pos, e->pos);
    total->vec = fmax(total->vec, e->vec);
    if (e->packed_steps > total->packed_steps) total->packed_steps = e->packed_steps;
    total->bad += e->bad;
}

void gpu_check_decode(const uint8_t *p, skin_vk_packing packing, int tangent, float out[4])
{
    uint32_t w[2];
    memcpy(w, p, packing == SKIN_VK_PACK_SNORM16 ? 8 : 4);
    if (packing == SKIN_VK_PACK_FLOAT) {
        memcpy(out, p, tangent ? 16 : 12);
        if (!tangent) out[3] = 0;
    } else if (packing == SKIN_VK_PACK_1010102) {
        for (int c = 0; c < 3; ++c) {
            int32_t q = (int32_t)(w[0] >> (10 * c) & 0x3ffu);
            out[c] = (float)(q >= 512 ? q - 1024 : q);
        }
        int32_t q = (int32_t)(w[0] >> 30);
        out[3] = (float)(q >= 2 ? q - 4 : q);
    } else {
        for (int c = 0; c < 4; ++c) out[c] = (float)(int16_t)(w[c / 2] >> (16 * (c & 1)) & 0xffffu);
    }
}

void gpu_check_compare(const gpu_check_call *c, size_t n, const uint8_t *gpu, const uint8_t *cpu,
                       double extent, gpu_check_errs *e)
{
    skin_vk_vertex_layout l = c->slot.layout;
    size_t count = c->call.count;
    int soa = c->call.layout == SKIN_LAYOUT_SOA, nrm = (c->call.attributes & SKIN_VK_NORMAL) != 0;
    for (size_t i = 0; i < count; ++i) {
        size_t v = c->call.first + i;
        for (int a = 0; a < 3; ++a) { /* position, normal, tangent */
            if ((a == 1 && !nrm) || (a == 2 && !(c->call.attributes & SKIN_VK_TANGENT))) continue;
            float g[4], r[4];
            if (soa) { /* planes of float components */
                size_t plane0 = a == 0 ? 0 : a == 1 ? 3 : 3 + 3 * (size_t)nrm, comps = a == 2 ? 4 : 3;
                for (size_t k = 0; k < comps; ++k) {
                    memcpy(&g[k], gpu + 4 * ((plane0 + k) * count + i), 4);
                    memcpy(&r[k], cpu + 4 * ((plane0 + k) * n + v), 4);
                }
                if (a != 2) g[3] = r[3] = 0;
            } else {
                size_t off = a == 0 ? 0 : a == 1 ? l.normal_offset : l.tangent_offset;
                skin_vk_packing pk = a == 0 ? SKIN_VK_PACK_FLOAT : l.packing;
                gpu_check_decode(gpu + i * l.stride + off, pk, a == 2, g);
                gpu_check_decode(cpu + v * l.stride + off, pk, a == 2, r);
            }
            int packed = a > 0 && !soa && l.packing != SKIN_VK_PACK_FLOAT;
            for (int k = 0; k < (a == 2 ? 4 : 3); ++k) {
                double d = fabs((double)g[k] - (double)r[k]);
                if (packed) { /* snorm steps */
                    if (d > e->packed_steps) e->packed_steps = (int)d;
                    if (d > 1 && e->bad++ < 8)
                        fprintf(stderr, "  vertex %zu attr %d comp %d: cpu %g gpu %g (snorm)\n", v, a, k, r[k], g[k]);
                    continue;
                }
                double rel = a == 0 ? d / extent : d / fmax(1.0, fabs((double)r[k]));
                double *worst = a == 0 ? &e->pos : &e->vec;
                if (rel > *worst) *worst = rel;
                if (!(rel <= 1e-5) && e->bad++ < 8)
                    fprintf(stderr, "  vertex %zu attr %d comp %d: cpu %.9g gpu %.9g\n", v, a, k, r[k], g[k]);
            }
        }
    }
}

int gpu_check_cpu_skin(const skin_mesh_desc *mesh, const gpu_check_call *c, uint8_t *buf)
{
    skin_vk_vertex_layout l = c->slot.layout;
    size_t n = mesh->vertex_count;
    skin_output o = {.layout = c->call.layout, .flags = c->call.flags};
    int nrm = (c->call.attributes & SKIN_VK_NORMAL) != 0, tan = (c->call.attributes & SKIN_VK_TANGENT) != 0;
    if (c->call.layout == SKIN_LAYOUT_SOA) {
        for (int p = 0, dst = 0; dst < 10; ++dst) {
            if ((dst >= 3 && dst < 6 && !nrm) || (dst >= 6 && !tan)) continue;
            o.soa[dst] = (float *)(buf + 4 * (size_t)p++ * n);
        }
    } else {
        o.position = (float *)buf;
        o.position_stride = l.stride;
        if (nrm) o.normal = (float *)(buf + l.normal_offset), o.normal_stride = l.stride;
        if (tan) o.tangent = (float *)(buf + l.tangent_offset), o.tangent_stride = l.stride;
        o.vector_format = l.packing == SKIN_VK_PACK_FLOAT     ? SKIN_VECTOR_F32
                          : l.packing == SKIN_VK_PACK_SNORM16 ? SKIN_VECTOR_SNORM16
                                                              : SKIN_VECTOR_1010102;
    }
    skin_status s = skin_mesh(mesh, &c->pal, c->call.method, &o, c->call.first, c->call.count);
    if (s != SKIN_OK) fprintf(stderr, "skin_mesh: %s\n", skin_status_string(s));
    return s != SKIN_OK;
}

double gpu_check_extent(const gpu_check_call *c, size_t n, const uint8_t *cpu)
{
    double extent = 1e-30;
    for (size_t v = c->call.first; v < c->call.first + c->call.count; ++v)
        for (int k = 0; k < 3; ++k) {
            float p;
            size_t off = c->call.layout == SKIN_LAYOUT_SOA ? 4 * ((size_t)k * n + v)
                                                           : v * c->slot.layout.stride + 4 * (size_t)k;
            memcpy(&p, cpu + off, 4);
            extent = fmax(extent, fabs((double)p));
        }
    return extent;
}

int gpu_check_run(vkh *h, const gpu_check_setup *s, gpu_check_call *calls, int nc,
                  const char *name, const char *const *set_names, gpu_check_result *out)
{
    const skin_mesh_desc *mesh = s->mesh;
    size_t n = mesh->vertex_count;
    VkDeviceSize region = 0;
    for (int i = 0; i < nc; ++i) region += (VkDeviceSize)n * 40 + s->joint_count * 84u + s->region_slack;
    skin_vk_stream_create_info ci = {.physical_device = h->vk.phys, .device = h->vk.device,
                                     .queue_family_index = h->vk.family, .region_size = region,
                                     .region_count = 1, .flags = s->ring_flags};
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device,
                                  .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
                                  .dst_access = VK_ACCESS_TRANSFER_READ_BIT,
                                  .flags = s->gpu_flags};
    skin_vk_stream *ring = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VKH_CHECK(skin_vk_stream_create(&ci, &ring));
    VKH_CHECK(skin_vk_gpu_create(&gi, &gpu));
    VKH_CHECK(skin_vk_gpu_mesh_create(gpu, mesh, s->joint_count, &gm));
    vkh_buffer rb;
    VKH_CHECK(vkh_readback_create(h, region, &rb));
    skin_vk_frame fr;
    VKH_CHECK(skin_vk_stream_acquire(ring, UINT64_MAX, &fr));
    VkCommandBuffer cmd;
    VkFence fence;
    VKH_CHECK(vkh_once_begin(h, &cmd, &fence));
    VkDeviceSize at = 0;
    for (int i = 0; i < nc; ++i) {
        VKH_CHECK(skin_vk_gpu_skin(gm, ring, &fr, cmd, &calls[i].call, &calls[i].slot));
        calls[i].bytes = (VkDeviceSize)calls[i].call.count * calls[i].slot.layout.stride;
        calls[i].rb_offset = at;
        VkBufferCopy cp = {calls[i].slot.offset, at, calls[i].bytes};
        vkCmdCopyBuffer(cmd, fr.buffer, rb.buffer, 1, &cp);
        at += (calls[i].bytes + 15) / 16 * 16;
    }
    VKH_CHECK(skin_vk_stream_commit(ring, &fr, cmd, fence));
    vkh_readback_barrier(cmd, &rb, 0, VK_WHOLE_SIZE);
    VKH_CHECK(vkh_once_submit(h, cmd, fence));
    vkh_readback_invalidate(h, &rb);

    gpu_check_errs e = {0, 0, 0, 0};
    int bad_calls = 0;
    uint8_t *cpu = malloc(n * 40);
    if (!cpu) return 1;
    for (int i = 0; i < nc; ++i) {
        const gpu_check_call *c = &calls[i];
        memset(cpu, 0, n * 40);
        if (gpu_check_cpu_skin(mesh, c, cpu)) {
            bad_calls = -1;
            break;
        }
        int before = e.bad;
        gpu_check_compare(c, n, (const uint8_t *)rb.mapped + c->rb_offset, cpu, gpu_check_extent(c, n, cpu), &e);
        if (e.bad != before) {
            ++bad_calls;
            fprintf(stderr, "%s call %d", name, i);
            if (set_names) fprintf(stderr, " (%s)", set_names[c->set]);
            fprintf(stderr, ": %s attrs %u packing %d layout %d flags %u first %zu count %zu extra %d\n",
                    c->call.method == SKIN_DQS ? "DQS" : "LBS", c->call.attributes, (int)c->call.packing,
                    (int)c->call.layout, c->call.flags, c->call.first, c->call.count,
                    c->pal.scales || c->pal.normal_matrices);
        }
    }
    out->errs = e;
    out->bad_calls = bad_calls;
    out->ring_mode = skin_vk_stream_mode(ring);
    free(cpu);
    vkh_buffer_destroy(h, &rb);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    return 0;
}
