/* SPDX-License-Identifier: MIT */
/* The memory-floor loop, compiled once with the baseline vector width
 * (floor_run_base: 128-bit, native on x86-64 and aarch64) and, on x86, once
 * more with -mavx2 (floor_run_wide, see floor_wide.c): SIMDe's 256-bit
 * stream store is only non-temporal when AVX is native. */
#include "floor.h"

#include <string.h>

#include <simde/x86/avx.h>

#if defined(FLOOR_WIDE)
typedef simde__m256 vec;
#define VLOAD(p) simde_mm256_loadu_ps(p)
#define VSTORE(p, v) simde_mm256_storeu_ps(p, v)
#define VSTREAM(p, v) simde_mm256_stream_ps(p, v)
#define VOR(a, b) simde_mm256_or_ps(a, b)
#define VZERO() simde_mm256_setzero_ps()
#define FLOOR_FN floor_run_wide
#else
typedef simde__m128 vec;
#define VLOAD(p) simde_mm_loadu_ps(p)
#define VSTORE(p, v) simde_mm_storeu_ps(p, v)
#define VSTREAM(p, v) simde_mm_stream_ps(p, v)
#define VOR(a, b) simde_mm_or_ps(a, b)
#define VZERO() simde_mm_setzero_ps()
#define FLOOR_FN floor_run_base
#endif
#define VF ((size_t)(sizeof(vec) / sizeof(float)))

uint32_t FLOOR_FN(const floor_job *j, size_t first, size_t count)
{
    const size_t end = first + count;
    char *out = j->out + first * 4 * (size_t)j->copy_count;
    vec acc = VZERO();
    size_t v = first;
    for (; v + FLOOR_BLOCK <= end; v += FLOOR_BLOCK) {
        /* Output: the block's floats stream by stream, one contiguous run. */
        for (int s = 0; s < j->copy_count; ++s, out += FLOOR_BLOCK * 4) {
            const float *src = (const float *)j->in[s] + v;
            float *dst = (float *)out;
            if (j->streaming)
                for (size_t i = 0; i < FLOOR_BLOCK; i += VF) VSTREAM(dst + i, VLOAD(src + i));
            else
                for (size_t i = 0; i < FLOOR_BLOCK; i += VF) VSTORE(dst + i, VLOAD(src + i));
        }
        /* Joints and weights: read only; a bitwise OR keeps the loads live. */
        for (int s = j->copy_count; s < j->in_count; ++s) {
            const float *src = (const float *)((const char *)j->in[s] + v * j->in_size[s]);
            const size_t floats = FLOOR_BLOCK * j->in_size[s] / 4;
            for (size_t i = 0; i < floats; i += VF) acc = VOR(acc, VLOAD(src + i));
        }
    }
    const size_t tail = end - v;
    uint32_t sink = 0;
    for (int s = 0; s < j->seq_count; ++s) {
        size_t i = first;
        for (; i + VF <= end; i += VF) acc = VOR(acc, VLOAD(j->seq[s] + i));
        for (; i < end; ++i) {
            uint32_t bits;
            memcpy(&bits, &j->seq[s][i], sizeof bits);
            sink |= bits;
        }
    }
    for (int s = 0; s < j->copy_count; ++s, out += tail * 4)
        memcpy(out, (const float *)j->in[s] + v, tail * 4);
    for (int s = j->copy_count; s < j->in_count; ++s) {
        const unsigned char *src = (const unsigned char *)j->in[s] + v * j->in_size[s];
        for (size_t i = 0; i < tail * j->in_size[s]; ++i) sink |= src[i];
    }
    if (j->streaming) simde_mm_sfence();
    float lanes[VF];
    VSTORE(lanes, acc);
    for (size_t i = 0; i < VF; ++i) {
        uint32_t bits;
        memcpy(&bits, &lanes[i], sizeof bits);
        sink |= bits;
    }
    return sink;
}
