/* SPDX-License-Identifier: MIT */
/* Apply: the blended matrix applied to position, normal and tangent,
 * normalised if asked; skin_block, one block's fetch, blend and apply.
 * Part of the kernel: simd/kernel.c includes it once, in its place in
 * the flow (see there), with the kernel's types and W. */

/* Both methods end in a blended 3x4 matrix m (and, for normals, optionally
 * a 3x3 nm): p' = m (p, 1), n' = (nm or m) n, t' = m t.  The attributes are
 * loaded only here, after the blend, so they never compete with its
 * accumulators for registers. */
ALWAYS_INLINE void apply(const skin_job *job, const float *const *a, size_t v, const vf *m, const vf *nm,
                         vf *o, const int pnt)
{
    v_affine(m, v_loadu(a[0] + v), v_loadu(a[1] + v), v_loadu(a[2] + v), o);
    if (pnt || job->normals) {
        UNROLL for (int e = 3; e < 6; ++e) o[e] = v_loadu(a[e] + v);
        if (nm)
            v_mat3(nm, 3, &o[3], &o[4], &o[5]);
        else
            v_mat3(m, 4, &o[3], &o[4], &o[5]);
    } else { /* absent components are zeros, written only here (a block's o lives on the stack) */
        UNROLL for (int e = 3; e < 6; ++e) o[e] = v_zero();
    }
    if (pnt || job->tangents) {
        UNROLL for (int e = 6; e < 10; ++e) o[e] = v_loadu(a[e] + v);
        v_mat3(m, 4, &o[6], &o[7], &o[8]);
    } else {
        UNROLL for (int e = 6; e < 10; ++e) o[e] = v_zero();
    }
}

/* The smallest squared length normalize3 takes as it is: float's smallest
 * normal.  armv7's NEON flushes results below it to zero, the squares of
 * small components included; from 2^-100 up, what those lose is below
 * 2^-26 of the squared length. */
#if defined(SIMDE_ARM_NEON_A32V7_NATIVE) && !defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#define LEN2_MIN 0x1p-100f
#else
#define LEN2_MIN 0x1p-126f
#endif

/* normalize3's block with a squared length out of float's normal range:
 * those lanes divided by their largest component first (a zero vector
 * kept), the others as normalize3 does.  Out of line and cold: the rescue
 * costs SSE2 LBS-4 with normalisation 3.1% more instructions (AVX2 1.8%;
 * callgrind, 10k), inlined 6.8% (its registers spill). */
static __attribute__((noinline, cold)) void normalize3_rescaled(vf *x, vf *y, vf *z, const vf *len2,
                                                               const vf *inv)
{
    const vf one = v_set1(1.0f);
    const vm small = v_lt(*len2, v_set1(LEN2_MIN)); /* zero, or below normal */
    const vm lanes = v_lt(v_set1(0x1.fffffep127f), v_select(small, v_set1(INFINITY), *len2)); /* or infinite */
    const vf big = v_max(v_max(v_max(*x, v_sub(v_zero(), *x)), v_max(*y, v_sub(v_zero(), *y))),
                         v_max(*z, v_sub(v_zero(), *z)));
    const vm nonzero = v_lt(v_zero(), big);
    const vf d = v_select(nonzero, big, one); /* a zero vector divided by 1 */
    const vf sx = v_div(*x, d), sy = v_div(*y, d), sz = v_div(*z, d);
    const vf sinv = v_select(nonzero, v_div(one, v_sqrt(v_fmadd(sx, sx, v_fmadd(sy, sy, v_mul(sz, sz))))), one);
    *x = v_select(lanes, v_mul(sx, sinv), v_mul(*x, *inv));
    *y = v_select(lanes, v_mul(sy, sinv), v_mul(*y, *inv));
    *z = v_select(lanes, v_mul(sz, sinv), v_mul(*z, *inv));
}

/* (x, y, z) at unit length, a zero vector kept.  A vector whose squared
 * length leaves float's normal range (length below about 1e-19 or above
 * 1.8e19: a joint scaled near zero, a huge normal matrix) is divided by its
 * largest component first, in a branch that zero vectors take too; other
 * vectors keep their bits. */
ALWAYS_INLINE void normalize3(vf *x, vf *y, vf *z)
{
    const vf len2 = v_fmadd(*x, *x, v_fmadd(*y, *y, v_mul(*z, *z)));
    const vf inv = v_div(v_set1(1.0f), v_sqrt(len2));
    /* One compare for both ends: below normal, len2 is below FLT_MIN; an
     * infinite len2 makes inv 0 (a NaN lane is NaN either way). */
    if (__builtin_expect(v_any(v_lt(v_min(len2, inv), v_set1(LEN2_MIN))), 0)) {
        normalize3_rescaled(x, y, z, &len2, &inv);
        return;
    }
    *x = v_mul(*x, inv), *y = v_mul(*y, inv), *z = v_mul(*z, inv);
}

/* Skins W vertices starting at index v of `in`, whose influences are
 * staged at o of st and attributes are at index av of `at`, into
 * out[0..9].  pnt: a constant saying the call writes normals and tangents,
 * with no normal matrices and no normalisation (see run_blocks). */
ALWAYS_INLINE void skin_block(const kctx *c, const inputs *in, const float *const *at, size_t av, const staged *st,
                              size_t o, size_t v, vf out[SKIN_COMPONENTS], const int method, const uint32_t k,
                              const int kind, const int pnt)
{
    const skin_job *job = c->job;
    influences f;
    load_influences(c, in, v, st, o, &f, k, kind);
    vf m[12], nm[9];
    const int use_nm = method == SKIN_LBS ? lbs(c, &f, m, nm, k, kind, pnt)
                                          : dqs(c, &f, m, nm, k, kind, SIGNS_TESTED(c, method));
    if (use_nm) /* two calls, not a pointer to either, keep m and nm in registers */
        apply(job, at, av, m, nm, out, pnt);
    else
        apply(job, at, av, m, NULL, out, pnt);
    if (!pnt && job->normalize) {
        normalize3(&out[3], &out[4], &out[5]);
        normalize3(&out[6], &out[7], &out[8]);
    }
}
