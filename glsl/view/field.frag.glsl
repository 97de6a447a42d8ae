// A fluid grid drawn into the canvas from its textures: dye as a colour ramp, obstacles grey,
// landlocked cells (offset (0, 0)) tinted when showMask.
uniform sampler2D dye;
uniform sampler2D obstacles;
uniform sampler2D offsets;
uniform bool showMask;
uniform vec2 brook_view;  // the canvas size (set by the pass runner)
out vec4 color;
void main() {
  ivec2 size = textureSize(dye, 0);
  ivec2 c = clamp(ivec2(gl_FragCoord.xy / brook_view * vec2(size)), ivec2(0), size - 1);
  float d = clamp(texelFetch(dye, c, 0).x, 0.0, 1.5);
  vec3 ramp = vec3(d * 0.9, d * d * 0.7, 0.15 + 0.6 * d);
  if (texelFetch(obstacles, c, 0).x > 0.5) {
    vec4 o = texelFetch(offsets, c, 0);
    bool landlocked = o.x == 0.0 && o.y == 0.0;
    ramp = showMask && landlocked ? vec3(0.55, 0.25, 0.25) : vec3(0.55);
  }
  color = vec4(ramp, 1.0);
}
