// A helper of the fluid stages (src/apps/fluid/fluid.ts): whether cell c is an obstacle.
bool solid(ivec2 c) { return obst_texel(c) > 0.5; }
