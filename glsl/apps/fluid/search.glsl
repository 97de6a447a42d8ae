// A helper of the fluid stages (src/apps/fluid/fluid.ts); solid(c) comes first.
// The direction from an obstacle cell to its fluid neighbours (zero when it has none): the
// branch the offset texture precomputes (section 34.2.4).
vec2 fluidDirection(ivec2 c) {
  vec2 d = vec2(0.0);
  if (!solid(c + ivec2(1, 0))) d.x += 1.0;
  if (!solid(c - ivec2(1, 0))) d.x -= 1.0;
  if (!solid(c + ivec2(0, 1))) d.y += 1.0;
  if (!solid(c - ivec2(0, 1))) d.y -= 1.0;
  return sign(d);
}
