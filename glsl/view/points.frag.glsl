// A round, soft point; by speed: blue (at rest) through green to red (maxSpeed).
uniform vec4 color;
in float speed;
out vec4 fragColor;

void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float fall = max(0.0, 1.0 - dot(d, d));
  vec3 rgb = speed < 0.0 ? color.rgb : vec3(smoothstep(0.4, 1.0, speed), 1.0 - abs(speed - 0.5) * 2.0, 1.0 - smoothstep(0.0, 0.6, speed));
  fragColor = vec4(rgb * fall * color.a, 1.0);
}
