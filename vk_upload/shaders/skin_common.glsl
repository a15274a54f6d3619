/* SPDX-License-Identifier: MIT */
// Shared by skin_lbs.comp and skin_dqs.comp: the same inputs, palette and
// output rules as the CPU kernels (src/reference.c is the oracle).
layout(local_size_x = 64) in;

// Per mesh (fixed at upload): influences, joint bytes, weight format.
layout(constant_id = 0) const uint K = 4u;           // 1..8
layout(constant_id = 1) const uint JOINT_BYTES = 2u; // 1 (u8) or 2 (u16)
layout(constant_id = 2) const uint WEIGHT_FMT = 0u;  // 0 f32, 1 unorm16, 2 unorm8

// The mesh as uploaded, never widened: float planes px py pz [nx ny nz]
// [tx ty tz tw]; then K joint planes (u8 or u16, packed, each padded to 4
// bytes); then K weight planes (f32, or unorm16/unorm8 packed and padded).
layout(std430, set = 0, binding = 0) readonly buffer Mesh { uint src[]; };
// The mesh's morph targets (binding 1 of set 0; the streams again when the
// mesh has none): a header of MORPH_HEADER words per target, then the data,
// floats as given (never widened).  Header: flags (M_*), len (dense: n;
// sparse: its entry count), the word offset of its sorted vertex indices
// (sparse), then the word offsets of its position, normal and tangent delta
// groups, each 3 planes (x y z) of len floats.  Groups an attribute of the
// mesh does not have are not uploaded.
layout(std430, set = 0, binding = 1) readonly buffer Morph { uint morph[]; };
const uint MORPH_HEADER = 6u;
const uint M_SPARSE = 1u, M_POS = 2u, M_NRM = 4u, M_TAN = 8u;
// Set 1 is this call's, from the stream ring's region: its palette (then the
// normal matrices or scales, then the active morph targets as (target,
// weight bits) pairs in target order) and its output slot.
layout(std430, set = 1, binding = 0) readonly buffer Palette { uint palw[]; };
layout(std430, set = 1, binding = 1) writeonly buffer Out { uint dst[]; };

const uint F_NORMAL = 1u, F_TANGENT = 2u, F_NORMALIZE = 4u, F_EXTRA = 8u;

layout(push_constant) uniform Params {
    uint n;             // mesh vertices (plane length)
    uint first;         // mesh vertex of output element 0
    uint count;         // vertices in this call
    uint joint_count;
    uint tangent_plane; // first tangent plane (3 or 6)
    uint joint_base;    // word offset of the joint planes
    uint weight_base;   // word offset of the weight planes
    uint flags;         // F_*; F_EXTRA: normal matrices (LBS) / scales (DQS) follow the palette
    uint vector_format; // 0 f32, 1 snorm16, 2 1010102 (normals and tangents)
    uint pos_off, nrm_off, tan_off;          // word offset of element 0
    uint pos_stride, nrm_stride, tan_stride; // words between elements
    uint comp_step;     // words between float components: 1 interleaved, count for SoA
    uint morph_count;   // active morph targets (non-zero weight) of this call
    uint morph_base;    // word offset of their (target, weight) pairs in the palette binding
    uint morph_targets; // the mesh's morph targets (target indices are clamped below it)
} pc;

float pal(uint i) { return uintBitsToFloat(palw[i]); }

float plane(uint p, uint v) { return uintBitsToFloat(src[p * pc.n + v]); }

uint joint_at(uint i, uint v)
{
    uint j;
    if (JOINT_BYTES == 1u) {
        uint base = pc.joint_base + i * ((pc.n + 3u) / 4u);
        j = (src[base + v / 4u] >> (8u * (v & 3u))) & 0xffu;
    } else {
        uint base = pc.joint_base + i * ((pc.n + 1u) / 2u);
        j = (src[base + v / 2u] >> (16u * (v & 1u))) & 0xffffu;
    }
    return min(j, pc.joint_count - 1u); // clamped like the CPU, never out of bounds
}

float weight_at(uint i, uint v)
{
    if (WEIGHT_FMT == 0u) return uintBitsToFloat(src[pc.weight_base + i * pc.n + v]);
    if (WEIGHT_FMT == 1u) {
        uint base = pc.weight_base + i * ((pc.n + 1u) / 2u);
        return float((src[base + v / 2u] >> (16u * (v & 1u))) & 0xffffu) * (1.0 / 65535.0);
    }
    uint base = pc.weight_base + i * ((pc.n + 3u) / 4u);
    return float((src[base + v / 4u] >> (8u * (v & 3u))) & 0xffu) * (1.0 / 255.0);
}

// Vulkan's float -> snorm: clamp (NaN -> 1), scale, round to nearest even.
int snorm(float f, float scale)
{
    f = f < 1.0 ? f : 1.0;
    f = f > -1.0 ? f : -1.0;
    return int(roundEven(f * scale));
}

