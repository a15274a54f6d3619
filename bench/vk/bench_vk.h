/* Vulkan stream-ring benchmarks for skin-bench. */
#ifndef SKIN_BENCH_VK_H
#define SKIN_BENCH_VK_H

#include <stdio.h>

/* Creates its own instance and device (Mesa lavapipe when present, else the
 * first device), measures skinning into the mapped ring against ordinary
 * memory, the per-frame flush and the staging copy, and prints a table
 * section to `table`.  quick: fewer repetitions (still >= 15).  Returns 0 on
 * success, 1 when there is no Vulkan device, -1 when a measurement failed. */
int skin_bench_vk(int quick, FILE *table);

#endif
