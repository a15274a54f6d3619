/* SPDX-License-Identifier: MIT */
/* The vector layer under simd/kernel.c: SKIN_W lanes of float / int32 on
 * SIMDe.  Only this file differs between ISAs; the sections for the three
 * widths sit side by side so they stay comparable.
 *   SKIN_W == 4:  SSE2 on x86, NEON on aarch64 (SIMDe maps SSE to NEON)
 *   SKIN_W == 8:  AVX2 + FMA
 *   SKIN_W == 16: AVX-512 F/VL/BW/DQ
 * SIMDe 0.7 lacks some AVX-512 operations (512-bit gather, stream, u8/u16
 * widening, cvtepi32_ps, cvtps_epi32); they are composed here from
 * operations it has.  Where the build is native, the widening and
 * cvtps_epi32 come from the compiler's intrinsics instead (the portable
 * build tests the composed forms). */
#ifndef SKIN_SIMD_VEC_H
#define SKIN_SIMD_VEC_H

#include <stdint.h>
#include <string.h>

/* Loops over components, rows and influences must unroll fully so their
 * arrays live in registers. */
#if defined(__clang__) /* which ignores GCC's pragma */
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif

#if SKIN_W == 16
#include <simde/x86/avx512.h>
typedef simde__m512 vf;
typedef simde__m512i vi;
typedef simde__mmask16 vm;
#define VEC_BYTES 64
static inline vf v_zero(void) { return simde_mm512_setzero_ps(); }
static inline vf v_set1(float x) { return simde_mm512_set1_ps(x); }
static inline vf v_loadu(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void v_storeu(float *p, vf a) { simde_mm512_storeu_ps(p, a); }
static inline void v_stream(float *p, vf a) /* p 64-byte aligned */
{
#if defined(SIMDE_X86_AVX512F_NATIVE) /* SIMDe 0.7 has no 512-bit stream */
    _mm512_stream_ps(p, a);
#else
    simde_mm256_stream_ps(p, simde_mm512_castps512_ps256(a));
    simde_mm256_stream_ps(p + 8, simde_mm256_castpd_ps(
        simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(a), 1)));
#endif
}
static inline vf v_add(vf a, vf b) { return simde_mm512_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return simde_mm512_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return simde_mm512_mul_ps(a, b); }
static inline vf v_fmadd(vf a, vf b, vf c) { return simde_mm512_fmadd_ps(a, b, c); }
static inline vf v_fnmadd(vf a, vf b, vf c) { return simde_mm512_fnmadd_ps(a, b, c); }
static inline vf v_div(vf a, vf b) { return simde_mm512_div_ps(a, b); }
static inline vf v_sqrt(vf a) { return simde_mm512_sqrt_ps(a); }
static inline vf v_min(vf a, vf b) { return simde_mm512_min_ps(a, b); }
static inline vf v_max(vf a, vf b) { return simde_mm512_max_ps(a, b); }
static inline vm v_lt(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline vf v_select(vm m, vf t, vf f) { return simde_mm512_mask_blend_ps(m, f, t); }
static inline vi v_select_i32(vm m, vi t, vi f) { return simde_mm512_mask_blend_epi32(m, f, t); }
static inline int v_any(vm m) { return m != 0; }
static inline vi v_min_i32(vi a, vi b) { return simde_mm512_min_epi32(a, b); }
static inline void v_store_i32(int32_t *p, vi a) { simde_mm512_storeu_si512(p, a); }
static inline vi v_set1_i32(int32_t x) { return simde_mm512_set1_epi32(x); }
static inline vf v_from_u32(vi a) { return simde_mm512_cvtepu32_ps(a); }
/* SIMDe 0.7 has no 512-bit cvtps_epi32: the native one, else two 256-bit
 * halves (the same rounding, to nearest even). */
static inline vi v_round_i32(vf a)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtps_epi32(a);
#else
    simde__m256i lo = simde_mm256_cvtps_epi32(simde_mm512_castps512_ps256(a));
    simde__m256i hi = simde_mm256_cvtps_epi32(simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(a), 1)));
    return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(lo), hi, 1);
#endif
}
static inline vi v_add_i32(vi a, vi b) { return simde_mm512_add_epi32(a, b); }
static inline vi v_and_i32(vi a, vi b) { return simde_mm512_and_si512(a, b); }
static inline vi v_or_i32(vi a, vi b) { return simde_mm512_or_si512(a, b); }
static inline vi v_loadu_i32(const void *p) { return simde_mm512_loadu_si512(p); }
static inline vf v_as_float(vi a) { return simde_mm512_castsi512_ps(a); }
/* 128-bit chunk c (0..3); a switch keeps the immediates literal at -O0 */
static inline simde__m128 v_chunk(vf a, int c)
{
    switch (c) {
    case 0: return simde_mm512_castps512_ps128(a);
    case 1: return simde_mm512_extractf32x4_ps(a, 1);
    case 2: return simde_mm512_extractf32x4_ps(a, 2);
    default: return simde_mm512_extractf32x4_ps(a, 3);
    }
}
/* Chunk c of a, then chunk c of b, in 256 bits (the index rows' upper
 * halves are unused). */
SIMDE_ALIGN_TO_64 static const int32_t chunk_pair_idx[4][16] = {
    {0, 1, 2, 3, 16, 17, 18, 19}, {4, 5, 6, 7, 20, 21, 22, 23}, {8, 9, 10, 11, 24, 25, 26, 27}, {12, 13, 14, 15, 28, 29, 30, 31}};
static inline simde__m256 v_chunk_pair(vf a, vf b, int c)
{
    return simde_mm512_castps512_ps256(simde_mm512_permutex2var_ps(a, simde_mm512_load_si512(chunk_pair_idx[c]), b));
}
static inline int v_all_eq_i32(vi a, vi b) { return simde_mm512_cmpeq_epi32_mask(a, b) == 0xffff; }
/* Expanding loads, for sparse lists (8 and 16 lanes): with
 * e = v_expander_for(m, whole), m != 0, v_expand(&e, p) gives the lanes
 * set in m p[0], p[1], ... in lane order, and the others +0.  Reads only
 * p[0 .. popcount(m)), or up to p[0 .. W) where whole says they are there. */
typedef struct v_expander { vm lanes; } v_expander;
static inline v_expander v_expander_for(uint32_t m, int whole) { return (void)whole, (v_expander){(vm)m}; }
static inline vf v_expand(const v_expander *e, const float *p)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_maskz_expandloadu_ps(e->lanes, p);
#else /* SIMDe 0.7 has no expand */
    float lanes[16] = {0};
    for (int j = 0, k = 0; j < 16; ++j)
        if (e->lanes >> j & 1) lanes[j] = p[k++];
    return v_loadu(lanes);
