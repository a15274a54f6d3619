/* SPDX-License-Identifier: MIT */
/* The OpenMP driver: splits one mesh into cache-line-friendly chunks. */
#include "skin_internal.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int skin_has_openmp(void)
{
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

/* Chunks are whole multiples of 64 vertices: 64 * stride is a multiple of
 * 64 bytes for any stride, so chunk boundaries sit at the same offset within
 * a cache line as vertex 0 and threads never share a line of an aligned
 * output.  About four chunks a thread, taken dynamically, even out a busy
 * core.  A thread is worth waking only for a few microseconds of work
 * (MIN_PER_THREAD vertices), so small meshes use fewer threads than asked:
 * more would only add wake-up and hand-off time. */
enum { ALIGN = 64, MIN_CHUNK = 1024, MIN_PER_THREAD = 2048, CHUNKS_PER_THREAD = 4 };

static int threads_worth(size_t n, int threads)
{
    size_t useful = n / MIN_PER_THREAD;
    if (useful < 1) useful = 1;
    return useful < (size_t)threads ? (int)useful : threads;
}

static size_t chunk_size(size_t n, int threads)
{
    size_t c = n / ((size_t)threads * CHUNKS_PER_THREAD);
    if (c < MIN_CHUNK) c = MIN_CHUNK;
    return (c + ALIGN - 1) / ALIGN * ALIGN;
}

skin_status skin_mesh_parallel(const skin_mesh_desc *mesh, const skin_palette *palette,
                               skin_method method, const skin_output *out, int threads)
{
    skin_job job;
    skin_status s = skin_prepare_job(mesh, palette, method, out, 0,
                                     mesh ? mesh->vertex_count : 0, &job);
    if (s != SKIN_OK) return s;
    float bounds[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    const skin_kernel_fn kernel = skin_current_kernel(method);
    const size_t n = mesh->vertex_count;
#ifdef _OPENMP
    if (threads <= 0) threads = omp_get_max_threads();
#else
    threads = 1;
#endif
    threads = threads_worth(n, threads);
    const size_t chunk = chunk_size(n, threads);
    const long chunks = (long)((n + chunk - 1) / chunk);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (chunks > 1)
#endif
    for (long c = 0; c < chunks; ++c) {
        skin_job part = job;
        float part_bounds[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
        part.first = (size_t)c * chunk;
        part.count = n - part.first < chunk ? n - part.first : chunk;
        part.bounds = job.bounds ? part_bounds : NULL;
        kernel(&part);
        if (job.bounds) {
#ifdef _OPENMP
#pragma omp critical(skin_bounds)
#endif
            for (int k = 0; k < 3; ++k) {
                bounds[k] = fminf(bounds[k], part_bounds[k]);
                bounds[3 + k] = fmaxf(bounds[3 + k], part_bounds[3 + k]);
            }
        }
    }
    if (job.bounds) {
        skin_bounds_finish(bounds);
        for (int k = 0; k < 6; ++k) job.bounds[k] = bounds[k];
    }
    return SKIN_OK;
}
