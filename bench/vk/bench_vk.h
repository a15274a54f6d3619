/* SPDX-License-Identifier: MIT */
/* Vulkan stream-ring benchmarks for skin-bench. */
#ifndef SKIN_BENCH_VK_H
#define SKIN_BENCH_VK_H

#include <stdio.h>

/* What skin-bench's summary reads from skin_bench_vk. */
typedef struct skin_bench_vk_summary {
    char device[256];         /* the device's name */
    const char *device_type;  /* "cpu", "discrete-gpu", ... */
    int cpu_device;           /* a CPU-type device (lavapipe): software Vulkan */
    double ring_over_malloc;  /* skinning into the mapped ring / into malloc'd memory (median) */
    double cpu_ns_per_vertex; /* LBS-4 p+n+t 100k into the ring on one CPU thread (median) */
    double gpu_ns_per_vertex; /* the same in the compute shader: GPU timestamps, else submit -> fence */
} skin_bench_vk_summary;

/* Creates its own instance and device (the one named by `device`, "INDEX" or
 * a substring of its name; NULL: the first), measures skinning into the
 * mapped ring against ordinary memory, the compute shader, the per-frame
 * flush and the staging copy, prints a table section to `table` and fills
 * `summary` (when not NULL).  quick: fewer repetitions (still >= 15).
 * Returns 0 on success, 1 when there is no Vulkan device, -1 when a
 * measurement failed. */
int skin_bench_vk(int quick, const char *device, FILE *table, skin_bench_vk_summary *summary);

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
