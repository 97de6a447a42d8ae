// Readback packing, 2-component records: texel i holds records 2i and 2i+1 as 32-bit patterns.
texels = uvec4(brook_bits(src(brook_index * 2)), brook_bits(src(brook_index * 2 + 1)));
