// Multipass stencil routing (Harada 2007), pass i: the routed key into slice i, i + 1 into the load.
uniform float passNumber;
flat in float key;
layout(location = 0) out vec4 slot;
layout(location = 1) out vec4 load;

void main() {
  slot = vec4(key);
  load = vec4(passNumber);
}
