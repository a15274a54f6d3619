/* Function table and buffer/memory helpers shared by the ring and GPU path. */
#include "vk_internal.h"

#include <string.h>

VkResult vk_ctx_init(vk_ctx *c, VkPhysicalDevice phys, VkDevice device,
                     PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                     const VkAllocationCallbacks *allocator)
{
    memset(c, 0, sizeof *c);
    c->device = device;
    c->allocator = allocator;
    vk_fns *f = &c->fn;
    int ok = 1;
    if (!gipa) {
#define DIRECT(name) f->name = vk##name;
        VK_INSTANCE_FUNCS(DIRECT)
        VK_DEVICE_FUNCS(DIRECT)
#undef DIRECT
    } else {
        PFN_vkGetDeviceProcAddr gdpa =
            (PFN_vkGetDeviceProcAddr)gipa(instance, "vkGetDeviceProcAddr");
        if (!gdpa) return VK_ERROR_INITIALIZATION_FAILED;
#define INST(name) ok &= (f->name = (PFN_vk##name)gipa(instance, "vk" #name)) != NULL;
#define DEV(name) ok &= (f->name = (PFN_vk##name)gdpa(device, "vk" #name)) != NULL;
        VK_INSTANCE_FUNCS(INST)
        VK_DEVICE_FUNCS(DEV)
#undef INST
#undef DEV
    }
    if (!ok) return VK_ERROR_INITIALIZATION_FAILED;
    f->GetPhysicalDeviceProperties(phys, &c->props);
    f->GetPhysicalDeviceMemoryProperties(phys, &c->memory);
    return VK_SUCCESS;
}

/* First memory type allowed by `bits` with all of `want` and none of
 * `avoid`, or -1. */
static int find_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits,
                     VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
    for (uint32_t i = 0; i < mp->memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
        if ((bits >> i & 1u) && (f & want) == want && !(f & avoid)) return (int)i;
    }
    return -1;
}

void vk_block_free(const vk_ctx *c, vk_block *b)
{
    /* Freeing mapped memory unmaps it implicitly. */
    if (b->buffer) c->fn.DestroyBuffer(c->device, b->buffer, c->allocator);
    if (b->memory) c->fn.FreeMemory(c->device, b->memory, c->allocator);
    memset(b, 0, sizeof *b);
}

VkResult vk_block_create(const vk_ctx *c, VkDeviceSize size, VkBufferUsageFlags usage,
                         vk_pick pick, vk_block *b)
{
    const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                hc = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                dl = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    const VkPhysicalDeviceMemoryProperties *mp = &c->memory;
    memset(b, 0, sizeof *b);
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = c->fn.CreateBuffer(c->device, &bi, c->allocator, &b->buffer);
    if (r != VK_SUCCESS) {
        b->buffer = VK_NULL_HANDLE;
        return r;
    }
    VkMemoryRequirements req;
    c->fn.GetBufferMemoryRequirements(c->device, b->buffer, &req);
    int t = -1;
    if (pick == PICK_DIRECT) t = find_type(mp, req.memoryTypeBits, dl | hv, 0);
    if (pick != PICK_DEVICE_LOCAL) {
        if (t < 0) t = find_type(mp, req.memoryTypeBits, hv | hc, cached);
        if (t < 0) t = find_type(mp, req.memoryTypeBits, hv, 0);
    } else {
        t = find_type(mp, req.memoryTypeBits, dl, 0);
    }
    if (t < 0) return VK_ERROR_FEATURE_NOT_PRESENT;
    /* Check against the heap before asking Vulkan: an oversized request is
     * invalid usage, not an error the driver must report. */
    if (req.size > mp->memoryHeaps[mp->memoryTypes[t].heapIndex].size)
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)t};
    r = c->fn.AllocateMemory(c->device, &ai, c->allocator, &b->memory);
    if (r != VK_SUCCESS) {
        b->memory = VK_NULL_HANDLE;
        return r;
    }
    if ((r = c->fn.BindBufferMemory(c->device, b->buffer, b->memory, 0)) != VK_SUCCESS) return r;
    b->flags = mp->memoryTypes[t].propertyFlags;
    b->alloc_size = req.size;
    if (pick != PICK_DEVICE_LOCAL)
        r = c->fn.MapMemory(c->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
    return r;
}

VkResult vk_block_flush(const vk_ctx *c, const vk_block *b, VkDeviceSize offset,
                        VkDeviceSize size, int force)
{
    if (!size || (!force && (b->flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))) return VK_SUCCESS;
    VkDeviceSize atom = c->props.limits.nonCoherentAtomSize;
    if (atom == 0) atom = 1;
    VkDeviceSize start = offset / atom * atom, end = (offset + size + atom - 1) / atom * atom;
    VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                 .memory = b->memory,
                                 .offset = start,
                                 .size = end >= b->alloc_size ? VK_WHOLE_SIZE : end - start};
    return c->fn.FlushMappedMemoryRanges(c->device, 1, &range);
}

VkResult vk_frame_set_layout_create(const vk_ctx *c, VkDescriptorSetLayout *layout)
{
    VkDescriptorSetLayoutBinding b[2];
    for (uint32_t i = 0; i < 2; ++i)
        b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                              VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 2,
                                          .pBindings = b};
    VkResult r = c->fn.CreateDescriptorSetLayout(c->device, &ci, c->allocator, layout);
    if (r != VK_SUCCESS) *layout = VK_NULL_HANDLE;
    return r;
}
