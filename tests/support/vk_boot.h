/* SPDX-License-Identifier: MIT */
/* One small Vulkan bootstrap for the tests, the bench and the demo (not the
 * library, which always works on the caller's own device): instance with an
 * optional Khronos validation layer (and synchronization validation) and a
 * debug messenger that counts every message of warning severity or above,
 * a physical device picked by index, name or type, one device and one queue.
 * Not thread-safe; one vkb at a time per thread of setup. */
#ifndef SKIN_VK_BOOT_H
#define SKIN_VK_BOOT_H

#include <stddef.h>
#include <vulkan/vulkan.h>

typedef enum vkb_validation {
    VKB_VALIDATION_OFF = 0,
    VKB_VALIDATION_ON = 1,   /* VK_LAYER_KHRONOS_validation + messenger */
    VKB_VALIDATION_SYNC = 2  /* ... and synchronization validation */
} vkb_validation;

typedef struct vkb_options {
    const char *app_name;       /* also the prefix of printed messages */
    vkb_validation validation;
    VkQueueFlags queue_flags;   /* the queue family must have all of these */
    /* Device choice: "INDEX" (vkEnumeratePhysicalDevices order) or a
     * substring of deviceName; NULL or "" picks by prefer_cpu. */
    const char *device;
    int prefer_cpu;             /* 1: a CPU-type device (lavapipe) when present, else the first */
    int device_address;         /* 1: a Vulkan 1.2 instance, and the device's bufferDeviceAddress
                                   feature enabled where it has it (vkb.device_address says) */
} vkb_options;

typedef struct vkb {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    VkQueueFamilyProperties family_props;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    int device_address; /* bufferDeviceAddress is enabled */
    /* Warning-or-above validation messages so far; the messenger writes
     * here, so the vkb must not move between vkb_create and vkb_destroy. */
    int messages;
    /* Fault-injection tests set this: the driver's own report of an
     * out-of-memory error it returns ("VK_ERROR_OUT_OF_HOST_MEMORY", Mesa)
     * is then counted in oom_messages instead of messages. */
    int expect_oom;
    int oom_messages;
    const char *app_name;
} vkb;

/* Status of vkb_create. */
enum { VKB_OK = 0, VKB_NO_DEVICE = 1, VKB_FAILED = -1 };

/* Creates everything in *b.  VKB_OK; VKB_NO_DEVICE when there is no usable
 * instance, device or queue (or, with validation, no validation layer):
 * callers skip then; VKB_FAILED for other errors.  `why` (may be NULL)
 * receives a one-line reason.  On failure *b is destroyed already. */
int vkb_create(const vkb_options *o, vkb *b, char *why, size_t why_size);
/* Waits for the device, destroys device, messenger and instance (the layer
 * reports leaked objects here) and returns the message count of the run. */
int vkb_destroy(vkb *b);
/* "cpu", "discrete-gpu", "integrated-gpu", "virtual-gpu" or "other". */
const char *vkb_device_type_name(VkPhysicalDeviceType type);
/* Index of the first memory type in `bits` with all of `want`, or UINT32_MAX. */
uint32_t vkb_memory_type(const vkb *b, uint32_t bits, VkMemoryPropertyFlags want);

#endif
