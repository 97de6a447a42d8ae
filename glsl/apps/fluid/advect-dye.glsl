// AdvectDye, interior (src/apps/fluid/fluid.ts): semi-Lagrangian advection of the dye with
// dissipation, plus the splat's dye; obstacle cells hold none.
ivec2 c = brook_pos;
if (solid(c)) dn = 0.0;
else dn = dyeAt(vec2(c) - dt * u_texel(c)) * keep + amount * splatWeight(c);
