// Listings 31-1 and 31-2 as printed in GPU Gems 3 ch. 31 (the online edition, as converted to text:
// its margin FLOP annotations, which the conversion put inside the lines, kept; the `& lt;` it left
// for 31-2's `<` restored). PRINTED_NOTE tells the page's reader both.
export const PRINTED = {
  "31-1": "__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {\nfloat3 r;\n// r_ij\n[3 FLOPS] r.x = bj.x - bi.x;\nr.y = bj.y - bi.y;\nr.z = bj.z - bi.z;\n// distSqr = dot(r_ij, r_ij) + EPS^2\n[6 FLOPS] float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + EPS2;\n// invDistCube =1/distSqr^(3/2)\n[4 FLOPS(2 mul, 1 sqrt, 1 inv)] float distSixth = distSqr * distSqr * distSqr;\nfloat invDistCube = 1.0f / sqrtf(distSixth);\n// s = m_j * invDistCube [1 FLOP]\nfloat s = bj.w * invDistCube;\n// a_i =\na_i + s *r_ij[6 FLOPS] ai.x += r.x * s;\nai.y += r.y * s;\nai.z += r.z * s;\nreturn ai;\n}",
  "31-2": "__device__ float3 tile_calculation(float4 myPosition, float3 accel) {\nint i;\nextern __shared__ float4[] shPosition;\nfor (i = 0; i < blockDim.x; i++) {\naccel = bodyBodyInteraction(myPosition, shPosition[i], accel);\n}\nreturn accel;\n}"
};

/** What the reader should know about the text above (shown under the listing). */
export const PRINTED_NOTE =
  'From the chapter’s online edition, converted to text. The bracketed notes (<code>[3 FLOPS]</code>, <code>[6 FLOPS]</code>, …) are not code: ' +
  'the book prints each line’s flop count in the margin (20 per interaction in all), and the conversion put them inside the lines; they are left where it put them. ' +
  'The conversion also wrote 31-2’s loop test <code>i &lt; blockDim.x</code> as the HTML entity <code>&amp; lt;</code>; it is shown here as the book prints it.';
