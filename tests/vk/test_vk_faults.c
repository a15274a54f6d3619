/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
/* Vulkan fault injection (issue 10).  Two kinds of fault points, counted
 * together: every Vulkan call of the library that creates or allocates
 * something (through a get_instance_proc_addr of the test's that wraps
 * those functions), and every host allocation the driver makes through the
 * VkAllocationCallbacks given to the library.  For n = 0, 1, ... the n-th
 * point fails with an out-of-memory error, until a whole frame (ring,
 * acquire, CPU slot, GPU pipeline, mesh upload, LBS and DQS GPU calls,
 * commit), or a skin_vk_choose_path measurement, runs without reaching n.  In every ring mode each call on the way
 * must return VK_SUCCESS or VK_ERROR_OUT_OF_HOST_MEMORY /
 * VK_ERROR_OUT_OF_DEVICE_MEMORY, leave its object NULL when it fails, and
 * take nothing from the frame when a GPU call fails (the retry gets the
 * region's last slot, and the frame still takes 2048 calls).  After the destroy calls every host allocation made
 * through the callbacks is freed, and the validation layer's object
 * tracking reports any Vulkan object left when the device is destroyed. */
#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fault {
    long fail_at; /* index of the fault point that fails; -1: none */
    long calls;   /* fault points reached so far */
    long live;    /* host blocks not freed */
    int failed;   /* an injected failure happened */
} fault;

/* Each block: [size][alignment] just below the pointer returned. */
enum { HEADER = 2 * sizeof(size_t) };

static int inject(fault *f)
{
    if (f->calls++ != f->fail_at) return 0;
    f->failed = 1;
    return 1;
}

/* The wrapped Vulkan functions have no user data: this is the frame's. */
static fault *current;

