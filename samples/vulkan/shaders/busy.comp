#version 450
// 4 x 4 x 4 invocations per workgroup; each runs a loop of `iterations` steps and stores the result, so
// that a dispatch's duration grows with its size and with the loop.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(std430, binding = 0) buffer Data { float values[]; };
layout(push_constant) uniform Push { uint iterations; uint length; };
void main() {
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uint index = gl_GlobalInvocationID.x + size.x * (gl_GlobalInvocationID.y + size.y * gl_GlobalInvocationID.z);
    float x = float(index);
    for (uint k = 0u; k < iterations; ++k) x = x * 0.9999 + 0.5;
    values[index % length] = x;
}
