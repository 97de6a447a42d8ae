/**
 * BrookGPU's streamGatherOp and streamScatterOp on the CPU: its runtime's own loops
 * (runtime/brt.cpp, `__streamGatherOrScatterOp`), in record order, with the operator (a reduce
 * kernel) applied by its generated JavaScript. src/idioms/gatherop.ts calls these for a CPU
 * context; its header gives the meaning and the GPU's way to the same answer.
 *
 * 8-bit records (char streams) are read as the operator's kernel reads them, b / 255, and stored
 * as the CPU's kernel outputs store them (charStore: char/uchar wrap modulo 256, fixed saturates),
 * after every application, as BrookGPU's loops did; the GPU saturates, and folds a repeated
 * target's applications in float before one store (docs/brook.md, "CPU backend").
 */
import { BrookError, check } from '../core/errors';
import type { KernelSpec } from '../core/kernelspec';
import type { KernelArgs } from '../core/kernelargs';
import type { Stream } from '../core/stream';
import { bind, charSaturates, charStore, reduceStep, type Binding } from './kernel';

/** The source record an index record names ((int)(x + 0.5) per component, x first), or -1 outside. */
function target(index: ArrayLike<number>, k: number, comps: number, ext: number[], float: boolean): number {
  let flat = 0;
  let scale = 1;
  for (let c = 0; c < comps; c++) {
    const x = index[k * comps + c]!;
    const i = float ? (Number.isFinite(x) && x > -1.5 ? Math.trunc(x + 0.5) : -1) : x;
    if (!(i >= 0 && i < ext[c]!)) return -1;
    flat += i * scale;
    scale *= ext[c]!;
  }
  return flat;
}

/**
 * Record `i` of a binding as a kernel reads it: a number or an array of numbers, an 8-bit record's
 * bytes as floats b / 255 (float32), as a gather or a stream argument gives them to the operator.
 */
function recordOf(b: Binding, data: ArrayLike<number>, i: number): number | number[] {
  const at = (k: number) => (b.char ? Math.fround(data[k]! / 255) : data[k]!);
  return b.comps === 1 ? at(i) : Array.from({ length: b.comps }, (_, k) => at(i * b.comps + k));
}

/**
 * Stores a value the operator computed (or a record read) into record `i`: an 8-bit record through
 * charStore, wrapping modulo 256 for char/uchar and saturating for fixed, as the CPU backend's
 * kernel outputs do (BrookGPU's CPU backend: C's unsigned char arithmetic).
 */
function store(b: Binding, data: { [i: number]: number }, i: number, v: unknown, saturate: boolean): void {
  const put = (k: number, x: number) => (data[k] = b.char ? charStore(x, saturate) : x);
  if (b.comps === 1) put(i, v as number);
  else (v as number[]).forEach((x, k) => put(i * b.comps + k, x));
}

const zero = (comps: number): number | number[] => (comps === 1 ? 0 : new Array<number>(comps).fill(0));

/** streamGatherOp on the CPU: for i in order, t[i] = s[index[i]]; s[index[i]] = op(s[index[i]]). */
export function cpuGatherOp(spec: KernelSpec, t: Stream, index: Stream, s: Stream, args: KernelArgs): void {
  const what = 'streamGatherOp(t, index, s, op)';
  const T = bind(t, `${what}: t`);
  const I = bind(index, `${what}: index`);
  const S = bind(s, `${what}: s`);
  check(I.length === T.length, () => `${what}: index must have one record per record of t (${T.length}), got ${I.length}`);
  const step = reduceStep(spec, args);
  const sat = charSaturates(spec);
  const float = index.info.host === 'float';
  for (let i = 0; i < T.length; i++) {
    const j = target(I.data, i, I.comps, S.ext, float);
    if (j < 0) {
      store(T, T.data, i, zero(T.comps), sat);
      continue;
    }
    const v = recordOf(S, S.data, j);
    store(T, T.data, i, v, sat);
    store(S, S.data, j, step(v, v), sat);
  }
}

/** streamScatterOp on the CPU: for every p, a[p] = op(a[p], c[b[p]]) (op's reduce parameter a[p], its stream parameter c[b[p]]). */
export function cpuScatterOp(spec: KernelSpec, a: Stream, b: Stream, c: Stream, args: KernelArgs): void {
  const what = 'streamScatterOp(a, b, c, op)';
  const A = bind(a, `${what}: a`);
  const B = bind(b, `${what}: b`);
  const C = bind(c, `${what}: c`);
  if (B.length !== A.length) throw new BrookError(`${what}: b must have one record per record of a (${A.length}), got ${B.length}`);
  const step = reduceStep(spec, args);
  const float = b.info.host === 'float';
  const sat = charSaturates(spec);
  const out = A.data.slice();
  for (let p = 0; p < A.length; p++) {
    const j = target(B.data, p, B.comps, C.ext, float);
    const x = j < 0 ? zero(C.comps) : recordOf(C, C.data, j);
    store(A, out, p, step(x, recordOf(A, A.data, p)), sat);
  }
  A.stream.data = out;
}

/**
 * scatterReduce on the CPU (src/idioms/scatterop.ts): for i in order, t[k] = op(s[i], t[k]) where
 * k = index[i] rounded as BrookGPU rounds ((int)(x + 0.5)); an index outside t scatters nothing.
 * The GPU folds each target's run of sorted (index, i) pairs in the order of i: the same
 * applications in the same order. s is read as it was before the call (s may be t).
 */
export function cpuScatterReduce(spec: KernelSpec, s: Stream, index: Stream, t: Stream, args: KernelArgs): void {
  const what = 'scatterReduce(s, index, t, op)';
  const S = bind(s, `${what}: s`);
  const I = bind(index, `${what}: index`);
  const T = bind(t, `${what}: t`);
  const step = reduceStep(spec, args);
  const sat = charSaturates(spec);
  const src = S.stream === T.stream ? S.data.slice() : S.data;
  const out = T.data.slice();
  for (let i = 0; i < I.length; i++) {
    const k = target(I.data, i, 1, [T.length], true);
    if (k >= 0) store(T, out, k, step(recordOf(S, src, i), recordOf(T, out, k)), sat);
  }
  T.stream.data = out;
}
