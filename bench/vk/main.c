/* SPDX-License-Identifier: MIT */
/* skin-bench-vk: runs the Vulkan section of skin-bench on its own.
 * Usage: skin-bench-vk [--quick] */
#include <stdio.h>
#include <string.h>

#include "bench_vk.h"

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int rc = skin_bench_vk(quick, NULL, stdout, NULL);
    if (rc == 1) printf("no Vulkan device: nothing measured\n");
    return rc == 0 ? 0 : rc == 1 ? 77 : 1;
}
