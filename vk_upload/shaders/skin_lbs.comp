// Linear blend skinning on the GPU: the same math and output layout as the
// CPU path (skin_mesh with SKIN_LBS into an interleaved float vertex).
#version 450
layout(local_size_x = 64) in;

// Mesh, uploaded once: planar px py pz [nx ny nz] [tx ty tz tw] (floats),
// then k planes of joint indices (uint), then k planes of weights (floats).
layout(std430, set = 0, binding = 0) readonly buffer Mesh { uint src[]; };
// Set 1 is this call's, from the stream ring's region: its palette (3 rows,
// vec4, per joint, row-major 3x4) and its output slot.
layout(std430, set = 1, binding = 0) readonly buffer Palette { vec4 rows[]; };
layout(std430, set = 1, binding = 1) writeonly buffer Out { float dst[]; };

layout(push_constant) uniform Params {
    uint n;            // vertices
    uint k;            // influences
    uint joint_count;
    uint has_normal;   // mesh has normals (input planes present)
    uint has_tangent;
    uint stride;       // output floats per vertex
    uint out_normal;   // output float offset of the normal, 0 = not written
    uint out_tangent;  // output float offset of the tangent, 0 = not written
} pc;

float f(uint plane, uint v) { return uintBitsToFloat(src[plane * pc.n + v]); }

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= pc.n) return;
    uint planes = 3u + 3u * pc.has_normal + 4u * pc.has_tangent;
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
    for (uint i = 0u; i < pc.k; ++i) {
        uint j = min(src[(planes + i) * pc.n + v], pc.joint_count - 1u);
        float w = f(planes + pc.k + i, v);
        uint row = 3u * j;
        r0 += w * rows[row];
        r1 += w * rows[row + 1u];
        r2 += w * rows[row + 2u];
    }
    vec4 p = vec4(f(0u, v), f(1u, v), f(2u, v), 1.0);
    uint o = v * pc.stride;
    dst[o] = dot(r0, p);
    dst[o + 1u] = dot(r1, p);
    dst[o + 2u] = dot(r2, p);
    if (pc.out_normal != 0u) {
        vec3 nrm = vec3(f(3u, v), f(4u, v), f(5u, v));
        dst[o + pc.out_normal] = dot(r0.xyz, nrm);
        dst[o + pc.out_normal + 1u] = dot(r1.xyz, nrm);
        dst[o + pc.out_normal + 2u] = dot(r2.xyz, nrm);
    }
    if (pc.out_tangent != 0u) {
        uint t = 3u + 3u * pc.has_normal;
        vec3 tan = vec3(f(t, v), f(t + 1u, v), f(t + 2u, v));
        dst[o + pc.out_tangent] = dot(r0.xyz, tan);
        dst[o + pc.out_tangent + 1u] = dot(r1.xyz, tan);
        dst[o + pc.out_tangent + 2u] = dot(r2.xyz, tan);
        dst[o + pc.out_tangent + 3u] = f(t + 3u, v);
    }
}
