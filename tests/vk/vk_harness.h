/* SPDX-License-Identifier: MIT */
/* Vulkan test harness: the shared bootstrap (tests/support/vk_boot.h) with
 * the Khronos validation layer and synchronization validation, a check that
 * they are live, a command pool, and read-back buffers.  The device has
 * bufferDeviceAddress enabled where it supports it (h->vk.device_address). */
#ifndef SKIN_VK_HARNESS_H
#define SKIN_VK_HARNESS_H

#include "vk_boot.h"

#define VKH_SKIP 77 /* ctest SKIP_RETURN_CODE */

typedef struct vkh {
    vkb vk; /* instance, phys, device, family, queue, props, memory, messages */
    VkCommandPool pool;
} vkh;

/* 0 when ready; otherwise the exit code to return: VKH_SKIP when no device
 * (or no validation layer) and CI is not "true", else 1. */
int vkh_init(vkh *h, const char *test_name);
/* Destroys everything (the layer reports leaked objects here) and returns
 * the number of validation messages seen over the whole run. */
int vkh_finish(vkh *h);

/* A host-visible buffer for reading results back; 0 on success. */
typedef struct vkh_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    int coherent;
} vkh_buffer;
VkResult vkh_readback_create(vkh *h, VkDeviceSize size, vkh_buffer *b);
void vkh_readback_invalidate(vkh *h, vkh_buffer *b);
void vkh_buffer_destroy(vkh *h, vkh_buffer *b);
/* Records a TRANSFER_WRITE -> HOST_READ barrier on [offset, offset+size) of b. */
void vkh_readback_barrier(VkCommandBuffer cmd, const vkh_buffer *b, VkDeviceSize offset,
                          VkDeviceSize size);
/* A one-shot command buffer (begun) and an unsignalled fence for it. */
VkResult vkh_once_begin(vkh *h, VkCommandBuffer *cmd, VkFence *fence);
/* Ends cmd, submits it with fence, waits, and frees both. */
VkResult vkh_once_submit(vkh *h, VkCommandBuffer cmd, VkFence fence);

/* Counts a failure (vkh_failures) with the file and line when cond is false. */
extern int vkh_failures;
#define VKH_EXPECT(cond)                                                          \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);   \
            ++vkh_failures;                                                       \
        }                                                                         \
    } while (0)

#define VKH_CHECK(call)                                                                  \
    do {                                                                                 \
        VkResult vkh_r_ = (call);                                                        \
        if (vkh_r_ != VK_SUCCESS) {                                                      \
            fprintf(stderr, "%s:%d: %s -> VkResult %d\n", __FILE__, __LINE__, #call,     \
                    (int)vkh_r_);                                                        \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

#endif
