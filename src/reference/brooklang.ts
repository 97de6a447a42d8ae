/**
 * CPU versions of the Brook language features of test/brook (outputs read after they are
 * written, write queries, Cg's int-to-float promotion, 8-bit char streams), in float32 and in
 * the kernels' order of operations.
 */
const f = Math.fround;

/**
 * The kernel `o = a; o += 1; o /= 2; o *= o;` of test/brook/calls (an output read after the
 * kernel wrote it, as BrookGPU's own tests do): per record, ((a + 1) / 2)² in float32.
 */
export function brookReadAfterWriteReference(a: ArrayLike<number>): Float32Array {
  return Float32Array.from(a, (x) => {
    const h = f(f(x + 1) / 2);
    return f(h * h);
  });
}

/**
 * BrookGPU's write-query test (prog/tests/writeQuery): `if (s >= t) discard; o = s;` over a
 * [height, width] stream, counted by a write query — the records below t, optionally only
 * those of the interior (a kernel run with region 'interior' draws no boundary record).
 */
export function brookWriteQueryReference(s: ArrayLike<number>, t: number, shape?: { height: number; width: number; interior: boolean }): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    if (shape?.interior) {
      const r = Math.floor(i / shape.width);
      const c = i % shape.width;
      if (r === 0 || c === 0 || r === shape.height - 1 || c === shape.width - 1) continue;
    }
    if (s[i]! < t) n++;
  }
  return n;
}
