/* SPDX-License-Identifier: MIT */
/* GPU-vs-CPU call checks shared by test_vk_gpu_parity and test_vk_gpu_morph:
 * a batch of skin_vk_gpu_skin calls is recorded into one frame, read back,
 * and each call's output is compared with skin_mesh's for the same call in
 * the same layout.  Floats must agree within 1e-5 of the mesh extent
 * (positions) or of max(1, |v|) (normals, tangents); packed components
 * within one snorm step.  Up to 8 mismatching components are printed. */
#ifndef SKIN_GPU_CHECK_H
#define SKIN_GPU_CHECK_H

#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <stddef.h>
#include <stdint.h>

/* One GPU call and where its output lands. */
typedef struct gpu_check_call {
    skin_vk_gpu_call call; /* call.palette points at pal */
    skin_palette pal;
    int set;                        /* index into gpu_check_run's set_names, when given */
    VkDeviceSize rb_offset, bytes;  /* its bytes in the read-back buffer */
    skin_vk_slot slot;              /* where skin_vk_gpu_skin put it in the frame */
} gpu_check_call;

/* The largest errors seen and the number of mismatching components. */
typedef struct gpu_check_errs {
    double pos, vec;  /* positions (of the extent), normals/tangents (of max(1, |v|)) */
    int packed_steps; /* packed components, in snorm steps */
    int bad;
} gpu_check_errs;

/* Folds e into total: the larger errors, the sum of the mismatches. */
void gpu_check_errs_merge(gpu_check_errs *total, const gpu_check_errs *e);

/* Decodes a normal/tangent element to 4 floats (w = 0 for float normals;
 * packed elements as their integer snorm values). */
void gpu_check_decode(const uint8_t *p, skin_vk_packing packing, int tangent, float out[4]);

/* Compares one call's GPU elements (count of them, from its first vertex)
 * with the CPU's (indexed by vertex, n per SoA plane), adding to e. */
void gpu_check_compare(const gpu_check_call *c, size_t n, const uint8_t *gpu, const uint8_t *cpu,
                       double extent, gpu_check_errs *e);

/* The CPU reference of a call (skin_mesh) for all the mesh's vertices, in
 * the call's layout, into buf (vertex_count * 40 bytes).  0 on success. */
int gpu_check_cpu_skin(const skin_mesh_desc *mesh, const gpu_check_call *c, uint8_t *buf);

/* The mesh extent of a call: the largest |coordinate| of the CPU positions
 * over the call's vertices (at least 1e-30). */
double gpu_check_extent(const gpu_check_call *c, size_t n, const uint8_t *cpu);

/* How gpu_check_run builds its ring and GPU context. */
typedef struct gpu_check_setup {
    const skin_mesh_desc *mesh;
    uint32_t joint_count;
    VkDeviceSize region_slack; /* ring bytes per call beyond vertex_count * 40 + joints * 84 */
    uint32_t ring_flags;       /* skin_vk_stream_create_info.flags */
    uint32_t gpu_flags;        /* skin_vk_gpu_create_info.flags */
} gpu_check_setup;

/* What gpu_check_run found. */
typedef struct gpu_check_result {
    gpu_check_errs errs;           /* over all the calls */
    int bad_calls;                 /* calls with a mismatch; -1 when the CPU reference failed */
    skin_vk_memory_mode ring_mode; /* the ring's memory mode */
} gpu_check_result;

/* Creates a ring (one region), a GPU context and the mesh; records every
 * call's skin_vk_gpu_skin and a copy of its slot into a read-back buffer;
 * submits, reads back, and compares each call with the CPU reference.  A
 * call with a mismatch is printed as "NAME call I: ..." (with " (SET)" after
 * the index when set_names is given).  Returns 0, or 1 on a Vulkan error. */
int gpu_check_run(vkh *h, const gpu_check_setup *s, gpu_check_call *calls, int nc,
                  const char *name, const char *const *set_names, gpu_check_result *out);

#endif
