/**
 * Brook's kernel kinds lowered onto core's plain run, in one place: `ctx.run` offers every call
 * here first (core's installLowering) and runs the kernel itself when this answers false.
 *
 * - A reduce kernel called by its own parameters (`ctx.run(sum, { a, r })`) runs as its fold
 *   passes (reducekernel.ts).
 * - While a write query is open (writequery.ts), a run gets the counting output added; so does
 *   each fold pass of a reduce kernel.
 *
 * - An iterator passed where the kernel takes a stream (`kernel void copy(float input<>, ...)`
 *   called with `iter(0, 25)`, prog/tests convert_iter_to_stream) is converted, as Brook
 *   converts it: the parameter becomes an iterator of the output's domain (no stream is made;
 *   the record sees the value the converted stream would hold).
 *
 * - While a write mask is bound with its test or set enabled (writemask.ts), the user's plain
 *   kernel runs go against it: one whose output has another texture size is a BrookError. A
 *   library call's own passes (`ctx.runInternal`, options.internal) are never masked, nor
 *   counted by an open write query (writequery.ts).
 *
 * All end in core's runKernel, which never comes back here.
 */
import type { BrookContext } from '../core/context';
import { BrookError } from '../core/errors';
import { Kernel } from '../core/kernel';
import { Iter, type IterType, type KernelSpec, type RunOptions } from '../core/kernelspec';
import { checkIterForStream, type KernelArgs } from '../core/kernelargs';
import { installLowering } from '../core/context';
import { runKernel } from '../core/run';
import { runReduceKernel } from './reducekernel';
import type { ZMask } from '../core/zmask';
import { Stream } from '../core/stream';
import { StreamDomain } from '../core/domain';
import { StructDomain, StructStream } from '../core/struct';

/** What lowering needs of an open write query: a run with the counting output added. */
export interface OpenQuery {
  run(given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): void;
  /** On a CPU context (src/cpu/context.ts), which counts the records itself: adds `n` records written by one run. */
  written?(n: number, runs?: number): void;
}

const openQueries = new WeakMap<BrookContext, OpenQuery>();

/** The write query open on `ctx`, if any. */
export function openQueryOn(ctx: BrookContext): OpenQuery | undefined {
  return openQueries.get(ctx);
}

/** Opens (or, with undefined, closes) the write query of `ctx`. */
export function setOpenQuery(ctx: BrookContext, query: OpenQuery | undefined): void {
  if (query) openQueries.set(ctx, query);
  else openQueries.delete(ctx);
}

/** What lowering needs of a bound write mask (writemask.ts): its depth buffer and state. */
export interface BoundMask {
  readonly depth: ZMask;
  readonly disposed: boolean;
  testing: boolean;
  setting: boolean;
}

const boundMasks = new WeakMap<BrookContext, BoundMask>();

/** The write mask bound to `ctx`, if any. */
export function boundMaskOn(ctx: BrookContext): BoundMask | undefined {
  return boundMasks.get(ctx);
}

/** Binds (or, with undefined, unbinds) the write mask of `ctx`. */
export function setBoundMask(ctx: BrookContext, mask: BoundMask | undefined): void {
  if (mask) boundMasks.set(ctx, mask);
  else boundMasks.delete(ctx);
}

/** The write mask bound to `ctx` and its state, when its test or its set is enabled. */
function activeWriteMask(ctx: BrookContext): { mask: ZMask; test: boolean; set: boolean } | undefined {
  const m = boundMasks.get(ctx);
  if (!m || m.disposed || (!m.testing && !m.setting)) return undefined;
  return { mask: m.depth, test: m.testing, set: m.setting };
}

/** Core's plain run, counted when a write query is open (z-mask builds never are). */
function runCounted(ctx: BrookContext, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): void {
  const query = options.build ? undefined : openQueries.get(ctx);
  if (query) query.run(given, args, options);
  else runKernel(ctx, given, args, options);
}

const iterVariants = new WeakMap<KernelSpec, Map<string, KernelSpec>>();

