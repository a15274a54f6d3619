/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the palette and weight helpers of skin.h on arguments
 * decoded from the input.  The first byte picks the helper.  Outputs sit
 * between canary bytes (PAD each side) and inputs are allocated at exactly
 * the documented size.  Oracles: a non-OK status writes nothing; SKIN_OK
 * writes nothing outside the output; plus each helper's documented result
 * (sums of normalised and quantised weights, joints copied, the transpose of
 * 4x4 matrices, aliasing allowed where the header allows it, non-finite
 * matrices reported as degenerate, rigid matrices round-tripping). */
#include "fuzz_input.h"
#include "skin/skin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CANARY 0xFB
#define PAD 16

typedef struct cbuf {
    uint8_t *mem;
    size_t n;
} cbuf;

static cbuf cb_new(size_t n)
{
    cbuf b = {malloc(n + 2 * PAD), n};
    FZ_CHECK(b.mem != NULL);
    memset(b.mem, CANARY, n + 2 * PAD);
    return b;
}

static void *cb_ptr(cbuf b) { return b.mem + PAD; }

/* Canaries around the output intact; all: the output itself too. */
static void cb_check(cbuf b, int all)
{
    for (size_t k = 0; k < b.n + 2 * PAD; ++k)
        if (all || k < PAD || k >= PAD + b.n) FZ_CHECK(b.mem[k] == CANARY);
    free(b.mem);
}

static float *floats(fz_in *in, size_t n)
{
    float *p = malloc(n ? n * sizeof(float) : 1);
    FZ_CHECK(p != NULL);
    for (size_t k = 0; k < n; ++k) p[k] = fz_float(in);
    return p;
}

static int same_bits_or_nan(float x, float y)
{
    return memcmp(&x, &y, sizeof x) == 0 || (isnan(x) && isnan(y));
}

static int all_finite(const float *p, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (!isfinite(p[k])) return 0;
    return 1;
}

static void check_sums(size_t vc, uint32_t slots, skin_weight_format f, void *const *w)
{
    for (size_t v = 0; v < vc; ++v) {
        double sum = 0;
        uint32_t isum = 0;
        for (uint32_t i = 0; i < slots; ++i) {
            if (f == SKIN_WEIGHT_F32) {
                float x = ((const float *)w[i])[v];
                FZ_CHECK(isfinite(x) && x >= 0);
                sum += x;
            } else {
                isum += f == SKIN_WEIGHT_UNORM16 ? ((const uint16_t *)w[i])[v]
                                                 : ((const uint8_t *)w[i])[v];
            }
        }
        if (f == SKIN_WEIGHT_F32) FZ_CHECK(fabs(sum - 1.0) <= 1e-5 * slots);
        else FZ_CHECK(isum == (f == SKIN_WEIGHT_UNORM16 ? 65535u : 255u));
    }
}

