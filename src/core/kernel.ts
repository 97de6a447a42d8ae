/**
 * Kernels: a fragment shader that writes one record per fragment (Brook's `kernel void`).
 *
 * A kernel is data until it runs: a name, its parameters by role, and a GLSL body.
 *
 * ```ts
 * const saxpy: KernelSpec = {
 *   name: 'saxpy',
 *   inputs: { x: 'float', y: 'float' },   // float x<>, float y<>: this record of each stream
 *   uniforms: { alpha: 'float' },         // float alpha
 *   outputs: { result: 'float' },         // out float result<>
 *   body: 'result = alpha * x + y;',
 * };
 * ctx.run(saxpy, { x, y, alpha: 2, result });
 * ```
 *
 * Inside the body:
 * - each input and iterator is a local variable holding this record's value;
 * - each output is a local variable (zero to start with) whose final value is written;
 * - each gather `g` is a function: `g(i)` reads record i (i a float, int or uint: a float
 *   index is floored), `g(p)` with an ivec2/vec2 reads texel (x, y), `g(row, col)` likewise;
 *   a gather outside the stream reads zero (all components), or with `gatherEdge: { g: 'clamp' }`
 *   the nearest record (each dimension clamped, BrookGPU's rule, which brook`...` kernels use);
 *   `g_texel(ivec2)` is the unchecked fetch for hot loops that stay inside the texture and
 *   `g_size()` the texture's (width, height);
 * - `brook_index` (int) is the index of the record being written and `brook_pos` its (x, y).
 *
 * The runtime generates the declarations and the address translation (glsl/core/prelude.glsl),
 * compiles once per final source, and runs the pass as one full-screen triangle. An output that
 * is also an input is rendered into a pooled texture and swapped in afterwards (ping-pong):
 * as in Brook, no pass reads and writes the same texture.
 */
import PASS_VERT from '../../glsl/core/pass.vert.glsl';
import type { Device } from './device';
import type { ProgramRecord } from './programs';
import { KernelSpec, validateSpec } from './kernelspec';
import { KernelVariant, PLAIN_VARIANT, describeCompileError, generateKernelSource, variantKey } from './kernelsource';

// The description's names the Brook compiler takes with a kernel (src/brook imports them from
// here). Everything else is imported from where it is defined: the description and its checks
// from kernelspec.ts, GLSL generation from kernelsource.ts, argument binding from kernelargs.ts.
export { glslName, type IterType, type KernelSpec, type UniformType } from './kernelspec';

/**
 * One pass of a kernel: the outputs it writes (at most MAX_DRAW_BUFFERS) and its fragment
 * shader. A kernel with more outputs runs as several passes over the same inputs, as BrookGPU
 * split kernels; each pass computes the whole body and writes its share of the outputs.
 */
export interface KernelPart {
  outputs: readonly string[];
  source: string;
  bodyStart: number;
}

/**
 * A compiled kernel: its description, generated source(s) and, through the context's program
 * cache, its program(s). Programs are looked up per run (a Map hit), so a program the bounded
 * cache evicted is linked again when the kernel next runs.
 */
export class Kernel {
  private readonly variants = new Map<string, readonly KernelPart[]>();
  constructor(
    readonly spec: KernelSpec,
    /** The context whose GL program this is: a kernel runs only there. */
    readonly owner: Device,
  ) {}
  get name(): string {
    return this.spec.name;
  }
  /** The passes of the plain variant (a 1D output, inputs of its layout, whole 1D streams). */
  get parts(): readonly KernelPart[] {
    return this.partsFor(PLAIN_VARIANT);
  }
  /** The generated source of the plain variant's first (usually only) pass. */
  get source(): string {
    return this.parts[0]!.source;
  }
  /** The passes of the kernel specialised for `variant` (generated once per variant). */
  partsFor(variant: KernelVariant = PLAIN_VARIANT): readonly KernelPart[] {
    const key = variantKey(variant);
    let parts = this.variants.get(key);
    if (!parts) this.variants.set(key, (parts = kernelParts(this.spec, this.owner.caps.maxDrawBuffers, variant)));
    return parts;
  }
  /** The linked program of pass `part` (0 unless the outputs exceed MAX_DRAW_BUFFERS) of `variant`. */
  program(part = 0, variant?: KernelVariant): ProgramRecord {
    const p = this.partsFor(variant)[part]!;
    return this.owner.programs.get(PASS_VERT, p.source, (_stage, log) => describeCompileError(this.spec, p.source, p.bodyStart, log) + (log.trim() ? '' : this.owner.lateMemoryNote()));
  }
}

