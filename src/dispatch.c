/* SPDX-License-Identifier: MIT */
/* Run-time kernel selection: CPU features are read once; SKIN_ISA or
 * skin_set_isa() can force a kernel set the CPU supports. */
#include "skin_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(SKIN_HAVE_NEON_KERNELS) && defined(__arm__)
#include <sys/auxv.h>
#ifndef HWCAP_ARM_NEON /* glibc's names; the kernel's asm/hwcap.h says HWCAP_NEON, HWCAP_VFPv4 */
#define HWCAP_ARM_NEON (1ul << 12)
#define HWCAP_ARM_VFPv4 (1ul << 16)
#endif
#endif

static const char *const isa_names[] = {"auto", "scalar", "sse2", "avx2", "avx512", "neon", "simd128"};
#define ISA_COUNT ((int)(sizeof isa_names / sizeof isa_names[0]))

const char *skin_isa_name(skin_isa isa)
{
    return (int)isa >= 0 && (int)isa < ISA_COUNT ? isa_names[isa] : "unknown";
}

static skin_kernel_fn kernel_for(skin_isa isa, skin_method method)
{
    const int dqs = method == SKIN_DQS;
    (void)dqs; /* unused when no SIMD kernels are built (SKIN_SIMD=OFF) */
    switch (isa) {
    case SKIN_ISA_SCALAR: return skin_kernel_scalar;
#if defined(SKIN_HAVE_SSE2_KERNELS)
    case SKIN_ISA_SSE2: return dqs ? skin_kernel_sse2_dqs : skin_kernel_sse2_lbs;
#endif
#if defined(SKIN_HAVE_AVX2_KERNELS)
    case SKIN_ISA_AVX2: return dqs ? skin_kernel_avx2_dqs : skin_kernel_avx2_lbs;
#endif
#if defined(SKIN_HAVE_AVX512_KERNELS)
    case SKIN_ISA_AVX512: return dqs ? skin_kernel_avx512_dqs : skin_kernel_avx512_lbs;
#endif
#if defined(SKIN_HAVE_NEON_KERNELS)
    case SKIN_ISA_NEON: return dqs ? skin_kernel_neon_dqs : skin_kernel_neon_lbs;
#endif
#if defined(SKIN_HAVE_SIMD128_KERNELS)
    case SKIN_ISA_SIMD128: return dqs ? skin_kernel_simd128_dqs : skin_kernel_simd128_lbs;
#endif
    default: return NULL;
    }
}

static int cpu_has(skin_isa isa)
{
    switch (isa) {
    case SKIN_ISA_SCALAR: return 1;
#if defined(SKIN_PORTABLE_KERNELS)
    /* Built without -m flags: SIMDe emulates what the CPU lacks. */
    case SKIN_ISA_SSE2:
    case SKIN_ISA_AVX2:
    case SKIN_ISA_AVX512: return 1;
#elif defined(__x86_64__) || defined(__i386__)
    case SKIN_ISA_SSE2: return __builtin_cpu_supports("sse2");
    case SKIN_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case SKIN_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
#endif
#if defined(SKIN_HAVE_NEON_KERNELS) && defined(__aarch64__)
    case SKIN_ISA_NEON: return 1; /* Advanced SIMD is mandatory on aarch64 */
#elif defined(SKIN_HAVE_NEON_KERNELS)
    /* armv7-a: the kernels use NEON and VFPv4's fused multiply-add */
    case SKIN_ISA_NEON: {
        const unsigned long need = HWCAP_ARM_NEON | HWCAP_ARM_VFPv4;
        return (getauxval(AT_HWCAP) & need) == need;
    }
#endif
#if defined(SKIN_HAVE_SIMD128_KERNELS)
    case SKIN_ISA_SIMD128: return 1; /* a module with SIMD128 code runs only where SIMD128 does */
#endif
    default: return 0;
    }
}

int skin_isa_supported(skin_isa isa) { return kernel_for(isa, SKIN_LBS) != NULL && cpu_has(isa); }

static skin_isa best_isa(void)
{
    for (int isa = ISA_COUNT - 1; isa > SKIN_ISA_SCALAR; --isa)
        if (skin_isa_supported((skin_isa)isa)) return (skin_isa)isa;
    return SKIN_ISA_SCALAR;
}

/* SKIN_ISA_AUTO (0) means "not chosen yet".  The first skin_get_isa
 * publishes its choice with a compare-and-swap from AUTO, so it can never
 * overwrite a concurrent skin_set_isa. */
static _Atomic int current_isa = SKIN_ISA_AUTO;

static skin_isa initial_isa(void)
{
    const char *env = getenv("SKIN_ISA");
    if (env) {
        for (int isa = SKIN_ISA_SCALAR; isa < ISA_COUNT; ++isa)
            if (strcmp(env, isa_names[isa]) == 0 && skin_isa_supported((skin_isa)isa))
                return (skin_isa)isa;
    }
    return best_isa();
}

skin_isa skin_get_isa(void)
{
    int isa = atomic_load_explicit(&current_isa, memory_order_acquire);
    if (isa == SKIN_ISA_AUTO) {
        int chosen = initial_isa();
        /* On failure `isa` receives the value another thread stored. */
        if (atomic_compare_exchange_strong_explicit(&current_isa, &isa, chosen,
                                                    memory_order_acq_rel, memory_order_acquire))
            isa = chosen;
    }
    return (skin_isa)isa;
}

skin_status skin_set_isa(skin_isa isa)
{
    if (isa == SKIN_ISA_AUTO) isa = best_isa();
    if (!skin_isa_supported(isa)) return SKIN_ERROR_UNSUPPORTED;
    atomic_store_explicit(&current_isa, isa, memory_order_release);
    return SKIN_OK;
}

skin_kernel_fn skin_current_kernel(skin_method method) { return kernel_for(skin_get_isa(), method); }
