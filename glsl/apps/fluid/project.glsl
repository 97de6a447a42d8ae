// Project, interior (src/apps/fluid/fluid.ts): subtracts the pressure gradient from the velocity.
ivec2 c = brook_pos;
if (solid(c)) un = vec2(0.0);
else un = u_texel(c) - 0.5 * vec2(p_texel(c + ivec2(1, 0)) - p_texel(c - ivec2(1, 0)), p_texel(c + ivec2(0, 1)) - p_texel(c - ivec2(0, 1)));
