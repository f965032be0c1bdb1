#version 450
// One triangle that covers the whole viewport (the part outside is clipped away): every pixel is shaded
// exactly once, with no diagonal edge across the render target (where some GPUs would shade extra quads).
void main() {
    vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    gl_Position = vec4(corners[gl_VertexIndex], 0.0, 1.0);
}
