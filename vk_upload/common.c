/* SPDX-License-Identifier: MIT */
/* Function table and buffer/memory helpers shared by the ring and GPU path. */
#include "vk_internal.h"

#include <stdlib.h>
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
    /* Test hook: pretend mapped device-local (BAR) heaps hold only this many
     * bytes, to exercise the fallback to host memory and staging. */
    const char *bar = getenv("SKIN_VK_TEST_BAR_HEAP");
    if (bar && *bar) c->test_bar_heap = strtoull(bar, NULL, 10);
    f->GetPhysicalDeviceMemoryProperties(phys, &c->memory);
    return VK_SUCCESS;
}

void vk_block_free(const vk_ctx *c, vk_block *b)
{
    /* Freeing mapped memory unmaps it implicitly. */
    if (b->buffer) c->fn.DestroyBuffer(c->device, b->buffer, c->allocator);
    if (b->memory) c->fn.FreeMemory(c->device, b->memory, c->allocator);
    memset(b, 0, sizeof *b);
}

/* Appends to list[] the memory types allowed by `bits` with all of `want`
 * and none of `avoid` that are not listed yet. */
static void add_types(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits,
                      VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid, int *list, int *n)
{
    for (uint32_t i = 0; i < mp->memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
        int seen = 0;
        for (int k = 0; k < *n; ++k) seen |= list[k] == (int)i;
        if (!seen && (bits >> i & 1u) && (f & want) == want && !(f & avoid)) list[(*n)++] = (int)i;
    }
}

/* The heap size a memory type may use for this pick.  A mapped device-local
 * type (resizable BAR, or a small 256 MiB BAR window) is taken for a direct
 * ring only if the request fits in half of its heap (or of the test hook's
 * limit), so a large ring does not exhaust a small BAR heap and falls back
 * to host memory instead. */
static VkDeviceSize heap_budget(const vk_ctx *c, int type, vk_pick pick)
{
    const VkPhysicalDeviceMemoryProperties *mp = &c->memory;
    VkDeviceSize heap = mp->memoryHeaps[mp->memoryTypes[type].heapIndex].size;
    const VkMemoryPropertyFlags bar =
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    if (pick == PICK_DIRECT && (mp->memoryTypes[type].propertyFlags & bar) == bar) {
        if (c->test_bar_heap && c->test_bar_heap < heap) heap = c->test_bar_heap;
        return heap / 2;
    }
    return heap;
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
    /* Candidates in order of preference; an allocation that fails (or does
     * not fit the heap) falls through to the next. */
    int list[VK_MAX_MEMORY_TYPES], n = 0;
    uint32_t bits = req.memoryTypeBits;
    switch (pick) {
    case PICK_DIRECT:
        add_types(mp, bits, dl | hv, 0, list, &n);
        add_types(mp, bits, hv | hc, cached | dl, list, &n); /* system memory, uncached */
        add_types(mp, bits, hv, dl, list, &n);
        break;
    case PICK_HOST:
        add_types(mp, bits, hv | hc, cached, list, &n);
        add_types(mp, bits, hv, 0, list, &n);
        break;
    case PICK_MESH:
        add_types(mp, bits, dl | hv, 0, list, &n);
        add_types(mp, bits, dl, 0, list, &n);
        add_types(mp, bits, hv, 0, list, &n);
        break;
    case PICK_DEVICE_LOCAL:
        add_types(mp, bits, dl, 0, list, &n);
        break;
    }
    if (n == 0) return VK_ERROR_FEATURE_NOT_PRESENT;
    r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    int t = -1;
    for (int k = 0; k < n && t < 0; ++k) {
        /* Check against the heap before asking Vulkan: an oversized request
         * is invalid usage, not an error the driver must report. */
        if (req.size > heap_budget(c, list[k], pick)) continue;
        /* a buffer with a device address needs memory that has one */
        const VkMemoryAllocateFlagsInfo address = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                                   .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
        VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .pNext = usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT ? &address : NULL,
                                   .allocationSize = req.size,
                                   .memoryTypeIndex = (uint32_t)list[k]};
        r = c->fn.AllocateMemory(c->device, &ai, c->allocator, &b->memory);
        if (r == VK_SUCCESS) {
            t = list[k];
        } else {
            b->memory = VK_NULL_HANDLE;
            if (r != VK_ERROR_OUT_OF_DEVICE_MEMORY && r != VK_ERROR_OUT_OF_HOST_MEMORY) return r;
        }
    }
    if (t < 0) return r;
    if ((r = c->fn.BindBufferMemory(c->device, b->buffer, b->memory, 0)) != VK_SUCCESS) return r;
    b->flags = mp->memoryTypes[t].propertyFlags;
    b->alloc_size = req.size;
    if (b->flags & hv) r = c->fn.MapMemory(c->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
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
