/**
 * BrookGPU's streamGatherOp and streamScatterOp on the CPU: its runtime's own loops
 * (runtime/brt.cpp, `__streamGatherOrScatterOp`), in record order, with the operator (a reduce
 * kernel) applied by its generated JavaScript. src/idioms/gatherop.ts calls these for a CPU
 * context; its header gives the meaning and the GPU's way to the same answer.
 */
import { BrookError, check } from '../core/errors';
import type { KernelSpec } from '../core/kernelspec';
import type { KernelArgs } from '../core/kernelargs';
import type { Stream } from '../core/stream';
import { bind, reduceStep } from './kernel';

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

const recordOf = (data: ArrayLike<number>, i: number, comps: number): number | number[] =>
  comps === 1 ? data[i]! : Array.from({ length: comps }, (_, k) => data[i * comps + k]!);
const store = (data: { [i: number]: number }, i: number, comps: number, v: unknown) => {
  if (comps === 1) data[i] = v as number;
  else (v as number[]).forEach((x, k) => (data[i * comps + k] = x));
};

/** streamGatherOp on the CPU: for i in order, t[i] = s[index[i]]; s[index[i]] = op(s[index[i]]). */
export function cpuGatherOp(spec: KernelSpec, t: Stream, index: Stream, s: Stream, args: KernelArgs): void {
  const what = 'streamGatherOp(t, index, s, op)';
  const T = bind(t, `${what}: t`);
  const I = bind(index, `${what}: index`);
  const S = bind(s, `${what}: s`);
  check(I.length === T.length, () => `${what}: index must have one record per record of t (${T.length}), got ${I.length}`);
  const step = reduceStep(spec, args);
  const float = index.info.host === 'float';
  for (let i = 0; i < T.length; i++) {
    const j = target(I.data, i, I.comps, S.ext, float);
    if (j < 0) {
      store(T.data, i, T.comps, T.comps === 1 ? 0 : new Array(T.comps).fill(0));
      continue;
    }
    const v = recordOf(S.data, j, S.comps);
    store(T.data, i, T.comps, v);
    store(S.data, j, S.comps, step(v, v));
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
  const out = A.data.slice();
  for (let p = 0; p < A.length; p++) {
    const j = target(B.data, p, B.comps, C.ext, float);
    const x = j < 0 ? (C.comps === 1 ? 0 : new Array(C.comps).fill(0)) : recordOf(C.data, j, C.comps);
    store(out, p, A.comps, step(x, recordOf(A.data, p, A.comps)));
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
  const src = S.stream === T.stream ? S.data.slice() : S.data;
  const out = T.data.slice();
  for (let i = 0; i < I.length; i++) {
    const k = target(I.data, i, 1, [T.length], true);
    if (k >= 0) store(out, k, T.comps, step(recordOf(src, i, S.comps), recordOf(out, k, T.comps)));
  }
  T.stream.data = out;
}