#define WRAPPED(X)                                                                          \
    X(CreateBuffer, VK_ERROR_OUT_OF_HOST_MEMORY,                                            \
      (VkDevice d, const VkBufferCreateInfo *i, const VkAllocationCallbacks *a, VkBuffer *o), \
      (d, i, a, o))                                                                         \
    X(AllocateMemory, VK_ERROR_OUT_OF_DEVICE_MEMORY,                                        \
      (VkDevice d, const VkMemoryAllocateInfo *i, const VkAllocationCallbacks *a,           \
       VkDeviceMemory *o),                                                                  \
      (d, i, a, o))                                                                         \
    X(BindBufferMemory, VK_ERROR_OUT_OF_DEVICE_MEMORY,                                      \
      (VkDevice d, VkBuffer b, VkDeviceMemory m, VkDeviceSize o), (d, b, m, o))             \
    X(MapMemory, VK_ERROR_OUT_OF_HOST_MEMORY,                                               \
      (VkDevice d, VkDeviceMemory m, VkDeviceSize o, VkDeviceSize s, VkMemoryMapFlags f,    \
       void **p),                                                                           \
      (d, m, o, s, f, p))                                                                   \
    X(FlushMappedMemoryRanges, VK_ERROR_OUT_OF_HOST_MEMORY,                                 \
      (VkDevice d, uint32_t n, const VkMappedMemoryRange *r), (d, n, r))                    \
    X(CreateDescriptorSetLayout, VK_ERROR_OUT_OF_HOST_MEMORY,                               \
      (VkDevice d, const VkDescriptorSetLayoutCreateInfo *i, const VkAllocationCallbacks *a, \
       VkDescriptorSetLayout *o),                                                           \
      (d, i, a, o))                                                                         \
    X(CreatePipelineLayout, VK_ERROR_OUT_OF_HOST_MEMORY,                                    \
      (VkDevice d, const VkPipelineLayoutCreateInfo *i, const VkAllocationCallbacks *a,     \
       VkPipelineLayout *o),                                                                \
      (d, i, a, o))                                                                         \
    X(CreateShaderModule, VK_ERROR_OUT_OF_HOST_MEMORY,                                      \
      (VkDevice d, const VkShaderModuleCreateInfo *i, const VkAllocationCallbacks *a,       \
       VkShaderModule *o),                                                                  \
      (d, i, a, o))                                                                         \
    X(CreateComputePipelines, VK_ERROR_OUT_OF_HOST_MEMORY,                                  \
      (VkDevice d, VkPipelineCache c, uint32_t n, const VkComputePipelineCreateInfo *i,     \
       const VkAllocationCallbacks *a, VkPipeline *o),                                      \
      (d, c, n, i, a, o))                                                                   \
    X(CreateDescriptorPool, VK_ERROR_OUT_OF_HOST_MEMORY,                                    \
      (VkDevice d, const VkDescriptorPoolCreateInfo *i, const VkAllocationCallbacks *a,     \
       VkDescriptorPool *o),                                                                \
      (d, i, a, o))                                                                         \
    X(AllocateDescriptorSets, VK_ERROR_OUT_OF_HOST_MEMORY,                                  \
      (VkDevice d, const VkDescriptorSetAllocateInfo *i, VkDescriptorSet *o), (d, i, o))     \
    X(CreateCommandPool, VK_ERROR_OUT_OF_HOST_MEMORY,                                       \
      (VkDevice d, const VkCommandPoolCreateInfo *i, const VkAllocationCallbacks *a,        \
       VkCommandPool *o),                                                                   \
      (d, i, a, o))                                                                         \
    X(AllocateCommandBuffers, VK_ERROR_OUT_OF_HOST_MEMORY,                                  \
      (VkDevice d, const VkCommandBufferAllocateInfo *i, VkCommandBuffer *o), (d, i, o))     \
    X(CreateFence, VK_ERROR_OUT_OF_HOST_MEMORY,                                             \
      (VkDevice d, const VkFenceCreateInfo *i, const VkAllocationCallbacks *a, VkFence *o),  \
      (d, i, a, o))                                                                         \
    X(CreateQueryPool, VK_ERROR_OUT_OF_HOST_MEMORY,                                         \
      (VkDevice d, const VkQueryPoolCreateInfo *i, const VkAllocationCallbacks *a,          \
       VkQueryPool *o),                                                                     \
      (d, i, a, o))                                                                         \
    X(BeginCommandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY,                                      \
      (VkCommandBuffer c, const VkCommandBufferBeginInfo *i), (c, i))                       \
    X(QueueSubmit, VK_ERROR_OUT_OF_HOST_MEMORY,                                             \
      (VkQueue q, uint32_t n, const VkSubmitInfo *i, VkFence f), (q, n, i, f))

#define FAULTY(name, error, params, args)                                  \
    static VkResult VKAPI_PTR faulty_##name params                         \
    {                                                                      \
        return current && inject(current) ? error : vk##name args;         \
    }
WRAPPED(FAULTY)
#undef FAULTY

