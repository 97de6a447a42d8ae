// The velocity stages' border (src/apps/fluid/fluid.ts): no-slip walls, the negated velocity of
// the border cell's inner neighbour.
ivec2 inner = clamp(brook_pos, ivec2(1), ivec2(brook_dims.y - 2, brook_dims.w - 2));
un = -u_texel(inner);
