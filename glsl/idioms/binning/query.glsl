// Queries of a bin structure (section 3.1) for kernels, over Bins.pack() and Bins.loads.
// The kernel declares gathers `binLoads` (float, the loads) and `binSlots` (float, the packed
// slots) and the uniforms BIN_UNIFORMS; mapping.glsl comes first (BIN_QUERY_GLSL joins them).
//
//   ivec3 c = binCell(p.xyz);
//   for (int k = 0; k < 27; k++) {                  // the 27-neighbourhood
//     ivec2 b;
//     if (!binNeighbour(c, k, b)) continue;         // outside the grid
//     for (int i = 0; i < binLoad(b); i++) { int j = binItem(b, i); ... }
//   }

/** Items in bin b (the bin counter). */
int binLoad(ivec2 b) { return int(binLoads(b)); }

/** The id of the i-th item (ascending) of bin b (slots in columns of bin_slotRows: Bins.pack()). */
int binItem(ivec2 b, int i) {
  return int(binSlots(ivec2((i / bin_slotRows) * bin_size.x + b.x, (i % bin_slotRows) * bin_size.y + b.y)) * 16777216.0);
}

/** The grid cell of a position (clamped into the grid, as binning does). */
ivec3 binCell(vec3 p) { return ivec3(clamp(floor((p - bin_origin) * bin_invCell), vec3(0.0), vec3(bin_grid - 1))); }

/** The k-th of the 27 cells around c (k = 13 is c itself); false when it lies outside the grid. */
bool binNeighbour(ivec3 c, int k, out ivec2 b) {
  ivec3 n = c + ivec3(k % 3, (k / 3) % 3, k / 9) - 1;
  b = ivec2(0);
  if (any(lessThan(n, ivec3(0))) || any(greaterThanEqual(n, bin_grid))) return false;
  b = binPixelOf(n);
  return true;
}