static PFN_vkVoidFunction VKAPI_PTR faulty_device_proc(VkDevice device, const char *name)
{
#define RETURN_FAULTY(fn, error, params, args) \
    if (!strcmp(name, "vk" #fn)) return (PFN_vkVoidFunction)faulty_##fn;
    WRAPPED(RETURN_FAULTY)
#undef RETURN_FAULTY
    return vkGetDeviceProcAddr(device, name);
}

static PFN_vkVoidFunction VKAPI_PTR faulty_instance_proc(VkInstance instance, const char *name)
{
    if (!strcmp(name, "vkGetDeviceProcAddr")) return (PFN_vkVoidFunction)faulty_device_proc;
    return vkGetInstanceProcAddr(instance, name);
}

static void *VKAPI_PTR fault_alloc(void *user, size_t size, size_t align,
                                   VkSystemAllocationScope scope)
{
    (void)scope;
    fault *f = user;
    if (inject(f)) return NULL;
    size_t a = align < HEADER ? HEADER : align;
    void *base = NULL;
    if (posix_memalign(&base, a, a + size) != 0) return NULL;
    char *p = (char *)base + a;
    ((size_t *)p)[-2] = size;
    ((size_t *)p)[-1] = a;
    ++f->live;
    return p;
}

static void VKAPI_PTR fault_free(void *user, void *p)
{
    if (!p) return;
    fault *f = user;
    --f->live;
    free((char *)p - ((size_t *)p)[-1]);
}

static void *VKAPI_PTR fault_realloc(void *user, void *old, size_t size, size_t align,
                                     VkSystemAllocationScope scope)
{
    if (!old) return fault_alloc(user, size, align, scope);
    if (size == 0) {
        fault_free(user, old);
        return NULL;
    }
    fault *f = user;
    if (inject(f)) return NULL;
    --f->calls; /* fault_alloc counts it again */
    void *p = fault_alloc(user, size, align, scope);
    if (!p) return NULL;
    size_t old_size = ((size_t *)old)[-2];
    memcpy(p, old, old_size < size ? old_size : size);
    fault_free(user, old);
    return p;
}

static int out_of_memory(VkResult r)
{
    return r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

/* A call succeeded (1), or failed cleanly for memory (0; anything else is
 * counted as a failure), leaving its object NULL when it creates one. */
static int step(VkResult r, int object_set, const char *what)
{
    if (r == VK_SUCCESS) return 1;
    if (!out_of_memory(r) || object_set) {
        fprintf(stderr, "%s -> VkResult %d%s\n", what, (int)r, object_set ? ", object set" : "");
        ++vkh_failures;
    }
    return 0;
}
static VkResult last;
#define STEP(call) (last = (call), step(last, 0, #call))
/* Presets out so that a failed create must clear it (and clears it). */
#define CREATE(call, out)                                                         \
    ((out) = (void *)(uintptr_t)1, last = (call), step(last, (out) != NULL, #call) || \
                                                      ((out) = NULL, 0))

/* One frame with allocation n failing.  Returns 1 when no failure was
 * injected (n is past the last allocation), else 0. */
static int frame(vkh *h, rig *rg, uint32_t flags, long n)
{
    fault f = {.fail_at = n};
    const VkAllocationCallbacks cb = {.pUserData = &f,
                                      .pfnAllocation = fault_alloc,
                                      .pfnReallocation = fault_realloc,
                                      .pfnFree = fault_free};
    skin_vk_stream_create_info ci = {.physical_device = h->vk.phys,
                                     .device = h->vk.device,
                                     .queue_family_index = h->vk.family,
                                     .region_size = 1 << 16,
                                     .flags = flags,
                                     .allocator = &cb,
                                     .get_instance_proc_addr = faulty_instance_proc,
                                     .instance = h->vk.instance};
    skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys,
                                  .device = h->vk.device,
                                  .allocator = &cb,
                                  .get_instance_proc_addr = faulty_instance_proc,
                                  .instance = h->vk.instance,
                                  .flags = flags & SKIN_VK_FORCE_STAGING};
    skin_vk_stream *ring = NULL;
    skin_vk_gpu *gpu = NULL;
    skin_vk_gpu_mesh *gm = NULL;
    VkCommandBuffer cmd;
    VkFence fence;
    if (vkh_once_begin(h, &cmd, &fence) != VK_SUCCESS) {
        VKH_EXPECT(!"command buffer");
        return 1;
    }
    size_t nv = rg->mesh.vertex_count;
    skin_vk_frame fr;
    current = &f;
    int acquired = CREATE(skin_vk_stream_create(&ci, &ring), ring) &&
                   STEP(skin_vk_stream_acquire(ring, UINT64_MAX, &fr));
    if (acquired) {
        skin_vk_vertex_layout l;
        skin_vk_slot cpu;
        skin_vk_vertex_layout_init(SKIN_VK_NORMAL | SKIN_VK_TANGENT, SKIN_VK_PACK_SNORM16, &l);
        VKH_EXPECT(skin_vk_frame_alloc(ring, &fr, nv, &l, &cpu) == VK_SUCCESS &&
                   skin_vk_skin(&cpu, &rg->mesh, &rg->palette, SKIN_DQS, 0, nv) == SKIN_OK);
    }
    int ok = acquired && CREATE(skin_vk_gpu_create(&gi, &gpu), gpu) &&
             CREATE(skin_vk_gpu_mesh_create(gpu, &rg->mesh, rg->palette.joint_count, &gm), gm);
    for (int m = 0; ok && m < 2; ++m) {
        skin_vk_gpu_call call = {m ? SKIN_DQS : SKIN_LBS, &rg->palette, SKIN_VK_NORMAL,
                                 SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 1, nv - 1};
        skin_vk_slot slot;
        if (STEP(skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot))) continue;
        ok = 0;
        if (m == 1) break;
        /* A failed call takes nothing: the retry, without faults, gets the
         * first GPU slot, at the end of the region. */
        f.fail_at = -1;
        VkDeviceSize a = skin_vk_stream_alignment(ring), bytes = (nv - 1) * 24;
        if (skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot) != VK_SUCCESS ||
            slot.offset != fr.offset + fr.size - (bytes + a - 1) / a * a) {
            fprintf(stderr, "flags %u, fault point %ld: the failed GPU call took a slot\n",
                    flags, n);
            ++vkh_failures;
        }
    }
    if (acquired) (void)STEP(skin_vk_stream_commit(ring, &fr, cmd, VK_NULL_HANDLE));
    current = NULL;
    VKH_EXPECT(vkh_once_submit(h, cmd, fence) == VK_SUCCESS);
    skin_vk_gpu_mesh_destroy(gm);
    skin_vk_gpu_destroy(gpu);
    skin_vk_stream_destroy(ring);
    if (f.live != 0) {
        fprintf(stderr, "flags %u, fault point %ld failing: %ld host allocation(s) leaked\n", flags, n,
                f.live);
        ++vkh_failures;
    }
    return !f.failed;
}

/* skin_vk_choose_path measuring one frame of each path with Vulkan fault
 * point n failing: VK_SUCCESS (a failed timestamp pool only turns
 * timestamps off) or an out-of-memory error, and no object left behind.
 * No failing allocator here: its command pool would hand it to the driver's
 * command recording, where lavapipe does not check allocations (vkCmd*
 * cannot fail) and crashes. */
static int choose(vkh *h, rig *rg, long n)
{
    fault f = {.fail_at = n};
    skin_vk_path_query q = {.physical_device = h->vk.phys,
                            .device = h->vk.device,
                            .queue_family_index = h->vk.family,
                            .queue = h->vk.queue,
                            .mesh = &rg->mesh,
                            .palette = &rg->palette,
                            .method = SKIN_DQS,
                            .attributes = SKIN_VK_NORMAL,
                            .frames = 1,
                            .get_instance_proc_addr = faulty_instance_proc,
                            .instance = h->vk.instance};
    skin_vk_path_report rep;
    current = &f;
    VkResult r = skin_vk_choose_path(&q, &rep);
    current = NULL;
    (void)step(r, 0, "skin_vk_choose_path");
    VKH_EXPECT(r != VK_SUCCESS || rep.measured);
    vkDeviceWaitIdle(h->vk.device);
    return !f.failed;
}

/* A GPU call that fails at its first or second fault point after the
 * frame's first call (the palette's flush on a non-coherent ring, and its
 * descriptor set) takes nothing from the frame's 2048 calls either. */
static void calls_after_a_failed_call(vkh *h, rig *rg)
{
    for (long at = 0; at < 2; ++at) {
        fault f = {.fail_at = -1};
        skin_vk_stream_create_info ci = {.physical_device = h->vk.phys, .device = h->vk.device,
                                         .queue_family_index = h->vk.family, .region_size = 1 << 22,
                                         .flags = SKIN_VK_FORCE_NONCOHERENT,
                                         .get_instance_proc_addr = faulty_instance_proc,
                                         .instance = h->vk.instance};
        skin_vk_gpu_create_info gi = {.physical_device = h->vk.phys, .device = h->vk.device};
        skin_vk_stream *ring = NULL;
        skin_vk_gpu *gpu = NULL;
        skin_vk_gpu_mesh *gm = NULL;
        skin_vk_frame fr;
        VkCommandBuffer cmd;
        VkFence fence;
        current = &f;
        if (vkh_once_begin(h, &cmd, &fence) != VK_SUCCESS || skin_vk_stream_create(&ci, &ring) != VK_SUCCESS ||
            skin_vk_gpu_create(&gi, &gpu) != VK_SUCCESS ||
            skin_vk_gpu_mesh_create(gpu, &rg->mesh, rg->palette.joint_count, &gm) != VK_SUCCESS ||
            skin_vk_stream_acquire(ring, UINT64_MAX, &fr) != VK_SUCCESS) {
            VKH_EXPECT(!"set-up");
            current = NULL;
            return;
        }
        skin_vk_gpu_call call = {SKIN_LBS, &rg->palette, 0, SKIN_VK_PACK_FLOAT, SKIN_LAYOUT_STRIDED, 0, 0, 1};
        skin_vk_slot slot;
        int calls = skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot) == VK_SUCCESS;
        f.fail_at = f.calls + at;
        VKH_EXPECT(skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot) == VK_ERROR_OUT_OF_HOST_MEMORY);
        VkResult r;
        while ((r = skin_vk_gpu_skin(gm, ring, &fr, cmd, &call, &slot)) == VK_SUCCESS) ++calls;
        printf("fault point %ld of a GPU call failing: %d calls in the frame besides it, then %d\n", at, calls,
               (int)r);
        VKH_EXPECT(calls == 2048 && r == VK_ERROR_OUT_OF_POOL_MEMORY);
        VKH_EXPECT(skin_vk_stream_commit(ring, &fr, cmd, VK_NULL_HANDLE) == VK_SUCCESS);
        current = NULL;
        VKH_EXPECT(vkh_once_submit(h, cmd, fence) == VK_SUCCESS);
        skin_vk_gpu_mesh_destroy(gm);
        skin_vk_gpu_destroy(gpu);
        skin_vk_stream_destroy(ring);
    }
}

