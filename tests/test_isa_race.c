/* SPDX-License-Identifier: MIT */
/* skin_set_isa racing the first skin_get_isa (issue 10, defect 3): the
 * first query must never overwrite a concurrent override.  The choice is
 * made once per process, so every round runs in a fresh child process; TSan
 * (the "threads" label runs under it in CI) checks the accesses too. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "skin/skin.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_barrier_t start;

static void *getter(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < 1000; ++i) (void)skin_get_isa();
    return NULL;
}

static void *setter(void *arg)
{
    pthread_barrier_wait(&start);
    *(skin_status *)arg = skin_set_isa(SKIN_ISA_SCALAR);
    return NULL;
}

/* Child: 3 getters race one setter; afterwards the override must hold. */
static int one_round(void)
{
    pthread_t t[4];
    skin_status set = SKIN_ERROR_UNSUPPORTED;
    pthread_barrier_init(&start, NULL, 4);
    for (int i = 0; i < 3; ++i) pthread_create(&t[i], NULL, getter, NULL);
    pthread_create(&t[3], NULL, setter, &set);
    for (int i = 0; i < 4; ++i) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    return set == SKIN_OK && skin_get_isa() == SKIN_ISA_SCALAR ? 0 : 1;
}

int main(void)
{
    /* The scalar set is the override; it must differ from the automatic
     * choice for a lost override to be visible, so drop SKIN_ISA. */
    unsetenv("SKIN_ISA");
    enum { ROUNDS = 1000 };
    int lost = 0;
    for (int r = 0; r < ROUNDS; ++r) {
        pid_t pid = fork();
        if (pid == 0) _exit(one_round());
        int st = 0;
        CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
        lost += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    if (lost) fprintf(stderr, "FAILED: the override was lost in %d of %d rounds\n", lost, ROUNDS);
    CHECK_INT(lost, 0);
    return check_finish("test_isa_race");
}