#endif
}
/* The lanes of the block at vertex b that the W sorted indices at idx
 * name, as a bit mask, and in *count how many of the indices fall in the
 * block (see sparse_lanes in morph.h). */
static inline uint32_t v_lanes_named(const uint32_t *idx, uint32_t b, uint32_t *count)
{
    const vi rel = simde_mm512_sub_epi32(simde_mm512_loadu_si512(idx), simde_mm512_set1_epi32((int32_t)b));
    *count = (uint32_t)__builtin_popcount(simde_mm512_cmple_epu32_mask(rel, simde_mm512_set1_epi32(15)));
    const vi bits = simde_mm512_sllv_epi32(simde_mm512_set1_epi32(1), rel);
    const simde__m256i h = simde_mm256_or_si256(simde_mm512_castsi512_si256(bits), simde_mm512_extracti64x4_epi64(bits, 1));
    simde__m128i x = simde_mm_or_si128(simde_mm256_castsi256_si128(h), simde_mm256_extracti128_si256(h, 1));
    x = simde_mm_or_si128(x, simde_mm_shuffle_epi32(x, 0x4E));
    x = simde_mm_or_si128(x, simde_mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)simde_mm_cvtsi128_si32(x) & 0xFFFFu; /* lanes past the block shifted beyond bit 15 or out */
}
#define v_slli_i32(a, n) simde_mm512_slli_epi32(a, n)
#if defined(SIMDE_X86_AVX512F_NATIVE) /* one vpmovzx each */
static inline vi v_load_u16(const uint16_t *p) { return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)p)); }
static inline vi v_load_u8(const uint8_t *p) { return _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)p)); }
#else
/* Zero-extends 16 uint16 in the low half of x: element i moves to 16-bit
 * slot 2i, odd slots zeroed. */
static inline vi v_widen_u16(simde__m256i x)
{
    static const uint16_t order[32] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0,
                                       8, 0, 9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0};
    return simde_mm512_maskz_permutexvar_epi16(0x55555555u, simde_mm512_loadu_si512(order),
                                               simde_mm512_castsi256_si512(x));
}
static inline vi v_load_u16(const uint16_t *p) { return v_widen_u16(simde_mm256_loadu_si256(p)); }
static inline vi v_load_u8(const uint8_t *p) { return v_widen_u16(simde_mm256_cvtepu8_epi16(simde_mm_loadu_si128(p))); }
#endif
/* Four lanes' 4-float rows -> one vector whose 128-bit lane k holds row 4k+a. */
static inline vf v_rows(const float *const *r, int a)
{
    vf x = simde_mm512_castps128_ps512(simde_mm_loadu_ps(r[a]));
    x = simde_mm512_insertf32x4(x, simde_mm_loadu_ps(r[4 + a]), 1);
    x = simde_mm512_insertf32x4(x, simde_mm_loadu_ps(r[8 + a]), 2);
    return simde_mm512_insertf32x4(x, simde_mm_loadu_ps(r[12 + a]), 3);
}
#define V_PAIRS_BY_TRN 0 /* see v_pair_lanes */
static inline vf v_unpacklo(vf a, vf b) { return simde_mm512_unpacklo_ps(a, b); }
static inline vf v_unpackhi(vf a, vf b) { return simde_mm512_unpackhi_ps(a, b); }
static inline vf v_unpacklo64(vf a, vf b)
{
    return simde_mm512_castpd_ps(simde_mm512_unpacklo_pd(simde_mm512_castps_pd(a), simde_mm512_castps_pd(b)));
}
static inline vf v_unpackhi64(vf a, vf b)
{
    return simde_mm512_castpd_ps(simde_mm512_unpackhi_pd(simde_mm512_castps_pd(a), simde_mm512_castps_pd(b)));
}
/* 64-bit element 0 of each 128-bit lane from a, element 1 from b. */
static inline vf v_blend64(vf a, vf b)
{
    return simde_mm512_castpd_ps(simde_mm512_mask_blend_pd(0xAA, simde_mm512_castps_pd(a), simde_mm512_castps_pd(b)));
}

/* Cross-lane step of the AoS packing (see store_packed in kernel.c): lane k
 * of c[i] holds 16-byte chunk i of 4-vertex group k, for n = 6 or 10 chunks
 * per group; output register m gets chunks 4m .. 4m+3 in memory order, with
 * two two-source permutes and a blend.  Tables: chunk sources and qword
 * permute indices (generated from g = 4m + s, k = g / n, i = g % n). */
static const int lane_src6[6][4] = {{0, 1, 2, 3}, {4, 5, 0, 1}, {2, 3, 4, 5}, {0, 1, 2, 3}, {4, 5, 0, 1}, {2, 3, 4, 5}};
SIMDE_ALIGN_TO_64 static const int64_t lane_idx6[6][2][8] = {
    {{0, 1, 8, 9, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 8, 9}},
    {{0, 1, 8, 9, 0, 0, 0, 0}, {0, 0, 0, 0, 2, 3, 10, 11}},
    {{2, 3, 10, 11, 0, 0, 0, 0}, {0, 0, 0, 0, 2, 3, 10, 11}},
    {{4, 5, 12, 13, 0, 0, 0, 0}, {0, 0, 0, 0, 4, 5, 12, 13}},
    {{4, 5, 12, 13, 0, 0, 0, 0}, {0, 0, 0, 0, 6, 7, 14, 15}},
    {{6, 7, 14, 15, 0, 0, 0, 0}, {0, 0, 0, 0, 6, 7, 14, 15}}};
static const int lane_src10[10][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 0, 1}, {2, 3, 4, 5}, {6, 7, 8, 9}, {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 0, 1}, {2, 3, 4, 5}, {6, 7, 8, 9}};
SIMDE_ALIGN_TO_64 static const int64_t lane_idx10[10][2][8] = {
    {{0, 1, 8, 9, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 8, 9}},
    {{0, 1, 8, 9, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 8, 9}},
    {{0, 1, 8, 9, 0, 0, 0, 0}, {0, 0, 0, 0, 2, 3, 10, 11}},
    {{2, 3, 10, 11, 0, 0, 0, 0}, {0, 0, 0, 0, 2, 3, 10, 11}},
    {{2, 3, 10, 11, 0, 0, 0, 0}, {0, 0, 0, 0, 2, 3, 10, 11}},
    {{4, 5, 12, 13, 0, 0, 0, 0}, {0, 0, 0, 0, 4, 5, 12, 13}},
    {{4, 5, 12, 13, 0, 0, 0, 0}, {0, 0, 0, 0, 4, 5, 12, 13}},
    {{4, 5, 12, 13, 0, 0, 0, 0}, {0, 0, 0, 0, 6, 7, 14, 15}},
    {{6, 7, 14, 15, 0, 0, 0, 0}, {0, 0, 0, 0, 6, 7, 14, 15}},
    {{6, 7, 14, 15, 0, 0, 0, 0}, {0, 0, 0, 0, 6, 7, 14, 15}}};
