// Point sprites straight from a position stream (vertex texture fetch, no readback): vertex k
// draws record k. Gathers: positions (xyz), velocities (xyz; read when bySpeed).
uniform mat4 viewProjection;
uniform float pointSize;
uniform bool bySpeed;
uniform float maxSpeed;
out float speed;

void main() {
  int k = gl_VertexID;
  gl_Position = viewProjection * vec4(positions(k).xyz, 1.0);
  speed = bySpeed ? clamp(length(velocities(k).xyz) / maxSpeed, 0.0, 1.0) : -1.0;
  gl_PointSize = max(1.0, pointSize / gl_Position.w);
}
