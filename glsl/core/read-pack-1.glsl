// Readback packing, 1-component records: texel i holds records 4i..4i+3 as 32-bit patterns,
// so read() moves 4 bytes a record instead of a whole RGBA texel (past the end reads zero).
int first = brook_index * 4;
texels = uvec4(brook_bits(src(first)), brook_bits(src(first + 1)), brook_bits(src(first + 2)), brook_bits(src(first + 3)));