static inline __attribute__((always_inline)) vf v_lane_gather(const vf *c, const int n, const int m)
{
    const int *s = n == 6 ? lane_src6[m] : lane_src10[m];
    const int64_t *idx = n == 6 ? lane_idx6[m][0] : lane_idx10[m][0];
    simde__m512d lo = simde_mm512_permutex2var_pd(simde_mm512_castps_pd(c[s[0]]), simde_mm512_load_si512(idx),
                                                  simde_mm512_castps_pd(c[s[1]]));
    simde__m512d hi = simde_mm512_permutex2var_pd(simde_mm512_castps_pd(c[s[2]]), simde_mm512_load_si512(idx + 8),
                                                  simde_mm512_castps_pd(c[s[3]]));
    return simde_mm512_castpd_ps(simde_mm512_mask_blend_pd(0xF0, lo, hi));
}

/* Positions only (3 floats a vertex): output register m of the packed
 * x y z x y z ... stream, from two permutes (f = 16m + t: vertex f / 3,
 * component f mod 3). */
#define V_HAS_PACK3 1
SIMDE_ALIGN_TO_64 static const int32_t pack3_xy[3][16] = {{0, 16, 0, 1, 17, 0, 2, 18, 0, 3, 19, 0, 4, 20, 0, 5}, {21, 0, 6, 22, 0, 7, 23, 0, 8, 24, 0, 9, 25, 0, 10, 26}, {0, 11, 27, 0, 12, 28, 0, 13, 29, 0, 14, 30, 0, 15, 31, 0}};
SIMDE_ALIGN_TO_64 static const int32_t pack3_z[3][16] = {{0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0}, {0, 5, 0, 0, 6, 0, 0, 7, 0, 0, 8, 0, 0, 9, 0, 0}, {10, 0, 0, 11, 0, 0, 12, 0, 0, 13, 0, 0, 14, 0, 0, 15}};
static const simde__mmask16 pack3_zmask[3] = {0x4924, 0x2492, 0x9249};
static inline __attribute__((always_inline)) vf v_pack3(const vf *o, const int m)
{
    vf r = simde_mm512_permutex2var_ps(o[0], simde_mm512_load_si512(pack3_xy[m]), o[1]);
    return simde_mm512_mask_permutexvar_ps(r, pack3_zmask[m], simde_mm512_load_si512(pack3_z[m]), o[2]);
}

/* 16 registers of 12 used floats (one 3x4 matrix per lane) into the 12
 * SoA components: 4x4 in-lane transposes, then 128-bit lane gathers. */
static inline __attribute__((always_inline)) void v_transpose16x12(const vf *a, vf *m)
{
    vf t[16], u[16];
    for (int i = 0; i < 8; ++i) {
        t[2 * i] = simde_mm512_unpacklo_ps(a[2 * i], a[2 * i + 1]);
        t[2 * i + 1] = simde_mm512_unpackhi_ps(a[2 * i], a[2 * i + 1]);
    }
    for (int i = 0; i < 4; ++i) { /* u[4i+q], lane c: vertices 4i..4i+3, element 4c+q */
        u[4 * i + 0] = v_unpacklo64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 1] = v_unpackhi64(t[4 * i], t[4 * i + 2]);
        u[4 * i + 2] = v_unpacklo64(t[4 * i + 1], t[4 * i + 3]);
        u[4 * i + 3] = v_unpackhi64(t[4 * i + 1], t[4 * i + 3]);
    }
    for (int q = 0; q < 4; ++q) { /* m[4c+q], lane i = u[4i+q], lane c */
        vf v0 = simde_mm512_shuffle_f32x4(u[q], u[4 + q], 0x44);
        vf v1 = simde_mm512_shuffle_f32x4(u[8 + q], u[12 + q], 0x44);
        vf w0 = simde_mm512_shuffle_f32x4(u[q], u[4 + q], 0xAA);
        vf w1 = simde_mm512_shuffle_f32x4(u[8 + q], u[12 + q], 0xAA);
        m[q] = simde_mm512_shuffle_f32x4(v0, v1, 0x88);
        m[4 + q] = simde_mm512_shuffle_f32x4(v0, v1, 0xDD);
        m[8 + q] = simde_mm512_shuffle_f32x4(w0, w1, 0x88);
    }
}