/** The passes of `spec` for `variant`: all outputs at once, or MAX_DRAW_BUFFERS at a time. */
function kernelParts(spec: KernelSpec, per: number, variant: KernelVariant): KernelPart[] {
  const names = Object.keys(spec.outputs);
  const parts: KernelPart[] = [];
  for (let i = 0; i < names.length; i += per) {
    const outputs = names.length > per ? names.slice(i, i + per) : names;
    parts.push({ outputs, ...generateKernelSource(spec, names.length > per ? outputs : undefined, variant) });
  }
  return parts;
}

/**
 * Per context: kernels by description object, and by description content for generators that
 * return a fresh object per call (generating and validating a kernel's GLSL again cost most of
 * a pass's CPU time). Content is looked up by name, then compared field by field (serialising
 * every run's description with JSON.stringify was 3.5 % of a fluid step's CPU). Programs
 * themselves are cached by source in `ctx.programs`, so a kernel found here still relinks if
 * its program was evicted.
 */
interface KernelCache {
  byObject: WeakMap<KernelSpec, Kernel>;
  byName: Map<string, Kernel[]>;
  /** Kernels remembered by content, least recently used first. */
  order: Map<Kernel, true>;
}
const kernelCache = new WeakMap<Device, KernelCache>();

/** Descriptions remembered by content per context (least recently used forgotten first). */
export const KERNEL_CONTENT_CACHE_SIZE = 256;

function kernelsOf(ctx: Device): KernelCache {
  let kernels = kernelCache.get(ctx);
  if (!kernels) kernelCache.set(ctx, (kernels = { byObject: new WeakMap(), byName: new Map(), order: new Map() }));
  return kernels;
}

/** The kernel already compiled in `ctx` for this description (same object or same content), if any. */
export function cachedKernel(ctx: Device, spec: KernelSpec): Kernel | undefined {
  const kernels = kernelsOf(ctx);
  const hit = kernels.byObject.get(spec);
  if (hit || !spec || typeof spec !== 'object' || typeof spec.name !== 'string') return hit;
  const same = kernels.byName.get(spec.name)?.find((k) => sameContent(k.spec, spec, 0));
  if (same) {
    kernels.order.delete(same); // most recently used last
    kernels.order.set(same, true);
    kernels.byObject.set(spec, same);
  }
  return same;
}

function remember(ctx: Device, spec: KernelSpec, kernel: Kernel): void {
  const kernels = kernelsOf(ctx);
  kernels.byObject.set(spec, kernel);
  const named = kernels.byName.get(spec.name);
  if (named) named.push(kernel);
  else kernels.byName.set(spec.name, [kernel]);
  kernels.order.set(kernel, true);
  if (kernels.order.size > KERNEL_CONTENT_CACHE_SIZE) {
    const oldest = kernels.order.keys().next().value!;
    kernels.order.delete(oldest);
    const list = kernels.byName.get(oldest.spec.name)!;
    list.splice(list.indexOf(oldest), 1);
    if (list.length === 0) kernels.byName.delete(oldest.spec.name);
  }
}

/** Whether two descriptions hold the same data (plain values, arrays and objects with keys in the same order). */
function sameContent(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 16) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameContent((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}

/**
 * Generates and compiles the kernel for `spec`, specialised for `variant` (the arguments of the
 * run that asks; ctx.kernel() compiles the plain variant). Kernels are cached per context by
 * their generated source (the program cache), so a generator may return a fresh description per
 * call; the same description, as the same object or with the same content, skips generation.
 */
export function compileKernel(ctx: Device, spec: KernelSpec, variant: KernelVariant = PLAIN_VARIANT): Kernel {
  const hit = cachedKernel(ctx, spec);
  if (hit) return hit;
  validateSpec(spec, ctx);
  const kernel = new Kernel(spec, ctx);
  kernel.partsFor(variant).forEach((_, i) => kernel.program(i, variant)); // compile now: errors surface here
  remember(ctx, spec, kernel);
  return kernel;
}
