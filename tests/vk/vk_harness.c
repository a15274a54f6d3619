/* SPDX-License-Identifier: MIT */
#include "vk_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vkh_failures;

/* No device is a failure on CI, a skip elsewhere. */
static int no_device(const char *test, const char *why)
{
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) {
        fprintf(stderr, "%s: FAIL: %s (CI=true: a Vulkan device is required)\n", test, why);
        return 1;
    }
    printf("%s: SKIP: %s\n", test, why);
    return VKH_SKIP;
}

/* Proves the checks are live: records two unsynchronised copies into the
 * same buffer (a write-after-write hazard only synchronization validation
 * sees).  Expected messages are not counted against the test. */
static int canary(vkh *h)
{
    int before = h->vk.messages, ok = 0;
    VkBuffer buf[2] = {0};
    VkDeviceMemory mem = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = 256,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkMemoryRequirements req;
    if (vkCreateBuffer(h->vk.device, &bi, NULL, &buf[0]) ||
        vkCreateBuffer(h->vk.device, &bi, NULL, &buf[1]))
        goto done;
    vkGetBufferMemoryRequirements(h->vk.device, buf[0], &req);
    uint32_t type = 0;
    while (type < 32 && !(req.memoryTypeBits >> type & 1u)) ++type;
    VkDeviceSize stride = (req.size + req.alignment - 1) / req.alignment * req.alignment;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = 2 * stride,
                               .memoryTypeIndex = type};
    if (vkAllocateMemory(h->vk.device, &ai, NULL, &mem) ||
        vkBindBufferMemory(h->vk.device, buf[0], mem, 0) ||
        vkBindBufferMemory(h->vk.device, buf[1], mem, stride))
        goto done;
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = h->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (vkAllocateCommandBuffers(h->vk.device, &cai, &cmd) || vkBeginCommandBuffer(cmd, &begin))
        goto done;
    VkBufferCopy c = {0, 0, 256};
    vkCmdCopyBuffer(cmd, buf[0], buf[1], 1, &c);
    vkCmdCopyBuffer(cmd, buf[0], buf[1], 1, &c);
    vkEndCommandBuffer(cmd);
    ok = h->vk.messages > before;
done:
    if (cmd) vkFreeCommandBuffers(h->vk.device, h->pool, 1, &cmd);
    for (int i = 0; i < 2; ++i)
        if (buf[i]) vkDestroyBuffer(h->vk.device, buf[i], NULL);
    if (mem) vkFreeMemory(h->vk.device, mem, NULL);
    if (ok) fprintf(stderr, "(the message above is the expected canary)\n");
    h->vk.messages = before;
    return ok;
}

int vkh_init(vkh *h, const char *test)
{
    memset(h, 0, sizeof *h);
    vkb_options o = {.app_name = test,
                     .validation = VKB_VALIDATION_SYNC,
                     .queue_flags = VK_QUEUE_COMPUTE_BIT,
                     .device_address = 1};
    char why[128];
    int st = vkb_create(&o, &h->vk, why, sizeof why);
    if (st == VKB_NO_DEVICE) return no_device(test, why);
    if (st != VKB_OK) {
        fprintf(stderr, "%s: FAIL: %s\n", test, why);
        return 1;
    }
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = h->vk.family};
    if (vkCreateCommandPool(h->vk.device, &pi, NULL, &h->pool) != VK_SUCCESS) {
        h->pool = VK_NULL_HANDLE;
        vkh_finish(h);
        return 1;
    }
    if (!canary(h)) {
        vkh_finish(h);
        fprintf(stderr, "%s: FAIL: validation or synchronization validation is not active\n", test);
        return 1;
    }
    printf("%s: device %s, validation + synchronization validation on\n", test,
           h->vk.props.deviceName);
    return 0;
}

int vkh_finish(vkh *h)
{
    if (h->pool) {
        vkDeviceWaitIdle(h->vk.device);
        vkDestroyCommandPool(h->vk.device, h->pool, NULL);
    }
    h->pool = VK_NULL_HANDLE;
    return vkb_destroy(&h->vk);
}

VkResult vkh_readback_create(vkh *h, VkDeviceSize size, vkh_buffer *b)
{
    memset(b, 0, sizeof *b);
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(h->vk.device, &bi, NULL, &b->buffer);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->vk.device, b->buffer, &req);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < h->vk.memory.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((req.memoryTypeBits >> i & 1u) &&
            (h->vk.memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            type = i;
    if (type == UINT32_MAX) return VK_ERROR_FEATURE_NOT_PRESENT;
    b->coherent =
        (h->vk.memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    if ((r = vkAllocateMemory(h->vk.device, &ai, NULL, &b->memory)) != VK_SUCCESS) return r;
    if ((r = vkBindBufferMemory(h->vk.device, b->buffer, b->memory, 0)) != VK_SUCCESS) return r;
    return vkMapMemory(h->vk.device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
}

void vkh_readback_invalidate(vkh *h, vkh_buffer *b)
{
    if (b->coherent) return;
    VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                 .memory = b->memory,
                                 .size = VK_WHOLE_SIZE};
    vkInvalidateMappedMemoryRanges(h->vk.device, 1, &range);
}

void vkh_buffer_destroy(vkh *h, vkh_buffer *b)
{
    if (b->buffer) vkDestroyBuffer(h->vk.device, b->buffer, NULL);
    if (b->memory) vkFreeMemory(h->vk.device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

void vkh_readback_barrier(VkCommandBuffer cmd, const vkh_buffer *b, VkDeviceSize offset,
                          VkDeviceSize size)
{
    VkBufferMemoryBarrier m = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .buffer = b->buffer,
                               .offset = offset,
                               .size = size};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         NULL, 1, &m, 0, NULL);
}

VkResult vkh_once_begin(vkh *h, VkCommandBuffer *cmd, VkFence *fence)
{
    *cmd = VK_NULL_HANDLE;
    *fence = VK_NULL_HANDLE;
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = h->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkResult r = vkAllocateCommandBuffers(h->vk.device, &cai, cmd);
    if (r != VK_SUCCESS) return r;
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = vkCreateFence(h->vk.device, &fi, NULL, fence)) != VK_SUCCESS) return r;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    return vkBeginCommandBuffer(*cmd, &bi);
}

VkResult vkh_once_submit(vkh *h, VkCommandBuffer cmd, VkFence fence)
{
    VkResult r = vkEndCommandBuffer(cmd);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &cmd};
    if (r == VK_SUCCESS) r = vkQueueSubmit(h->vk.queue, 1, &si, fence);
    if (r == VK_SUCCESS) r = vkWaitForFences(h->vk.device, 1, &fence, VK_TRUE, UINT64_MAX);
    vkDestroyFence(h->vk.device, fence, NULL);
    vkFreeCommandBuffers(h->vk.device, h->pool, 1, &cmd);
    return r;
}