#elif SKIN_W == 8
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>
typedef simde__m256 vf;
typedef simde__m256i vi;
typedef simde__m256 vm;
#define VEC_BYTES 32
static inline vf v_zero(void) { return simde_mm256_setzero_ps(); }
static inline vf v_set1(float x) { return simde_mm256_set1_ps(x); }
static inline vf v_loadu(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void v_storeu(float *p, vf a) { simde_mm256_storeu_ps(p, a); }
static inline void v_stream(float *p, vf a) { simde_mm256_stream_ps(p, a); }
static inline vf v_add(vf a, vf b) { return simde_mm256_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return simde_mm256_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return simde_mm256_mul_ps(a, b); }
static inline vf v_fmadd(vf a, vf b, vf c) { return simde_mm256_fmadd_ps(a, b, c); }
static inline vf v_fnmadd(vf a, vf b, vf c) { return simde_mm256_fnmadd_ps(a, b, c); }
static inline vf v_div(vf a, vf b) { return simde_mm256_div_ps(a, b); }
static inline vf v_sqrt(vf a) { return simde_mm256_sqrt_ps(a); }
static inline vf v_min(vf a, vf b) { return simde_mm256_min_ps(a, b); }
static inline vf v_max(vf a, vf b) { return simde_mm256_max_ps(a, b); }
static inline vm v_lt(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline vf v_select(vm m, vf t, vf f) { return simde_mm256_blendv_ps(f, t, m); }
static inline vi v_select_i32(vm m, vi t, vi f)
{
    return simde_mm256_castps_si256(simde_mm256_blendv_ps(simde_mm256_castsi256_ps(f), simde_mm256_castsi256_ps(t), m));
}
static inline int v_any(vm m) { return simde_mm256_movemask_ps(m) != 0; }
static inline vi v_min_i32(vi a, vi b) { return simde_mm256_min_epi32(a, b); }
static inline void v_store_i32(int32_t *p, vi a) { simde_mm256_storeu_si256(p, a); }
static inline vi v_set1_i32(int32_t x) { return simde_mm256_set1_epi32(x); }
static inline vf v_from_u32(vi a) { return simde_mm256_cvtepi32_ps(a); } /* values < 2^31 */
static inline vi v_round_i32(vf a) { return simde_mm256_cvtps_epi32(a); }
static inline vi v_add_i32(vi a, vi b) { return simde_mm256_add_epi32(a, b); }
static inline vi v_and_i32(vi a, vi b) { return simde_mm256_and_si256(a, b); }
static inline vi v_or_i32(vi a, vi b) { return simde_mm256_or_si256(a, b); }
static inline vi v_loadu_i32(const void *p) { return simde_mm256_loadu_si256(p); }
static inline vf v_as_float(vi a) { return simde_mm256_castsi256_ps(a); }
static inline simde__m128 v_chunk(vf a, int c)
{
    return c ? simde_mm256_extractf128_ps(a, 1) : simde_mm256_castps256_ps128(a);
}
/* Chunk c of a, then chunk c of b. */
static inline simde__m256 v_chunk_pair(vf a, vf b, int c)
{
    return c ? simde_mm256_permute2f128_ps(a, b, 0x31) : simde_mm256_permute2f128_ps(a, b, 0x20);
}
static inline int v_all_eq_i32(vi a, vi b) { return simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi32(a, b)) == -1; }
/* Per mask: each set lane's rank among the set lanes, and -1 for a clear
 * lane, a byte per lane, widened by one load.  A permute takes an index's
 * low 3 bits: a clear lane takes lane 7, which the masked load leaves zero
 * (some lane is clear, so at most seven are read) and the whole load's
 * `keep` mask clears.  The masked load's mask is the 8 lanes of
 * v_first_lanes from 8 - count: its first count lanes set. */
#define V_POP8(x) (((x)&1) + ((x) >> 1 & 1) + ((x) >> 2 & 1) + ((x) >> 3 & 1) + ((x) >> 4 & 1) + ((x) >> 5 & 1) + ((x) >> 6 & 1))
#define V_RANK(m, l) (((m) >> (l)&1) ? (int8_t)V_POP8((m) & ((1u << (l)) - 1)) : (int8_t)-1)
#define V_RANKS(m) {V_RANK(m, 0), V_RANK(m, 1), V_RANK(m, 2), V_RANK(m, 3), V_RANK(m, 4), V_RANK(m, 5), V_RANK(m, 6), V_RANK(m, 7)}
#define V_RANKS4(m) V_RANKS(m), V_RANKS((m) + 1), V_RANKS((m) + 2), V_RANKS((m) + 3)
#define V_RANKS16(m) V_RANKS4(m), V_RANKS4((m) + 4), V_RANKS4((m) + 8), V_RANKS4((m) + 12)
#define V_RANKS64(m) V_RANKS16(m), V_RANKS16((m) + 16), V_RANKS16((m) + 32), V_RANKS16((m) + 48)
static const int8_t v_lane_ranks[256][8] = {V_RANKS64(0), V_RANKS64(64), V_RANKS64(128), V_RANKS64(192)};
static const int32_t v_first_lanes[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
typedef struct v_expander { vi perm, load; vf keep; int32_t count, whole; } v_expander;
static inline v_expander v_expander_for(uint32_t m, int whole)
{
    v_expander e;
    e.perm = simde_mm256_cvtepi8_epi32(simde_mm_loadl_epi64((const void *)v_lane_ranks[m]));
    e.count = __builtin_popcount(m), e.whole = whole;
    if (whole)
        e.keep = simde_mm256_castsi256_ps(simde_mm256_cmpgt_epi32(e.perm, simde_mm256_set1_epi32(-1)));
    else
        e.load = simde_mm256_loadu_si256(v_first_lanes + 8 - e.count);
    return e;
}
/* whole: one load of 8 floats, a permute and the clear lanes masked off;
 * otherwise a fault-free read of the count floats (the rest zeros), then
 * a permute.  Zen 1 runs the masked load slowly: whole loads took AVX2
 * LBS-4 with 8 sparse targets from 18.0 to 15.7 ns/vertex at 10k there,
 * 21.6 to 20.5 at 100k. */
static inline vf v_expand(const v_expander *e, const float *p)
{
    if (e->whole) return simde_mm256_and_ps(simde_mm256_permutevar8x32_ps(v_loadu(p), e->perm), e->keep);
#if defined(SIMDE_X86_AVX_NATIVE)
    return simde_mm256_permutevar8x32_ps(simde_mm256_maskload_ps(p, e->load), e->perm);
#else /* SIMDe's maskload reads all eight floats, past the list's end */
    float lanes[8] = {0};
    memcpy(lanes, p, (size_t)e->count * sizeof(float));
    return simde_mm256_permutevar8x32_ps(v_loadu(lanes), e->perm);
#endif
}
static inline uint32_t v_lanes_named(const uint32_t *idx, uint32_t b, uint32_t *count)
{
    const vi rel = simde_mm256_sub_epi32(simde_mm256_loadu_si256(idx), simde_mm256_set1_epi32((int32_t)b));
    const vi in_block = simde_mm256_cmpeq_epi32(simde_mm256_and_si256(rel, simde_mm256_set1_epi32(~7)), simde_mm256_setzero_si256());
    *count = (uint32_t)__builtin_popcount((unsigned)simde_mm256_movemask_ps(simde_mm256_castsi256_ps(in_block)));
    const vi bits = simde_mm256_sllv_epi32(simde_mm256_set1_epi32(1), rel);
    simde__m128i x = simde_mm_or_si128(simde_mm256_castsi256_si128(bits), simde_mm256_extracti128_si256(bits, 1));
    x = simde_mm_or_si128(x, simde_mm_shuffle_epi32(x, 0x4E));
    x = simde_mm_or_si128(x, simde_mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)simde_mm_cvtsi128_si32(x) & 0xFFu;
}
#define v_slli_i32(a, n) simde_mm256_slli_epi32(a, n)
static inline vi v_load_u16(const uint16_t *p) { return simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128(p)); }
static inline vi v_load_u8(const uint8_t *p) { return simde_mm256_cvtepu8_epi32(simde_mm_loadu_si64(p)); }
static inline vf v_rows(const float *const *r, int a)
{
    vf x = simde_mm256_castps128_ps256(simde_mm_loadu_ps(r[a]));
    return simde_mm256_insertf128_ps(x, simde_mm_loadu_ps(r[4 + a]), 1);
}
#define V_PAIRS_BY_TRN 0 /* see v_pair_lanes */
static inline vf v_unpacklo(vf a, vf b) { return simde_mm256_unpacklo_ps(a, b); }
static inline vf v_unpackhi(vf a, vf b) { return simde_mm256_unpackhi_ps(a, b); }
static inline vf v_unpacklo64(vf a, vf b)
{
    return simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b)));
}
static inline vf v_unpackhi64(vf a, vf b)
{
    return simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b)));
}
static inline vf v_blend64(vf a, vf b)
{
    return simde_mm256_castpd_ps(simde_mm256_blend_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b), 0xA));
}