static void fuzz_matrix_dq(fz_in *in)
{
    float m[12], dq[8], sc[3];
    const int rigid = fz_u8(in) & 1;
    if (rigid) {
        /* A rotation from a quaternion plus a translation: must come back. */
        float t[3], q[4], qn = 0;
        for (int k = 0; k < 3; ++k) t[k] = fz_small(in);
        for (int k = 0; k < 4; ++k) q[k] = fz_small(in), qn += q[k] * q[k];
        if (qn < 1e-2f) q[3] = 1, qn = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + 1;
        for (int k = 0; k < 4; ++k) q[k] /= sqrtf(qn);
        int32_t root = -1;
        FZ_CHECK(skin_pose_to_matrices(1, &root, t, q, NULL, m) == SKIN_OK);
    } else {
        for (int k = 0; k < 12; ++k) m[k] = fz_float(in);
    }
    uint32_t flags = skin_matrix_to_dual_quat(m, dq, (fz_u8(in) & 1) ? sc : NULL);
    FZ_CHECK((flags & ~31u) == 0);
    if (!all_finite(m, 12)) {
        static const float id[8] = {0, 0, 0, 1, 0, 0, 0, 0};
        FZ_CHECK(flags == SKIN_NONRIGID_DEGENERATE && memcmp(dq, id, sizeof id) == 0);
    }
    FZ_CHECK(dq[3] >= 0 || isnan(dq[3]));
    float back[12];
    FZ_CHECK(skin_dual_quat_to_matrix(dq, NULL, back) == SKIN_OK);
    if (rigid) {
        FZ_CHECK(flags == 0);
        for (int k = 0; k < 12; ++k) FZ_CHECK(fabsf(back[k] - m[k]) <= 1e-3f * (1 + fabsf(m[k])));
    }
    /* NULL pointers: degenerate, nothing written. */
    cbuf d = cb_new(32);
    FZ_CHECK(skin_matrix_to_dual_quat(NULL, cb_ptr(d), NULL) == SKIN_NONRIGID_DEGENERATE);
    cb_check(d, 1);
    FZ_CHECK(skin_matrix_to_dual_quat(m, NULL, sc) == SKIN_NONRIGID_DEGENERATE);

    /* Arbitrary (non-unit, non-finite) dual quaternions and scales. */
    float q8[8], s3[3];
    for (int k = 0; k < 8; ++k) q8[k] = fz_float(in);
    for (int k = 0; k < 3; ++k) s3[k] = fz_float(in);
    cbuf o = cb_new(48);
    FZ_CHECK(skin_dual_quat_to_matrix(q8, (fz_u8(in) & 1) ? s3 : NULL, cb_ptr(o)) == SKIN_OK);
    cb_check(o, 0);
    o = cb_new(48);
    FZ_CHECK(skin_dual_quat_to_matrix(NULL, s3, cb_ptr(o)) == SKIN_ERROR_NULL_ARGUMENT);
    cb_check(o, 1);
}

static void fuzz_matrices_to_dqs(fz_in *in)
{
    uint32_t jc = fz_u8(in) % 24;
    float *m = floats(in, (size_t)jc * 12);
    const int want_sc = fz_u8(in) & 1, want_cnt = fz_u8(in) & 1;
    cbuf d = cb_new((size_t)jc * 32), s = cb_new((size_t)jc * 12);
    uint32_t cnt = 0xDEADBEEF;
    skin_status st = skin_matrices_to_dual_quats(jc, m, cb_ptr(d), want_sc ? cb_ptr(s) : NULL,
                                                 want_cnt ? &cnt : NULL);
    if (st == SKIN_OK) {
        uint32_t expect = 0;
        for (uint32_t j = 0; j < jc; ++j) {
            float dq[8], sc[3];
            uint32_t f = skin_matrix_to_dual_quat(m + 12 * j, dq, want_sc ? sc : NULL);
            FZ_CHECK(memcmp(dq, (float *)cb_ptr(d) + 8 * j, sizeof dq) == 0);
            if (want_sc) {
                FZ_CHECK(memcmp(sc, (float *)cb_ptr(s) + 3 * j, sizeof sc) == 0);
                f &= ~(uint32_t)(SKIN_NONRIGID_SCALE | SKIN_NONRIGID_NONUNIFORM | SKIN_NONRIGID_MIRROR);
            }
            expect += f != 0;
        }
        if (want_cnt) FZ_CHECK(cnt == expect);
    } else if (want_cnt) {
        FZ_CHECK(cnt == 0xDEADBEEF);
    }
    cb_check(d, st != SKIN_OK);
    cb_check(s, st != SKIN_OK || !want_sc);
    free(m);
}

