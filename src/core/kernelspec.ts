/**
 * Kernel descriptions (`KernelSpec`) and their arguments: parameter roles, iterators, the names
 * GLSL reserves, and the checks a description passes before anything is generated or compiled.
 * A description is data: it names element types, never streams (the arguments that bind streams
 * to it are kernelargs.ts's), so streams may name it. kernel.ts re-exports the names the Brook
 * compiler takes with a kernel (glslName, KernelSpec, IterType, UniformType); all else is imported from here.
 */
import type { ZMask } from './zmask';
import { check } from './errors';
import type { Device } from './device';
import { ElementType, StructType, typeInfo } from './types';
import { describeValue as describeAny } from './checks';

/** Uniform types: element types and the square float matrices. */
export type UniformType = ElementType | 'mat2' | 'mat3' | 'mat4' | 'bool';

export interface KernelSpec {
  /** Kernel name, shown in errors and traces. */
  name: string;
  /** Elementwise input streams (`float a<>`): the body sees this record's value. Default: none. */
  inputs?: Record<string, ElementType>;
  /** Gather arrays (`float4 v[]`), read anywhere by record index. Default: none. */
  gathers?: Record<string, ElementType>;
  /**
   * What a gather read outside its stream (or domain) gives, per gather by name (a struct
   * gather's field gathers by their flattened names). 'zero' (the default): zero, every
   * component. 'clamp': the nearest record, each dimension of the stream's logical shape (the
   * domain's, for a domain) clamped to its extent, as BrookGPU's textures (CLAMP_TO_EDGE) and
   * its CPU backend did; the Brook front end sets it on every gather it declares. A separate
   * accessor, so gathers that keep 'zero' cost nothing more.
   */
  gatherEdge?: Record<string, GatherEdge>;
  /** Iterators (`iter float here<>`): bound at run time to `iter(start, end)`. Default: none. */
  iters?: Record<string, IterType>;
  /** Uniform parameters (`float twotoi`). Default: none. */
  uniforms?: Record<string, UniformType>;
  /** Output streams (`out float count<>`), one render target each. At least one. */
  outputs: Record<string, ElementType>;
  /** GLSL statements of the kernel body. */
  body: string;
  /** GLSL functions the body may call, placed before main. Default: none. */
  helpers?: string;
  /** GLSL statements run in main after the inputs, iterators and outputs are set, before the body. */
  prologue?: string;
  /** GLSL statements run in main after the body (also after a `return;` in it), before the outputs are written. */
  epilogue?: string;
  /**
   * Bound on the loop iterations of one record: defines `bool brook_loop()` (true while under
   * the bound), which the Brook front end puts into every loop condition. Past the bound the
   * record's float outputs are written as NaN. Default: no bound (and no brook_loop).
   */
  maxIterations?: number;
  /**
   * Struct parameters (from the Brook front end): each is flattened into one parameter per
   * field (`p` -> `p_A`, `p_B`, see struct.ts); `ctx.run` takes a StructStream for `p`.
   */
  structParams?: Record<string, StructParam>;
  /**
   * The Brook front end's kernel kinds, which core never reads: src/brook lowers them onto the
   * plain run (reduce kernels, src/brt/lower.ts) or an idiom runs them (vout, idioms/vout.ts).
   */
  brook?: BrookKinds;
  /** Struct types declared in the kernel's source, by name (for `structStream(ctx, spec.structs.Tri, n)`). */
  structs?: Record<string, StructType>;
  /**
   * Brook's shape rules for elementwise inputs (set by the Brook front end): an input whose
   * shape differs from the output's is resampled, each dimension as floor(i * in / out).
   * Default false: lengths must match.
   */
  resample?: boolean;
  /**
   * Where the body came from (set by the Brook front end): for error messages, the user's text of
   * the body and the body's first line in the source; `source`, the whole Brook source the kernel
   * was compiled from (lines of spaces left empty), from which a CPU context compiles the kernel
   * again where the description has lost the front end's typed tree (a module written by
   * `npx brookgl`, a description copied as data).
   */
  origin?: { text: string; bodyLine: number; source?: string };
}

/** What a gather outside its stream reads (KernelSpec.gatherEdge). */
export type GatherEdge = 'zero' | 'clamp';

