// The NaN probe's fragments: only their count matters (the pass writes no colour).
out vec4 hit;

void main() { hit = vec4(1.0); }
