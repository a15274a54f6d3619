/* SPDX-License-Identifier: MIT */
/* Memory-floor probe: moves exactly the bytes a skinning case reads and
 * writes, with no arithmetic, so a kernel can be compared with the speed
 * limit of the memory system at the same size and thread count. */
#ifndef SKIN_BENCH_FLOOR_H
#define SKIN_BENCH_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/* Ranges passed to floor_run_* start at multiples of this many vertices, so
 * every block of every stream and of the output is 64-byte aligned. */
#define FLOOR_BLOCK 64

typedef struct floor_job {
    /* in[0 .. copy_count) are float streams whose bytes become the output
     * (4 * copy_count bytes per vertex, written contiguously); the rest
     * (joints, weights) are only read. */
    const void *in[26];
    size_t in_size[26]; /* bytes per vertex of each input stream */
    /* Float streams read only, after the rest, one after another over the
     * whole range: dense morph deltas, too many streams to read side by
     * side at memory speed. */
    const float *seq[48];
    int seq_count;
    int in_count, copy_count;
    char *out;          /* 64-byte aligned, 4 * copy_count bytes per vertex */
    int streaming;      /* non-temporal stores, sfence at the end */
} floor_job;

/* Each returns a value derived from the bytes read, so no load is dead. */
uint32_t floor_run_base(const floor_job *job, size_t first, size_t count);
#if defined(FLOOR_HAVE_WIDE)
uint32_t floor_run_wide(const floor_job *job, size_t first, size_t count);
#endif

#endif