/** Brook's kernel kinds recorded on a description (KernelSpec.brook). */
export interface BrookKinds {
  /**
   * A reduce kernel (`reduce void f(float a<>, reduce float r<>)`): the stream `input` is
   * reduced into `result` (src/brt/reducekernel.ts runs it); the spec itself is the fold pass.
   */
  reduce?: { input: string; result: string; type: ElementType };
  /**
   * A kernel with a `vout[most] T o<>` parameter: run by `voutRun` (idioms/vout.ts) over `most`
   * slots per input record, the slots then compacted by the filter. `most` 0: `vout [] T o<>`,
   * no bound; its GLSL names the slots BROOK_VOUT_MOST, which voutRun defines as it doubles them.
   */
  vout?: { output: string; most: number; type: ElementType };
}

/** Element types of iterators. */
export type IterType = 'float' | 'float2' | 'float3' | 'float4';
const ITER_TYPES: readonly string[] = ['float', 'float2', 'float3', 'float4'];

/** An iterator argument: Brook's `iter(start, end)`, evenly spaced over the output domain. */
export class Iter {
  constructor(
    readonly start: number | readonly number[],
    readonly end: number | readonly number[],
  ) {
    const ok = (v: unknown) =>
      (typeof v === 'number' && Number.isFinite(v)) ||
      (Array.isArray(v) && v.length >= 2 && v.length <= 4 && v.every((x) => typeof x === 'number' && Number.isFinite(x)));
    check(ok(start), () => `iter(start, end): start must be a finite number or an array of 2 to 4 finite numbers, got ${describeAny(start)}`);
    check(ok(end), () => `iter(start, end): end must be a finite number or an array of 2 to 4 finite numbers, got ${describeAny(end)}`);
    check(
      typeof start === typeof end && (typeof start === 'number' || (start as readonly number[]).length === (end as readonly number[]).length),
      () => 'iter(start, end): start and end must both be numbers or both arrays of the same length',
    );
  }
}

/**
 * Brook's iterator stream: over a 1D domain of n records, record i sees start + i * (end - start) / n,
 * every component (float to float4). `iter(0, n)` gives each record its own index (the listings'
 * `here`); a float2 iterator over a 2D domain of [h, w] steps by (end - start) / (w, h) along x
 * (columns) and y (rows), a float3 over a 3D domain and a float4 over a 4D one likewise, component k
 * along dimension k (x the fastest); a float iterator over any domain walks the records in
 * row-major order. Other pairings are a BrookError, as BrookGPU refused them.
 */
export function iter(start: number | readonly number[], end: number | readonly number[]): Iter {
  return new Iter(start, end);
}

/** How a kernel's struct parameters map onto flattened field parameters (KernelSpec.structParams). */
export interface StructParam {
  struct: StructType;
  role: 'inputs' | 'gathers' | 'outputs' | 'uniforms';
}

/** GLSL ES 3.00 keywords and reserved words a C/Cg program may use as names. */
export const GLSL_RESERVED = new Set([
  'input', 'output', 'filter', 'sample', 'common', 'partition', 'active', 'asm', 'class', 'union',
  'enum', 'typedef', 'template', 'this', 'resource', 'goto', 'inline', 'noinline', 'public',
  'static', 'extern', 'external', 'interface', 'long', 'short', 'double', 'fixed', 'unsigned',
  'superp', 'sizeof', 'cast', 'namespace', 'using', 'packed', 'volatile', 'buffer', 'patch',
  'subroutine', 'attribute', 'varying', 'texture', 'smooth', 'flat', 'centroid', 'layout',
]);

/** GLSL keywords no parameter may be named after (the Brook front end never produces them). */
const GLSL_KEYWORDS = new Set([
  'in', 'out', 'inout', 'uniform', 'const', 'highp', 'mediump', 'lowp', 'precision', 'invariant',
  'struct', 'discard', 'return', 'switch', 'case', 'default', 'if', 'else', 'for', 'while', 'do',
  'break', 'continue', 'true', 'false', 'void', 'main',
]);

/**
 * The GLSL name of a parameter: its own, or with a trailing '_' when GLSL reserves it (Listing
 * 36-2's `output` becomes `output_` in the shader; the argument is still passed as `output`).
 */
export function glslName(name: string): string {
  return GLSL_RESERVED.has(name) ? `${name}_` : name;
}

