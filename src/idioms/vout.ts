/**
 * Brook's variable output (`vout[N] float o<>` and `push(o)`), as BrookGPU implemented it on
 * GPUs: every input record gets N output slots; the kernel runs once per slot, counting its
 * pushes, and slot k keeps the k-th value pushed (or stays null: +infinity in its first
 * component); then the filter (Horn, GPU Gems 2 ch. 36) compacts the slots, in order.
 *
 * ```ts
 * const { dup } = brook`kernel void dup(float a<>, vout[2] float o<>) {
 *   o = a; push(o);
 *   if (a > 5) { o = -a; push(o); }
 * }`;
 * const { stream, count } = await voutRun(ctx, dup, { a });   // in order: a0, (-a0), a1, ...
 * ```
 * A pushed value whose first component is +infinity reads as null and is dropped. Inputs are 1D
 * or 2D (all of one shape); the records come back in the inputs' row-major order, as BrookGPU's
 * vout output held them: after a 1D input, a 1D stream of `count` records; after a 2D input of
 * [h, w], a 2D stream of w records a row, its rows grown to hold them all ([ceil(count / w), w]:
 * prog/tests vout's 10x10 input gives 290 records as 29 rows of 10), the records of the last row
 * past `count` null (+infinity in every component), as BrookGPU's vout library
 * (prog/tests/vout, vout.br) padded them.
 *
 * On a CPU context (createContext({ backend: 'cpu' })) the kernel runs once per input record and
 * the same records come back (voutOnCpu; src/cpu/vout.ts); `method` chooses GPU passes and is
 * not used there.
 */
import { BrookContext, BrookError, Kernel, KernelArgs, KernelSpec, Stream, typeInfo, type ElementType } from '../core/index';
import { filter, FilterMethod } from './filter';

/** Runs a vout kernel and returns the pushed records, compacted (null when nothing was pushed). */
export async function voutRun(
  ctx: BrookContext,
  kernel: Kernel | KernelSpec,
  args: KernelArgs,
  options: { method?: FilterMethod } = {},
): Promise<{ stream: Stream | null; count: number }> {
  ctx.guard();
  const spec = kernel instanceof Kernel ? kernel.spec : kernel;
  const vout = spec?.brook?.vout;
  if (!vout) throw new BrookError(`voutRun: kernel ${spec?.name} has no vout parameter (vout[4] float o<>)`);
  const inputs = Object.keys(spec.inputs ?? {});
  if (inputs.length === 0) throw new BrookError(`voutRun: kernel ${spec.name} needs an input stream (a<>) to say how many records push`);
  const first = args?.[inputs[0]!];
  if (!(first instanceof Stream)) throw new BrookError(`voutRun: kernel ${spec.name}, argument '${inputs[0]}': pass a stream`);
  const dims = first.layout.dims;
  if (dims > 2) throw new BrookError(`voutRun: kernel ${spec.name}, argument '${inputs[0]}': vout kernels take 1D or 2D inputs, got a ${first.describe()}`);
  const sameShape = (s: Stream) => s.layout.dims === dims && s.shape.every((e, k) => e === first.shape[k]);
  for (const name of inputs) {
    const s = args[name];
    if (s instanceof Stream && !sameShape(s)) {
      throw new BrookError(`voutRun: kernel ${spec.name}, argument '${name}': the inputs of a vout kernel have one shape (${first.describe()}), got a ${s.describe()}`);
    }
  }
  if (vout.output in args) throw new BrookError(`voutRun: kernel ${spec.name}: leave out '${vout.output}'; the pushed records are returned`);
  const cpu = (ctx as unknown as { backend?: string }).backend === 'cpu' ? (ctx as unknown as CpuVout) : undefined;
  if (cpu) return voutOnCpu(cpu, spec, args, dims === 2 ? first.shape[1]! : 0);
  // A 2D input [h, w] gets the slots of record (r, c) at columns c·N .. c·N + N − 1 of row r of
  // an [h, w·N] stream: each input is read at (r, floor(col / N)) and indexof gives (c, r); the
  // filter then keeps the records in row-major order of the input, as BrookGPU printed them.
  const [h, w] = dims === 2 ? (first.shape as [number, number]) : [1, first.length];
  const runWith = async (most: number, k: Kernel | KernelSpec): Promise<{ stream: Stream | null; count: number }> => {
    const slots = ctx.scratch(vout.type, dims === 2 ? [h, w * most] : first.length * most);
    try {
      ctx.runInternal(k, { ...args, [vout.output]: slots });
      const r = await filter(ctx, slots, { sentinel: true, method: options.method });
      return { stream: r.stream, count: r.count };
    } finally {
      slots.dispose();
    }
  };
  if (vout.most) return rowsOf(ctx, await runWith(vout.most, kernel), dims === 2 ? w : 0, vout.type);
  // vout [] T o<>: BrookGPU ran the kernel pass after pass until a pass pushed nothing. Here the
  // slots per record double (4, 8, ...) until doubling them keeps no more records: then no record
  // pushed more than the smaller number, and its result is the whole answer.
  let most = 4;
  let r = await runWith(most, unboundedAt(spec, most));
  for (;;) {
    if (most * 2 > MAX_UNBOUNDED) {
      r.stream?.dispose();
      throw unboundedError(spec, most);
    }
    let next: { stream: Stream | null; count: number };
    try {
      next = await runWith(most * 2, unboundedAt(spec, most * 2));
    } catch (e) {
      r.stream?.dispose();
      throw e;
    }
    if (next.count === r.count) {
      next.stream?.dispose();
      return rowsOf(ctx, r, dims === 2 ? w : 0, vout.type);
    }
    r.stream?.dispose();
    r = next;
    most *= 2;
  }
}

