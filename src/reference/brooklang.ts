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

/** A reduce kernel `reduce void op(T x<>, reduce T r<>)` on the CPU: the new r from x and r (records as arrays). */
export type ReduceOp = (x: number[], r: number[]) => number[];

/** Where a record of `index` points in a source of `extents` (x first): BrookGPU's rounding, (int)(v + 0.5); -1 outside. */
function gatherOpKey(index: ArrayLike<number>, i: number, comps: number, extents: readonly number[]): number {
  let key = 0;
  for (let d = comps - 1; d >= 0; d--) {
    const c = Math.trunc(index[i * comps + d]! + 0.5);
    if (c < 0 || c >= extents[d]!) return -1;
    key = key * extents[d]! + c;
  }
  return key;
}

const recordAt = (xs: ArrayLike<number>, k: number, n: number) => Array.from({ length: n }, (_, c) => xs[k * n + c]!);
const setRecord = (xs: Float32Array, k: number, r: number[]) => r.forEach((v, c) => (xs[k * r.length + c] = v));

/**
 * BrookGPU's streamGatherOp(t, index, s, op) as its runtime's loop runs it (runtime/brt.cpp,
 * `__streamGatherOrScatterOp`, gather path): for i in order, t[i] = s[index[i]], then
 * s[index[i]] = op(s[index[i]], s[index[i]]). Records of `comps` numbers; `index` of
 * `indexComps` numbers a record ((column, row) for a 2D source); `extents` are s's, x first.
 * An index outside s gives a zero record and changes nothing.
 */
export function brookGatherOpReference(
  t: ArrayLike<number>, index: ArrayLike<number>, s: ArrayLike<number>,
  shape: { comps: number; indexComps: number; extents: readonly number[] }, op: ReduceOp,
): { t: Float32Array; s: Float32Array } {
  const { comps, indexComps, extents } = shape;
  const tt = Float32Array.from(t);
  const ss = Float32Array.from(s);
  const n = tt.length / comps;
  for (let i = 0; i < n; i++) {
    const k = gatherOpKey(index, i, indexComps, extents);
    if (k < 0) {
      setRecord(tt, i, Array<number>(comps).fill(0));
      continue;
    }
    const v = recordAt(ss, k, comps);
    setRecord(tt, i, v);
    setRecord(ss, k, op(v, v.slice()).map(f));
  }
  return { t: tt, s: ss };
}

/**
 * BrookGPU's streamScatterOp(a, b, c, op) as its runtime runs it (runtime/brt.cpp, scatter path:
 * `func(src_ptr, dst_ptr)`): for every record p, a[p] = op(c[b[p]], a[p]) — op's reduce
 * argument is a[p]; a zero record where b[p] is outside c. Only `a` changes.
 */
export function brookScatterOpReference(
  a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>,
  shape: { comps: number; indexComps: number; extents: readonly number[] }, op: ReduceOp,
): Float32Array {
  const { comps, indexComps, extents } = shape;
  const out = Float32Array.from(a);
  const n = out.length / comps;
  for (let p = 0; p < n; p++) {
    const k = gatherOpKey(b, p, indexComps, extents);
    const x = k < 0 ? Array<number>(comps).fill(0) : recordAt(c, k, comps);
    setRecord(out, p, op(x, recordAt(out, p, comps)).map(f));
  }
  return out;
}