static void fuzz_pose(fz_in *in)
{
    uint32_t jc = fz_u8(in) % 24;
    int32_t *parents = malloc(jc ? jc * 4 : 1);
    FZ_CHECK(parents != NULL);
    const int valid_h = fz_u8(in) & 1;
    for (uint32_t j = 0; j < jc; ++j) {
        int32_t p = (int8_t)fz_u8(in);
        if (valid_h && p >= (int32_t)j) p = j ? p % (int32_t)j : -1;
        parents[j] = p;
    }
    const uint8_t opt = fz_u8(in);
    float *t = floats(in, (size_t)jc * 3), *r = floats(in, (size_t)jc * 4), *s = floats(in, (size_t)jc * 3);
    cbuf o = cb_new((size_t)jc * 48);
    skin_status st = skin_pose_to_matrices(jc, (opt & 8) ? NULL : parents, (opt & 1) ? t : NULL,
                                           (opt & 2) ? r : NULL, (opt & 4) ? s : NULL, cb_ptr(o));
    int hier_ok = 1;
    for (uint32_t j = 0; j < jc; ++j) hier_ok &= parents[j] < (int32_t)j;
    if (!hier_ok && !(opt & 8)) FZ_CHECK(st != SKIN_OK);
    cb_check(o, st != SKIN_OK);

    /* Inverse bind on the same data, out aliasing model as allowed. */
    float *model = floats(in, (size_t)jc * 12), *ib = floats(in, (size_t)jc * 12);
    cbuf a = cb_new((size_t)jc * 48);
    st = skin_apply_inverse_bind(jc, model, ib, cb_ptr(a));
    if (st == SKIN_OK) {
        FZ_CHECK(skin_apply_inverse_bind(jc, model, ib, model) == SKIN_OK);
        FZ_CHECK(memcmp(model, cb_ptr(a), (size_t)jc * 48) == 0);
    }
    cb_check(a, st != SKIN_OK);
    free(parents), free(t), free(r), free(s), free(model), free(ib);
}

static void fuzz_weights(fz_in *in)
{
    size_t vc = fz_u8(in) % 40;
    uint32_t ic = fz_u8(in) % 10; /* 0 and 9 are invalid */
    uint32_t alloc_ic = ic > SKIN_MAX_INFLUENCES ? SKIN_MAX_INFLUENCES : ic;
    float *w[SKIN_MAX_INFLUENCES] = {0};
    for (uint32_t i = 0; i < alloc_ic; ++i) w[i] = floats(in, vc);
    const uint8_t op = fz_u8(in);

    if (op % 3 == 0) {
        /* In place: the canaries are a copy; non-OK leaves the data as it was. */
        float *copy[SKIN_MAX_INFLUENCES] = {0};
        for (uint32_t i = 0; i < alloc_ic; ++i) {
            copy[i] = malloc(vc ? vc * 4 : 1);
            FZ_CHECK(copy[i] != NULL);
            memcpy(copy[i], w[i], vc * 4);
        }
        skin_status st = skin_normalize_weights(vc, ic, w);
        if (ic < 1 || ic > SKIN_MAX_INFLUENCES) FZ_CHECK(st != SKIN_OK);
        if (st == SKIN_OK) check_sums(vc, ic, SKIN_WEIGHT_F32, (void *const *)w);
        else for (uint32_t i = 0; i < alloc_ic; ++i) FZ_CHECK(memcmp(copy[i], w[i], vc * 4) == 0);
        for (uint32_t i = 0; i < alloc_ic; ++i) free(copy[i]);
    } else if (op % 3 == 1) {
        skin_weight_format f = (skin_weight_format)(fz_u8(in) % 5); /* 0, 1 and 4: invalid */
        size_t eb = f == SKIN_WEIGHT_UNORM8 ? 1 : 2;
        cbuf o[SKIN_MAX_INFLUENCES];
        void *out[SKIN_MAX_INFLUENCES] = {0};
        for (uint32_t i = 0; i < alloc_ic; ++i) o[i] = cb_new(vc * eb), out[i] = cb_ptr(o[i]);
        skin_status st = skin_quantize_weights(vc, ic, (const float *const *)w, f, out);
        if (f != SKIN_WEIGHT_UNORM16 && f != SKIN_WEIGHT_UNORM8) FZ_CHECK(st != SKIN_OK);
        if (st == SKIN_OK) check_sums(vc, ic, f, out);
        for (uint32_t i = 0; i < alloc_ic; ++i) cb_check(o[i], st != SKIN_OK);
    } else {
        /* Remainder to identity: joints in the given format. */
        skin_joint_format jf = (skin_joint_format)(fz_u8(in) % 4);
        size_t jb = jf == SKIN_JOINT_U16 ? 2 : 1;
        uint32_t ident = fz_u8(in) & 1 ? fz_u16(in) : fz_u8(in);
        void *j[SKIN_MAX_INFLUENCES] = {0};
        for (uint32_t i = 0; i < alloc_ic; ++i) {
            j[i] = malloc(vc ? vc * jb : 1);
            FZ_CHECK(j[i] != NULL);
            for (size_t k = 0; k < vc * jb; ++k) ((uint8_t *)j[i])[k] = fz_u8(in);
        }
        skin_status st = skin_add_identity_remainder(vc, ic, jf, j, w, ident);
        if (ic < 2 || ic > SKIN_MAX_INFLUENCES) FZ_CHECK(st != SKIN_OK);
        if (st == SKIN_OK) {
            for (size_t v = 0; v < vc; ++v) {
                uint32_t last = jb == 2 ? ((uint16_t *)j[ic - 1])[v] : ((uint8_t *)j[ic - 1])[v];
                FZ_CHECK(last == ident);
                FZ_CHECK(w[ic - 1][v] >= 0 || isnan(w[ic - 1][v]));
            }
        }
        for (uint32_t i = 0; i < alloc_ic; ++i) free(j[i]);
    }
    for (uint32_t i = 0; i < alloc_ic; ++i) free(w[i]);
}

