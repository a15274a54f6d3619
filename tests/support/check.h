/* SPDX-License-Identifier: MIT */
/* A tiny check helper for the core tests: no framework, just counters.
 *
 *   CHECK(cond)                    boolean check, prints the expression
 *   CHECK_INT(actual, expected)    integer equality, prints both
 *   CHECK_STATUS(expr, expected)   skin_status equality, prints both names
 *   CHECK_CLOSE(actual, expected, tol)
 *                                  |actual - expected| <= tol * max(1, |expected|)
 *                                  (relative to the magnitude); records the
 *                                  largest such error for check_error_report()
 *   check_error_report(what)       prints and resets the largest error seen
 *   return check_finish(name);     prints a summary; 0 if nothing failed
 *
 * Every helper is static so each test executable gets its own counters. */
#ifndef SKIN_TEST_CHECK_H
#define SKIN_TEST_CHECK_H

#include "skin/skin.h"

#include <math.h>
#include <stdio.h>

static int check_failed_count;
static int check_passed_count;
static double check_max_error;

static inline void check_result(int ok, const char *file, int line, const char *expr)
{
    if (ok) {
        ++check_passed_count;
        return;
    }
    ++check_failed_count;
    fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, expr);
}

#define CHECK(cond) check_result((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

static inline void check_int(long long actual, long long expected, const char *file, int line,
                      const char *expr)
{
    if (actual == expected) {
        ++check_passed_count;
        return;
    }
    ++check_failed_count;
    fprintf(stderr, "%s:%d: FAILED: %s is %lld, expected %lld\n", file, line, expr, actual,
            expected);
}

#define CHECK_INT(actual, expected) \
    check_int((long long)(actual), (long long)(expected), __FILE__, __LINE__, #actual)

static inline void check_status(skin_status actual, skin_status expected, const char *file, int line,
                         const char *expr)
{
    if (actual == expected) {
        ++check_passed_count;
        return;
    }
    ++check_failed_count;
    fprintf(stderr, "%s:%d: FAILED: %s returned %d (%s), expected %d (%s)\n", file, line, expr,
            (int)actual, skin_status_string(actual), (int)expected, skin_status_string(expected));
}

#define CHECK_STATUS(expr, expected) \
    check_status((expr), (expected), __FILE__, __LINE__, #expr)

/* Relative error of actual against expected, scaled by max(1, |expected|);
 * infinite when either is NaN or they differ in infinity. */
static inline double check_rel_error(double actual, double expected)
{
    if (isnan(actual) || isnan(expected)) return INFINITY;
    if (isinf(expected) || isinf(actual)) return actual == expected ? 0.0 : INFINITY;
    double mag = fabs(expected) > 1.0 ? fabs(expected) : 1.0;
    return fabs(actual - expected) / mag;
}

static inline int check_close(double actual, double expected, double tol, const char *file, int line,
                       const char *expr)
{
    double e = check_rel_error(actual, expected);
    if (!(e <= check_max_error)) check_max_error = e;
    if (e <= tol) {
        ++check_passed_count;
        return 1;
    }
    ++check_failed_count;
    fprintf(stderr, "%s:%d: FAILED: %s is %.9g, expected %.9g (rel. error %.3g > %.3g)\n", file,
            line, expr, actual, expected, e, tol);
    return 0;
}

#define CHECK_CLOSE(actual, expected, tol) \
    check_close((double)(actual), (double)(expected), (tol), __FILE__, __LINE__, #actual)

/* Like CHECK_CLOSE, with a printf-style label instead of the expression
 * (the label buffer is local; use it inside loops). */
#define CHECK_CLOSE_AT(actual, expected, tol, ...)                                  \
    do {                                                                          \
        char check_label_[160];                                                   \
        snprintf(check_label_, sizeof check_label_, __VA_ARGS__);                 \
        check_close((double)(actual), (double)(expected), (tol), __FILE__, __LINE__, \
                    check_label_);                                                \
    } while (0)

static inline void check_error_report(const char *what)
{
    printf("  %-58s largest rel. error %.3g\n", what, check_max_error);
    check_max_error = 0.0;
}

static inline int check_finish(const char *name)
{
    printf("%s: %d checks passed, %d failed (ISA %s)\n", name, check_passed_count,
           check_failed_count, skin_isa_name(skin_get_isa()));
    if (check_passed_count == 0) {
        fprintf(stderr, "%s: no checks ran\n", name);
        return 1;
    }
    return check_failed_count ? 1 : 0;
}

#endif
