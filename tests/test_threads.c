/* SPDX-License-Identifier: MIT */
/* Concurrency with plain threads calling skin_mesh:
 * 8 pthreads call skin_mesh at once on disjoint, interleaved ranges of one
 * output (strided 40-byte vertices, so neighbouring ranges share cache lines,
 * and planar SoA), starting before any other skin call so the first-use ISA
 * selection also races.  The result must equal a serial call bit for bit. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers under -std=c11 */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 6007, THREADS = 8, ROUNDS = 3 };

typedef struct shared {
    const rig *r;
    skin_method method;
    skin_output out;  /* bounds NULL: each worker has its own */
    pthread_barrier_t start;
} shared;

typedef struct worker {
    shared *sh;
    int index;
    skin_status status;
    size_t vertices;
    float bounds[6]; /* merged over the worker's ranges */
    float part[6];   /* one call's bounds */
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    skin_output out = sh->out;
    out.bounds = w->part;
    for (int c = 0; c < 3; ++c) w->bounds[c] = INFINITY, w->bounds[3 + c] = -INFINITY;
    pthread_barrier_wait(&sh->start);
    w->status = SKIN_OK;
    /* Ranges of 1..37 vertices dealt round-robin: thread i takes ranges
     * i, i + THREADS, ... */
    size_t first = 0;
    for (int range = 0; first < N; ++range) {
        size_t len = 1 + (size_t)(range * 7919) % 37;
        if (len > N - first) len = N - first;
        if (range % THREADS == w->index) {
            skin_status s = skin_mesh(&sh->r->mesh, &sh->r->palette, sh->method, &out, first, len);
            if (s != SKIN_OK) w->status = s;
            w->vertices += len;
            for (int c = 0; c < 3; ++c) {
                if (w->part[c] < w->bounds[c]) w->bounds[c] = w->part[c];
                if (w->part[3 + c] > w->bounds[3 + c]) w->bounds[3 + c] = w->part[3 + c];
            }
        }
        first += len;
    }
    return NULL;
}

/* The whole-mesh output in a buffer of N * 40 bytes. */
static skin_output make_output(unsigned char *buf, int soa)
{
    skin_output out = {0};
    float *base = (float *)buf;
    if (soa) {
        out.layout = SKIN_LAYOUT_SOA;
        for (int c = 0; c < 10; ++c) out.soa[c] = base + (size_t)c * N;
    } else {
        out.position = base, out.position_stride = 40;
        out.normal = base + 3, out.normal_stride = 40;
        out.tangent = base + 6, out.tangent_stride = 40;
    }
    return out;
}

static void run(skin_method method, int soa, uint64_t seed)
{
    rig r;
    rig_options o = {N, 50, 4, SKIN_JOINT_U16, SKIN_WEIGHT_UNORM16, method == SKIN_DQS, seed};
    if (rig_random(&r, &o)) abort();
    const size_t bytes = (size_t)N * 40;
    unsigned char *par = malloc(bytes), *ser = malloc(bytes);
    if (!par || !ser) abort();

    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.r = &r, sh.method = method, sh.out = make_output(par, soa);

    for (int round = 0; round < ROUNDS; ++round) {
        memset(par, 0xA5, bytes);
        pthread_barrier_init(&sh.start, NULL, THREADS);
        pthread_t tid[THREADS];
        worker w[THREADS];
        for (int i = 0; i < THREADS; ++i) {
            w[i] = (worker){&sh, i, SKIN_OK, 0, {0}, {0}};
            if (pthread_create(&tid[i], NULL, work, &w[i])) abort();
        }
        size_t total = 0;
        for (int i = 0; i < THREADS; ++i) {
            pthread_join(tid[i], NULL);
            CHECK_STATUS(w[i].status, SKIN_OK);
            total += w[i].vertices;
        }
        pthread_barrier_destroy(&sh.start);
        CHECK_INT(total, N);

        /* Serial reference after the threads (so the threads raced on the
         * first-use ISA selection in round 0). */
        memset(ser, 0xA5, bytes);
        skin_output so = make_output(ser, soa);
        float bounds[6];
        so.bounds = bounds;
        CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, method, &so, 0, N), SKIN_OK);
        int same = memcmp(par, ser, bytes) == 0;
        if (!same)
            fprintf(stderr, "FAILED: %s %s round %d: threaded output differs from serial\n",
                    method == SKIN_LBS ? "LBS" : "DQS", soa ? "soa" : "interleaved", round);
        CHECK(same);
        /* The threads' bounds combine to the serial bounds. */
        float merged[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
        for (int i = 0; i < THREADS; ++i)
            for (int c = 0; c < 3; ++c) {
                if (w[i].bounds[c] < merged[c]) merged[c] = w[i].bounds[c];
                if (w[i].bounds[3 + c] > merged[3 + c]) merged[3 + c] = w[i].bounds[3 + c];
            }
        CHECK(memcmp(merged, bounds, sizeof bounds) == 0);
    }
    printf("  %s %-12s %d threads x %d rounds: identical to serial\n",
           method == SKIN_LBS ? "LBS" : "DQS", soa ? "soa" : "interleaved", THREADS, ROUNDS);
    free(par);
    free(ser);
    rig_free(&r);
}

int main(void)
{
    run(SKIN_LBS, 0, 11);
    run(SKIN_DQS, 0, 12);
    run(SKIN_LBS, 1, 13);
    run(SKIN_DQS, 1, 14);
    return check_finish("test_threads");
}
