#version 450
// A hash of the pixel and the draw: neighbouring pixels and successive draws differ, so the GPU cannot compress
// the render target and every draw's bytes reach memory (the tests that count DRAM writes of draws use it).
layout(push_constant) uniform Draw { uint frame; } draw;
layout(location = 0) out vec4 color;
uint hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    color = unpackUnorm4x8(hash(p.x + 65536u * p.y + draw.frame * 0x9E3779B9u));
}
