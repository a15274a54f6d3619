/* SPDX-License-Identifier: MIT */
/* Stream ring: memory-type choice, persistent mapping, per-frame regions,
 * flushes and the staging copy. */
#include "skin/skin_vk.h"
#include "vk_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_REGIONS 16u
/* GPU calls per frame: MAX_POOLS * SETS_PER_POOL, pools created as needed. */
#define SETS_PER_POOL 32u
#define MAX_POOLS 64u

enum { REGION_FREE, REGION_ACQUIRED, REGION_SUBMITTED };

struct skin_vk_stream {
    vk_ctx c;
    skin_vk_memory_mode mode;
    VkBool32 flushes;
    VkDeviceSize region_size, alignment;
    uint32_t region_count, next;
    VkPipelineStageFlags dst_stage;
    VkAccessFlags dst_access;
    vk_block host;   /* mapped: the vertex buffer, or the staging buffer */
    vk_block local;  /* staging mode: the device-local vertex buffer */
    uint32_t readable_formats; /* supported_formats */
    /* GPU path: one descriptor set per call from the region's pools, which
     * acquire resets (the region's fence has signalled), so a set bound in
     * a command buffer is never updated; created on first use. */
    VkDescriptorSetLayout frame_layout;
    struct {
        int state;
        VkFence fence;
        VkDeviceSize used;     /* CPU slots, from the region start */
        VkDeviceSize gpu_used; /* GPU slots, from the region end */
        VkDescriptorPool pools[MAX_POOLS]; /* SETS_PER_POOL sets each */
        uint32_t pool_count, sets_used;
    } region[MAX_REGIONS];
};

const char *skin_vk_memory_mode_name(skin_vk_memory_mode mode)
{
    switch (mode) {
    case SKIN_VK_MEMORY_DEVICE_LOCAL: return "device-local";
    case SKIN_VK_MEMORY_HOST_COHERENT: return "host-coherent";
    case SKIN_VK_MEMORY_HOST_NONCOHERENT: return "host-noncoherent";
    case SKIN_VK_MEMORY_STAGING: return "staging";
    }
    return "unknown";
}

static VkDeviceSize round_up(VkDeviceSize x, VkDeviceSize a) { return (x + a - 1) / a * a; }

/* The formats skin_vk_vertex_layout_init's layouts use. */
static const VkFormat vertex_formats[] = {VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT,
                                          VK_FORMAT_A2B10G10R10_SNORM_PACK32, VK_FORMAT_R16G16B16A16_SNORM};
enum { VERTEX_FORMATS = sizeof vertex_formats / sizeof vertex_formats[0] };

/* Bit i: the device reads vertex_formats[i] from a vertex buffer. */
static uint32_t supported_formats(skin_vk_stream *s, VkPhysicalDevice pd)
{
    uint32_t bits = 0;
    for (uint32_t i = 0; i < VERTEX_FORMATS; ++i) {
        VkFormatProperties fp;
        s->c.fn.GetPhysicalDeviceFormatProperties(pd, vertex_formats[i], &fp);
        if (fp.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) bits |= 1u << i;
    }
    return bits;
}

static int format_readable(const skin_vk_stream *s, VkFormat f)
{
    for (uint32_t i = 0; i < VERTEX_FORMATS; ++i)
        if (vertex_formats[i] == f) return s->readable_formats >> i & 1u;
    return 0;
}

/* Whether the device reads every format the layout uses. */
static int layout_readable(const skin_vk_stream *s, const skin_vk_vertex_layout *l)
{
    return format_readable(s, l->position_format) &&
           (!(l->attributes & SKIN_VK_NORMAL) || format_readable(s, l->normal_format)) &&
           (!(l->attributes & SKIN_VK_TANGENT) || format_readable(s, l->tangent_format));
}

