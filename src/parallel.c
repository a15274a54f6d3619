/* SPDX-License-Identifier: MIT */
/* skin_mesh_parallel on a small pool of worker threads, and the range split
 * for users' own job systems.
 *
 * Why not an OpenMP parallel region: its closing barrier waits for every
 * thread of the team, so when other work keeps the cores busy, one worker
 * that the scheduler has not run yet holds the caller for a whole time
 * slice (16 ms a frame was seen).  Here the caller skins chunks too, and
 * waits only for the chunks another thread has actually claimed; a worker
 * that wakes late finds nothing left and goes back to sleep. */
#define _POSIX_C_SOURCE 200809L
#include "skin_internal.h"

#include <math.h>

#ifndef SKIN_HAVE_THREADS
#define SKIN_HAVE_THREADS 0
#endif

/* Chunks are whole multiples of 64 vertices: 64 * stride is a multiple of
 * 64 bytes for any stride, so chunk boundaries sit at the same offset within
 * a cache line as vertex 0 and threads never share a line of an aligned
 * output.  About four chunks a thread, taken dynamically, even out a busy
 * core.  Waking a sleeping worker costs some microseconds (more on a
 * virtual machine), so a thread is worth it only for tens of microseconds
 * of work, MIN_PER_THREAD vertices: small meshes use fewer threads than
 * asked.  (With 2048, 10k vertices ran 1.3x slower on 2 threads than on 1.) */
enum { ALIGN = 64, MIN_CHUNK = 1024, MIN_PER_THREAD = 8192, CHUNKS_PER_THREAD = 4, MAX_WORKERS = 63 };

#if SKIN_HAVE_THREADS /* the pool's helpers: unused (an error) without it */
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

static void bounds_merge(float *into, const float *b)
{
    for (int k = 0; k < 3; ++k) {
        into[k] = fminf(into[k], b[k]);
        into[3 + k] = fmaxf(into[3 + k], b[3 + k]);
    }
}
#endif

skin_status skin_split_range(size_t vertex_count, uint32_t parts, uint32_t index, size_t *first,
                             size_t *count)
{
    if (!first || !count) return SKIN_ERROR_NULL_ARGUMENT;
    if (parts == 0 || index >= parts) return SKIN_ERROR_INVALID_RANGE;
    /* Whole blocks of ALIGN vertices, the spare ones to the last parts (the
     * last block may be partial, so the last part never ends up the largest
     * by more than a block). */
    const size_t blocks = vertex_count / ALIGN + (vertex_count % ALIGN != 0);
    const size_t q = blocks / parts, r = blocks % parts, plain = parts - r;
    const size_t b0 = index * q + (index > plain ? index - plain : 0);
    const size_t b1 = b0 + q + (index >= plain);
    const size_t v0 = b0 * ALIGN, v1 = b1 * ALIGN;
    *first = v0 < vertex_count ? v0 : vertex_count;
    *count = (v1 < vertex_count ? v1 : vertex_count) - *first;
    return SKIN_OK;
}

#if SKIN_HAVE_THREADS
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

/* One call's work.  It lives in the pool (one call at a time uses the
 * workers), so a worker that wakes after the call has returned still reads
 * valid memory.  Chunks are claimed by counting `ticket` down: its high
 * bits hold the call's generation and its low bits the chunks left, so a
 * claim needs no other field and a late one fails on the generation. */
typedef struct work {
    skin_kernel_fn kernel;
    skin_job job;
    size_t chunk, chunks;
    _Atomic uint64_t ticket; /* generation << 32 | chunks left */
    size_t done;             /* chunks finished; under the pool's lock */
    float bounds[6];         /* merged under the pool's lock */
} work;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;     /* workers: a new generation */
    pthread_cond_t finished; /* the caller: done == chunks */
    uint32_t generation;
    int joiners;             /* workers still allowed to join this generation */
    int workers;             /* started */
    int owned;               /* a call is using the pool */
    work w;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
            .finished = PTHREAD_COND_INITIALIZER};

/* Claims and skins chunks of generation gen until none is left; returns
 * how many it skinned and merges their bounds into `bounds`. */
static size_t run_chunks(work *w, uint32_t gen, float *bounds)
{
    size_t ran = 0;
    for (;;) {
        /* Compare and swap, not a plain decrement: a late worker must not
         * take a chunk of the next call's count that it will not run. */
        uint64_t t = atomic_load_explicit(&w->ticket, memory_order_acquire);
        uint32_t left;
        do {
            left = (uint32_t)t;
            if ((uint32_t)(t >> 32) != gen || left == 0) return ran;
        } while (!atomic_compare_exchange_weak_explicit(&w->ticket, &t, t - 1, memory_order_acquire,
                                                        memory_order_acquire));
        const size_t c = left - 1;
        skin_job part = w->job;
        float part_bounds[6];
        skin_bounds_empty(part_bounds);
        const size_t at = c * w->chunk;
        part.first = w->job.first + at;
        part.count = w->job.count - at < w->chunk ? w->job.count - at : w->chunk;
        part.bounds = w->job.bounds ? part_bounds : NULL;
        w->kernel(&part);
        if (w->job.bounds) bounds_merge(bounds, part_bounds);
        ++ran;
    }
}

