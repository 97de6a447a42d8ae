// Divergence, interior (src/apps/fluid/fluid.ts): central differences of the velocity.
ivec2 c = brook_pos;
dv = 0.5 * ((u_texel(c + ivec2(1, 0)).x - u_texel(c - ivec2(1, 0)).x) + (u_texel(c + ivec2(0, 1)).y - u_texel(c - ivec2(0, 1)).y));
