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
 * A pushed value whose first component is +infinity reads as null and is dropped.
 */
import { BrookContext, BrookError, Kernel, KernelArgs, KernelSpec, Stream } from '../core/index';
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
  const vout = spec?.voutOf;
  if (!vout) throw new BrookError(`voutRun: kernel ${spec?.name} has no vout parameter (vout[4] float o<>)`);
  const inputs = Object.keys(spec.inputs ?? {});
  if (inputs.length === 0) throw new BrookError(`voutRun: kernel ${spec.name} needs an input stream (a<>) to say how many records push`);
  const first = args?.[inputs[0]!];
  if (!(first instanceof Stream)) throw new BrookError(`voutRun: kernel ${spec.name}, argument '${inputs[0]}': pass a stream`);
  for (const name of inputs) {
    const s = args[name];
    if (s instanceof Stream && (s.layout.dims !== 1 || s.length !== first.length)) {
      throw new BrookError(`voutRun: kernel ${spec.name}, argument '${name}': vout kernels take 1D inputs of one length (${first.length}), got a ${s.describe()}`);
    }
  }
  if (vout.output in args) throw new BrookError(`voutRun: kernel ${spec.name}: leave out '${vout.output}'; the pushed records are returned`);
  const slots = ctx.scratch(vout.type, first.length * vout.most);
  try {
    ctx.run(kernel, { ...args, [vout.output]: slots });
    const r = await filter(ctx, slots, { sentinel: true, method: options.method });
    return { stream: r.stream, count: r.count };
  } finally {
    slots.dispose();
  }
}
