/* SPDX-License-Identifier: MIT */
/* libFuzzer target: skin_validate, skin_mesh and skin_mesh_parallel on a
 * mesh (with up to three morph targets), palette and output decoded from
 * the input, under every ISA this CPU runs.
 *
 * Every buffer is allocated at exactly the size skin.h requires (ASan sees
 * one byte too far), and outputs carry canary bytes around and between their
 * elements.  Oracles:
 *  - a descriptor the decoder built valid is accepted; one it broke on
 *    purpose (one defect at a time) is rejected;
 *  - a non-OK status writes nothing; SKIN_OK writes only the bytes of the
 *    range's elements;
 *  - every ISA returns the same status;
 *  - the range split in two calls gives the same output as one call, and
 *    skin_mesh_parallel the same as skin_mesh over the whole mesh (NaN
 *    payloads aside, as skin.h allows), unless a morph list is bad;
 *  - a bad morph list (unsorted, repeated, out of range) fails validation;
 *  - data that skin_validate accepts, with a bounded palette and positions,
 *    skins to finite values. */
#include "fuzz_input.h"
#include "skin/skin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CANARY 0xFB
#define PAD 16 /* canary bytes before and after each output buffer */

/* One defect per input, chosen by the decoder (most inputs: none). */
enum {
    B_NONE,
    B_METHOD, B_FLAGS, B_POS_IN_NULL, B_VCOUNT_HUGE,
    B_RANGE_PAST, B_RANGE_WRAP, B_RANGE_SIZE_MAX, B_RANGE_FIRST_MAX,
    B_INFL0, B_INFL9, B_JFMT, B_WFMT, B_SLOT_NULL,
    B_JC0, B_JC65537, B_PAL_MISSING,
    B_LAYOUT, B_VF, B_VF_SOA, B_MISSING_N, B_MISSING_T, B_MESH_NY_NULL, B_MESH_TW_NULL,
    B_POS_OUT_NULL, B_SOA_NULL, B_STRIDE_SHORT, B_STRIDE_UNALIGNED, B_PTR_MISALIGNED,
    B_STRIDE_HUGE,
    B_COUNT
};

/* Output geometry, decoded once and instantiated per call under test. */
typedef struct view {
    int buf;
    size_t offset, stride, elem;
    int is_float;
} view;

typedef struct out_spec {
    skin_layout layout;
    uint32_t flags;
    skin_vector_format vf;
    int want_n, want_t, want_bounds, soa_null; /* soa_null: a required SoA stream left NULL */
    int nbufs;
    size_t buf_size[10];
    int nviews;
    view v[10];
    int ptr_null[10]; /* view left NULL in the skin_output */
} out_spec;

typedef struct out_inst {
    uint8_t *mem[10];
    float bounds[8]; /* bounds at [1..6], canaries at [0] and [7] */
    skin_output out;
} out_inst;

static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

/* Bytes from a view's base through its last element, or SIZE_MAX. */
static size_t span(size_t vc, size_t stride, size_t elem)
{
    if (vc == 0) return elem;
    if (stride && vc - 1 > (SIZE_MAX - elem) / stride) return SIZE_MAX;
    return (vc - 1) * stride + elem;
}

static void inst_make(const out_spec *s, out_inst *o)
{
    memset(o, 0, sizeof *o);
    o->out.layout = s->layout;
    o->out.flags = s->flags;
    o->out.vector_format = s->vf;
    for (int b = 0; b < s->nbufs; ++b) {
        o->mem[b] = malloc(s->buf_size[b]);
        FZ_CHECK(o->mem[b] != NULL);
        memset(o->mem[b], CANARY, s->buf_size[b]);
    }
    memset(o->bounds, CANARY, sizeof o->bounds);
    if (s->want_bounds) o->out.bounds = o->bounds + 1;
    for (int i = 0; i < s->nviews; ++i) {
        float *p = s->ptr_null[i] ? NULL : (float *)(void *)(o->mem[s->v[i].buf] + s->v[i].offset);
        if (s->layout != SKIN_LAYOUT_STRIDED) { /* SoA, or an unknown layout */
            o->out.soa[i] = p;
        } else if (i == 0) {
            o->out.position = p, o->out.position_stride = s->v[i].stride;
        } else if (i == 1) {
            o->out.normal = p, o->out.normal_stride = s->v[i].stride;
        } else {
            o->out.tangent = p, o->out.tangent_stride = s->v[i].stride;
        }
    }
}