static void fuzz_deinterleave(fz_in *in)
{
    size_t vc = fz_u8(in) % 40;
    uint32_t sets = fz_u8(in) % 4; /* 0 and 3 are invalid */
    uint32_t alloc_sets = sets > 2 ? 2 : sets;
    skin_joint_format ijf = (skin_joint_format)(fz_u8(in) % 4);
    skin_weight_format iwf = (skin_weight_format)(fz_u8(in) % 5);
    skin_joint_format ojf = (skin_joint_format)(fz_u8(in) % 4);
    skin_weight_format owf = (skin_weight_format)(fz_u8(in) % 5);
    const int typed = fz_u8(in) & 1;
    if (!typed) iwf = SKIN_WEIGHT_F32;
    size_t ijb = ijf == SKIN_JOINT_U16 ? 2 : 1, iwb = iwf == SKIN_WEIGHT_F32 ? 4 : iwf == SKIN_WEIGHT_UNORM16 ? 2 : 1;
    size_t ojb = ojf == SKIN_JOINT_U16 ? 2 : 1, owb = owf == SKIN_WEIGHT_F32 ? 4 : owf == SKIN_WEIGHT_UNORM16 ? 2 : 1;
    void *js[2] = {0}, *ws[2] = {0};
    for (uint32_t s = 0; s < alloc_sets; ++s) {
        js[s] = malloc(vc ? vc * 4 * ijb : 1);
        ws[s] = malloc(vc ? vc * 4 * iwb : 1);
        FZ_CHECK(js[s] && ws[s]);
        for (size_t k = 0; k < vc * 4 * ijb; ++k) ((uint8_t *)js[s])[k] = fz_u8(in);
        for (size_t k = 0; k < vc * 4; ++k) {
            if (iwf == SKIN_WEIGHT_F32) ((float *)ws[s])[k] = fz_float(in);
            else if (iwb == 2) ((uint16_t *)ws[s])[k] = fz_u16(in);
            else ((uint8_t *)ws[s])[k] = fz_u8(in);
        }
    }
    cbuf oj[8], ow[8];
    void *jo[8] = {0}, *wo[8] = {0};
    for (uint32_t i = 0; i < 4 * alloc_sets; ++i) {
        oj[i] = cb_new(vc * ojb), jo[i] = cb_ptr(oj[i]);
        ow[i] = cb_new(vc * owb), wo[i] = cb_ptr(ow[i]);
    }
    skin_status st =
        typed ? skin_deinterleave_influences_typed(vc, sets, ijf, (const void *const *)js, iwf,
                                                   (const void *const *)ws, ojf, owf, jo, wo)
              : skin_deinterleave_influences(vc, sets, ijf, (const void *const *)js,
                                             (const float *const *)ws, ojf, owf, jo, wo);
    if (sets < 1 || sets > 2) FZ_CHECK(st != SKIN_OK);
    if (st == SKIN_OK) {
        check_sums(vc, 4 * sets, owf, wo);
        for (uint32_t i = 0; i < 4 * sets; ++i)
            for (size_t v = 0; v < vc; ++v) {
                size_t k = 4 * v + i % 4;
                uint32_t a = ijb == 2 ? ((uint16_t *)js[i / 4])[k] : ((uint8_t *)js[i / 4])[k];
                uint32_t b = ojb == 2 ? ((uint16_t *)jo[i])[v] : ((uint8_t *)jo[i])[v];
                FZ_CHECK(a == b);
            }
    }
    for (uint32_t i = 0; i < 4 * alloc_sets; ++i) cb_check(oj[i], st != SKIN_OK), cb_check(ow[i], st != SKIN_OK);
    for (uint32_t s = 0; s < alloc_sets; ++s) free(js[s]), free(ws[s]);
}

