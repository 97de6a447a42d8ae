// One-draw stencil routing (Purcell et al. 2003): the item's id into the slot the stencil admits.
flat in float key;
out vec4 slot;

void main() { slot = vec4(key * 16777216.0); }