/* n is even, so both chunks of output m come from the same lane k. */
static inline __attribute__((always_inline)) vf v_lane_gather(const vf *c, const int n, const int m)
{
    int g = 2 * m;
    return v_chunk_pair(c[g % n], c[g % n + 1], g / n);
}
/* Positions only: register m of the packed x y z stream (f = 8m + t:
 * vertex f / 3, component f mod 3) from three permutes and two blends. */
#define V_HAS_PACK3 1
SIMDE_ALIGN_TO_32 static const int32_t pack3_idx[3][8] = {{0, 0, 0, 1, 1, 1, 2, 2}, {2, 3, 3, 3, 4, 4, 4, 5}, {5, 5, 6, 6, 6, 7, 7, 7}};
SIMDE_ALIGN_TO_32 static const int32_t pack3_is_y[3][8] = {{0, -1, 0, 0, -1, 0, 0, -1}, {0, 0, -1, 0, 0, -1, 0, 0}, {-1, 0, 0, -1, 0, 0, -1, 0}};
SIMDE_ALIGN_TO_32 static const int32_t pack3_is_z[3][8] = {{0, 0, -1, 0, 0, -1, 0, 0}, {-1, 0, 0, -1, 0, 0, -1, 0}, {0, -1, 0, 0, -1, 0, 0, -1}};
static inline __attribute__((always_inline)) vf v_pack3(const vf *o, const int m)
{
    const vi idx = simde_mm256_load_si256((const simde__m256i *)pack3_idx[m]);
    vf r = simde_mm256_permutevar8x32_ps(o[0], idx);
    r = simde_mm256_blendv_ps(r, simde_mm256_permutevar8x32_ps(o[1], idx),
                              simde_mm256_castsi256_ps(simde_mm256_load_si256((const simde__m256i *)pack3_is_y[m])));
    return simde_mm256_blendv_ps(r, simde_mm256_permutevar8x32_ps(o[2], idx),
                                 simde_mm256_castsi256_ps(simde_mm256_load_si256((const simde__m256i *)pack3_is_z[m])));
}

#elif SKIN_W == 4
#include <simde/x86/sse4.1.h>
#include <simde/x86/fma.h>
typedef simde__m128 vf;
typedef simde__m128i vi;
typedef simde__m128 vm;
#define VEC_BYTES 16
static inline vf v_zero(void) { return simde_mm_setzero_ps(); }
static inline vf v_set1(float x) { return simde_mm_set1_ps(x); }
static inline vf v_loadu(const float *p) { return simde_mm_loadu_ps(p); }
static inline void v_storeu(float *p, vf a) { simde_mm_storeu_ps(p, a); }
static inline void v_stream(float *p, vf a) { simde_mm_stream_ps(p, a); }
static inline vf v_add(vf a, vf b) { return simde_mm_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return simde_mm_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return simde_mm_mul_ps(a, b); }
/* Fused on NEON.  SSE2 has no FMA: a * b + c (c - a * b for v_fnmadd),
 * as SIMDe's fallback computes it, but as two instructions: SIMDe's lane
 * loop is not always vectorised (GCC left a DQS block of the benchmark's
 * arithmetic floor in single lanes, 667-908 instructions against 415). */
#if defined(SIMDE_ARM_NEON_A32V7_NATIVE) || defined(SIMDE_X86_FMA_NATIVE)
static inline vf v_fmadd(vf a, vf b, vf c) { return simde_mm_fmadd_ps(a, b, c); }
static inline vf v_fnmadd(vf a, vf b, vf c) { return simde_mm_fnmadd_ps(a, b, c); }
#else
static inline vf v_fmadd(vf a, vf b, vf c) { return simde_mm_add_ps(simde_mm_mul_ps(a, b), c); }
static inline vf v_fnmadd(vf a, vf b, vf c) { return simde_mm_sub_ps(c, simde_mm_mul_ps(a, b)); }
#endif
#if defined(SIMDE_ARM_NEON_A32V7_NATIVE) && !defined(SIMDE_ARM_NEON_A64V8_NATIVE)
/* armv7's NEON has no divide or square root, and SIMDe's estimates err by
 * 1e-5 and give 0 / 0 for 0 / sqrt(0): VFP's, exact, one lane at a time. */
static inline vf v_div(vf a, vf b)
{
    float x[4], y[4];
    simde_mm_storeu_ps(x, a), simde_mm_storeu_ps(y, b);
    for (int l = 0; l < 4; ++l) x[l] /= y[l];
    return simde_mm_loadu_ps(x);
}
static inline vf v_sqrt(vf a)
{
    float x[4];
    simde_mm_storeu_ps(x, a);
    for (int l = 0; l < 4; ++l) x[l] = __builtin_sqrtf(x[l]);
    return simde_mm_loadu_ps(x);
}
#else
static inline vf v_div(vf a, vf b) { return simde_mm_div_ps(a, b); }
static inline vf v_sqrt(vf a) { return simde_mm_sqrt_ps(a); }
#endif
static inline vf v_min(vf a, vf b) { return simde_mm_min_ps(a, b); }
static inline vf v_max(vf a, vf b) { return simde_mm_max_ps(a, b); }
static inline vm v_lt(vf a, vf b) { return simde_mm_cmplt_ps(a, b); }
static inline vf v_select(vm m, vf t, vf f) { return simde_mm_or_ps(simde_mm_and_ps(m, t), simde_mm_andnot_ps(m, f)); }
static inline vi v_select_i32(vm m, vi t, vi f)
{
    return simde_mm_castps_si128(v_select(m, simde_mm_castsi128_ps(t), simde_mm_castsi128_ps(f)));
}
#if defined(SIMDE_WASM_SIMD128_NATIVE)
/* SIMDe 0.7's movemask has no SIMD128 form (a loop over the lanes: 15% of
 * LBS-4 in node 20, in the blocks' classification): SIMD128's own tests. */
