/* SPDX-License-Identifier: MIT */
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

/* skin-bench --gpu: the CPU path against the GPU path on the Vulkan device
 * named by `device` ("INDEX" or a substring of its name; NULL: the first),
 * LBS and DQS, 4 influences p+n+t, at 10k/100k/1M vertices (quick: 100k),
 * medians over 21 frames after 3 warm-up ones, printed as a table to
 * `table`, and as JSON records (path, device_name, device_type, method,
 * vertices, attributes, output_format, cpu_ns_per_frame, gpu_ns_per_frame,
 * ...; one record per path, both carrying the pair measured together) to
 * the file `json` when not NULL.  Returns 0, 1 when there is no such
 * device, -1 when a measurement failed. */
int skin_bench_gpu(int quick, const char *device, const char *json, FILE *table);

#endif
