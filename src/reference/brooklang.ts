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
    if (!(c >= 0 && c < extents[d]!)) return -1; // (NaN too)
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

/**
 * brookgl's scatterReduce(s, index, t, op) (the scatter BrookGPU's name streamScatterOp suggests):
 * for i in order, t[k] = op(s[i], t[k]) where k is index[i] rounded as BrookGPU rounds indices,
 * (int)(x + 0.5) toward zero, as streamGatherOp does (-1.2 is record 0); an index outside t (NaN,
 * infinite, -1.5 or below, t's length - 0.5 or above) scatters nothing. Records of `comps` numbers.
 */
export function scatterReduceReference(s: ArrayLike<number>, index: ArrayLike<number>, t: ArrayLike<number>, comps: number, op: ReduceOp): Float32Array {
  const out = Float32Array.from(t);
  const extents = [out.length / comps];
  for (let i = 0; i < index.length; i++) {
    const k = gatherOpKey(index, i, 1, extents);
    if (k >= 0) setRecord(out, k, op(recordAt(s, i, comps), recordAt(out, k, comps)).map(f));
  }
  return out;
}

/**
 * The kernel `if (a < lo) discard; o = a * 2;` run in place (`o` is `a`) once per `lo` of
 * `los`: a discarded record keeps the stream's value from before that pass, as a BrookGPU GPU
 * backend kept it (the pass renders into the stream's own texture; nothing is written there).
 */
export function brookDiscardInPlaceReference(a: ArrayLike<number>, los: readonly number[]): Float32Array {
  const out = Float32Array.from(a);
  for (const lo of los) for (let i = 0; i < out.length; i++) if (!(out[i]! < lo)) out[i] = f(out[i]! * 2);
  return out;
}

/**
 * Brook's iterator values over a domain (what `iter(start, end)` passed for a stream parameter
 * holds, prog/tests convert_iter_to_stream and iterator): over a 1D domain of n records every
 * component steps by (end - start) / n; over a 2D [rows, columns] domain a 2-component iterator's
 * x steps by column, its y by row. Interleaved, float32.
 */
export function brookIteratorReference(start: readonly number[], end: readonly number[], shape: readonly number[]): Float32Array {
  const c = start.length;
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n * c);
  for (let i = 0; i < n; i++) {
    const at = shape.length === 1 ? Array<number>(c).fill(i) : [i % shape[1]!, Math.floor(i / shape[1]!)];
    for (let k = 0; k < c; k++) out[i * c + k] = f(start[k]! + f((end[k]! - start[k]!) / (shape.length === 1 ? n : shape[shape.length - 1 - k]!)) * at[k]!);
  }
  return out;
}

/**
 * The kernel `braces` of test/brook/brookgpu-features (Cg brace initialisers): per record a,
 * ind = {2, 0}, w = {{1, 2, 3}, {4, 5, 6}}, k = {0.5, 1.5, 2.5};
 * o = (ind * a, w[1].y + k[2] * a, w[0].z * k[0]).
 */
export function brookBracesReference(a: ArrayLike<number>): Float32Array {
  const out = new Float32Array(a.length * 4);
  for (let i = 0; i < a.length; i++) out.set([f(2 * a[i]!), 0 * a[i]!, f(5 + f(2.5 * a[i]!)), 1.5], i * 4);
  return out;
}

/**
 * BrookGPU's vout test kernel (prog/tests/vout, vout_brook.br `foo`) over a [rows, columns]
 * input: record (r, c) pushes a + b; then 2 if round(fmod(c, 2)) != 1; then 3 and -3 if
 * round(fmod(r, 3)) != 1. The pushed values in row-major order of the records.
 */
export function brookVoutReference(a: ArrayLike<number>, b: ArrayLike<number>, rows: number, columns: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const i = r * columns + c;
      out.push(f(a[i]! + b[i]!));
      if (c % 2 !== 1) out.push(2);
      if (r % 3 !== 1) out.push(3, -3);
    }
  }
  return out;
}

/**
 * A sequence of kernel passes under a BrookGPU write mask (include/brook/brt.hpp write_mask;
 * its DX9 form, runtime/gpu/dx9/dx9writemask.cpp): the mask starts clear; a pass writes record i
 * unless it discards it (value >= kill) or, with `test`, the mask holds i; with `set`, each record
 * written sets the mask. Each pass copies `values` (+ its `add`) into the output; returns the
 * records each pass wrote and the output after the last pass.
 */
export function brookWriteMaskReference(
  values: ArrayLike<number>, initial: ArrayLike<number>,
  passes: readonly { kill?: number; add: number; test: boolean; set: boolean }[],
): { counts: number[]; output: Float32Array } {
  const mask = new Uint8Array(values.length);
  const output = Float32Array.from(initial);
  const counts = passes.map((p) => {
    let n = 0;
    for (let i = 0; i < values.length; i++) {
      if (p.kill !== undefined && values[i]! >= p.kill) continue;
      if (p.test && mask[i]) continue;
      output[i] = f(values[i]! + p.add);
      if (p.set) mask[i] = 1;
      n++;
    }
    return n;
  });
  return { counts, output };
}

/**
 * Brook's indexof of an elementwise input of shape `input` read over an output of shape `output`
 * (BrookGPU, prog/tests at_indexof_stream): the input record each output record reads, x first
 * (index in 1D; column, row in 2D; ...): the same index when the lengths match, else each
 * dimension scaled as floor(i * in / out). Four numbers per output record.
 */
