// Whether a position has a NaN coordinate (the bit pattern, which no fast-math compiler folds
// away as it may isnan): such an item has no cell and goes in no bin (bins.stats.dropped).
bool binNaN(vec3 p) {
  return any(greaterThan(floatBitsToUint(p) & 0x7fffffffu, uvec3(0x7f800000u)));
}
