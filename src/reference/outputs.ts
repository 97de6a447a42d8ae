/**
 * CPU mirror of the many-output kernel the tests run (more float4 outputs than draw buffers,
 * so the runtime splits it into passes): output k of record i, from the float4 record x_i.
 */
export function manyOutputs(x: Float32Array, outputs: number): Float32Array[] {
  const n = x.length / 4;
  const f = Math.fround;
  return Array.from({ length: outputs }, (_, k) => {
    const out = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const [a, b, c, d] = [x[i * 4]!, x[i * 4 + 1]!, x[i * 4 + 2]!, x[i * 4 + 3]!];
      out[i * 4] = f(a * (k + 1));
      out[i * 4 + 1] = f(b + k);
      out[i * 4 + 2] = f(c - d);
      out[i * 4 + 3] = i * outputs + k;
    }
    return out;
  });
}