static inline int v_any(vm m) { return wasm_i32x4_bitmask(simde__m128_to_private(m).wasm_v128) != 0; }
#else
static inline int v_any(vm m) { return simde_mm_movemask_ps(m) != 0; }
#endif
static inline vi v_min_i32(vi a, vi b) { return simde_mm_min_epi32(a, b); }
static inline void v_store_i32(int32_t *p, vi a) { simde_mm_storeu_si128(p, a); }
static inline vi v_set1_i32(int32_t x) { return simde_mm_set1_epi32(x); }
static inline vf v_from_u32(vi a) { return simde_mm_cvtepi32_ps(a); } /* values < 2^31 */
static inline vi v_round_i32(vf a) { return simde_mm_cvtps_epi32(a); }
static inline vi v_add_i32(vi a, vi b) { return simde_mm_add_epi32(a, b); }
static inline vi v_and_i32(vi a, vi b) { return simde_mm_and_si128(a, b); }
static inline vi v_or_i32(vi a, vi b) { return simde_mm_or_si128(a, b); }
static inline vi v_loadu_i32(const void *p) { return simde_mm_loadu_si128(p); }
static inline vf v_as_float(vi a) { return simde_mm_castsi128_ps(a); }
static inline simde__m128 v_chunk(vf a, int c)
{
    (void)c;
    return a;
}
#if defined(SIMDE_WASM_SIMD128_NATIVE)
static inline int v_all_eq_i32(vi a, vi b)
{
    return wasm_i32x4_all_true(wasm_i32x4_eq(simde__m128i_to_private(a).wasm_v128, simde__m128i_to_private(b).wasm_v128));
}
#else
static inline int v_all_eq_i32(vi a, vi b) { return simde_mm_movemask_epi8(simde_mm_cmpeq_epi32(a, b)) == 0xffff; }
#endif
#define v_slli_i32(a, n) simde_mm_slli_epi32(a, n)
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
/* Widened by ushll: SIMDe's unpack with zero is a zip (see v_pair_lanes). */
static inline vi v_load_u16(const uint16_t *p) { return vreinterpretq_s64_u32(vmovl_u16(vld1_u16(p))); }
static inline vi v_load_u8(const uint8_t *p)
{
    uint32_t bytes; /* four bytes: a full block at a stream's end has no more */
    memcpy(&bytes, p, sizeof bytes);
    return vreinterpretq_s64_u32(vmovl_u16(vget_low_u16(vmovl_u8(vcreate_u8(bytes)))));
}
#else
static inline vi v_load_u16(const uint16_t *p)
{
    return simde_mm_unpacklo_epi16(simde_mm_loadu_si64(p), simde_mm_setzero_si128());
}
static inline vi v_load_u8(const uint8_t *p)
{
    simde__m128i z = simde_mm_setzero_si128();
    return simde_mm_unpacklo_epi16(simde_mm_unpacklo_epi8(simde_mm_loadu_si32(p), z), z);
}
#endif
static inline vf v_rows(const float *const *r, int a) { return simde_mm_loadu_ps(r[a]); }
/* 48 j for 32-bit lanes 0 <= j < 32768, in one multiply (pmaddwd's
 * factors are signed 16-bit words). */
static inline vi v_mul48_small(vi j)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vreinterpretq_s64_s32(vmulq_n_s32(vreinterpretq_s32_s64(j), 48));
#elif defined(SIMDE_WASM_SIMD128_NATIVE) /* (SIMDe 0.7's madd has no SIMD128 form) */
    simde__m128i_private r = simde__m128i_to_private(j);
    r.wasm_v128 = wasm_i32x4_mul(r.wasm_v128, wasm_i32x4_splat(48));
    return simde__m128i_from_private(r);
#else
    return simde_mm_madd_epi16(j, simde_mm_set1_epi32(48));
#endif
}
/* acc + a * (lane l of w), and a * (lane l of w), l a constant: NEON
 * multiplies by a lane directly; SSE broadcasts the lane with one pshufd
 * (a copy-free shuffle, unlike shufps). */
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
static inline vf v_fmadd_lane(vf acc, vf a, vf w, int l)
{
    switch (l) { /* the lane must be a literal */
    case 0: return vfmaq_laneq_f32(acc, a, w, 0);
    case 1: return vfmaq_laneq_f32(acc, a, w, 1);
    case 2: return vfmaq_laneq_f32(acc, a, w, 2);
    default: return vfmaq_laneq_f32(acc, a, w, 3);
    }
}
static inline vf v_mul_lane(vf a, vf w, int l)
{
    switch (l) {
    case 0: return vmulq_laneq_f32(a, w, 0);
    case 1: return vmulq_laneq_f32(a, w, 1);
    case 2: return vmulq_laneq_f32(a, w, 2);
    default: return vmulq_laneq_f32(a, w, 3);
    }
}
#else
static inline vf v_bcast_lane(vf w, int l)
{
    const simde__m128i x = simde_mm_castps_si128(w);
    switch (l) { /* literal immediates, also at -O0 */
    case 0: return simde_mm_castsi128_ps(simde_mm_shuffle_epi32(x, 0x00));
    case 1: return simde_mm_castsi128_ps(simde_mm_shuffle_epi32(x, 0x55));
    case 2: return simde_mm_castsi128_ps(simde_mm_shuffle_epi32(x, 0xAA));
    default: return simde_mm_castsi128_ps(simde_mm_shuffle_epi32(x, 0xFF));
    }
}
#define v_fmadd_lane(acc, a, w, l) v_fmadd(v_bcast_lane(w, l), a, acc)
#define v_mul_lane(a, w, l) v_mul(v_bcast_lane(w, l), a)
#endif
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
/* NEON pairs lanes by trn1/trn2, not zip: Cortex-A57 and A72 issue a
 * 128-bit zip or uzp as three micro-ops of latency 6, a trn as one of
 * latency 3 (their optimization guides, and llvm-mca's A57 tables, which
 * it also takes for cortex-a76); A55 and A76 cost them alike. */
#define V_PAIRS_BY_TRN 1 /* *p0: lanes 0 and 2; *p1: lanes 1 and 3 */
static inline void v_pair_lanes(vf a, vf b, vf *p0, vf *p1) { *p0 = vtrn1q_f32(a, b), *p1 = vtrn2q_f32(a, b); }
#else
#define V_PAIRS_BY_TRN 0
static inline vf v_unpacklo(vf a, vf b) { return simde_mm_unpacklo_ps(a, b); }
static inline vf v_unpackhi(vf a, vf b) { return simde_mm_unpackhi_ps(a, b); }
#endif
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
/* One zip or lane insert each: SIMDe's movehl_ps and move_sd combine
 * 64-bit halves, which gcc builds with two or three instructions. */
