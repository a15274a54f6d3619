#include "vk_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_messages;

int vkh_messages(void) { return g_messages; }

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)type, (void)user;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        ++g_messages;
        fprintf(stderr, "VALIDATION: %s\n", data && data->pMessage ? data->pMessage : "?");
    }
    return VK_FALSE;
}

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
    int before = g_messages, ok = 0;
    VkBuffer buf[2] = {0};
    VkDeviceMemory mem = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = 256,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkMemoryRequirements req;
    if (vkCreateBuffer(h->device, &bi, NULL, &buf[0]) ||
        vkCreateBuffer(h->device, &bi, NULL, &buf[1]))
        goto done;
    vkGetBufferMemoryRequirements(h->device, buf[0], &req);
    uint32_t type = 0;
    while (type < 32 && !(req.memoryTypeBits >> type & 1u)) ++type;
    VkDeviceSize stride = (req.size + req.alignment - 1) / req.alignment * req.alignment;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = 2 * stride,
                               .memoryTypeIndex = type};
    if (vkAllocateMemory(h->device, &ai, NULL, &mem) ||
        vkBindBufferMemory(h->device, buf[0], mem, 0) ||
        vkBindBufferMemory(h->device, buf[1], mem, stride))
        goto done;
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = h->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (vkAllocateCommandBuffers(h->device, &cai, &cmd) || vkBeginCommandBuffer(cmd, &begin))
        goto done;
    VkBufferCopy c = {0, 0, 256};
    vkCmdCopyBuffer(cmd, buf[0], buf[1], 1, &c);
    vkCmdCopyBuffer(cmd, buf[0], buf[1], 1, &c);
    vkEndCommandBuffer(cmd);
    ok = g_messages > before;
done:
    if (cmd) vkFreeCommandBuffers(h->device, h->pool, 1, &cmd);
    for (int i = 0; i < 2; ++i)
        if (buf[i]) vkDestroyBuffer(h->device, buf[i], NULL);
    if (mem) vkFreeMemory(h->device, mem, NULL);
    if (ok) fprintf(stderr, "(the message above is the expected canary)\n");
    g_messages = before;
    return ok;
}

int vkh_init(vkh *h, const char *test)
{
    memset(h, 0, sizeof *h);
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .enabledValidationFeatureCount = 1,
                                        .pEnabledValidationFeatures = enables};
    VkDebugUtilsMessengerCreateInfoEXT mi = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .pNext = &features,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message};
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = test,
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = &mi,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = 1,
                               .ppEnabledLayerNames = layers,
                               .enabledExtensionCount = 2,
                               .ppEnabledExtensionNames = exts};
    VkResult r = vkCreateInstance(&ii, NULL, &h->instance);
    if (r != VK_SUCCESS) {
        char why[96];
        snprintf(why, sizeof why, "vkCreateInstance with validation failed (VkResult %d)", (int)r);
        h->instance = VK_NULL_HANDLE;
        return no_device(test, why);
    }
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            h->instance, "vkCreateDebugUtilsMessengerEXT");
    mi.pNext = NULL;
    if (!create_messenger ||
        create_messenger(h->instance, &mi, NULL, &h->messenger) != VK_SUCCESS) {
        vkh_finish(h);
        fprintf(stderr, "%s: FAIL: no debug messenger\n", test);
        return 1;
    }
    uint32_t n = 1;
    r = vkEnumeratePhysicalDevices(h->instance, &n, &h->phys);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        vkh_finish(h);
        return no_device(test, "no Vulkan physical device");
    }
    vkGetPhysicalDeviceProperties(h->phys, &h->props);
    vkGetPhysicalDeviceMemoryProperties(h->phys, &h->memory);
    VkQueueFamilyProperties qf[16];
    n = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->phys, &n, qf);
    h->family = UINT32_MAX;
    for (uint32_t i = 0; i < n && h->family == UINT32_MAX; ++i)
        if (qf[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) h->family = i;
    if (h->family == UINT32_MAX) {
        vkh_finish(h);
        return no_device(test, "no graphics/compute queue");
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = h->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi};
    if ((r = vkCreateDevice(h->phys, &di, NULL, &h->device)) != VK_SUCCESS) {
        h->device = VK_NULL_HANDLE;
        vkh_finish(h);
        fprintf(stderr, "%s: FAIL: vkCreateDevice -> %d\n", test, (int)r);
        return 1;
    }
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = h->family};
    if (vkCreateCommandPool(h->device, &pi, NULL, &h->pool) != VK_SUCCESS) {
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
           h->props.deviceName);
    return 0;
}

int vkh_finish(vkh *h)
{
    if (h->device) {
        vkDeviceWaitIdle(h->device);
        if (h->pool) vkDestroyCommandPool(h->device, h->pool, NULL);
        vkDestroyDevice(h->device, NULL); /* the layer reports leaks here */
    }
    if (h->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                h->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy) destroy(h->instance, h->messenger, NULL);
    }
    if (h->instance) vkDestroyInstance(h->instance, NULL);
    memset(h, 0, sizeof *h);
    return g_messages;
}

VkResult vkh_readback_create(vkh *h, VkDeviceSize size, vkh_buffer *b)
{
    memset(b, 0, sizeof *b);
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(h->device, &bi, NULL, &b->buffer);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b->buffer, &req);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < h->memory.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((req.memoryTypeBits >> i & 1u) &&
            (h->memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            type = i;
    if (type == UINT32_MAX) return VK_ERROR_FEATURE_NOT_PRESENT;
    b->coherent =
        (h->memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    if ((r = vkAllocateMemory(h->device, &ai, NULL, &b->memory)) != VK_SUCCESS) return r;
    if ((r = vkBindBufferMemory(h->device, b->buffer, b->memory, 0)) != VK_SUCCESS) return r;
    return vkMapMemory(h->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
}

void vkh_readback_invalidate(vkh *h, vkh_buffer *b)
{
    if (b->coherent) return;
    VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                                 .memory = b->memory,
                                 .size = VK_WHOLE_SIZE};
    vkInvalidateMappedMemoryRanges(h->device, 1, &range);
}

void vkh_buffer_destroy(vkh *h, vkh_buffer *b)
{
    if (b->buffer) vkDestroyBuffer(h->device, b->buffer, NULL);
    if (b->memory) vkFreeMemory(h->device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}
