/* SPDX-License-Identifier: MIT */
// Dual quaternion skinning (Kavan et al., DLB), the CPU kernels' rules: the
// pivot is the largest-weight influence (ties: the lowest slot); s_i is the
// sign of dot(real_i, real_pivot) (negative: -1); b = sum s_i w_i dq_i; when
// |b.real| < 1e-6 the pivot joint's own dq (and scale) is used; b /= |b.real|.
// Per-joint scale (blended with the plain weights) applies to p and t before
// the rigid part, and its inverse to n.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "skin_common.glsl"

vec4 dq_real(uint j) { uint b = 8u * j; return vec4(pal(b), pal(b + 1u), pal(b + 2u), pal(b + 3u)); }
vec4 dq_dual(uint j) { uint b = 8u * j + 4u; return vec4(pal(b), pal(b + 1u), pal(b + 2u), pal(b + 3u)); }
vec3 joint_scale(uint j) { uint b = 8u * pc.joint_count + 3u * j; return vec3(pal(b), pal(b + 1u), pal(b + 2u)); }

vec3 rotate(vec3 r, float rw, vec3 u) { return u + 2.0 * cross(r, cross(r, u) + rw * u); }

void main()
{
    uint o = gl_GlobalInvocationID.x;
    if (o >= pc.count) return;
    uint v = pc.first + o;
    bool scaled = (pc.flags & F_EXTRA) != 0u;
    uint pivot_slot = 0u;
    float pivot_w = weight_at(0u, v);
    for (uint i = 1u; i < K; ++i) {
        float w = weight_at(i, v);
        if (w > pivot_w) {
            pivot_slot = i;
            pivot_w = w;
        }
    }
    uint pj = joint_at(pivot_slot, v);
    vec4 pr = dq_real(pj);
    vec4 br = vec4(0.0), bd = vec4(0.0);
    vec3 s = vec3(0.0);
    for (uint i = 0u; i < K; ++i) {
        uint j = joint_at(i, v);
        float w = weight_at(i, v);
        vec4 qr = dq_real(j);
        float sw = dot(qr, pr) < 0.0 ? -w : w;
        br += sw * qr;
        bd += sw * dq_dual(j);
        if (scaled) s += w * joint_scale(j);
    }
    float norm = length(br);
    if (norm < 1e-6) {
        br = pr;
        bd = dq_dual(pj);
        norm = length(br);
        if (scaled) s = joint_scale(pj);
    }
    br /= norm;
    bd /= norm;
    vec3 p, nrm, tan;
    float tw;
    load(v, p, nrm, tan, tw);
    if (scaled) {
        p *= s;
        tan *= s;
        nrm *= vec3(1.0) / s;
    }
    vec3 r = br.xyz, d = bd.xyz;
    float rw = br.w, dw = bd.w;
    p = rotate(r, rw, p) + 2.0 * (rw * d - dw * r + cross(r, d));
    store(o, p, rotate(r, rw, nrm), rotate(r, rw, tan), tw);
}
