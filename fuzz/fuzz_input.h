/* SPDX-License-Identifier: MIT */
/* Shared by the fuzz targets: decodes a libFuzzer input into counts, enums
 * and float data that favours the values that break numeric code (NaN,
 * infinities, huge, denormal, signed zero), and reports oracle failures by
 * aborting so libFuzzer records the input as a crash. */
#ifndef SKIN_FUZZ_INPUT_H
#define SKIN_FUZZ_INPUT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_in {
    const uint8_t *p;
    size_t n, i;
    size_t wrap; /* where reading resumes past the end; >= n: read zeros */
} fz_in;

/* Past the end of the input the reader either starts over at `wrap` (data
 * streams: every vertex gets bytes the fuzzer controls) or reads zeros (the
 * header: a short input still decodes to a complete, plain case). */
static inline uint8_t fz_u8(fz_in *in)
{
    if (in->i >= in->n) {
        if (in->wrap >= in->n) return 0;
        in->i = in->wrap;
    }
    return in->p[in->i++];
}

static inline uint16_t fz_u16(fz_in *in)
{
    uint16_t lo = fz_u8(in);
    return (uint16_t)(lo | (uint16_t)(fz_u8(in) << 8));
}

static inline uint32_t fz_u32(fz_in *in)
{
    uint32_t lo = fz_u16(in);
    return lo | ((uint32_t)fz_u16(in) << 16);
}

/* One float: a tag byte picks a special value, a small fraction or raw bits. */
static inline float fz_float(fz_in *in)
{
    uint8_t tag = fz_u8(in);
    switch (tag & 15) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return -1.0f;
    case 3: return NAN;
    case 4: return INFINITY;
    case 5: return -INFINITY;
    case 6: return 1e30f;
    case 7: return 0.5f;
    case 8: return -0.0f;
    case 9: return 1e-42f; /* denormal */
    case 10: return -1e30f;
    case 11:
    case 12: return (float)(int8_t)fz_u8(in) / 32.0f;
    case 13:
    case 14: return (float)(int16_t)fz_u16(in) / 1024.0f;
    default: {
        uint32_t bits = fz_u32(in);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

/* A float that is always finite and |x| <= 32: for "plausible" data. */
static inline float fz_small(fz_in *in) { return (float)(int16_t)fz_u16(in) / 1024.0f; }

#define FZ_CHECK(cond)                                                                        \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: oracle failed: %s\n", __FILE__, __LINE__, #cond);         \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#endif /* SKIN_FUZZ_INPUT_H */