export function brookIndexofInputReference(input: readonly number[], output: readonly number[]): Float32Array {
  const ext = (s: readonly number[]) => [...s].reverse().concat([1, 1, 1]).slice(0, 4);
  const [e, o] = [ext(input), ext(output)];
  const n = o.reduce((a, b) => a * b, 1);
  const same = e.reduce((a, b) => a * b, 1) === n;
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    let rest = same ? i : 0;
    let r = i;
    for (let k = 0; k < 4; k++) {
      const c = r % o[k]!;
      r = Math.floor(r / o[k]!);
      if (same) {
        out[i * 4 + k] = rest % e[k]!;
        rest = Math.floor(rest / e[k]!);
      } else out[i * 4 + k] = Math.floor((c * e[k]!) / o[k]!);
    }
  }
  return out;
}

/**
 * A gather of a stream of `shape` (slowest first, `rank` dimensions) read at a vector index `p`
 * (x first) with more components than the rank: the first `rank` count, the rest are dropped, as
 * BrookGPU's textures ignored them (a 1D stream is one row: a[float2(3, 4)] is a[3]; a 2D stream
 * ignores z and w); the record there, each dimension clamped to the stream's extent outside it
 * (Brook's gathers clamp to the edge, as BrookGPU's did).
 */
export function brookRankedGatherReference(values: ArrayLike<number>, shape: readonly number[], p: readonly number[], rank: number): number {
  const q = p.slice(0, rank).map(Math.floor);
  const e = [...shape].reverse();
  let i = 0;
  for (let k = q.length - 1; k >= 0; k--) {
    const extent = e[k] ?? 1;
    i = i * extent + Math.min(Math.max(q[k]!, 0), extent - 1);
  }
  return values[i]!;
}

/**
 * The records `kernel void grow(float a<>, vout [] float o<>)` pushes, in order: for each input
 * a, a·10 + i for i = 0, 1, ... while i < a (none for a ≤ 0), the records of one input together
 * and the inputs in order, as BrookGPU's pass-after-pass vout kept them.
 */
export function brookVoutGrowReference(a: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (const x of Array.from(a)) for (let i = 0; i < x; i += 1) out.push(Math.fround(x * 10 + i));
  return out;
}

/**
 * The kernel `sized` of test/brook/frontend (gathers sized by a macro and an expression:
 * `float a[ARRAYSIZE]`, `float x[N+1]`, N = 7, and a function-like macro SQ): per record i of
 * an iterator 0..n-1, a[i] + x[7 - i] + b[i]², in float32 and the kernel's order.
 */
export function brookSizedGathersReference(a: ArrayLike<number>, x: ArrayLike<number>, b: ArrayLike<number>, n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => f(f(a[i]! + x[7 - i]!) + f(b[i]! * b[i]!)));
}

/**
 * The kernel `apply` of test/brook/frontend, which calls `kernel float4 scale(float4 x, float
 * k) { return x * k + 1; }` twice: scale(v, k) - scale(v.wzyx, 0.5), per component in float32.
 */
export function brookReturnKernelReference(v: ArrayLike<number>, k: number): Float32Array {
  const out = new Float32Array(v.length);
  for (let r = 0; r < v.length; r += 4) {
    for (let c = 0; c < 4; c++) out[r + c] = f(f(f(v[r + c]! * k) + 1) - f(f(v[r + 3 - c]! * 0.5) + 1));
  }
  return out;
}

/**
 * Cg's componentwise comparisons of test/brook/frontend: `o = (p >= lo) && (p < hi)` stored in a
 * float2 (1 where both hold), `m = (p > 0) ? p : -p` (a bool2 selecting components).
 */
export function brookVectorCompareReference(p: ArrayLike<number>, lo: readonly number[], hi: readonly number[]): { o: Float32Array; m: Float32Array } {
  const o = new Float32Array(p.length);
  const m = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) {
    const c = i % 2;
    o[i] = p[i]! >= lo[c]! && p[i]! < hi[c]! ? 1 : 0;
    m[i] = p[i]! > 0 ? p[i]! : -p[i]!;
  }
  return { o, m };
}

/** C-style casts of test/brook/frontend: a = (float3)(v) * 2, b = (float4)(v.w), c = (float)(int)(v.x * 3.5). */
export function brookCastsReference(v: ArrayLike<number>): { a: Float32Array; b: Float32Array; c: Float32Array } {
  const n = v.length / 4;
  const a = new Float32Array(n * 3);
  const b = new Float32Array(n * 4);
  const c = new Float32Array(n);
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < 3; k++) a[r * 3 + k] = f(v[r * 4 + k]! * 2);
    for (let k = 0; k < 4; k++) b[r * 4 + k] = v[r * 4 + 3]!;
    c[r] = Math.trunc(f(v[r * 4]! * 3.5));
  }
  return { a, b, c };
}

/**
 * The kernel `cgrammar` of test/brook/frontend (C's comma, compound and bitwise assignments,
 * ++/--, switch with a fall-through, do ... while, nested ?:), for non-negative ints a, in int32.
 */
export function brookCGrammarReference(a: ArrayLike<number>): { o: Int32Array; f: Float32Array } {
  const o = new Int32Array(a.length);
  const fo = new Float32Array(a.length);
  for (let r = 0; r < a.length; r++) {
    const ar = a[r]! | 0;
    let x = ar;
    let y = 3;
    x++;
    let z = (x + y) | 0;
    z = (z << 2) | 0;
    z ^= 5;
    z %= 7;
    z |= ~ar & 12;
    z >>= 1;
    y--;
    let w = y;
    // switch (a % 3) { case 0: z += 100; break; case 1: z -= 1; default: z *= 2; } (1 falls through)
    if (ar % 3 === 0) z += 100;
    else {
      if (ar % 3 === 1) z -= 1;
      z *= 2;
    }
    do w += 2;
    while (w < 10);
    o[r] = x > 5 ? z : w > 11 ? -z : z + w;
    fo[r] = Math.trunc(ar / 2);
  }
  return { o, f: fo };
}
