// JacobiSearch, interior (src/apps/fluid/fluid.ts): as jacobi.glsl, but an obstacle cell
// searches its neighbours for the fluid direction every iteration (no offset texture).
ivec2 c = brook_pos;
if (solid(c)) pn = p_texel(c + ivec2(fluidDirection(c)));
else pn = 0.25 * (p_texel(c + ivec2(1, 0)) + p_texel(c - ivec2(1, 0)) + p_texel(c + ivec2(0, 1)) + p_texel(c - ivec2(0, 1)) - dv_texel(c));
