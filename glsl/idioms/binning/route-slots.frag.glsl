// One-draw stencil routing's set-up: a pass per slot s writes stencil value s (by REPLACE) into
// texel s of every k x k block; WebGL2 fragment shaders cannot write stencil themselves.
uniform int k;
uniform int slot;
out vec4 unused;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  if ((p.y % k) * k + (p.x % k) != slot) discard;
  unused = vec4(0.0);
}
