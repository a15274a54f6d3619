#version 450
// SPDX-License-Identifier: MIT
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 color;
    vec4 light;
    vec4 view;
} pc;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in float v_around;
layout(location = 2) in vec3 v_color;
layout(location = 0) out vec4 out_color;

void main()
{
    // LBS shrinks normals where it collapses: renormalise; light both sides
    // because the open cylinder shows its inside at the ends.
    vec3 n = normalize(v_normal);
    if (dot(n, pc.view.xyz) < 0.0) n = -n;
    float diffuse = max(dot(n, normalize(pc.light.xyz)), 0.0);
    float stripe = fract(v_around * 8.0) < 0.5 ? 1.0 : 0.55;
    // vertex colours (a colour map) under a softer light, to keep them readable
    vec3 c = pc.color.a > 0.5 ? pc.color.rgb * stripe * (0.18 + 0.82 * diffuse)
                              : v_color * (0.5 + 0.5 * diffuse);
    out_color = vec4(c, 1.0);
}
