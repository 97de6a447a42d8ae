// AdvectVelocity, interior (src/apps/fluid/fluid.ts): semi-Lagrangian advection of the velocity
// with dissipation, plus the splat's force; obstacle cells hold zero velocity.
ivec2 c = brook_pos;
if (solid(c)) un = vec2(0.0);
else un = uAt(vec2(c) - dt * u_texel(c)) * keep + force * splatWeight(c) * dt;
