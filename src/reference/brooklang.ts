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

/**
 * The kernel `mixed` of test/brook/promote (Cg's int-to-float promotion inside expressions),
 * record by record in float32 and in the kernel's order of operations. Inputs: a (float), i
 * (int), u (uint), v (float4, 4 per record), the gather g and the constant n.
 */
export function brookMixedReference(
  a: ArrayLike<number>, i: ArrayLike<number>, u: ArrayLike<number>, v: ArrayLike<number>, g: ArrayLike<number>, n: number,
): { o: Float32Array; w: Float32Array; c: Float32Array; m: Uint32Array; s: Float32Array } {
  const len = a.length;
  const o = new Float32Array(len);
  const w = new Float32Array(len * 4);
  const c = new Float32Array(len);
  const m = new Uint32Array(len);
  const s = new Float32Array(len);
  for (let r = 0; r < len; r++) {
    const ar = a[r]!;
    const ir = i[r]!;
    const j = ir + 3;
    const fv = f(j * 0.5);
    const x = f(ar + ir);
    const y = f(j * ar);
    const mixed = f(f(ar * 0.5) + f(ir * 0.5));
    let z = f(Math.floor(u[r]!) + Math.max(ir, ar));
    z = f(z + Math.min(j, ar));
    z = f(z + mixed);
    z = f(z + Math.min(Math.max(ir, 0.25), 8.5));
    o[r] = f(f(f(fv + f(x * 2)) - y) + z);
    for (let k = 0; k < 4; k++) w[r * 4 + k] = f(f(v[r * 4 + k]! * ir) + j);
    c[r] = ir < n ? f(g[ir]! * j) : 1;
    m[r] = (u[r]! + 1) >>> 0;
    let sum = 0;
    for (let k = 0; k < n; k++) sum = f(sum + k);
    s[r] = sum;
  }
  return { o, w, c, m, s };
}

/** A char stream's byte as a kernel reads it: b / 255 (BrookGPU's fixed and char types), in float32. */
export function charToFloat(b: number): number {
  return f(b / 255);
}

/**
 * A float written to a char stream: clamped to [0, 1], times 255, rounded to the nearest byte
 * (GL's conversion to 8-bit normalized; BrookGPU's CPU backend truncated instead).
 */
export function floatToChar(x: number): number {
  if (!(x > 0)) return 0; // (NaN too: GL leaves it undefined; brookgl's specs avoid it)
  if (x >= 1) return 255;
  return Math.round(x * 255);
}
