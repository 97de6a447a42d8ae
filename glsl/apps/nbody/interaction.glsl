// bodyBodyInteraction of GPU Gems 3, Listing 31-1, in GLSL: the acceleration body j (position in
// xyz, mass in w) gives body i, added to ai. Softening eps2 > 0 makes the i == j term zero, so no
// test is needed. Counted as the chapter counts it: 20 flops (nine adds, nine multiplies, one
// square root and one division; inversesqrt stands for the last two).
// The kernel declares the uniform `eps2`.

vec3 bodyBodyInteraction(vec4 bi, vec4 bj, vec3 ai) {
  vec3 r = bj.xyz - bi.xyz;                           // r_ij            [3 flops]
  // |r|^2 + eps^2 as a chain of multiply-adds (three FMAs; dot(r, r) + eps2 may compile to a
  // multiply, two FMAs and an add)
  float distSqr = ((eps2 + r.x * r.x) + r.y * r.y) + r.z * r.z; //   [6 flops]
  float invDist = inversesqrt(distSqr);               // 1 / sqrt        [2 flops]
  float invDistCube = invDist * invDist * invDist;    //                 [2 flops]
  float s = bj.w * invDistCube;                       // m_j / d^3       [1 flop]
  return ai + r * s;                                  //                 [6 flops]
}