function unboundedError(spec: KernelSpec, most: number): BrookError {
  return new BrookError(`voutRun: kernel ${spec.name} (vout [] ${spec.brook!.vout!.output}<>) pushes more than ${most / 2} records for one input record, and an unbounded vout's slots double only up to ${MAX_UNBOUNDED} (${most} gave more records than ${most / 2}, and ${most * 2} is past the most); give it a bound (vout[N], N up to 64) or push fewer`);
}

/** What voutRun asks of a CPU context (src/cpu/context.ts). */
interface CpuVout {
  stream(type: ElementType, shape: number | number[], data?: ArrayLike<number>): Stream;
  voutPushes(kernel: KernelSpec, args: KernelArgs, cap: number): { vals: Array<number | number[]>; ks: number[] };
}

/**
 * voutRun on a CPU context: the kernel runs once per input record and its pushes are kept with
 * their count within the record (src/cpu/vout.ts); the records are those the GPU's slots and
 * filter keep: the first `most` of each record (for `vout []`, `most` found by the same doubling
 * as the GPU passes', on the counts), nulls (+infinity first) dropped, in record order; after a
 * 2D input, `width` records a row with +infinity after the last, as rowsOf.
 */
function voutOnCpu(cpu: CpuVout, spec: KernelSpec, args: KernelArgs, width: number): { stream: Stream | null; count: number } {
  const vout = spec.brook!.vout!;
  const { vals, ks } = cpu.voutPushes(spec, args, vout.most || MAX_UNBOUNDED);
  let most = vout.most;
  if (!most) {
    const below = (m: number) => ks.reduce((c, k) => c + (k < m ? 1 : 0), 0);
    for (most = 4; ; most *= 2) {
      if (most * 2 > MAX_UNBOUNDED) throw unboundedError(spec, most);
      if (below(most * 2) === below(most)) break;
    }
  }
  const c = typeInfo(vout.type).components;
  const kept = vals.filter((_, i) => ks[i]! < most);
  const count = kept.length;
  if (count === 0) return { stream: null, count: 0 };
  const rows = width ? Math.ceil(count / width) : 0;
  const data = new Float32Array(width ? rows * width * c : count * c).fill(Infinity);
  kept.forEach((v, i) => (typeof v === 'number' ? (data[i * c] = v) : data.set(v, i * c)));
  return { stream: cpu.stream(vout.type, width ? [rows, width] : count, data), count };
}

/**
 * The compacted records `r` (a 1D stream) as BrookGPU's vout output of a 2D input held them:
 * `width` records a row, ceil(count / width) rows, null (+infinity) past the count. `width` 0
 * (a 1D input): `r` as it is. Takes `r`'s stream (disposed here when copied).
 */
function rowsOf(ctx: BrookContext, r: { stream: Stream | null; count: number }, width: number, type: ElementType): { stream: Stream | null; count: number } {
  if (!width || !r.stream) return r;
  const src = r.stream;
  let out: Stream | undefined;
  try {
    out = ctx.stream(type, [Math.ceil(r.count / width), width]);
    ctx.runInternal(voutRows(type), { src, rows: out, count: r.count });
    return { stream: out, count: r.count };
  } catch (e) {
    out?.dispose();
    throw e;
  } finally {
    src.dispose();
  }
}

const rowKernels = new Map<ElementType, KernelSpec>();

/** out (2D) record i = src (1D) record i, or null (+infinity, every component) from `count` on. */
function voutRows(type: ElementType): KernelSpec {
  let k = rowKernels.get(type);
  if (!k) {
    const glsl = typeInfo(type).glsl;
    k = {
      name: 'VoutRows',
      gathers: { src: type },
      uniforms: { count: 'int' },
      outputs: { rows: type },
      body: `rows = brook_index < count ? src(brook_index) : ${glsl}(uintBitsToFloat(0x7f800000u));`,
    };
    rowKernels.set(type, k);
  }
  return k;
}

/** The most slots per input record voutRun gives a `vout []` kernel. */
const MAX_UNBOUNDED = 1024;

const unboundedVariants = new WeakMap<KernelSpec, Map<number, KernelSpec>>();

/** A `vout []` kernel with `most` slots per input record (its GLSL's BROOK_VOUT_MOST defined), made once. */
function unboundedAt(spec: KernelSpec, most: number): KernelSpec {
  let byMost = unboundedVariants.get(spec);
  if (!byMost) unboundedVariants.set(spec, (byMost = new Map()));
  let v = byMost.get(most);
  if (!v) {
    v = { ...spec, helpers: `#define BROOK_VOUT_MOST ${most}\n${spec.helpers ?? ''}`, brook: { ...spec.brook, vout: { ...spec.brook!.vout!, most } } };
    byMost.set(most, v);
  }
  return v;
}
