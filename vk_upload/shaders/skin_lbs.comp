/* SPDX-License-Identifier: MIT */
// Linear blend skinning: M = sum w_i M_i (3x4 rows); p' = M (p, 1);
// n' = N n with N the blended normal matrices when given, else M's 3x3;
// t'.xyz = M's 3x3 t.xyz, t'.w = t.w.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "skin_common.glsl"

void main()
{
    uint o = gl_GlobalInvocationID.x;
    if (o >= pc.count) return;
    uint v = pc.first + o;
    bool nm = (pc.flags & F_EXTRA) != 0u;
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
    vec3 n0 = vec3(0.0), n1 = vec3(0.0), n2 = vec3(0.0);
    for (uint i = 0u; i < K; ++i) {
        uint j = joint_at(i, v);
        float w = weight_at(i, v);
        uint b = 12u * j;
        r0 += w * vec4(pal(b), pal(b + 1u), pal(b + 2u), pal(b + 3u));
        r1 += w * vec4(pal(b + 4u), pal(b + 5u), pal(b + 6u), pal(b + 7u));
        r2 += w * vec4(pal(b + 8u), pal(b + 9u), pal(b + 10u), pal(b + 11u));
        if (nm) { // normal matrices: 9 floats per joint after the matrices
            uint c = 12u * pc.joint_count + 9u * j;
            n0 += w * vec3(pal(c), pal(c + 1u), pal(c + 2u));
            n1 += w * vec3(pal(c + 3u), pal(c + 4u), pal(c + 5u));
            n2 += w * vec3(pal(c + 6u), pal(c + 7u), pal(c + 8u));
        }
    }
    vec3 p, nrm, tan;
    float tw;
    load(v, p, nrm, tan, tw);
    vec3 p2 = vec3(dot(r0.xyz, p) + r0.w, dot(r1.xyz, p) + r1.w, dot(r2.xyz, p) + r2.w);
    vec3 n2v = nm ? vec3(dot(n0, nrm), dot(n1, nrm), dot(n2, nrm))
                  : vec3(dot(r0.xyz, nrm), dot(r1.xyz, nrm), dot(r2.xyz, nrm));
    vec3 t2 = vec3(dot(r0.xyz, tan), dot(r1.xyz, tan), dot(r2.xyz, tan));
    store(o, p2, n2v, t2, tw);
}
