/* SPDX-License-Identifier: MIT */
#include "vk_boot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)type;
    vkb *b = user;
    const char *msg = data ? data->pMessage : NULL;
    if (b->expect_oom && msg &&
        (!strcmp(msg, "VK_ERROR_OUT_OF_HOST_MEMORY") || !strcmp(msg, "VK_ERROR_OUT_OF_DEVICE_MEMORY"))) {
        ++b->oom_messages;
    } else if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        ++b->messages;
        fprintf(stderr, "%s: VALIDATION: %s\n", b->app_name,
                msg ? msg : "?");
    }
    return VK_FALSE;
}

static int layer_available(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) return 0;
    VkLayerProperties *p = calloc(n, sizeof *p);
    if (!p) return 0;
    int found = 0;
    if (vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i) found |= strcmp(p[i].layerName, name) == 0;
    free(p);
    return found;
}

static int fail(vkb *b, int status, char *why, size_t size, const char *msg, int vr)
{
    if (why && size) {
        if (vr) snprintf(why, size, "%s (VkResult %d)", msg, vr);
        else snprintf(why, size, "%s", msg);
    }
    vkb_destroy(b);
    return status;
}

/* The device named by o->device, else by o->prefer_cpu. */
static VkPhysicalDevice pick(const vkb_options *o, const VkPhysicalDevice *devs, uint32_t n)
{
    VkPhysicalDeviceProperties p;
    if (o->device && *o->device) {
        char *end;
        unsigned long i = strtoul(o->device, &end, 10);
        if (*end == '\0') return i < n ? devs[i] : VK_NULL_HANDLE;
        for (uint32_t k = 0; k < n; ++k) {
            vkGetPhysicalDeviceProperties(devs[k], &p);
            if (strstr(p.deviceName, o->device)) return devs[k];
        }
        return VK_NULL_HANDLE;
    }
    if (o->prefer_cpu)
        for (uint32_t k = 0; k < n; ++k) {
            vkGetPhysicalDeviceProperties(devs[k], &p);
            if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) return devs[k];
        }
    return devs[0];
}

int vkb_create(const vkb_options *o, vkb *b, char *why, size_t why_size)
{
    memset(b, 0, sizeof *b);
    b->app_name = o->app_name ? o->app_name : "vkb";
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    int validation = o->validation != VKB_VALIDATION_OFF;
    if (validation && !layer_available(layer))
        return fail(b, VKB_NO_DEVICE, why, why_size, "VK_LAYER_KHRONOS_validation is not installed", 0);
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .enabledValidationFeatureCount = 1,
                                        .pEnabledValidationFeatures = enables};
    int sync = o->validation == VKB_VALIDATION_SYNC;
    VkDebugUtilsMessengerCreateInfoEXT mi = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .pNext = sync ? &features : NULL,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = b};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = b->app_name,
                             .apiVersion = o->device_address ? VK_API_VERSION_1_2 : VK_API_VERSION_1_1};
    VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = validation ? &mi : NULL,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = validation ? 1u : 0u,
                               .ppEnabledLayerNames = &layer,
                               .enabledExtensionCount = validation ? (sync ? 2u : 1u) : 0u,
                               .ppEnabledExtensionNames = exts};
    VkResult r = vkCreateInstance(&ii, NULL, &b->instance);
    if (r != VK_SUCCESS) {
        b->instance = VK_NULL_HANDLE;
        return fail(b, VKB_NO_DEVICE, why, why_size, "vkCreateInstance failed", (int)r);
    }
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(b->instance, "vkCreateDebugUtilsMessengerEXT");
        mi.pNext = NULL;
        if (!create || create(b->instance, &mi, NULL, &b->messenger) != VK_SUCCESS) {
            b->messenger = VK_NULL_HANDLE;
            return fail(b, VKB_FAILED, why, why_size, "no debug messenger", 0);
        }
    }
    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    r = vkEnumeratePhysicalDevices(b->instance, &n, devs);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
        return fail(b, VKB_NO_DEVICE, why, why_size, "no Vulkan physical device", 0);
    if (!(b->phys = pick(o, devs, n)))
        return fail(b, VKB_FAILED, why, why_size, "no Vulkan device matches the --device choice", 0);
    vkGetPhysicalDeviceProperties(b->phys, &b->props);
    vkGetPhysicalDeviceMemoryProperties(b->phys, &b->memory);
    VkQueueFamilyProperties qf[16];
    n = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(b->phys, &n, qf);
    b->family = UINT32_MAX;
    for (uint32_t i = 0; i < n && b->family == UINT32_MAX; ++i)
        if ((qf[i].queueFlags & o->queue_flags) == o->queue_flags) b->family = i;
    if (b->family == UINT32_MAX)
        return fail(b, VKB_NO_DEVICE, why, why_size, "the device has no suitable queue family", 0);
    b->family_props = qf[b->family];
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = b->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkPhysicalDeviceBufferDeviceAddressFeatures address = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
    if (o->device_address && b->props.apiVersion >= VK_API_VERSION_1_2) {
        VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &address};
        vkGetPhysicalDeviceFeatures2(b->phys, &f2);
        address.bufferDeviceAddressCaptureReplay = address.bufferDeviceAddressMultiDevice = VK_FALSE;
        b->device_address = address.bufferDeviceAddress == VK_TRUE;
    }
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = b->device_address ? &address : NULL,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi};
    if ((r = vkCreateDevice(b->phys, &di, NULL, &b->device)) != VK_SUCCESS) {
        b->device = VK_NULL_HANDLE;
        return fail(b, VKB_FAILED, why, why_size, "vkCreateDevice failed", (int)r);
    }
    vkGetDeviceQueue(b->device, b->family, 0, &b->queue);
    return VKB_OK;
}

int vkb_destroy(vkb *b)
{
    if (b->device) {
        vkDeviceWaitIdle(b->device);
        vkDestroyDevice(b->device, NULL);
    }
    if (b->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(b->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(b->instance, b->messenger, NULL);
    }
    if (b->instance) vkDestroyInstance(b->instance, NULL);
    int messages = b->messages;
    const char *name = b->app_name;
    memset(b, 0, sizeof *b);
    b->app_name = name;
    return messages;
}

const char *vkb_device_type_name(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    default: return "other";
    }
}

uint32_t vkb_memory_type(const vkb *b, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < b->memory.memoryTypeCount; ++i)
        if ((bits >> i & 1u) && (b->memory.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
}