void put_vector(uint at, uint step, vec4 x, bool tangent)
{
    if (pc.vector_format == 0u) {
        dst[at] = floatBitsToUint(x.x);
        dst[at + step] = floatBitsToUint(x.y);
        dst[at + 2u * step] = floatBitsToUint(x.z);
        if (tangent) dst[at + 3u * step] = floatBitsToUint(x.w);
    } else if (pc.vector_format == 2u) {
        dst[at] = (uint(snorm(x.x, 511.0)) & 0x3ffu) | (uint(snorm(x.y, 511.0)) & 0x3ffu) << 10 |
                  (uint(snorm(x.z, 511.0)) & 0x3ffu) << 20 | uint(snorm(x.w, 1.0)) << 30;
    } else {
        dst[at] = (uint(snorm(x.x, 32767.0)) & 0xffffu) | uint(snorm(x.y, 32767.0)) << 16;
        dst[at + 1u] = (uint(snorm(x.z, 32767.0)) & 0xffffu) | uint(snorm(x.w, 32767.0)) << 16;
    }
}

// Unit length, a zero vector kept.  A length whose square leaves float's
// normal range (below about 1e-19, above 1.8e19) is divided by the largest
// component first, as the CPU kernels do.
vec3 normalized(vec3 a)
{
    float len = length(a);
    if (len > 1.0842022e-19 && len < 1.8446743e19) return a * (1.0 / len);
    float big = max(max(abs(a.x), abs(a.y)), abs(a.z));
    if (!(big > 0.0)) return a;
    vec3 b = a / big;
    return b * (1.0 / length(b));
}

// Writes output element o (NORMALIZE applied here, as on the CPU).
void store(uint o, vec3 p, vec3 nrm, vec3 tan, float tw)
{
    if ((pc.flags & F_NORMALIZE) != 0u) {
        nrm = normalized(nrm);
        tan = normalized(tan);
    }
    uint at = pc.pos_off + o * pc.pos_stride;
    dst[at] = floatBitsToUint(p.x);
    dst[at + pc.comp_step] = floatBitsToUint(p.y);
    dst[at + 2u * pc.comp_step] = floatBitsToUint(p.z);
    if ((pc.flags & F_NORMAL) != 0u)
        put_vector(pc.nrm_off + o * pc.nrm_stride, pc.comp_step, vec4(nrm, 0.0), false);
    if ((pc.flags & F_TANGENT) != 0u)
        put_vector(pc.tan_off + o * pc.tan_stride, pc.comp_step, vec4(tan, tw), true);
}

float morph_f(uint w) { return uintBitsToFloat(morph[w]); }
vec3 morph_delta(uint base, uint len, uint e)
{
    return vec3(morph_f(base + e), morph_f(base + len + e), morph_f(base + 2u * len + e));
}

// Adds the active targets' deltas of vertex v, in target order, summed
// first (as the CPU: attribute + sum of w_k d_k).  Only the groups of
// attributes this call writes.  A sparse target finds v by binary search in
// its index list; every read stays inside the list (an unsorted list just
// finds fewer entries, indices >= n never match), and target indices are
// clamped to the mesh's targets.
void morph_vertex(uint v, inout vec3 p, inout vec3 nrm, inout vec3 tan)
{
    uint want = M_POS | ((pc.flags & F_NORMAL) != 0u ? M_NRM : 0u) |
                ((pc.flags & F_TANGENT) != 0u ? M_TAN : 0u);
    vec3 sp = vec3(0.0), sn = vec3(0.0), st = vec3(0.0);
    for (uint a = 0u; a < pc.morph_count; ++a) {
        uint t = min(palw[pc.morph_base + 2u * a], pc.morph_targets - 1u);
        float w = pal(pc.morph_base + 2u * a + 1u);
        uint h = MORPH_HEADER * t;
        uint flags = morph[h], len = morph[h + 1u], e = v;
        if ((flags & want) == 0u) continue;
        if ((flags & M_SPARSE) != 0u) {
            uint base = morph[h + 2u], lo = 0u, hi = len;
            while (lo < hi) {
                uint mid = lo + (hi - lo) / 2u;
                if (morph[base + mid] < v) lo = mid + 1u;
                else hi = mid;
            }
            if (lo >= len || morph[base + lo] != v) continue;
            e = lo;
        }
        if ((flags & M_POS) != 0u) sp += w * morph_delta(morph[h + 3u], len, e);
        if ((flags & want & M_NRM) != 0u) sn += w * morph_delta(morph[h + 4u], len, e);
        if ((flags & want & M_TAN) != 0u) st += w * morph_delta(morph[h + 5u], len, e);
    }
    p += sp;
    nrm += sn;
    tan += st;
}

// The input vertex v, morphed; normals and tangents read only when written.
void load(uint v, out vec3 p, out vec3 nrm, out vec3 tan, out float tw)
{
    p = vec3(plane(0u, v), plane(1u, v), plane(2u, v));
    nrm = vec3(0.0);
    tan = vec3(0.0);
    tw = 0.0;
    if ((pc.flags & F_NORMAL) != 0u) nrm = vec3(plane(3u, v), plane(4u, v), plane(5u, v));
    if ((pc.flags & F_TANGENT) != 0u) {
        uint t = pc.tangent_plane;
        tan = vec3(plane(t, v), plane(t + 1u, v), plane(t + 2u, v));
        tw = plane(t + 3u, v);
    }
    if (pc.morph_count != 0u) morph_vertex(v, p, nrm, tan);
}
