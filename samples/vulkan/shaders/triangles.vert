#version 450
// Triangle i of a draw sits alone in cell i of a 64 x 64 grid over the viewport: vkCmdDraw(3 * N) draws N
// small, separate triangles, none clipped. No vertex buffer: positions come from gl_VertexIndex.
void main() {
    const uint columns = 64u;
    uint triangle = uint(gl_VertexIndex) / 3u;
    uint corner = uint(gl_VertexIndex) % 3u;
    vec2 cell = vec2(float(triangle % columns), float(triangle / columns)) * (2.0 / float(columns)) - 1.0;
    vec2 offsets[3] = vec2[](vec2(0.005, 0.005), vec2(0.025, 0.005), vec2(0.005, 0.025));
    gl_Position = vec4(cell + offsets[corner], 0.0, 1.0);
}
