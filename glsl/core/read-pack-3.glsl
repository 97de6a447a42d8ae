// Readback packing, 3-component records: texel i holds scalars 4i..4i+3 of the records laid
// end to end (record a = 4i / 3 from component o = 4i mod 3 on, then the next record).
int a = (brook_index * 4) / 3;
int o = brook_index * 4 - a * 3;
uvec3 p = brook_bits(src(a));
uvec3 q = brook_bits(src(a + 1));
texels = o == 0 ? uvec4(p, q.x) : o == 1 ? uvec4(p.yz, q.xy) : uvec4(p.z, q);
