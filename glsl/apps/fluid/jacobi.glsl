// Jacobi, interior (src/apps/fluid/fluid.ts): one pressure iteration; an obstacle cell copies the
// pressure of the fluid neighbour its precomputed offset points to (pure Neumann boundary).
ivec2 c = brook_pos;
if (solid(c)) pn = p_texel(c + ivec2(offsets_texel(c).xy));
else pn = 0.25 * (p_texel(c + ivec2(1, 0)) + p_texel(c - ivec2(1, 0)) + p_texel(c + ivec2(0, 1)) + p_texel(c - ivec2(0, 1)) - dv_texel(c));
