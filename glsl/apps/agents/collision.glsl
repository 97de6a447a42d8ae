// Swept circle-circle: the first time t >= 0 at which |p + w t| < r (p: relative position,
// w: relative velocity); 0 when already overlapping, horizon when never within it.
float timeToCollision(vec2 p, vec2 w, float r, float horizon) {
  float c = dot(p, p) - r * r;
  if (c < 0.0) return 0.0;
  float a = dot(w, w);
  float b = dot(p, w);
  if (b >= 0.0 || a == 0.0) return horizon;
  float disc = b * b - a * c;
  if (disc < 0.0) return horizon;
  return min((-b - sqrt(disc)) / a, horizon);
}
