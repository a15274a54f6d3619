/* Vertex layouts and skinning into a slot, with packed normals/tangents
 * produced from a small stack scratch (the core only writes floats). */
#include "skin/skin_vk.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define HAVE_STREAM 1
#endif

#define BLOCK 256

skin_status skin_vk_vertex_layout_init(uint32_t attributes, skin_vk_packing packing,
                                       skin_vk_vertex_layout *l)
{
    if (!l) return SKIN_ERROR_NULL_ARGUMENT;
    if (attributes & ~(SKIN_VK_NORMAL | SKIN_VK_TANGENT)) return SKIN_ERROR_INVALID_FLAGS;
    uint32_t nsize, tsize;
    VkFormat nf, tf;
    switch (packing) {
    case SKIN_VK_PACK_FLOAT:
        nsize = 12, tsize = 16;
        nf = VK_FORMAT_R32G32B32_SFLOAT, tf = VK_FORMAT_R32G32B32A32_SFLOAT;
        break;
    case SKIN_VK_PACK_1010102:
        nsize = tsize = 4;
        nf = tf = VK_FORMAT_A2B10G10R10_SNORM_PACK32;
        break;
    case SKIN_VK_PACK_SNORM16:
        nsize = tsize = 8;
        nf = tf = VK_FORMAT_R16G16B16A16_SNORM;
        break;
    default:
        return SKIN_ERROR_INVALID_FORMAT;
    }
    memset(l, 0, sizeof *l);
    l->attributes = attributes;
    l->packing = packing;
    l->position_format = VK_FORMAT_R32G32B32_SFLOAT;
    l->stride = 12;
    if (attributes & SKIN_VK_NORMAL) {
        l->normal_offset = l->stride;
        l->normal_format = nf;
        l->stride += nsize;
    }
    if (attributes & SKIN_VK_TANGENT) {
        l->tangent_offset = l->stride;
        l->tangent_format = tf;
        l->stride += tsize;
    }
    return SKIN_OK;
}

/* Vulkan's float -> snorm conversion: clamp, scale, round to nearest.
 * Branchless (signs are random, branches mispredict) so the loops below
 * vectorise (compare-selects become min/max); NaN becomes -1. */
static inline int32_t snorm(float f, float scale)
{
    f = f > -1.0f ? f : -1.0f;
    f = f < 1.0f ? f : 1.0f;
    f *= scale;
    return (int32_t)(f + copysignf(0.5f, f));
}

/* Sign of w as a 2-bit snorm: +1 -> 1, -1 -> 3, 0 -> 0. */
static inline uint32_t sign2(float w) { return (uint32_t)((w > 0.0f) - (w < 0.0f)) & 3u; }

static void pack1010102(size_t n, const float *x, const float *y, const float *z,
                        const float *w, uint32_t *out)
{
    for (size_t v = 0; v < n; ++v)
        out[v] = ((uint32_t)snorm(x[v], 511.0f) & 0x3ffu) |
                 ((uint32_t)snorm(y[v], 511.0f) & 0x3ffu) << 10 |
                 ((uint32_t)snorm(z[v], 511.0f) & 0x3ffu) << 20;
    if (w)
        for (size_t v = 0; v < n; ++v) out[v] |= sign2(w[v]) << 30;
}

static void pack16(size_t n, const float *x, const float *y, const float *z, const float *w,
                   int16_t (*out)[4])
{
    for (size_t v = 0; v < n; ++v) {
        out[v][0] = (int16_t)snorm(x[v], 32767.0f);
        out[v][1] = (int16_t)snorm(y[v], 32767.0f);
        out[v][2] = (int16_t)snorm(z[v], 32767.0f);
        out[v][3] = 0;
    }
    if (w)
        for (size_t v = 0; v < n; ++v) out[v][3] = (int16_t)snorm(w[v], 32767.0f);
}

/* Copies n bytes (a multiple of 4; dst 4-byte aligned) with non-temporal
 * stores where available, in order; dst is never read. */
static void stream_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
#ifdef HAVE_STREAM
    int v;
    for (; n >= 4 && ((uintptr_t)dst & 15u); n -= 4, dst += 4, src += 4)
        memcpy(&v, src, 4), _mm_stream_si32((int *)(void *)dst, v);
    for (; n >= 16; n -= 16, dst += 16, src += 16)
        _mm_stream_si128((__m128i *)(void *)dst,
                         _mm_loadu_si128((const __m128i *)(const void *)src));
    for (; n >= 4; n -= 4, dst += 4, src += 4)
        memcpy(&v, src, 4), _mm_stream_si32((int *)(void *)dst, v);
#else
    memcpy(dst, src, n);
#endif
}

static size_t joint_bytes(skin_joint_format f) { return f == SKIN_JOINT_U8 ? 1 : 2; }
static size_t weight_bytes(skin_weight_format f)
{
    return f == SKIN_WEIGHT_F32 ? 4 : f == SKIN_WEIGHT_UNORM16 ? 2 : 1;
}

#define SHIFT(p, bytes) ((p) ? (const void *)((const char *)(p) + (bytes)) : NULL)