/** `spec` with the stream inputs `names` turned into iterator parameters of the same type. */
function iteratorInputs(spec: KernelSpec, names: string[]): KernelSpec {
  let perSet = iterVariants.get(spec);
  if (!perSet) iterVariants.set(spec, (perSet = new Map()));
  const key = names.join(',');
  let derived = perSet.get(key);
  if (!derived) {
    const inputs = { ...spec.inputs };
    const iters: Record<string, IterType> = { ...spec.iters };
    for (const name of names) {
      const type = inputs[name]!;
      checkIterForStream(`kernel ${spec.name}, argument '${name}'`, type); // the CPU backend refuses with the same words
      delete inputs[name];
      iters[name] = type as IterType;
    }
    // indexof of a converted iterator is the output record's position (it has the output's domain)
    let body = spec.body;
    for (const name of names) body = body.replaceAll(`brook_indexof_in(brook_s_${name}_ext)`, 'brook_indexof()');
    perSet.set(key, (derived = { ...spec, inputs, iters, body }));
  }
  return derived;
}

/**
 * The output a bound write mask is checked against, with its parameter's name: the first output's
 * stream (a domain's stream), or, when that is a struct parameter's field (spec.outputs holds the
 * flattened fields, the argument is the struct stream), the struct output's first field stream.
 */
export function maskedOutput(spec: KernelSpec, args: KernelArgs): { name: string; stream: Stream } | undefined {
  const asStream = (v: unknown): Stream | undefined => {
    if (v instanceof Stream) return v;
    if (v instanceof StreamDomain) return v.stream;
    if (v instanceof StructStream) return Object.values(v.fields)[0];
    if (v instanceof StructDomain) return Object.values(v.fields)[0]?.stream;
    return undefined;
  };
  for (const name in spec.outputs) {
    const stream = asStream(args[name]);
    if (stream) return { name, stream };
    break;
  }
  for (const [name, p] of Object.entries(spec.structParams ?? {})) {
    const stream = p.role === 'outputs' ? asStream(args[name]) : undefined;
    if (stream) return { name, stream };
  }
  return undefined;
}

function lowerBrook(ctx: BrookContext, given: Kernel | KernelSpec, args: KernelArgs, options: RunOptions): boolean {
  // every ctx.run comes here: the common case (no iterator for a stream, no write mask, no
  // reduce kernel, no open query) costs a loop over the inputs and three lookups
  const spec = given instanceof Kernel ? given.spec : given;
  if (spec?.inputs && args && typeof args === 'object') {
    let iterated: string[] | undefined;
    for (const name in spec.inputs) if (args[name] instanceof Iter) (iterated ??= []).push(name);
    if (iterated) {
      const derived = iteratorInputs(spec, iterated);
      if (!lowerBrook(ctx, derived, args, options)) runKernel(ctx, derived, args, options);
      return true;
    }
  }
  const wm = options.internal ? undefined : activeWriteMask(ctx);
  if (wm && spec?.outputs && !spec.brook?.reduce && args && typeof args === 'object' && !options.build && !options.mask && !options.writeMask) {
    const found = maskedOutput(spec, args);
    const out = found?.stream;
    const firstOutput = found?.name;
    if (out && !out.disposed) {
      const { width, height } = out.layout;
      if (width !== wm.mask.width || height !== wm.mask.height) {
        // (BrookGPU's masked pass drew into a target of another size than its depth buffer: undefined)
        throw new BrookError(
          `kernel ${spec.name}: a write mask of ${wm.mask.height}x${wm.mask.width} (rows x columns) is bound with its ${[wm.test && 'test', wm.set && 'set'].filter(Boolean).join(' and ')} enabled, but output '${firstOutput}' (${out.describe()}) has a ${height}x${width} texture; ` +
            'create the mask with the output\'s size, or unbind it (or disable its test and set) around this run',
        );
      }
      const masked = { ...options, writeMask: wm };
      if (!lowerBrook(ctx, given, args, masked)) runKernel(ctx, given, args, masked);
      return true;
    }
  }
  if (spec?.brook?.reduce && args && typeof args === 'object' && !('reduce_src' in args)) {
    runReduceKernel(ctx, given, args, options, runCounted);
    return true;
  }
  // a library call's own passes (a read's packing, domain copies, sorts: ctx.runInternal) are no kernel run of the user's
  if (options.build || options.internal || !openQueries.has(ctx)) return false;
  runCounted(ctx, given, args, options);
  return true;
}

/** Installs Brook's lowering (idempotent): src/brt/index.ts calls it when loaded, and so do the write query's and write mask's constructors. */
export function useBrookKinds(): void {
  installLowering(lowerBrook);
}