/* Adds a participant's finished chunks and bounds to the call. */
static void report_chunks(work *w, size_t ran, const float *bounds)
{
    pthread_mutex_lock(&pool.lock);
    w->done += ran;
    if (w->job.bounds) bounds_merge(w->bounds, bounds);
    if (w->done == w->chunks) pthread_cond_signal(&pool.finished);
    pthread_mutex_unlock(&pool.lock);
}

/* arg: the generation before the call that started the worker, which it
 * joins like any later one. */
static void *worker(void *arg)
{
    uint32_t seen = (uint32_t)(uintptr_t)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.generation == seen || pool.joiners == 0) {
            seen = pool.generation;
            pthread_cond_wait(&pool.wake, &pool.lock);
        }
        seen = pool.generation;
        --pool.joiners;
        pthread_mutex_unlock(&pool.lock);
        float bounds[6];
        skin_bounds_empty(bounds);
        const size_t ran = run_chunks(&pool.w, seen, bounds);
        if (ran) report_chunks(&pool.w, ran, bounds);
        pthread_mutex_lock(&pool.lock);
    }
    return NULL;
}

/* Starts workers until `want` run (under the pool's lock).  Their signals
 * are blocked: a process's handlers run on its own threads.  A failed start
 * only means fewer helpers; the caller skins whatever they leave. */
static void start_workers(int want)
{
    if (want > MAX_WORKERS) want = MAX_WORKERS;
    if (pool.workers >= want) return;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    while (pool.workers < want) {
        pthread_t t;
        if (pthread_create(&t, &attr, worker, (void *)(uintptr_t)pool.generation) != 0) break;
        ++pool.workers;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* A forked child has none of the parent's workers. */
static void forget_workers(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.finished, NULL);
    pool.workers = pool.owned = pool.joiners = 0;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(NULL, NULL, forget_workers); }

static int default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_WORKERS + 1 ? MAX_WORKERS + 1 : (int)n;
}

/* Skins `job` with up to `threads` threads; returns 0 if the pool is in use
 * by another call (then the caller skins alone). */
static int run_on_pool(const skin_job *job, skin_kernel_fn kernel, int threads)
{
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&pool.lock);
    if (pool.owned) {
        pthread_mutex_unlock(&pool.lock);
        return 0;
    }
    pool.owned = 1;
    start_workers(threads - 1);
    work *w = &pool.w;
    w->kernel = kernel;
    w->job = *job;
    w->chunk = chunk_size(job->count, threads);
    w->chunks = (job->count + w->chunk - 1) / w->chunk;
    w->done = 0;
    skin_bounds_empty(w->bounds);
    const uint32_t gen = ++pool.generation;
    atomic_store_explicit(&w->ticket, (uint64_t)gen << 32 | w->chunks, memory_order_release);
    pool.joiners = threads - 1 < pool.workers ? threads - 1 : pool.workers;
    for (int i = 0; i < pool.joiners; ++i) pthread_cond_signal(&pool.wake);
    pthread_mutex_unlock(&pool.lock);

    float bounds[6];
    skin_bounds_empty(bounds);
    const size_t ran = run_chunks(w, gen, bounds);

    pthread_mutex_lock(&pool.lock);
    w->done += ran;
    if (job->bounds) bounds_merge(w->bounds, bounds);
    while (w->done < w->chunks) pthread_cond_wait(&pool.finished, &pool.lock);
    pool.joiners = 0;
    if (job->bounds) {
        skin_bounds_finish(w->bounds);
        for (int k = 0; k < 6; ++k) job->bounds[k] = w->bounds[k];
    }
    pool.owned = 0;
    pthread_mutex_unlock(&pool.lock);
    return 1;
}
#endif

int skin_has_threads(void) { return SKIN_HAVE_THREADS ? 1 : 0; }

skin_status skin_mesh_parallel(const skin_mesh_desc *mesh, const skin_palette *palette,
                               skin_method method, const skin_output *out, int threads)
{
    skin_job job;
    skin_status s = skin_prepare_job(mesh, palette, method, out, 0,
                                     mesh ? mesh->vertex_count : 0, &job);
    if (s != SKIN_OK) return s;
    const skin_kernel_fn kernel = skin_current_kernel(method);
#if SKIN_HAVE_THREADS
    if (threads <= 0) threads = default_threads();
    threads = threads_worth(job.count, threads);
    if (threads > 1 && run_on_pool(&job, kernel, threads)) return SKIN_OK;
#else
    (void)threads;
#endif
    /* One thread: the whole range at once gives the same bits and bounds. */
    skin_run_job(&job, kernel);
    return SKIN_OK;
}
