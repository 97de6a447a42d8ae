// ObstacleOffsets, interior (src/apps/fluid/fluid.ts): for each obstacle cell, the direction of
// its fluid neighbours (xy) and a solid flag (z); run once per obstacle change (section 34.2.4).
ivec2 c = brook_pos;
bool s = solid(c);
o = vec4(s ? fluidDirection(c) : vec2(0.0), s ? 1.0 : 0.0, 0.0);
