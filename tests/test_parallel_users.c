/* SPDX-License-Identifier: MIT */
/* skin_mesh_parallel called from several user threads at once, each with
 * its own output, on shared inputs: one call at a time gets the pool, the
 * others skin alone, and every result is bit-identical to one skin_mesh
 * call over the whole mesh.  Then thousands of calls back to back while a
 * spinning thread on every CPU keeps the workers from running on time: a
 * worker that wakes for one call while the next has begun must neither run
 * nor lose the new call's chunks (a lost chunk hangs the call, and the test
 * times out).  Meaningful under ThreadSanitizer (the tsan configuration of
 * scripts/run-tests.sh); elsewhere a plain correctness test. */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { USERS = 4, ROUNDS = 3, VERTICES = 2 * 8192 + 37, SPINNERS_MAX = 16 };
enum { BACK_TO_BACK = 1000, BACK_TO_BACK_VERTICES = 8 * 8192 };

static rig the_rig;
static float *expect;
static float *outs[USERS];
static int mismatches[USERS];

static skin_output out_for(float *buf)
{
    skin_output o = {0};
    o.layout = SKIN_LAYOUT_STRIDED;
    o.position = buf, o.position_stride = 40;
    o.normal = buf + 3, o.normal_stride = 40;
    o.tangent = buf + 6, o.tangent_stride = 40;
    return o;
}

static void *user(void *arg)
{
    const int u = (int)(intptr_t)arg;
    for (int r = 0; r < ROUNDS; ++r) {
        const skin_method method = (u + r) % 2 ? SKIN_DQS : SKIN_LBS;
        skin_output o = out_for(outs[u]);
        memset(outs[u], 0, sizeof(float) * 10 * VERTICES);
        if (skin_mesh_parallel(&the_rig.mesh, &the_rig.palette, method, &o, 2 + (u + r) % 3) != SKIN_OK) {
            ++mismatches[u];
            continue;
        }
        if (memcmp(outs[u], expect + (size_t)(method == SKIN_DQS) * 10 * VERTICES,
                   sizeof(float) * 10 * VERTICES) != 0)
            ++mismatches[u];
    }
    return NULL;
}

static atomic_int stop_spinning;

static void *spin(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&stop_spinning, memory_order_relaxed)) {
    }
    return NULL;
}

/* Back-to-back calls on a busy machine, cheap ones (one influence,
 * positions only) on enough vertices for 8 threads, so that many workers
 * wake late; every 100th result compared. */
static void back_to_back(void)
{
    rig r;
    rig_options opt = {BACK_TO_BACK_VERTICES, 40, 1, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 9};
    CHECK(rig_random(&r, &opt) == 0);
    float *want = calloc(3 * BACK_TO_BACK_VERTICES, sizeof(float));
    float *got = calloc(3 * BACK_TO_BACK_VERTICES, sizeof(float));
    CHECK(want && got);
    skin_output ow = {.position = want, .position_stride = 12}, og = {.position = got, .position_stride = 12};
    CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, SKIN_LBS, &ow, 0, BACK_TO_BACK_VERTICES), SKIN_OK);

    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int spinners = cpus < 1 ? 1 : cpus > SPINNERS_MAX ? SPINNERS_MAX : (int)cpus;
    pthread_t t[SPINNERS_MAX];
    for (int i = 0; i < spinners; ++i) CHECK(pthread_create(&t[i], NULL, spin, NULL) == 0);
    for (int i = 0; i < BACK_TO_BACK; ++i) {
        CHECK_STATUS(skin_mesh_parallel(&r.mesh, &r.palette, SKIN_LBS, &og, 2 + i % 7), SKIN_OK);
        if (i % 100 == 0) {
            CHECK(memcmp(got, want, sizeof(float) * 3 * BACK_TO_BACK_VERTICES) == 0);
            memset(got, 0, sizeof(float) * 3 * BACK_TO_BACK_VERTICES);
        }
    }
    atomic_store(&stop_spinning, 1);
    for (int i = 0; i < spinners; ++i) CHECK(pthread_join(t[i], NULL) == 0);
    free(want), free(got);
    rig_free(&r);
}

int main(void)
{
    rig_options opt = {VERTICES, 40, 4, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 7};
    if (rig_random(&the_rig, &opt)) return 1;
    expect = calloc(2 * 10 * VERTICES, sizeof(float));
    CHECK(expect != NULL);
    for (int m = 0; m < 2; ++m) {
        skin_output o = out_for(expect + (size_t)m * 10 * VERTICES);
        CHECK_STATUS(skin_mesh(&the_rig.mesh, &the_rig.palette, m ? SKIN_DQS : SKIN_LBS, &o, 0, VERTICES),
                     SKIN_OK);
    }
    pthread_t t[USERS];
    for (int u = 0; u < USERS; ++u) {
        outs[u] = calloc(10 * VERTICES, sizeof(float));
        CHECK(outs[u] != NULL);
    }
    for (int u = 0; u < USERS; ++u) CHECK(pthread_create(&t[u], NULL, user, (void *)(intptr_t)u) == 0);
    for (int u = 0; u < USERS; ++u) {
        CHECK(pthread_join(t[u], NULL) == 0);
        CHECK_INT(mismatches[u], 0);
    }
    back_to_back();
    for (int u = 0; u < USERS; ++u) free(outs[u]);
    free(expect);
    rig_free(&the_rig);
    return check_finish("test_parallel_users");
}