const RESERVED_PREFIXES = ['brook_', 'gl_', 'webgl_', '_webgl'];
const GLSL_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks a kernel description (names, types, limits) before anything is compiled. */
export function validateSpec(spec: KernelSpec, ctx: Device): void {
  check(spec && typeof spec.name === 'string' && spec.name.length > 0, 'a kernel needs a name');
  check(typeof spec.body === 'string', () => `kernel ${spec.name}: body must be a string of GLSL`);
  check(
    spec.maxIterations === undefined || (Number.isInteger(spec.maxIterations) && spec.maxIterations >= 1 && spec.maxIterations < 2 ** 31),
    () => `kernel ${spec.name}: maxIterations must be a positive integer below 2^31, got ${String(spec.maxIterations)}`,
  );
  const outputs = Object.keys(spec.outputs ?? {});
  check(outputs.length >= 1, () => `kernel ${spec.name}: declare at least one output (outputs: { name: 'float' })`);
  const seen = new Set<string>();
  for (const [role, group] of Object.entries(roles(spec))) {
    for (const [name, type] of Object.entries(group)) {
      check(GLSL_IDENT.test(name), () => `kernel ${spec.name}: '${name}' is not a valid GLSL identifier`);
      check(
        !RESERVED_PREFIXES.some((p) => name.startsWith(p)),
        () => `kernel ${spec.name}: parameter '${name}' uses a reserved prefix (${RESERVED_PREFIXES.join(', ')})`,
      );
      check(!seen.has(name), () => `kernel ${spec.name}: parameter '${name}' is declared twice`);
      check(
        !GLSL_KEYWORDS.has(name) && (spec.origin !== undefined || !GLSL_RESERVED.has(name)),
        () => `kernel ${spec.name}: parameter '${name}' is a GLSL reserved word; rename it (kernels written with brook\`...\` may use it: they are translated)`,
      );
      seen.add(name);
      if (role === 'uniforms') {
        if (!['mat2', 'mat3', 'mat4', 'bool'].includes(type)) typeInfo(type);
      } else if (role === 'iters') {
        check(ITER_TYPES.includes(type), () => `kernel ${spec.name}: iterator '${name}' must be float, float2, float3 or float4`);
      } else {
        typeInfo(type); // throws on unknown element types
      }
    }
  }
  for (const [name, edge] of Object.entries(spec.gatherEdge ?? {})) {
    check(Object.hasOwn(spec.gathers ?? {}, name), () => `kernel ${spec.name}: gatherEdge names '${name}', which is not one of its gathers`);
    check(edge === 'zero' || edge === 'clamp', () => `kernel ${spec.name}: gatherEdge of '${name}' must be 'zero' or 'clamp', got ${describeAny(edge)}`);
  }
  const samplers = Object.keys(spec.inputs ?? {}).length + Object.keys(spec.gathers ?? {}).length;
  check(
    samplers <= ctx.caps.maxTextureImageUnits,
    () => `kernel ${spec.name}: ${samplers} input and gather streams exceed MAX_TEXTURE_IMAGE_UNITS ${ctx.caps.maxTextureImageUnits}`,
  );
}

/** A description's parameters by role. */
export function roles(spec: KernelSpec): Record<string, Record<string, string>> {
  return {
    inputs: spec.inputs ?? {},
    gathers: spec.gathers ?? {},
    iters: spec.iters ?? {},
    uniforms: spec.uniforms ?? {},
    outputs: spec.outputs,
  };
}

/** How a pass covers its output (ctx.run's third argument). */
export interface RunOptions {
  /**
   * Z-cull (Listing 34-2): records the mask holds at depth 0.0 are not shaded, their output
   * texels left as they were. The mask must have the output's texture size and have been built.
   */
  mask?: ZMask;
  /** With `mask`: shade only the records the mask holds (depth test GREATER instead of LESS). */
  invert?: boolean;
  /**
   * Static branch resolution (section 34.2.2), for 2D outputs: 'interior' shades all but the
   * one-texel border (a quad over the interior: the full-screen triangle, scissored), 'boundary'
   * only the border (four lines drawn through the edge texels). Default 'all'.
   */
  region?: 'all' | 'interior' | 'boundary';
  /** @internal Build this mask (ctx.buildMask). */
  build?: ZMask;
  /**
   * @internal Brook's write_mask (src/brt/writemask.ts), a depth buffer of the output's texture
   * size: with `test`, records the mask holds are not written (depth test LESS at 0.5 against 1.0
   * clear, 0.5 set); with `set`, every record written sets it (depth writes on).
   */
  writeMask?: { mask: ZMask; test: boolean; set: boolean };
  /**
   * @internal A library call's own pass (sortStream's, a filter's, a read's packing, ...; see
   * BrookContext.runInternal): Brook's bound write mask neither applies to it nor checks its size.
   */
  internal?: boolean;
}
