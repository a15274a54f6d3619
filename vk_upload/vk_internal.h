/* SPDX-License-Identifier: MIT */
/* Shared by the stream ring and the GPU skinning path: the Vulkan function
 * table and buffer + memory creation.  Not installed. */
#ifndef SKIN_VK_INTERNAL_H
#define SKIN_VK_INTERNAL_H

#include "skin/skin_vk.h"

/* Every Vulkan function the library calls, in one list: X(name) for the
 * instance-level ones, and the device-level ones (buffers and memory for
 * the ring, pipelines and dispatch for GPU skinning). */
#define VK_INSTANCE_FUNCS(X) \
    X(GetPhysicalDeviceProperties) X(GetPhysicalDeviceMemoryProperties) \
    X(GetPhysicalDeviceFormatProperties) X(GetPhysicalDeviceQueueFamilyProperties)
#define VK_DEVICE_FUNCS(X) \
    X(CreateBuffer) X(DestroyBuffer) X(GetBufferMemoryRequirements) X(AllocateMemory) \
    X(FreeMemory) X(BindBufferMemory) X(MapMemory) X(FlushMappedMemoryRanges) \
    X(WaitForFences) X(CmdCopyBuffer) X(CmdPipelineBarrier) \
    X(CreateShaderModule) X(DestroyShaderModule) X(CreateDescriptorSetLayout) \
    X(DestroyDescriptorSetLayout) X(CreatePipelineLayout) X(DestroyPipelineLayout) \
    X(CreateComputePipelines) X(DestroyPipeline) X(CreateDescriptorPool) \
    X(DestroyDescriptorPool) X(ResetDescriptorPool) X(AllocateDescriptorSets) X(UpdateDescriptorSets) \
    X(CmdBindPipeline) X(CmdBindDescriptorSets) X(CmdPushConstants) X(CmdDispatch) \
    X(CreateCommandPool) X(DestroyCommandPool) X(AllocateCommandBuffers) \
    X(BeginCommandBuffer) X(EndCommandBuffer) X(QueueSubmit) X(CreateFence) X(DestroyFence) \
    X(ResetFences) X(CreateQueryPool) X(DestroyQueryPool) X(CmdResetQueryPool) \
    X(CmdWriteTimestamp) X(GetQueryPoolResults)

typedef struct vk_fns {
#define VK_FN_FIELD(name) PFN_vk##name name;
    VK_INSTANCE_FUNCS(VK_FN_FIELD)
    VK_DEVICE_FUNCS(VK_FN_FIELD)
#undef VK_FN_FIELD
} vk_fns;

typedef struct vk_ctx {
    vk_fns fn;
    VkDevice device;
    const VkAllocationCallbacks *allocator;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    VkDeviceSize test_bar_heap; /* SKIN_VK_TEST_BAR_HEAP, 0 when unset */
} vk_ctx;

/* Loads the functions (through gipa when not NULL, else the linked loader)
 * and the device properties.  VK_ERROR_INITIALIZATION_FAILED if a function
 * is missing. */
VkResult vk_ctx_init(vk_ctx *c, VkPhysicalDevice phys, VkDevice device,
                     PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                     const VkAllocationCallbacks *allocator);

/* A buffer with its own dedicated memory, mapped unless device-local only. */
typedef struct vk_block {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkMemoryPropertyFlags flags; /* of the chosen memory type */
    VkDeviceSize alloc_size;
} vk_block;

typedef enum {
    /* DEVICE_LOCAL|HOST_VISIBLE (if the size fits in half its heap), else
     * system memory: coherent uncached, else any host-visible. */
    PICK_DIRECT,
    PICK_HOST,         /* coherent uncached, else any host-visible */
    PICK_DEVICE_LOCAL, /* device-local (mapped only if it happens to be host-visible) */
    PICK_MESH          /* device-local and host-visible, else device-local, else host-visible */
} vk_pick;