VkResult skin_vk_stream_create(const skin_vk_stream_create_info *info, skin_vk_stream **out)
{
    if (out) *out = NULL;
    if (!info || !out || !info->physical_device || !info->device || info->region_size == 0 ||
        info->region_count > MAX_REGIONS || (info->flags & ~SKIN_VK_ALL_FLAGS) ||
        (info->get_instance_proc_addr && !info->instance) ||
        !info->staging_dst_stage != !info->staging_dst_access)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    skin_vk_stream *s = calloc(1, sizeof *s);
    if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
    VkResult r = vk_ctx_init(&s->c, info->physical_device, info->device,
                             info->get_instance_proc_addr, info->instance, info->allocator);
    if (r != VK_SUCCESS) {
        free(s);
        return r;
    }
    /* The family that uses the (VK_SHARING_MODE_EXCLUSIVE) buffers and runs
     * the commit's staging copy must exist. */
    uint32_t families = 0;
    s->c.fn.GetPhysicalDeviceQueueFamilyProperties(info->physical_device, &families, NULL);
    if (info->queue_family_index >= families) {
        free(s);
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    s->region_count = info->region_count ? info->region_count : 2;
    s->dst_stage = info->staging_dst_stage ? info->staging_dst_stage
                                           : VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
    s->dst_access = info->staging_dst_access ? info->staging_dst_access
                                             : VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
    s->readable_formats = supported_formats(s, info->physical_device);
    const VkPhysicalDeviceLimits *lim = &s->c.props.limits;
    VkDeviceSize a = 64;
    if (lim->nonCoherentAtomSize > a) a = lim->nonCoherentAtomSize;
    if (lim->minStorageBufferOffsetAlignment > a) a = lim->minStorageBufferOffsetAlignment;
    s->alignment = a;
    /* Overflow-safe sizing: anything near 2^62 is absurd for any heap. */
    if (info->region_size > ((VkDeviceSize)1 << 62) / MAX_REGIONS) {
        free(s);
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    s->region_size = round_up(info->region_size, a);
    VkDeviceSize total = s->region_size * s->region_count;

    const VkBufferUsageFlags vertex_usage =
        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | info->extra_usage;
    const int force_flush = (info->flags & SKIN_VK_FORCE_NONCOHERENT) != 0;
    r = VK_ERROR_FEATURE_NOT_PRESENT;
    if (!(info->flags & SKIN_VK_FORCE_STAGING)) {
        r = vk_block_create(&s->c, total, vertex_usage, PICK_DIRECT, &s->host);
        VkMemoryPropertyFlags f = s->host.flags;
        s->flushes = force_flush || !(f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        s->mode = s->flushes ? SKIN_VK_MEMORY_HOST_NONCOHERENT
                  : (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) ? SKIN_VK_MEMORY_DEVICE_LOCAL
                                                               : SKIN_VK_MEMORY_HOST_COHERENT;
        if (r != VK_SUCCESS) vk_block_free(&s->c, &s->host);
    }
    /* Staging: when forced, or when no mappable memory suits a vertex buffer
     * or has room for the ring (a small BAR heap, a failed allocation). */
    if (r == VK_ERROR_FEATURE_NOT_PRESENT || r == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
        r == VK_ERROR_OUT_OF_HOST_MEMORY) {
        s->mode = SKIN_VK_MEMORY_STAGING;
        /* STORAGE: the GPU path reads its palettes from here. */
        r = vk_block_create(&s->c, total,
                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            PICK_HOST, &s->host);
        s->flushes = force_flush || !(s->host.flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        if (r == VK_SUCCESS)
            r = vk_block_create(&s->c, total, vertex_usage, PICK_DEVICE_LOCAL, &s->local);
    }
    if (r == VK_ERROR_FEATURE_NOT_PRESENT) r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (r != VK_SUCCESS) {
        skin_vk_stream_destroy(s);
        return r;
    }
    *out = s;
    return VK_SUCCESS;
}

void skin_vk_stream_destroy(skin_vk_stream *s)
{
    if (!s) return;
    for (uint32_t i = 0; i < MAX_REGIONS; ++i)
        for (uint32_t p = 0; p < s->region[i].pool_count; ++p)
            s->c.fn.DestroyDescriptorPool(s->c.device, s->region[i].pools[p], s->c.allocator);
    if (s->frame_layout)
        s->c.fn.DestroyDescriptorSetLayout(s->c.device, s->frame_layout, s->c.allocator);
    vk_block_free(&s->c, &s->local);
    vk_block_free(&s->c, &s->host);
    free(s);
}

skin_vk_memory_mode skin_vk_stream_mode(const skin_vk_stream *s) { return s ? s->mode : 0; }
VkBool32 skin_vk_stream_flushes(const skin_vk_stream *s) { return s ? s->flushes : VK_FALSE; }
VkDeviceSize skin_vk_stream_region_size(const skin_vk_stream *s) { return s ? s->region_size : 0; }
uint32_t skin_vk_stream_region_count(const skin_vk_stream *s) { return s ? s->region_count : 0; }
VkDeviceSize skin_vk_stream_alignment(const skin_vk_stream *s) { return s ? s->alignment : 0; }

static VkBuffer draw_buffer(const skin_vk_stream *s)
{
    return s->mode == SKIN_VK_MEMORY_STAGING ? s->local.buffer : s->host.buffer;
}

VkResult skin_vk_stream_acquire(skin_vk_stream *s, uint64_t timeout, skin_vk_frame *frame)
{
    if (!s || !frame) return VK_ERROR_VALIDATION_FAILED_EXT;
    uint32_t i = s->next;
    if (s->region[i].state == REGION_ACQUIRED) return VK_ERROR_TOO_MANY_OBJECTS;
    if (s->region[i].state == REGION_SUBMITTED && s->region[i].fence) {
        VkResult r = s->c.fn.WaitForFences(s->c.device, 1, &s->region[i].fence, VK_TRUE, timeout);
        if (r != VK_SUCCESS) return r;
    }
    /* The GPU is done with the region: its descriptor sets may go. */
    for (uint32_t p = 0; p < s->region[i].pool_count && s->region[i].sets_used; ++p) {
        VkResult r = s->c.fn.ResetDescriptorPool(s->c.device, s->region[i].pools[p], 0);
        if (r != VK_SUCCESS) return r;
    }
    s->region[i].sets_used = 0;
    s->region[i].state = REGION_ACQUIRED;
    s->region[i].fence = VK_NULL_HANDLE;
    s->region[i].used = 0;
    s->region[i].gpu_used = 0;
    s->next = (i + 1) % s->region_count;
    frame->region = i;
    frame->offset = s->region_size * i;
    frame->size = s->region_size;
    frame->mapped = (char *)s->host.mapped + frame->offset;
    frame->buffer = draw_buffer(s);
    return VK_SUCCESS;
}

/* f is a region of this stream that is acquired now, as acquire gave it
 * (not a frame of another stream, nor one committed since). */
static int frame_ok(const skin_vk_stream *s, const skin_vk_frame *f)
{
    if (!s || !f || f->region >= s->region_count ||
        s->region[f->region].state != REGION_ACQUIRED)
        return 0;
    VkDeviceSize offset = s->region_size * f->region;
    return f->buffer == draw_buffer(s) && f->offset == offset && f->size == s->region_size &&
           f->mapped == (char *)s->host.mapped + offset;
}

VkResult skin_vk_frame_alloc(skin_vk_stream *s, const skin_vk_frame *frame, size_t vertex_count,
                             const skin_vk_vertex_layout *layout, skin_vk_slot *slot)
{
    if (!frame_ok(s, frame) || !layout || !slot) return VK_ERROR_VALIDATION_FAILED_EXT;
    skin_vk_vertex_layout check;
    if (skin_vk_vertex_layout_init(layout->attributes, layout->packing, &check) != SKIN_OK ||
        memcmp(&check, layout, sizeof check) != 0)
        return VK_ERROR_VALIDATION_FAILED_EXT;
    if (!layout_readable(s, layout)) return VK_ERROR_FORMAT_NOT_SUPPORTED;
    VkDeviceSize used = s->region[frame->region].used;
    VkDeviceSize room = s->region_size - used - s->region[frame->region].gpu_used;
    if (vertex_count > room / layout->stride) return VK_ERROR_OUT_OF_POOL_MEMORY;
    VkDeviceSize bytes = (VkDeviceSize)vertex_count * layout->stride;
    VkDeviceSize next = used + bytes;
    /* The next slot starts aligned; the end of the region is aligned. */
    next = round_up(next, s->alignment);
    s->region[frame->region].used = next;

    memset(slot, 0, sizeof *slot);
    slot->buffer = draw_buffer(s);
    slot->offset = frame->offset + used;
    slot->mapped = (char *)s->host.mapped + slot->offset;
    slot->vertex_count = vertex_count;
    slot->layout = *layout;
    vk_slot_output(slot->mapped, layout, &slot->output);
    return VK_SUCCESS;
}

VkResult skin_vk_stream_commit(skin_vk_stream *s, const skin_vk_frame *frame,
                               VkCommandBuffer cmd, VkFence fence)
{
    if (!frame_ok(s, frame)) return VK_ERROR_VALIDATION_FAILED_EXT;
    int staging = s->mode == SKIN_VK_MEMORY_STAGING;
    if (staging && !cmd) return VK_ERROR_VALIDATION_FAILED_EXT;
    VkDeviceSize used = s->region[frame->region].used;
    if (used && s->flushes) {
        VkResult r = vk_block_flush(&s->c, &s->host, frame->offset, used, 1);
        if (r != VK_SUCCESS) return r;
    }
    if (used && staging) {
        VkBufferCopy copy = {frame->offset, frame->offset, used};
        s->c.fn.CmdCopyBuffer(cmd, s->host.buffer, s->local.buffer, 1, &copy);
        VkBufferMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                   .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                   .dstAccessMask = s->dst_access,
                                   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .buffer = s->local.buffer,
                                   .offset = frame->offset,
                                   .size = used};
        s->c.fn.CmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, s->dst_stage, 0, 0, NULL, 1,
                                 &b, 0, NULL);
    }
    s->region[frame->region].state = fence ? REGION_SUBMITTED : REGION_FREE;
    s->region[frame->region].fence = fence;
    return VK_SUCCESS;
}

/* A descriptor set for one GPU call in region ri: palette and output. */
static VkResult call_set(skin_vk_stream *s, uint32_t ri, VkDeviceSize pal_offset,
                         VkDeviceSize pal_bytes, VkDeviceSize out_offset, VkDeviceSize out_bytes,
                         VkDescriptorSet *set)
{
    const vk_fns *f = &s->c.fn;
    VkResult r;
    if (!s->frame_layout && (r = vk_frame_set_layout_create(&s->c, &s->frame_layout)) != VK_SUCCESS)
        return r;
    uint32_t p = s->region[ri].sets_used / SETS_PER_POOL;
    if (p >= MAX_POOLS) return VK_ERROR_OUT_OF_POOL_MEMORY;
    if (p == s->region[ri].pool_count) {
        VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * SETS_PER_POOL};
        VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                         .maxSets = SETS_PER_POOL,
                                         .poolSizeCount = 1,
                                         .pPoolSizes = &ps};
        r = f->CreateDescriptorPool(s->c.device, &pi, s->c.allocator, &s->region[ri].pools[p]);
        if (r != VK_SUCCESS) return r;
        ++s->region[ri].pool_count;
    }
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = s->region[ri].pools[p],
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &s->frame_layout};
    if ((r = f->AllocateDescriptorSets(s->c.device, &ai, set)) != VK_SUCCESS) return r;
    ++s->region[ri].sets_used;
    VkDescriptorBufferInfo bi[2] = {{s->host.buffer, pal_offset, pal_bytes},
                                    {draw_buffer(s), out_offset, out_bytes}};
    VkWriteDescriptorSet w[2];
    for (uint32_t j = 0; j < 2; ++j)
        w[j] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = *set,
                                      .dstBinding = j,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &bi[j]};
    f->UpdateDescriptorSets(s->c.device, 2, w, 0, NULL);
    return VK_SUCCESS;
}

