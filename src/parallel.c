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
 * output.  2048-vertex chunks keep scheduling overhead negligible. */
enum { CHUNK = 2048 };

skin_status skin_mesh_parallel(const skin_mesh_desc *mesh, const skin_palette *palette,
                               skin_method method, const skin_output *out, int threads)
{
    skin_job job;
    skin_status s = skin_prepare_job(mesh, palette, method, out, 0,
                                     mesh ? mesh->vertex_count : 0, &job);
    if (s != SKIN_OK) return s;
    float bounds[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    const skin_kernel_fn kernel = skin_current_kernel();
    const size_t n = mesh->vertex_count;
    const long chunks = (long)((n + CHUNK - 1) / CHUNK);
#ifdef _OPENMP
    if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads) if (chunks > 1)
#else
    (void)threads;
#endif
    for (long c = 0; c < chunks; ++c) {
        skin_job part = job;
        float part_bounds[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
        part.first = (size_t)c * CHUNK;
        part.count = n - part.first < CHUNK ? n - part.first : CHUNK;
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
    if (job.bounds)
        for (int k = 0; k < 6; ++k) job.bounds[k] = bounds[k];
    return SKIN_OK;
}