/* The same mesh seen from vertex `first` on, `count` vertices long. */
static void sub_mesh(const skin_mesh_desc *m, size_t first, size_t count, skin_mesh_desc *out)
{
    *out = *m;
    out->vertex_count = count;
    const float **f[10] = {&out->px, &out->py, &out->pz, &out->nx, &out->ny,
                           &out->nz, &out->tx, &out->ty, &out->tz, &out->tw};
    for (int c = 0; c < 10; ++c) *f[c] = SHIFT(*f[c], first * sizeof(float));
    for (uint32_t i = 0; i < m->influence_count && i < SKIN_MAX_INFLUENCES; ++i) {
        out->joints[i] = SHIFT(m->joints[i], first * joint_bytes(m->joint_format));
        out->weights[i] = SHIFT(m->weights[i], first * weight_bytes(m->weight_format));
    }
}

skin_status skin_vk_skin(const skin_vk_slot *slot, const skin_mesh_desc *mesh,
                         const skin_palette *palette, skin_method method, size_t first,
                         size_t count)
{
    if (!slot || !mesh || !slot->mapped) return SKIN_ERROR_NULL_ARGUMENT;
    if (mesh->vertex_count != slot->vertex_count || first > slot->vertex_count ||
        count > slot->vertex_count - first)
        return SKIN_ERROR_INVALID_RANGE;
    const skin_vk_vertex_layout *l = &slot->layout;
    /* The slot is user-writable: only a layout skin_vk_vertex_layout_init
     * would produce keeps the packing below inside its scratch. */
    skin_vk_vertex_layout check;
    skin_status st = skin_vk_vertex_layout_init(l->attributes, l->packing, &check);
    if (st != SKIN_OK) return st;
    if (memcmp(&check, l, sizeof check) != 0) return SKIN_ERROR_INVALID_STRIDE;
    if (l->packing == SKIN_VK_PACK_FLOAT) {
        skin_output o = slot->output;
        o.flags |= SKIN_OUTPUT_STREAMING;
        return skin_mesh(mesh, palette, method, &o, first, count);
    }

    float scratch[10][BLOCK];
    _Alignas(16) uint8_t packed[BLOCK * 28];
    uint32_t words[2][BLOCK];
    int16_t shorts[2][BLOCK][4];
    int has_n = (l->attributes & SKIN_VK_NORMAL) != 0;
    int has_t = (l->attributes & SKIN_VK_TANGENT) != 0;
    skin_output o = {.layout = SKIN_LAYOUT_SOA,
                     .flags = slot->output.flags & SKIN_OUTPUT_NORMALIZE};
    for (int c = 0; c < 10; ++c)
        if (c < 3 || (c < 6 && has_n) || (c >= 6 && has_t)) o.soa[c] = scratch[c];
    /* Argument checks (method, palette, formats, attributes) without writing. */
    st = skin_mesh(mesh, palette, method, &o, first, 0);
    if (st != SKIN_OK) return st;

    uint8_t *dst = (uint8_t *)slot->mapped + first * l->stride;
    for (size_t done = 0; done < count;) {
        size_t n = count - done < BLOCK ? count - done : BLOCK;
        skin_mesh_desc sub;
        sub_mesh(mesh, first + done, n, &sub);
        if ((st = skin_mesh(&sub, palette, method, &o, 0, n)) != SKIN_OK) return st;
        /* Pack each attribute on its own (vectorisable), then interleave. */
        size_t asize = l->packing == SKIN_VK_PACK_1010102 ? 4 : 8;
        if (l->packing == SKIN_VK_PACK_1010102) {
            if (has_n) pack1010102(n, scratch[3], scratch[4], scratch[5], NULL, words[0]);
            if (has_t) pack1010102(n, scratch[6], scratch[7], scratch[8], scratch[9], words[1]);
        } else {
            if (has_n) pack16(n, scratch[3], scratch[4], scratch[5], NULL, shorts[0]);
            if (has_t) pack16(n, scratch[6], scratch[7], scratch[8], scratch[9], shorts[1]);
        }
        /* Interleave 4-byte columns into the packed block (in L1):
         * position x y z, then the normal's and the tangent's words. */
        const uint8_t *col[7];
        size_t step[7], cols = 0, wpv = asize / 4; /* words per packed attribute */
        for (int c = 0; c < 3; ++c) col[cols] = (const uint8_t *)scratch[c], step[cols++] = 4;
        for (int a = 0; a < 2; ++a) {
            if (!(a == 0 ? has_n : has_t)) continue;
            const uint8_t *base = l->packing == SKIN_VK_PACK_1010102 ? (const uint8_t *)words[a]
                                                                    : (const uint8_t *)shorts[a];
            for (size_t w = 0; w < wpv; ++w) col[cols] = base + 4 * w, step[cols++] = asize;
        }
        for (size_t j = 0; j < cols; ++j) {
            uint8_t *dcol = packed + 4 * j;
            const uint8_t *in = col[j];
            for (size_t v = 0; v < n; ++v) memcpy(dcol + v * l->stride, in + v * step[j], 4);
        }
        stream_copy(dst, packed, n * l->stride);
        dst += n * l->stride;
        done += n;
    }
#ifdef HAVE_STREAM
    _mm_sfence(); /* make the non-temporal stores visible before the submit */
#endif
    return SKIN_OK;
}