VkResult vk_stream_alloc_gpu(skin_vk_stream *s, const skin_vk_frame *frame, size_t vertex_count,
                             const skin_vk_vertex_layout *layout, const void *palette,
                             VkDeviceSize palette_bytes, const void *extra,
                             VkDeviceSize extra_bytes, const void *morph, VkDeviceSize morph_bytes,
                             VkDescriptorSet *set, skin_vk_slot *slot)
{
    VkDeviceSize all = palette_bytes + extra_bytes + morph_bytes;
    if (!frame_ok(s, frame)) return VK_ERROR_VALIDATION_FAILED_EXT;
    uint32_t ri = frame->region;
    VkDeviceSize room = s->region_size - s->region[ri].used - s->region[ri].gpu_used;
    if (vertex_count > room / layout->stride) return VK_ERROR_OUT_OF_POOL_MEMORY;
    VkDeviceSize exact = (VkDeviceSize)vertex_count * layout->stride;
    if (exact > s->c.props.limits.maxStorageBufferRange) return VK_ERROR_FEATURE_NOT_PRESENT;
    VkDeviceSize out_bytes = round_up(exact, s->alignment);
    VkDeviceSize pal_bytes = round_up(all, s->alignment);
    if (out_bytes > room || pal_bytes > room - out_bytes) return VK_ERROR_OUT_OF_POOL_MEMORY;
    VkDeviceSize end = frame->offset + s->region_size - s->region[ri].gpu_used;
    VkDeviceSize out_at = end - out_bytes, pal_at = out_at - pal_bytes;
    /* The palette into the region's free end first: if its flush fails,
     * nothing is taken (a descriptor set stays allocated from its pool). */
    memcpy((char *)s->host.mapped + pal_at, palette, (size_t)palette_bytes);
    if (extra_bytes)
        memcpy((char *)s->host.mapped + pal_at + palette_bytes, extra, (size_t)extra_bytes);
    if (morph_bytes)
        memcpy((char *)s->host.mapped + pal_at + palette_bytes + extra_bytes, morph,
               (size_t)morph_bytes);
    VkResult r = vk_block_flush(&s->c, &s->host, pal_at, all, s->flushes);
    if (r != VK_SUCCESS || (r = call_set(s, ri, pal_at, all, out_at, exact, set)) != VK_SUCCESS) return r;
    s->region[ri].gpu_used += out_bytes + pal_bytes;
    memset(slot, 0, sizeof *slot);
    slot->buffer = draw_buffer(s);
    slot->offset = out_at;
    slot->vertex_count = vertex_count;
    slot->layout = *layout;
    return VK_SUCCESS;
}