int main(void)
{
    vkh h;
    int rc = vkh_init(&h, "test_vk_faults");
    if (rc) return rc;
    h.vk.expect_oom = 1;
    rig rg;
    rig_options o = {200, 12, 4, SKIN_JOINT_U8, SKIN_WEIGHT_UNORM16, 1, 5};
    if (rig_random(&rg, &o)) {
        vkh_finish(&h);
        return 1;
    }
    const uint32_t modes[3] = {0, SKIN_VK_FORCE_NONCOHERENT, SKIN_VK_FORCE_STAGING};
    const char *names[3] = {"default ring", "FORCE_NONCOHERENT ring", "FORCE_STAGING ring"};
    for (int m = 0; m < 3; ++m) {
        long n = 0;
        while (n < 1000 && !frame(&h, &rg, modes[m], n)) ++n;
        printf("%s: %ld fault points in a whole frame, each failed once\n", names[m], n);
        VKH_EXPECT(n > 0 && n < 1000);
    }
    calls_after_a_failed_call(&h, &rg);
    long n = 0;
    while (n < 1000 && !choose(&h, &rg, n)) ++n;
    printf("skin_vk_choose_path: %ld fault points, each failed once\n", n);
    VKH_EXPECT(n > 0 && n < 1000);
    rig_free(&rg);
    printf("%d out-of-memory report(s) from the driver (expected)\n", h.vk.oom_messages);
    int messages = vkh_finish(&h);
    printf("test_vk_faults: %d failed check(s), %d validation message(s)\n", vkh_failures,
           messages);
    return vkh_failures || messages ? 1 : 0;
}
