// A helper of the fluid stages (src/apps/fluid/fluid.ts); the uniform splat comes first.
// The weight of a Gaussian splat (centre splat.xy, radius splat.z cells) at cell c.
float splatWeight(ivec2 c) {
  vec2 d = vec2(c) - splat.xy;
  return exp(-dot(d, d) / (splat.z * splat.z));
}