static inline vf v_unpacklo64(vf a, vf b)
{
    return vreinterpretq_f32_f64(vzip1q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
}
static inline vf v_unpackhi64(vf a, vf b)
{
    return vreinterpretq_f32_f64(vzip2q_f64(vreinterpretq_f64_f32(a), vreinterpretq_f64_f32(b)));
}
static inline vf v_blend64(vf a, vf b)
{
    return vreinterpretq_f32_f64(vcopyq_laneq_f64(vreinterpretq_f64_f32(b), 0, vreinterpretq_f64_f32(a), 0));
}
#else
static inline vf v_unpacklo64(vf a, vf b) { return simde_mm_movelh_ps(a, b); }
static inline vf v_unpackhi64(vf a, vf b) { return simde_mm_movehl_ps(b, a); }
static inline vf v_blend64(vf a, vf b)
{
    return simde_mm_castpd_ps(simde_mm_move_sd(simde_mm_castps_pd(b), simde_mm_castps_pd(a)));
}
#endif
static inline vf v_lane_gather(const vf *c, const int n, const int m)
{
    (void)n;
    return c[m];
}
#define V_HAS_PACK3 1
/* Register m of x, y, z (o[0..2]) as four xyz records: x0 y0 z0 x1 | y1 z1
 * x2 y2 | z2 x3 y3 z3, two shuffles each after the xy pairs. */
static inline __attribute__((always_inline)) vf v_pack3(const vf *o, const int m)
{
    const vf x = o[0], y = o[1], z = o[2];
    const vf xy_lo = simde_mm_unpacklo_ps(x, y), xy_hi = simde_mm_unpackhi_ps(x, y);
    switch (m) {
    case 0: /* (z0 z0 x1 x1) */
        return simde_mm_shuffle_ps(xy_lo, simde_mm_shuffle_ps(z, xy_lo, SIMDE_MM_SHUFFLE(2, 2, 0, 0)),
                                   SIMDE_MM_SHUFFLE(2, 0, 1, 0));
    case 1: /* (y1 y1 z1 z1) */
        return simde_mm_shuffle_ps(simde_mm_shuffle_ps(xy_lo, z, SIMDE_MM_SHUFFLE(1, 1, 3, 3)), xy_hi,
                                   SIMDE_MM_SHUFFLE(1, 0, 2, 0));
    default: /* (z2 z2 x3 x3), (y3 y3 z3 z3) */
        return simde_mm_shuffle_ps(simde_mm_shuffle_ps(z, xy_hi, SIMDE_MM_SHUFFLE(2, 2, 2, 2)),
                                   simde_mm_shuffle_ps(xy_hi, z, SIMDE_MM_SHUFFLE(3, 3, 3, 3)),
                                   SIMDE_MM_SHUFFLE(2, 0, 2, 0));
    }
}
#else
#error "SKIN_W must be 4, 8 or 16"
#endif

/* Joints of vertices v .. v+W-1 of a slot's stream (bytes if u8, else
 * uint16_t), clamped to the palette's last joint m: limit is
 * v_joint_limit(m, u8), made once per call.  Where the ISA has a 32-bit
 * min, widened then clamped; SSE2 has none (SIMDe builds one from four
 * instructions) but clamps bytes in one and 16-bit words in two, so it
 * clamps before widening. */
#if SKIN_W == 4 && !defined(SIMDE_ARM_NEON_A64V8_NATIVE)
static inline vi v_joint_limit(uint32_t m, int u8)
{
    return u8 ? simde_mm_set1_epi8((int8_t)(m < 255 ? m : 255)) : simde_mm_set1_epi16((int16_t)(m < 65535 ? m : 65535));
}
static inline vi v_load_joints(const void *joints, size_t v, vi limit, int u8)
{
    const simde__m128i z = simde_mm_setzero_si128();
    if (u8)
        return simde_mm_unpacklo_epi16(
            simde_mm_unpacklo_epi8(simde_mm_min_epu8(simde_mm_loadu_si32((const uint8_t *)joints + v), limit), z), z);
    return simde_mm_unpacklo_epi16(simde_mm_min_epu16(simde_mm_loadu_si64((const uint16_t *)joints + v), limit), z);
}
#else
static inline vi v_joint_limit(uint32_t m, int u8) { return (void)u8, v_set1_i32((int32_t)m); }
static inline vi v_load_joints(const void *joints, size_t v, vi limit, int u8)
{
    return v_min_i32(u8 ? v_load_u8((const uint8_t *)joints + v) : v_load_u16((const uint16_t *)joints + v), limit);
}
#endif

/* -a where m is set (the sign bit flipped), else a. */
#if SKIN_W == 16
static inline vf v_neg_if(vm m, vf a)
{
    const simde__m512i x = simde_mm512_castps_si512(a);
    return simde_mm512_castsi512_ps(simde_mm512_mask_xor_epi32(x, m, x, simde_mm512_set1_epi32(INT32_MIN)));
}
#elif SKIN_W == 8
static inline vf v_neg_if(vm m, vf a) { return simde_mm256_xor_ps(a, simde_mm256_and_ps(m, v_set1(-0.0f))); }
#else
static inline vf v_neg_if(vm m, vf a) { return simde_mm_xor_ps(a, simde_mm_and_ps(m, v_set1(-0.0f))); }
#endif

/* The lanes of a and b in pairs (a_g, b_g), as 64-bit halves of *p0 and
 * *p1 (in each 128-bit lane), lane g's in *p0 or *p1 as v_pair_reg(g)
 * says, its low or high half as v_pair_half(g) says. */
#if !V_PAIRS_BY_TRN /* *p0: lanes 0 and 1; *p1: lanes 2 and 3 */
static inline void v_pair_lanes(vf a, vf b, vf *p0, vf *p1) { *p0 = v_unpacklo(a, b), *p1 = v_unpackhi(a, b); }
#endif
static inline int v_pair_reg(int g) { return V_PAIRS_BY_TRN ? g & 1 : g >> 1; }
static inline int v_pair_half(int g) { return V_PAIRS_BY_TRN ? g >> 1 : g & 1; }

/* In-lane 4x4 transpose: in each 128-bit lane, rows a..d become columns. */
static inline void v_transpose4(vf *a, vf *b, vf *c, vf *d)
{
#if V_PAIRS_BY_TRN
    vf ab0, ab1, cd0, cd1;
    v_pair_lanes(*a, *b, &ab0, &ab1);
    v_pair_lanes(*c, *d, &cd0, &cd1);
    *a = v_unpacklo64(ab0, cd0), *b = v_unpacklo64(ab1, cd1);
    *c = v_unpackhi64(ab0, cd0), *d = v_unpackhi64(ab1, cd1);
#else
    vf t0 = v_unpacklo(*a, *b), t1 = v_unpacklo(*c, *d);
    vf t2 = v_unpackhi(*a, *b), t3 = v_unpackhi(*c, *d);
    *a = v_unpacklo64(t0, t1);
    *b = v_unpackhi64(t0, t1);
    *c = v_unpacklo64(t2, t3);
    *d = v_unpackhi64(t2, t3);
#endif
}

#if SKIN_W == 4
/* Four lanes' 16-bit vectors (x y z w) from their 32-bit components:
 * saturated to 16 bits, then each at least -32767, interleaved so that
 * *lo holds lanes 0 and 1 (8 bytes each) and *hi lanes 2 and 3. */
static inline void v_snorm16_vectors(vi x, vi y, vi z, vi w, vi *lo, vi *hi)
{
    const simde__m128i least = simde_mm_set1_epi16(-32767);
    const simde__m128i xy = simde_mm_max_epi16(simde_mm_packs_epi32(x, y), least); /* x0..x3 y0..y3 */
    const simde__m128i zw = simde_mm_max_epi16(simde_mm_packs_epi32(z, w), least);
    const simde__m128i xz = simde_mm_unpacklo_epi16(xy, zw), yw = simde_mm_unpackhi_epi16(xy, zw);
    *lo = simde_mm_unpacklo_epi16(xz, yw);
    *hi = simde_mm_unpackhi_epi16(xz, yw);
}

/* Lane l: the sum of t[l]'s four lanes, as (0 + 1) + (2 + 3).  NEON: three
 * pairwise adds (faddp); SSE2 has none: a transpose in place (t is
 * clobbered) and three adds. */
static inline vf v_sum_each(vf *t)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vpaddq_f32(vpaddq_f32(t[0], t[1]), vpaddq_f32(t[2], t[3]));
#else
    v_transpose4(&t[0], &t[1], &t[2], &t[3]);
    return v_add(v_add(t[0], t[1]), v_add(t[2], t[3]));
#endif
}
#endif

