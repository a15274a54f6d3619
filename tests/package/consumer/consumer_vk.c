/* SPDX-License-Identifier: MIT */
/* Links against the installed skin_vk (and so the Vulkan loader); needs no
 * Vulkan device: it checks a name and a rejected argument. */
#include <skin/skin_vk.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *name = skin_vk_memory_mode_name(SKIN_VK_MEMORY_STAGING);
    skin_vk_stream *stream = NULL;
    VkResult r = skin_vk_stream_create(NULL, &stream);
    printf("consumer_vk: memory mode name \"%s\", stream_create(NULL) = %d\n", name, (int)r);
    return strcmp(name, "staging") == 0 && r == VK_ERROR_VALIDATION_FAILED_EXT && !stream ? 0 : 1;
}