static void fuzz_matrix_math(fz_in *in)
{
    uint32_t n = fz_u8(in) % 16;
    float *cm = floats(in, (size_t)n * 16);
    cbuf o = cb_new((size_t)n * 48);
    skin_status st = skin_matrices_from_4x4(n, cm, cb_ptr(o));
    if (st == SKIN_OK) {
        const float *r = cb_ptr(o);
        for (uint32_t j = 0; j < n; ++j)
            for (int row = 0; row < 3; ++row)
                for (int c = 0; c < 4; ++c)
                    FZ_CHECK(memcmp(&r[12 * j + 4 * row + c], &cm[16 * j + 4 * c + row], 4) == 0);
    }
    cb_check(o, st != SKIN_OK);
    free(cm);

    float *pal = floats(in, (size_t)n * 12);
    o = cb_new((size_t)n * 36);
    st = skin_normal_matrices(n, pal, cb_ptr(o));
    cb_check(o, st != SKIN_OK);
    free(pal);

    float a[12], b[12], ab[12], inv[12];
    for (int k = 0; k < 12; ++k) a[k] = fz_float(in), b[k] = fz_float(in);
    skin_matrix_multiply(a, b, ab);
    float alias[12];
    memcpy(alias, a, sizeof a);
    skin_matrix_multiply(alias, b, alias); /* out may alias a */
    for (int k = 0; k < 12; ++k) FZ_CHECK(same_bits_or_nan(alias[k], ab[k]));

    o = cb_new(48);
    st = skin_matrix_invert(a, cb_ptr(o));
    if (st == SKIN_OK) {
        memcpy(inv, cb_ptr(o), sizeof inv);
        for (int k = 0; k < 12; ++k) FZ_CHECK(isfinite(inv[k])); /* else NON_FINITE */
        memcpy(alias, a, sizeof a);
        FZ_CHECK(skin_matrix_invert(alias, alias) == SKIN_OK); /* out may alias m */
        FZ_CHECK(memcmp(alias, inv, sizeof inv) == 0);
    } else {
        FZ_CHECK(st == SKIN_ERROR_NON_FINITE);
    }
    cb_check(o, st != SKIN_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0, SIZE_MAX};
    switch (fz_u8(&in) % 6) {
    case 0: fuzz_matrix_dq(&in); break;
    case 1: fuzz_matrices_to_dqs(&in); break;
    case 2: fuzz_pose(&in); break;
    case 3: fuzz_weights(&in); break;
    case 4: fuzz_deinterleave(&in); break;
    default: fuzz_matrix_math(&in); break;
    }
    return 0;
}