static void inst_free(const out_spec *s, out_inst *o)
{
    for (int b = 0; b < s->nbufs; ++b) free(o->mem[b]);
}

/* Every byte outside the elements of [first, first + count) still holds the
 * canary.  The bounds are checked by the caller. */
static void check_canaries(const out_spec *s, const out_inst *o, size_t first, size_t count)
{
    for (int b = 0; b < s->nbufs; ++b) {
        uint8_t *mask = calloc(s->buf_size[b], 1);
        FZ_CHECK(mask != NULL);
        for (int i = 0; i < s->nviews; ++i) {
            const view *w = &s->v[i];
            if (w->buf != b || s->ptr_null[i]) continue;
            for (size_t v = first; v < first + count; ++v)
                memset(mask + w->offset + v * w->stride, 1, w->elem);
        }
        for (size_t k = 0; k < s->buf_size[b]; ++k)
            if (!mask[k]) FZ_CHECK(o->mem[b][k] == CANARY);
        free(mask);
    }
    uint8_t c[4];
    memset(c, CANARY, sizeof c);
    FZ_CHECK(memcmp(&o->bounds[0], c, 4) == 0 && memcmp(&o->bounds[7], c, 4) == 0);
}

static void check_untouched(const out_spec *s, const out_inst *o)
{
    check_canaries(s, o, 0, 0);
    for (int k = 1; k <= 6; ++k) {
        uint8_t c[4];
        memset(c, CANARY, sizeof c);
        FZ_CHECK(memcmp(&o->bounds[k], c, 4) == 0);
    }
}

static int same_float(const uint8_t *a, const uint8_t *b)
{
    float x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return memcmp(a, b, 4) == 0 || (isnan(x) && isnan(y));
}

/* The range's elements of a and b agree (NaN payloads aside). */
static void check_same(const out_spec *s, const out_inst *a, const out_inst *b, size_t first,
                       size_t count)
{
    for (int i = 0; i < s->nviews; ++i) {
        const view *w = &s->v[i];
        if (s->ptr_null[i]) continue;
        for (size_t v = first; v < first + count; ++v) {
            const uint8_t *x = a->mem[w->buf] + w->offset + v * w->stride;
            const uint8_t *y = b->mem[w->buf] + w->offset + v * w->stride;
            if (w->is_float) {
                for (size_t k = 0; k < w->elem; k += 4) FZ_CHECK(same_float(x + k, y + k));
            } else {
                FZ_CHECK(memcmp(x, y, w->elem) == 0);
            }
        }
    }
}

static void check_finite(const out_spec *s, const out_inst *o, size_t first, size_t count)
{
    for (int i = 0; i < s->nviews; ++i) {
        const view *w = &s->v[i];
        if (s->ptr_null[i] || !w->is_float) continue;
        for (size_t v = first; v < first + count; ++v)
            for (size_t k = 0; k < w->elem; k += 4) {
                float f;
                memcpy(&f, o->mem[w->buf] + w->offset + v * w->stride + k, 4);
                FZ_CHECK(isfinite(f));
            }
    }
}

static void *alloc_fill(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    FZ_CHECK(p != NULL);
    return p;
}

static float *float_stream(fz_in *d, size_t n, int small)
{
    float *p = alloc_fill(n * sizeof(float));
    for (size_t v = 0; v < n; ++v) p[v] = small ? fz_small(d) : fz_float(d);
    return p;
}