/* The blend's and the transform's steps, shared by the kernels and the
 * bench's arithmetic floor (bench/arith.h), which must do the same
 * operations in the same order. */

/* w x + acc, or w x for slot 0: every blend starts with its first
 * product, never with a +0 it would have to add. */
static inline __attribute__((always_inline)) vf v_madd_slot(vf w, vf x, vf acc, uint32_t slot)
{
    return slot ? v_fmadd(w, x, acc) : v_mul(w, x);
}

/* m (x, y, z, 1) into o[0..2], for a row-major 3x4 m: a position. */
static inline __attribute__((always_inline)) void v_affine(const vf *m, vf x, vf y, vf z, vf *o)
{
    o[0] = v_fmadd(m[0], x, v_fmadd(m[1], y, v_fmadd(m[2], z, m[3])));
    o[1] = v_fmadd(m[4], x, v_fmadd(m[5], y, v_fmadd(m[6], z, m[7])));
    o[2] = v_fmadd(m[8], x, v_fmadd(m[9], y, v_fmadd(m[10], z, m[11])));
}

/* a . b for 4 components, summed in pairs: DQS's divide waits on it, and
 * the pairs are two steps shorter than a chain (DQS-4 10k: AVX2 5.28 ->
 * 5.07, AVX-512 3.31 -> 3.18 ns/vertex; SSE2, which has no FMA, the same). */
static inline __attribute__((always_inline)) vf v_dot4(const vf *a, const vf *b)
{
    return v_add(v_fmadd(a[1], b[1], v_mul(a[0], b[0])), v_fmadd(a[3], b[3], v_mul(a[2], b[2])));
}

/* A real part's dot with the pivot's, whose sign is all DQS needs: summed
 * pairwise, as the 4-lane row path sums its transposed products (unfused,
 * so every kind of an ISA gets the same bits). */
static inline __attribute__((always_inline)) vf v_sign_dot(const vf *q, const vf *p)
{
    return v_add(v_add(v_mul(q[0], p[0]), v_mul(q[1], p[1])), v_add(v_mul(q[2], p[2]), v_mul(q[3], p[3])));
}

/* DQS's matrix: the unit dual quaternion b / |b.real| (b[0..3] the real
 * part x y z w, b[4..7] the dual part; n2 = b.real . b.real, not zero) as
 * a row-major 3x4 matrix, with the 1 / n2 of the normalisation folded into
 * k2 = 2 / n2: a correctly rounded divide, not a vendor-specific reciprocal
 * estimate, so every x86 CPU gives the same bits.  The products of the
 * unnormalised real part, each sum then scaled by k2 in one step, run
 * beside the divide, which was three steps from the matrix, and the blocks
 * wait on it (DQS-4 10k: AVX2 5.32 -> 5.02 ns/vertex, SSE2 9.75 -> 9.54;
 * AVX-512 the same). */
static inline __attribute__((always_inline)) void v_dq_matrix(const vf *b, vf n2, vf *m)
{
    const vf k2 = v_div(v_set1(2.0f), n2);
    const vf xx = v_mul(b[0], b[0]), yy = v_mul(b[1], b[1]), zz = v_mul(b[2], b[2]);
    const vf xy = v_mul(b[0], b[1]), xz = v_mul(b[0], b[2]), yz = v_mul(b[1], b[2]);
    const vf wx = v_mul(b[3], b[0]), wy = v_mul(b[3], b[1]), wz = v_mul(b[3], b[2]);
    const vf one = v_set1(1.0f);
    m[0] = v_fnmadd(k2, v_add(yy, zz), one), m[1] = v_mul(k2, v_sub(xy, wz)), m[2] = v_mul(k2, v_add(xz, wy));
    m[4] = v_mul(k2, v_add(xy, wz)), m[5] = v_fnmadd(k2, v_add(xx, zz), one), m[6] = v_mul(k2, v_sub(yz, wx));
    m[8] = v_mul(k2, v_sub(xz, wy)), m[9] = v_mul(k2, v_add(yz, wx)), m[10] = v_fnmadd(k2, v_add(xx, yy), one);
    /* translation (2 / n2) (rw d - dw r + r x d); (r x d).x = ry dz - rz dy */
    const vf ndw = v_sub(v_zero(), b[7]);
#define V_CROSS_X(ay, az, by, bz) v_sub(v_mul(ay, bz), v_mul(az, by))
    m[3] = v_mul(k2, v_add(v_fmadd(b[3], b[4], v_mul(ndw, b[0])), V_CROSS_X(b[1], b[2], b[5], b[6])));
    m[7] = v_mul(k2, v_add(v_fmadd(b[3], b[5], v_mul(ndw, b[1])), V_CROSS_X(b[2], b[0], b[6], b[4])));
    m[11] = v_mul(k2, v_add(v_fmadd(b[3], b[6], v_mul(ndw, b[2])), V_CROSS_X(b[0], b[1], b[4], b[5])));
#undef V_CROSS_X
}

/* r * (x, y, z) for a row-major 3x3 held as r[0], r[1], r[2], r[rs], ... */
static inline __attribute__((always_inline)) void v_mat3(const vf *r, int rs, vf *x, vf *y, vf *z)
{
    vf a = *x, b = *y, c = *z;
    *x = v_fmadd(r[0], a, v_fmadd(r[1], b, v_mul(r[2], c)));
    *y = v_fmadd(r[rs], a, v_fmadd(r[rs + 1], b, v_mul(r[rs + 2], c)));
    *z = v_fmadd(r[2 * rs], a, v_fmadd(r[2 * rs + 1], b, v_mul(r[2 * rs + 2], c)));
}

#endif