/* Tries the pick's memory types in order, skipping those whose heap is too
 * small and those whose allocation fails with an out-of-memory error.  Maps
 * the memory when it is host-visible.  VK_ERROR_FEATURE_NOT_PRESENT when no
 * memory type suits the buffer (callers fall back); VK_ERROR_OUT_OF_*_MEMORY
 * when none had room.  On failure the caller still frees b with
 * vk_block_free. */
VkResult vk_block_create(const vk_ctx *c, VkDeviceSize size, VkBufferUsageFlags usage,
                         vk_pick pick, vk_block *b);
void vk_block_free(const vk_ctx *c, vk_block *b);
/* Flushes [offset, offset+size) rounded out to nonCoherentAtomSize, if the
 * memory is not coherent or force is set. */
VkResult vk_block_flush(const vk_ctx *c, const vk_block *b, VkDeviceSize offset,
                        VkDeviceSize size, int force);

/* The GPU path's per-call descriptor set layout (set 1): binding 0 the
 * call's palette (in the ring's mapped buffer), binding 1 its output slot (in
 * the buffer the GPU reads), both STORAGE_BUFFER with exact ranges.  Created
 * identically by the ring and the GPU pipeline, so the ring's sets are
 * compatible with every pipeline layout. */
VkResult vk_frame_set_layout_create(const vk_ctx *c, VkDescriptorSetLayout *layout);

/* Stream ring, for the GPU path: takes a slot for vertex_count vertices and,
 * below it, palette_bytes + extra_bytes + morph_bytes for this call's palette
 * (extra: the normal matrices or scales, right after it; morph: the active
 * morph targets, right after those; either may be NULL), both from the end
 * of the region (never flushed or copied by commit); copies the palette into
 * the mapped buffer and flushes it when the ring flushes; allocates from the
 * region's descriptor pools (reset at acquire) a set pointing at exactly the
 * palette and the slot.  VK_ERROR_OUT_OF_POOL_MEMORY when the region lacks
 * room, VK_ERROR_FEATURE_NOT_PRESENT when the slot is larger than
 * maxStorageBufferRange, or a descriptor pool or flush error; on any error
 * nothing is taken from the region. */
/* The strided skin_output for a slot's mapped vertices in `layout`
 * (streaming stores, packed vectors as the layout says) (pack.c). */
void vk_slot_output(void *mapped, const skin_vk_vertex_layout *layout, skin_output *o);

VkResult vk_stream_alloc_gpu(skin_vk_stream *s, const skin_vk_frame *frame, size_t vertex_count,
                             const skin_vk_vertex_layout *layout, const void *palette,
                             VkDeviceSize palette_bytes, const void *extra,
                             VkDeviceSize extra_bytes, const void *morph, VkDeviceSize morph_bytes,
                             VkDescriptorSet *set, skin_vk_slot *slot);

/* GPU path (gpu.c): bytes of push constants (shaders/skin_common.glsl's
 * Params), and the most bytes a call's active morph targets take in its
 * palette sub-allocation (SKIN_MAX_ACTIVE_MORPH_TARGETS (target, weight)
 * pairs). */
#define VK_GPU_PUSH_BYTES 76u
#define VK_GPU_MORPH_LIST_BYTES (8u * SKIN_MAX_ACTIVE_MORPH_TARGETS)
/* Why the GPU path cannot take the mesh (which passes skin_mesh's checks)
 * on a device with these limits, or NULL: workgroups, the shaders' 32-bit
 * offsets, and maxStorageBufferRange for the streams (the planes the mesh
 * has), the palette and the morph targets.  skin_vk_gpu_mesh_create returns
 * VK_ERROR_FEATURE_NOT_PRESENT for it, skin_vk_choose_path reports it. */
const char *vk_gpu_mesh_limit(const VkPhysicalDeviceLimits *lim, const skin_mesh_desc *mesh, uint32_t joint_count);

#endif
