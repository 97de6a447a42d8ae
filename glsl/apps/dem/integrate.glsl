// Semi-implicit Euler with gravity, the user's push and spring-damper walls at the box faces
// (kernel DemIntegrate in src/apps/dem/dem.ts).
vec3 a = force.xyz + vec3(0.0, -gravity, 0.0) + push;
// the walls: a spring and a damper wherever the particle overlaps a face of [0, 1]^3
vec3 lo = max(vec3(radius) - x.xyz, 0.0), hi = max(x.xyz - vec3(1.0 - radius), 0.0);
a += spring * (lo - hi) - damping * v.xyz * vec3(greaterThan(lo + hi, vec3(0.0)));
vec3 nv = v.xyz + a * dt;
vn = vec4(nv, 0.0);
xn = vec4(clamp(x.xyz + nv * dt, vec3(0.0), vec3(1.0)), x.w);