/* Decodes the output geometry: strided (separate or interleaved) or SoA. */
static void decode_output(fz_in *in, int brk, size_t vc, out_spec *s, int *valid)
{
    memset(s, 0, sizeof *s);
    uint8_t m = fz_u8(in);
    s->layout = (m & 1) ? SKIN_LAYOUT_SOA : SKIN_LAYOUT_STRIDED;
    s->want_n = (m >> 1) & 1;
    s->want_t = (m >> 2) & 1;
    s->want_bounds = (m >> 3) & 1;
    const int interleaved = (m >> 4) & 1;
    s->flags = fz_u8(in) & SKIN_OUTPUT_ALL_FLAGS;
    s->vf = s->layout == SKIN_LAYOUT_SOA ? SKIN_VECTOR_F32 : (skin_vector_format)(fz_u8(in) % 3);
    if (brk == B_FLAGS) s->flags |= 1u << (2 + fz_u8(in) % 30), *valid = 0;
    if (brk == B_LAYOUT) s->layout = (skin_layout)(2 + fz_u8(in) % 3), *valid = 0;
    if (brk == B_VF) s->vf = (skin_vector_format)(3 + fz_u8(in) % 3), *valid = 0;
    if (brk == B_VF_SOA) {
        s->layout = SKIN_LAYOUT_SOA, s->vf = (skin_vector_format)(1 + fz_u8(in) % 2), *valid = 0;
    }
    const int soa = s->layout == SKIN_LAYOUT_SOA;
    size_t misalign = 0;
    if (brk == B_PTR_MISALIGNED) misalign = 1 + fz_u8(in) % 3, *valid = 0;
    int bad_view = fz_u8(in) % 3; /* which attribute a stride/pointer defect hits */
    if (bad_view == 1 && !s->want_n) bad_view = 0;
    if (bad_view == 2 && !s->want_t) bad_view = 0;

    if (soa || s->layout != SKIN_LAYOUT_STRIDED) {
        /* SoA (and the unknown layouts, which must not be read): 10 streams. */
        s->nbufs = s->nviews = 10;
        for (int c = 0; c < 10; ++c) {
            const int used = c < 3 || (c < 6 ? s->want_n : s->want_t);
            s->v[c] = (view){c, PAD + (c == 3 * bad_view ? misalign : 0), 4, 4, 1};
            s->buf_size[c] = PAD + 4 + vc * 4 + PAD;
            s->ptr_null[c] = !used;
        }
        if (brk == B_POS_OUT_NULL) s->ptr_null[fz_u8(in) % 3] = 1, *valid = 0;
        if (brk == B_SOA_NULL && (s->want_n || s->want_t)) {
            s->ptr_null[s->want_n ? 4 + fz_u8(in) % 2 : 7 + fz_u8(in) % 3] = 1, *valid = 0;
        }
        return;
    }

    const size_t nb = s->vf == SKIN_VECTOR_1010102 ? 4 : s->vf == SKIN_VECTOR_SNORM16 ? 8 : 12;
    const size_t tb = s->vf == SKIN_VECTOR_1010102 ? 4 : s->vf == SKIN_VECTOR_SNORM16 ? 8 : 16;
    const size_t elem[3] = {12, nb, tb};
    const int isf[3] = {1, s->vf == SKIN_VECTOR_F32, s->vf == SKIN_VECTOR_F32};
    const int on[3] = {1, s->want_n, s->want_t};
    s->nviews = 3;
    if (interleaved) {
        /* One vertex buffer: position, normal, tangent back to back. */
        size_t off = 0, stride;
        for (int a = 0; a < 3; ++a) {
            s->v[a] = (view){0, PAD + off, 0, elem[a], isf[a]};
            if (on[a]) off += elem[a];
        }
        stride = off + 4 * (fz_u8(in) % 8);
        for (int a = 0; a < 3; ++a) s->v[a].stride = stride;
    } else {
        for (int a = 0; a < 3; ++a) {
            size_t stride = elem[a] + 4 * (fz_u8(in) % 32); /* up to 136 bytes and more */
            s->v[a] = (view){a, PAD, stride, elem[a], isf[a]};
        }
    }
    view *bv = &s->v[bad_view];
    int must_fail = 0;
    if (brk == B_STRIDE_SHORT) bv->stride = bv->elem - 4, must_fail = 1;
    if (brk == B_STRIDE_UNALIGNED) bv->stride += 1 + fz_u8(in) % 3, must_fail = 1;
    if (brk == B_STRIDE_HUGE) {
        /* Legal for one vertex; stride * vertex_count > PTRDIFF_MAX otherwise. */
        bv->stride = (size_t)PTRDIFF_MAX & ~(size_t)3;
        must_fail = vc > 1;
    }
    if (must_fail && interleaved) {
        /* Keep the views apart: one buffer per attribute. */
        for (int a = 0; a < 3; ++a) s->v[a].buf = a, s->v[a].offset = PAD;
    }
    if (must_fail) *valid = 0;
    bv->offset += misalign;
    s->nbufs = interleaved && !must_fail ? 1 : 3;
    for (int a = 0; a < 3; ++a) {
        s->ptr_null[a] = !on[a];
        size_t need = span(vc, s->v[a].stride, s->v[a].elem);
        if (need > ((size_t)1 << 26)) need = s->v[a].elem; /* must be rejected: never written */
        size_t end = add_sat(s->v[a].offset, need);
        if (add_sat(end, PAD) > s->buf_size[s->v[a].buf]) s->buf_size[s->v[a].buf] = end + PAD;
    }
    if (brk == B_POS_OUT_NULL) s->ptr_null[0] = 1, *valid = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in hdr = {data, size < 64 ? size : 64, 0, SIZE_MAX};
    fz_in dat = {data, size, size < 64 ? size : 64, size < 64 ? size : 64};
    if (dat.wrap >= dat.n) dat.wrap = SIZE_MAX; /* no data bytes: zeros */

    uint8_t b = fz_u8(&hdr);
    const int brk = b < 128 ? B_NONE : 1 + (b - 128) % (B_COUNT - 1);
    int valid = 1, range_ok = 1;

    /* Counts and range. */
    uint8_t vm = fz_u8(&hdr);
    size_t vc = (vm & 7) == 7 ? 4096 + 8 * (size_t)fz_u8(&hdr) : fz_u16(&hdr) % 300;
    size_t first = 0, count = vc;
    if (vm & 8) {
        first = fz_u16(&hdr) % (vc + 1);
        count = fz_u16(&hdr) % (vc - first + 1);
    }
    switch (brk) {
    case B_RANGE_PAST: first = vc + 1 + fz_u8(&hdr), count = 0, range_ok = 0; break;
    case B_RANGE_WRAP: /* first + count wraps to 1 (first >= 2 keeps count nonzero) */
        first = 2 + fz_u8(&hdr) % (vc + 1), count = SIZE_MAX - first + 2, range_ok = 0; break;
    case B_RANGE_SIZE_MAX: count = SIZE_MAX, range_ok = 0; break;
    case B_RANGE_FIRST_MAX: first = SIZE_MAX, count = 1, range_ok = 0; break;
    default: break;
    }
    const size_t split = count < SIZE_MAX ? fz_u16(&hdr) % (count + 1) : 0;

    uint32_t ic = 1 + fz_u8(&hdr) % SKIN_MAX_INFLUENCES;
    skin_joint_format jf = (fz_u8(&hdr) & 1) ? SKIN_JOINT_U16 : SKIN_JOINT_U8;
    skin_weight_format wf = (skin_weight_format)(1 + fz_u8(&hdr) % 3);
    uint32_t jc = 1 + fz_u8(&hdr) % 80;
    if ((vm & 0x30) == 0x30) jc = 65536;
    skin_method method = (fz_u8(&hdr) & 1) ? SKIN_DQS : SKIN_LBS;
    const uint8_t dm = fz_u8(&hdr); /* data modes */
    const int small_pos = dm & 1, norm_weights = (dm >> 1) & 1, valid_joints = (dm >> 2) & 1;
    const int rigid_pal = (dm >> 3) & 1, has_nm = (dm >> 4) & 1, has_sc = (dm >> 5) & 1;
    const int mesh_n = (dm >> 6) & 1, mesh_t = (dm >> 7) & 1;
    const int threads = fz_u8(&hdr) % 5;

    out_spec spec;
    decode_output(&hdr, brk, vc, &spec, &valid);
    /* The output asks for what the mesh has, unless a defect says otherwise. */
    int has_n = spec.want_n || mesh_n, has_t = spec.want_t || mesh_t;
    if (brk == B_MISSING_N && spec.want_n) has_n = 0, valid = 0;
    if (brk == B_MISSING_T && spec.want_t) has_t = 0, valid = 0;
    if (brk == B_METHOD) method = (skin_method)(fz_u8(&hdr) & 1 ? 0 : 3 + fz_u8(&hdr)), valid = 0;
    if (!range_ok) valid = 0;

    /* Mesh streams, sized exactly. */
    const size_t alloc_vc = vc;
    float *pos[3], *nrm[3] = {0}, *tan[4] = {0};
    for (int c = 0; c < 3; ++c) pos[c] = float_stream(&dat, alloc_vc, small_pos);
    if (has_n)
        for (int c = 0; c < 3; ++c) nrm[c] = float_stream(&dat, alloc_vc, small_pos);
    if (has_t)
        for (int c = 0; c < 4; ++c) tan[c] = float_stream(&dat, alloc_vc, small_pos);
    const size_t jb = jf == SKIN_JOINT_U16 ? 2 : 1;
    const size_t wb = wf == SKIN_WEIGHT_F32 ? 4 : wf == SKIN_WEIGHT_UNORM16 ? 2 : 1;
    void *joints[SKIN_MAX_INFLUENCES] = {0}, *weights[SKIN_MAX_INFLUENCES] = {0};
    float *wf32[SKIN_MAX_INFLUENCES] = {0};
    for (uint32_t i = 0; i < ic; ++i) {
        joints[i] = alloc_fill(alloc_vc * jb);
        weights[i] = alloc_fill(alloc_vc * wb);
        wf32[i] = alloc_fill(alloc_vc * 4);
        for (size_t v = 0; v < alloc_vc; ++v) {
            uint32_t j = jb == 2 ? fz_u16(&dat) : fz_u8(&dat);
            if (valid_joints) j %= jc;
            if (jb == 2) ((uint16_t *)joints[i])[v] = (uint16_t)j;
            else ((uint8_t *)joints[i])[v] = (uint8_t)j;
            wf32[i][v] = fz_float(&dat);
            if (wb == 2) ((uint16_t *)weights[i])[v] = fz_u16(&dat);
            else if (wb == 1) ((uint8_t *)weights[i])[v] = fz_u8(&dat);
        }
    }
    if (norm_weights && alloc_vc) {
        /* Through the load-time helpers, as an application would. */
        if (wf == SKIN_WEIGHT_F32) {
            FZ_CHECK(skin_normalize_weights(alloc_vc, ic, wf32) == SKIN_OK);
        } else {
            FZ_CHECK(skin_quantize_weights(alloc_vc, ic, (const float *const *)wf32, wf,
                                           weights) == SKIN_OK);
        }
    }
    if (wf == SKIN_WEIGHT_F32)
        for (uint32_t i = 0; i < ic; ++i) memcpy(weights[i], wf32[i], alloc_vc * 4);

    skin_mesh_desc mesh = {0};
    mesh.vertex_count = vc;
    mesh.px = pos[0], mesh.py = pos[1], mesh.pz = pos[2];
    mesh.nx = nrm[0], mesh.ny = nrm[1], mesh.nz = nrm[2];
    mesh.tx = tan[0], mesh.ty = tan[1], mesh.tz = tan[2], mesh.tw = tan[3];
    mesh.influence_count = ic;
    mesh.joint_format = jf;
    mesh.weight_format = wf;
    for (uint32_t i = 0; i < ic; ++i) mesh.joints[i] = joints[i], mesh.weights[i] = weights[i];
    int mesh_valid = 1;
    switch (brk) {
    case B_POS_IN_NULL: mesh.py = NULL, mesh_valid = 0; break;
    case B_VCOUNT_HUGE: mesh.vertex_count = (fz_u8(&hdr) & 1) ? SIZE_MAX : (size_t)PTRDIFF_MAX / 64 + 1, count = 0, first = 0, mesh_valid = 0; break;
    case B_INFL0: mesh.influence_count = 0, mesh_valid = 0; break;
    case B_INFL9: mesh.influence_count = 9 + fz_u8(&hdr), mesh_valid = 0; break;
    case B_JFMT: mesh.joint_format = (skin_joint_format)((fz_u8(&hdr) & 1) ? 0 : 3), mesh_valid = 0; break;
    case B_WFMT: mesh.weight_format = (skin_weight_format)((fz_u8(&hdr) & 1) ? 0 : 4), mesh_valid = 0; break;
    case B_SLOT_NULL: {
        uint32_t i = fz_u8(&hdr) % ic;
        if (fz_u8(&hdr) & 1) mesh.joints[i] = NULL;
        else mesh.weights[i] = NULL;
        mesh_valid = 0;
        break;
    }
    case B_MESH_NY_NULL:
        if (spec.want_n) mesh.ny = NULL, mesh_valid = 0;
        break;
    case B_MESH_TW_NULL:
        if (spec.want_t) mesh.tw = NULL, mesh_valid = 0;
        break;
    default: break;
    }
    if (!mesh_valid) valid = 0;

    /* Palette, sized exactly; a count that must be rejected gets one entry. */
    uint32_t pal_jc = jc;
    if (brk == B_JC0) pal_jc = 0, valid = 0;
    if (brk == B_JC65537) pal_jc = 65537, valid = 0;
    const size_t alloc_jc = (brk == B_JC0 || brk == B_JC65537) ? 1 : jc;
    float *mats = alloc_fill(alloc_jc * 12 * 4), *nms = alloc_fill(alloc_jc * 9 * 4);
    float *dqs = alloc_fill(alloc_jc * 8 * 4), *scs = alloc_fill(alloc_jc * 3 * 4);
    /* At most 256 joints are decoded; a larger palette repeats them (a
     * 65536-joint palette decoded in full would dominate the run time). */
    const size_t dec_jc = alloc_jc < 256 ? alloc_jc : 256;
    if (rigid_pal) {
        for (size_t k = 0; k < dec_jc * 12; ++k) mats[k] = fz_small(&dat);
        FZ_CHECK(skin_matrices_to_dual_quats((uint32_t)dec_jc, mats, dqs, scs, NULL) == SKIN_OK);
        FZ_CHECK(skin_normal_matrices((uint32_t)dec_jc, mats, nms) == SKIN_OK);
    } else {
        for (size_t k = 0; k < dec_jc * 12; ++k) mats[k] = fz_float(&dat);
        for (size_t k = 0; k < dec_jc * 9; ++k) nms[k] = fz_float(&dat);
        for (size_t k = 0; k < dec_jc * 8; ++k) dqs[k] = fz_float(&dat);
        for (size_t k = 0; k < dec_jc * 3; ++k) scs[k] = fz_float(&dat);
    }
    for (size_t j = dec_jc; j < alloc_jc; ++j) {
        const size_t from = j % dec_jc;
        memcpy(mats + 12 * j, mats + 12 * from, 12 * sizeof(float));
        memcpy(nms + 9 * j, nms + 9 * from, 9 * sizeof(float));
        memcpy(dqs + 8 * j, dqs + 8 * from, 8 * sizeof(float));
        memcpy(scs + 3 * j, scs + 3 * from, 3 * sizeof(float));
    }
    skin_palette pal = {pal_jc, mats, has_nm ? nms : NULL, dqs, has_sc ? scs : NULL, NULL};
    if (brk == B_PAL_MISSING) {
        if (method == SKIN_LBS) pal.matrices = NULL;
        else pal.dual_quats = NULL;
        valid = 0;
    }

    /* Morph targets (0-3): dense or sparse, with a strictly increasing list
     * or a raw one (unsorted, repeated, out of range: skin_validate rejects
     * it, skinning must still stay in bounds), plain or special weights. */
    enum { MAX_MORPH = 3, MAX_LIST = 256 };
    skin_morph_target mt[MAX_MORPH];
    float mw[MAX_MORPH];
    uint32_t *mt_idx[MAX_MORPH] = {0};
    float *mt_delta[MAX_MORPH][9] = {{0}};
    const uint32_t nt = fz_u8(&hdr) % (MAX_MORPH + 1);
    int lists_ok = 1, small_mw = 1;
    memset(mt, 0, sizeof mt);
    for (uint32_t k = 0; k < nt; ++k) {
        const uint8_t f = fz_u8(&hdr);
        const int sparse = f & 1, groups = (f >> 1) & 7, raw = (f >> 4) & 1, special_w = (f >> 5) & 1;
        mw[k] = special_w ? fz_float(&dat) : fz_small(&dat);
        small_mw &= !special_w;
        if (!isfinite(mw[k])) valid = 0;
        size_t n = vc;
        if (sparse) {
            uint32_t list[MAX_LIST];
            n = 0;
            if (raw) {
                const size_t len = fz_u8(&dat) % 32;
                while (n < len) list[n++] = fz_u16(&dat) % (uint32_t)(vc + 2);
            } else {
                for (size_t u = fz_u8(&dat) % 4; n < MAX_LIST && u < vc; u += 1 + fz_u8(&dat) % 16)
                    list[n++] = (uint32_t)u;
            }
            for (size_t e = 0; e < n; ++e) lists_ok &= list[e] < vc && (e == 0 || list[e] > list[e - 1]);
            mt_idx[k] = alloc_fill(n * sizeof(uint32_t));
            memcpy(mt_idx[k], list, n * sizeof(uint32_t));
            mt[k].indices = mt_idx[k], mt[k].count = n;
        }
        for (int g = 0; g < 3; ++g)
            if ((groups >> g) & 1)
                for (int e = 3 * g; e < 3 * g + 3; ++e) mt_delta[k][e] = float_stream(&dat, n, small_pos);
        float *const *d = mt_delta[k];
        mt[k].dpx = d[0], mt[k].dpy = d[1], mt[k].dpz = d[2];
        mt[k].dnx = d[3], mt[k].dny = d[4], mt[k].dnz = d[5];
        mt[k].dtx = d[6], mt[k].dty = d[7], mt[k].dtz = d[8];
    }
    if (nt) mesh.morph_target_count = nt, mesh.morph_targets = mt, pal.morph_weights = mw;

    /* Validation: the report agrees with the status and names a real place. */
    skin_validation_report rep;
    memset(&rep, 0xEE, sizeof rep);
    const skin_status vs = skin_validate(&mesh, pal_jc ? pal_jc : 1, (dm & 0x80) ? &rep : NULL);
    if (dm & 0x80) {
        FZ_CHECK(rep.status == vs);
        if (vs == SKIN_OK) FZ_CHECK(rep.vertex == 0);
        if (vs <= SKIN_ERROR_JOINT_OUT_OF_RANGE && vs >= SKIN_ERROR_NON_FINITE) {
            FZ_CHECK(rep.vertex < vc);
            FZ_CHECK(rep.slot < (vs == SKIN_ERROR_NON_FINITE ? 10u : ic));
        }
        if (vs == SKIN_ERROR_MORPH_INDEX_ORDER || vs == SKIN_ERROR_MORPH_INDEX_RANGE)
            FZ_CHECK(rep.morph_target >= 0 && (uint32_t)rep.morph_target < nt && mt[rep.morph_target].indices);
    }
    if (!mesh_valid) FZ_CHECK(vs != SKIN_OK);
    if (lists_ok) FZ_CHECK(vs != SKIN_ERROR_MORPH_INDEX_ORDER && vs != SKIN_ERROR_MORPH_INDEX_RANGE);
    else FZ_CHECK(vs != SKIN_OK);
    if (vs == SKIN_OK) {
        /* Accepted weights are finite, non-negative and sum to one. */
        for (size_t v = 0; v < vc && wf == SKIN_WEIGHT_F32; ++v) {
            float sum = 0;
            for (uint32_t i = 0; i < ic; ++i) {
                FZ_CHECK(isfinite(wf32[i][v]) && wf32[i][v] >= 0);
                sum += wf32[i][v];
            }
            FZ_CHECK(fabsf(sum - 1.0f) <= 1.01e-3f);
        }
    }
    /* Bounded inputs that validate skin to finite values. */
    /* (DQS divides normals by the blended scale, which a degenerate matrix
     * makes zero: scales are left out of this check.) */
    const int expect_finite = vs == SKIN_OK && small_pos && small_mw && rigid_pal && pal_jc == jc &&
                              !(method == SKIN_DQS && has_sc);
    /* What a bad morph list adds is unspecified, and may differ between
     * splits (skin.h): then only the bounds are checked. */
    const int split_exact = lists_ok;

    const skin_isa isas[] = {SKIN_ISA_SCALAR, SKIN_ISA_SSE2, SKIN_ISA_AVX2, SKIN_ISA_AVX512,
                             SKIN_ISA_NEON,
                             SKIN_ISA_SIMD128};
    int have_status = 0;
    skin_status st_range = SKIN_OK, st_whole = SKIN_OK;
    for (size_t k = 0; k < sizeof isas / sizeof isas[0]; ++k) {
        if (!skin_isa_supported(isas[k])) continue;
        FZ_CHECK(skin_set_isa(isas[k]) == SKIN_OK);
        out_inst r, sp, w, p;
        inst_make(&spec, &r);
        inst_make(&spec, &sp);
        inst_make(&spec, &w);
        inst_make(&spec, &p);

        /* One call over the range. */
        skin_status s1 = skin_mesh(&mesh, &pal, method, &r.out, first, count);
        if (valid) FZ_CHECK(s1 == SKIN_OK);
        if (!valid) FZ_CHECK(s1 != SKIN_OK);
        if (s1 != SKIN_OK) {
            check_untouched(&spec, &r);
        } else {
            check_canaries(&spec, &r, first, count);
            if (count == 0 && spec.want_bounds) {
                for (int c = 0; c < 3; ++c)
                    FZ_CHECK(r.bounds[1 + c] == INFINITY && r.bounds[4 + c] == -INFINITY);
            }
            if (expect_finite) check_finite(&spec, &r, first, count);
        }

        /* The same range in two calls. */
        if (s1 == SKIN_OK) {
            FZ_CHECK(skin_mesh(&mesh, &pal, method, &sp.out, first, split) == SKIN_OK);
            FZ_CHECK(skin_mesh(&mesh, &pal, method, &sp.out, first + split, count - split) == SKIN_OK);
            check_canaries(&spec, &sp, first, count);
            if (split_exact) check_same(&spec, &r, &sp, first, count);
        }

        /* The whole mesh: one call against skin_mesh_parallel. */
        skin_status s2 = skin_mesh(&mesh, &pal, method, &w.out, 0, mesh.vertex_count > vc ? 0 : vc);
        skin_status s3 = skin_mesh_parallel(&mesh, &pal, method, &p.out, threads);
        if (range_ok) FZ_CHECK(s2 == s1);
        if (brk != B_VCOUNT_HUGE) FZ_CHECK(s3 == s2);
        else FZ_CHECK(s3 != SKIN_OK);
        if (s3 != SKIN_OK) {
            check_untouched(&spec, &p);
        } else {
            check_canaries(&spec, &p, 0, vc);
            if (split_exact) check_same(&spec, &w, &p, 0, vc);
        }
        if (s2 == SKIN_OK) check_canaries(&spec, &w, 0, vc);
        else check_untouched(&spec, &w);

        if (have_status) FZ_CHECK(s1 == st_range && s2 == st_whole);
        st_range = s1, st_whole = s2, have_status = 1;
        inst_free(&spec, &r);
        inst_free(&spec, &sp);
        inst_free(&spec, &w);
        inst_free(&spec, &p);
    }
    FZ_CHECK(skin_set_isa(SKIN_ISA_AUTO) == SKIN_OK);

    for (int c = 0; c < 3; ++c) free(pos[c]), free(nrm[c]);
    for (int c = 0; c < 4; ++c) free(tan[c]);
    for (uint32_t i = 0; i < ic; ++i) free(joints[i]), free(weights[i]), free(wf32[i]);
    free(mats), free(nms), free(dqs), free(scs);
    for (uint32_t k = 0; k < nt; ++k) {
        free(mt_idx[k]);
        for (int e = 0; e < 9; ++e) free(mt_delta[k][e]);
    }
    return 0;
}
