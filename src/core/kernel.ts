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
 *   a gather outside the stream reads zero (all components) — the one out-of-range rule;
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
import HEADER from '../../glsl/core/header.glsl';
import PRELUDE from '../../glsl/core/prelude.glsl';
import type { ZMask } from './zmask';
import { check, numberLines } from './errors';
import type { BrookContext } from './context';
import type { ProgramRecord } from './programs';
import { Layout, Stream } from './stream';
import { ElementType, TypeInfo, typeInfo } from './types';
import { checkOwner, describeValue as describeAny } from './validate';
import { StructParam, StructStream, StructType, expandStructArgs } from './struct';

/** Uniform types: element types and the square float matrices. */
export type UniformType = ElementType | 'mat2' | 'mat3' | 'mat4' | 'bool';

export interface KernelSpec {
  /** Kernel name, shown in errors and traces. */
  name: string;
  /** Elementwise input streams (`float a<>`): the body sees this record's value. Default: none. */
  inputs?: Record<string, ElementType>;
  /** Gather arrays (`float4 v[]`), read anywhere by record index. Default: none. */
  gathers?: Record<string, ElementType>;
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
   * A Brook reduce kernel (`reduce void f(float a<>, reduce float r<>)`): the stream `input` is
   * reduced into `result` (reducekernel.ts runs it); the spec itself is the fold pass.
   */
  reduceOf?: { input: string; result: string; type: ElementType };
  /**
   * A Brook kernel with a `vout[most] T o<>` parameter: run by `voutRun` (idioms/vout.ts) over
   * `most` slots per input record, the slots then compacted by the filter.
   */
  voutOf?: { output: string; most: number; type: ElementType };
  /** Struct types declared in the kernel's source, by name (for `structStream(ctx, spec.structs.Tri, n)`). */
  structs?: Record<string, StructType>;
  /**
   * Brook's shape rules for elementwise inputs (set by the Brook front end): an input whose
   * shape differs from the output's is resampled, each dimension as floor(i * in / out).
   * Default false: lengths must match.
   */
  resample?: boolean;
  /** Where the body came from, for error messages: the user's text and the body's first line in it. */
  origin?: { text: string; bodyLine: number };
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
 * (columns) and y (rows); a float iterator over a 2D domain walks the records in row-major order.
 * float3 and float4 iterators take 1D domains only (a BrookError on a 2D one).
 */
export function iter(start: number | readonly number[], end: number | readonly number[]): Iter {
  return new Iter(start, end);
}

export type KernelArg = Stream | StructStream | Iter | number | boolean | readonly number[] | Float32Array | Int32Array | Uint32Array | StructValue;
/** A struct constant by field name (`{ index: [1, 2, 3, 4], Translation: [0, 0, 1] }`). */
export type StructValue = { readonly [field: string]: number | readonly number[] };
export type KernelArgs = Record<string, KernelArg>;

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
  constructor(
    readonly spec: KernelSpec,
    /** The generated source of the first (usually only) pass. */
    readonly source: string,
    readonly parts: readonly KernelPart[],
    /** The context whose GL program this is: a kernel runs only there. */
    readonly owner: BrookContext,
  ) {}
  get name(): string {
    return this.spec.name;
  }
  /** The linked program of pass `part` (0 unless the outputs exceed MAX_DRAW_BUFFERS). */
  program(part = 0): ProgramRecord {
    const p = this.parts[part]!;
    return this.owner.programs.get(PASS_VERT, p.source, (_stage, log) => describeCompileError(this.spec, p.source, p.bodyStart, log));
  }
}

/** Per context: kernels by description object (a fast path; programs are cached by source). */
const kernelCache = new WeakMap<BrookContext, WeakMap<KernelSpec, Kernel>>();

/** The kernel already compiled in `ctx` for this description object, if any. */
export function cachedKernel(ctx: BrookContext, spec: KernelSpec): Kernel | undefined {
  return kernelCache.get(ctx)?.get(spec);
}

/**
 * Generates and compiles the kernel for `spec`. Kernels are cached per context by their
 * generated source (the program cache), so a generator may return a fresh description per
 * call; the same description object also skips generation.
 */
export function compileKernel(ctx: BrookContext, spec: KernelSpec): Kernel {
  let perContext = kernelCache.get(ctx);
  if (!perContext) kernelCache.set(ctx, (perContext = new WeakMap()));
  const hit = perContext.get(spec);
  if (hit) return hit;
  validateSpec(spec, ctx);
  const names = Object.keys(spec.outputs);
  const per = ctx.caps.maxDrawBuffers;
  const parts: KernelPart[] = [];
  for (let i = 0; i < names.length; i += per) {
    const outputs = names.length > per ? names.slice(i, i + per) : names;
    parts.push({ outputs, ...generateKernelSource(spec, names.length > per ? outputs : undefined) });
  }
  const kernel = new Kernel(spec, parts[0]!.source, parts, ctx);
  parts.forEach((_, i) => kernel.program(i)); // compile now: errors surface at ctx.kernel()
  perContext.set(spec, kernel);
  return kernel;
}

/** Checks a kernel description (names, types, limits) before anything is compiled. */
export function validateSpec(spec: KernelSpec, ctx: BrookContext): void {
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
  const samplers = Object.keys(spec.inputs ?? {}).length + Object.keys(spec.gathers ?? {}).length;
  check(
    samplers <= ctx.caps.maxTextureImageUnits,
    () => `kernel ${spec.name}: ${samplers} input and gather streams exceed MAX_TEXTURE_IMAGE_UNITS ${ctx.caps.maxTextureImageUnits}`,
  );
}

function roles(spec: KernelSpec): Record<string, Record<string, string>> {
  return {
    inputs: spec.inputs ?? {},
    gathers: spec.gathers ?? {},
    iters: spec.iters ?? {},
    uniforms: spec.uniforms ?? {},
    outputs: spec.outputs,
  };
}

const UNIFORM_GLSL: Record<string, string> = { mat2: 'mat2', mat3: 'mat3', mat4: 'mat4', bool: 'bool' };

function glslOfUniform(type: UniformType): string {
  return UNIFORM_GLSL[type] ?? typeInfo(type).glsl;
}

function zeroOf(glsl: string): string {
  if (glsl === 'bool') return 'false';
  if (glsl === 'int') return '0';
  if (glsl === 'uint') return '0u';
  return `${glsl}(0)`;
}

/** The gather accessor functions for gather `name` of `info`'s records (kernels and pass stages). */
export function gatherAccessors(param: string, info: TypeInfo): string {
  const t = info.glsl;
  const name = glslName(param);
  const s = `brook_g_${param}`;
  const d = `${s}_dims`;
  const fetch = (texel: string) => `texelFetch(${s}, ${texel}, 0)${info.swizzle}`;
  return [
    `uniform highp ${info.sampler} ${s};`,
    `uniform ivec4 ${d};`,
    `${t} ${name}(int brook_a) { return brook_inside(brook_a, ${d}) ? ${fetch(`brook_texel(brook_a, ${d})`)} : ${zeroOf(t)}; }`,
    `${t} ${name}(uint brook_a) { return ${name}(int(min(brook_a, 0x7fffffffu))); }`,
    `${t} ${name}(float brook_a) { return ${name}(int(floor(brook_a))); }`,
    `${t} ${name}(ivec2 brook_a) { return brook_inside2(brook_a, ${d}) && brook_inside(brook_a.y * ${d}.y + brook_a.x, ${d}) ? ${fetch('brook_a')} : ${zeroOf(t)}; }`,
    `${t} ${name}(vec2 brook_a) { return ${name}(ivec2(floor(brook_a))); }`,
    `${t} ${name}(int brook_r, int brook_c) { return ${name}(ivec2(brook_c, brook_r)); }`,
    `${t} ${name}(float brook_r, float brook_c) { return ${name}(ivec2(floor(brook_c), floor(brook_r))); }`,
    // Unchecked access for inner loops that stay inside the texture (texels past the stream's
    // length hold whatever the texture holds), and the texture's size. Not for names ending in
    // '_' (GLSL reserves '__'), such as the renamed reserved words of Brook kernels.
    ...(name.endsWith('_') ? [] : [`${t} ${name}_texel(ivec2 brook_a) { return ${fetch('brook_a')}; }`, `ivec2 ${name}_size() { return ${d}.yw; }`]),
  ].join('\n');
}

/**
 * The fragment shader for a kernel, and the line (1-based) where its body starts. Pure string
 * work with no GL: tests check it directly. Everything that varies per run (sizes, iterator
 * steps, layouts) is a uniform, so the source — the program cache key — depends only on the spec.
 * `written` (default: all) names the outputs this shader writes, for kernels split into passes.
 */
export function generateKernelSource(spec: KernelSpec, written?: readonly string[]): { source: string; bodyStart: number } {
  const inputs = Object.entries(spec.inputs ?? {});
  const gathers = Object.entries(spec.gathers ?? {});
  const iters = Object.entries(spec.iters ?? {});
  const uniforms = Object.entries(spec.uniforms ?? {});
  const outputs = Object.entries(spec.outputs);

  const head: string[] = [
    HEADER.trimEnd(),
    `// kernel ${spec.name}`,
    PRELUDE,
  ];
  for (const [name, type] of gathers) head.push(gatherAccessors(name, typeInfo(type)));
  for (const [name, type] of inputs) {
    const info = typeInfo(type);
    head.push(`uniform highp ${info.sampler} brook_s_${name};`, `uniform ivec4 brook_s_${name}_dims;`, `uniform int brook_s_${name}_mode;`, `uniform ivec4 brook_s_${name}_map;`);
  }
  for (const [name, type] of iters) {
    const t = iterGlsl(type);
    head.push(`uniform ${t} brook_i_${name}_start;`, `uniform ${t} brook_i_${name}_step;`);
  }
  for (const [name, type] of uniforms) head.push(`uniform ${glslOfUniform(type)} ${glslName(name)};`);
  const targets = written ? outputs.filter(([name]) => written.includes(name)) : outputs;
  targets.forEach(([, type], k) => head.push(`layout(location = ${k}) out ${typeInfo(type).glsl4} brook_out_${k};`));
  // This record's inputs, iterators and outputs are globals, set by main: the body runs as a
  // function of its own, so a `return;` anywhere in it keeps the outputs written so far.
  for (const [name, type] of inputs) head.push(`${typeInfo(type).glsl} ${glslName(name)};`);
  for (const [name, type] of iters) head.push(`${iterGlsl(type)} ${glslName(name)};`);
  for (const [name, type] of outputs) head.push(`${typeInfo(type).glsl} ${glslName(name)};`);
  const bounded = spec.maxIterations !== undefined;
  if (bounded) {
    head.push(
      'int brook_iterations = 0;',
      'bool brook_overrun = false;',
      `bool brook_loop() { if (brook_iterations >= ${spec.maxIterations}) { brook_overrun = true; return false; } brook_iterations++; return true; }`,
    );
  }
  if (spec.helpers) head.push(spec.helpers);
  head.push('void brook_kernel() {');
  const bodyStart = head.join('\n').split('\n').length + 1;
  head.push(spec.body, '}');

  const main: string[] = [
    'void main() {',
    '  ivec2 brook_texel_here = ivec2(gl_FragCoord.xy);',
    '  brook_index = brook_texel_here.y * brook_dims.y + brook_texel_here.x;',
    '  if (brook_index >= brook_dims.x) discard;',
    '  brook_pos = brook_2d ? brook_texel_here : ivec2(brook_index, 0);',
  ];
  for (const [name, type] of inputs) {
    const info = typeInfo(type);
    const s = `brook_s_${name}`;
    main.push(
      `  ${glslName(name)} = texelFetch(${s}, brook_input_texel(brook_texel_here, ${s}_mode, ${s}_map, ${s}_dims), 0)${info.swizzle};`,
    );
  }
  for (const [name, type] of iters) {
    const t = iterGlsl(type);
    // 1D: every component steps with the record index; 2D float2: x by column, y by row.
    const coord = type === 'float' ? 'float(brook_index)' : type === 'float2' ? 'brook_2d ? vec2(brook_pos) : vec2(float(brook_index))' : `${t}(float(brook_index))`;
    main.push(`  ${glslName(name)} = brook_i_${name}_start + brook_i_${name}_step * ${type === 'float2' ? `(${coord})` : coord};`);
  }
  for (const [name, type] of outputs) {
    const t = typeInfo(type).glsl;
    main.push(`  ${glslName(name)} = ${zeroOf(t)};`);
  }
  if (spec.prologue) main.push(spec.prologue);
  main.push('  brook_kernel();');
  if (spec.epilogue) main.push(spec.epilogue);
  if (bounded) {
    const nan = outputs.filter(([, type]) => typeInfo(type).kind === 'float').map(([name, type]) => `${glslName(name)} = ${typeInfo(type).glsl}(intBitsToFloat(0x7fc00000));`);
    if (nan.length) main.push(`  if (brook_overrun) { ${nan.join(' ')} }`);
  }
  targets.forEach(([name, type], k) => {
    const info = typeInfo(type);
    const pad = 4 - info.components;
    const z = info.kind === 'float' ? '0.0' : info.kind === 'int' ? '0' : '0u';
    const parts = [glslName(name), ...Array<string>(pad).fill(z)];
    main.push(`  brook_out_${k} = ${info.components === 4 ? glslName(name) : `${info.glsl4}(${parts.join(', ')})`};`);
  });
  main.push('}');
  return { source: [...head, ...main].join('\n') + '\n', bodyStart };
}

function iterGlsl(type: IterType): string {
  return type === 'float' ? 'float' : `vec${type[5]}`;
}

/** A compile error in the kernel's own terms: its name, the driver's words, its body lines numbered. */
function describeCompileError(spec: KernelSpec, source: string, bodyStart: number, log: string): string {
  const bodyLines = spec.body.split('\n');
  const shown = (spec.origin?.text ?? spec.body).split('\n');
  const first = spec.origin?.bodyLine ?? 1;
  const messages: string[] = [];
  let marked: number | undefined;
  for (const m of log.matchAll(/ERROR:\s*\d+:(\d+):\s*([^\n]*)/g)) {
    const line = Number(m[1]);
    const inBody = line >= bodyStart && line < bodyStart + bodyLines.length;
    if (inBody) {
      const userLine = line - bodyStart + first;
      marked ??= userLine;
      messages.push(`line ${userLine}: ${m[2]}`);
    } else {
      const src = source.split('\n');
      messages.push(`generated line ${line}: ${m[2]} (in: ${src[line - 1]?.trim() ?? '?'})`);
    }
  }
  if (messages.length === 0) {
    messages.push(
      log.trim() ||
        'the driver gave no message (with a valid source this usually means the GPU is out of memory or the context is being lost: dispose() large streams, or create a new context)',
    );
  }
  return (
    `kernel ${spec.name} failed to compile:\n  ${messages.join('\n  ')}\n` +
    `kernel body:\n${numberLines(shown, first, marked)}`
  );
}

export interface Bound {
  outputs: Stream[];
  uniforms: Record<string, unknown>;
  /** Streams read by the pass (inputs and gathers), for alias detection and the trace. */
  reads: Map<string, Stream>;
}

/** Checks every argument against the kernel's parameters before any GL call. */
export function bindArguments(ctx: BrookContext, kernel: { spec: KernelSpec }, givenArgs: KernelArgs): Bound {
  const spec = kernel.spec;
  const args = expandStructArgs(spec.name, spec.structParams, givenArgs);
  const where = (name: string) => `kernel ${spec.name}, argument '${name}'`;
  check(args && typeof args === 'object', () => `kernel ${spec.name}: pass the arguments as an object { name: value }`);
  const known = new Set(Object.values(roles(spec)).flatMap((g) => Object.keys(g)));
  for (const name of Object.keys(args)) {
    check(known.has(name), () => `kernel ${spec.name} has no parameter '${name}' (it has: ${[...known].join(', ')})`);
  }
  const stream = (name: string, type: ElementType, role: string): Stream => {
    const s = args[name];
    check(s !== undefined, () => `${where(name)} is missing: pass a ${type} stream (${role})`);
    check(s instanceof Stream, () => `${where(name)}: expected a ${type} stream (${role}), got ${describeValue(s)}`);
    check(!s.disposed, () => `${where(name)}: the stream was disposed`);
    checkOwner(ctx, s.ctx, where(name), s.describe());
    check(s.type === type, () => `${where(name)}: expected a ${type} stream, got a ${s.describe()}`);
    return s;
  };
  const outputs = Object.entries(spec.outputs).map(([name, type]) => stream(name, type, 'output'));
  const domain = outputs[0]!.layout;
  outputs.forEach((o, i) => {
    const name = Object.keys(spec.outputs)[i]!;
    check(
      o.layout.length === domain.length && o.layout.width === domain.width,
      () => `${where(name)}: all outputs must have the same shape; got ${o.describe()} and ${outputs[0]!.describe()}`,
    );
    check(outputs.indexOf(o) === i, () => `${where(name)}: the same stream is passed as two outputs`);
  });

  const uniforms: Record<string, unknown> = {
    brook_dims: dimsOf(outputs[0]!),
    brook_2d: domain.dims === 2,
  };
  const reads = new Map<string, Stream>();
  for (const [name, type] of Object.entries(spec.inputs ?? {})) {
    const s = stream(name, type, 'elementwise input <>');
    check(
      s.length === domain.length || spec.resample,
      () => `${where(name)}: a ${s.describe()} cannot be read elementwise over a domain of ${domain.length} records (lengths must match; use a gather [] to read other shapes)`,
    );
    reads.set(name, s);
    uniforms[`brook_s_${name}_dims`] = dimsOf(s);
    const [mode, map] = inputMapping(s.layout, domain, where(name));
    uniforms[`brook_s_${name}_mode`] = mode;
    uniforms[`brook_s_${name}_map`] = map;
  }
  for (const [name, type] of Object.entries(spec.gathers ?? {})) {
    const s = stream(name, type, 'gather []');
    reads.set(name, s);
    uniforms[`brook_g_${name}_dims`] = dimsOf(s);
  }
  for (const [name, type] of Object.entries(spec.iters ?? {})) {
    const it = args[name];
    check(it instanceof Iter, () => `${where(name)}: expected an iterator, iter(start, end), got ${describeValue(it)}`);
    if (type === 'float') {
      check(
        typeof it.start === 'number' && typeof it.end === 'number',
        () => `${where(name)}: a float iterator takes numbers, iter(0, n)`,
      );
      uniforms[`brook_i_${name}_start`] = it.start;
      uniforms[`brook_i_${name}_step`] = ((it.end as number) - (it.start as number)) / domain.length;
    } else {
      const c = Number(type[5]);
      const a = it.start as readonly number[];
      const b = it.end as readonly number[];
      check(
        Array.isArray(a) && Array.isArray(b) && a.length === c && b.length === c,
        () => `${where(name)}: a ${type} iterator takes two arrays of ${c} numbers, iter([${Array(c).fill('x').join(', ')}], [...])`,
      );
      check(
        c === 2 || domain.dims === 1,
        () => `${where(name)}: a ${type} iterator needs a 1D output domain (over a 2D one only float and float2 iterators are defined)`,
      );
      // Record i of a 1D domain sees start + i * (end - start) / n in every component; a 2D
      // float2 iterator steps x by column and y by row.
      const [h, w] = domain.dims === 2 ? domain.shape : [domain.length, domain.length];
      uniforms[`brook_i_${name}_start`] = [...a];
      uniforms[`brook_i_${name}_step`] = a.map((x, k) => (b[k]! - x) / (k === 1 ? h! : w!));
    }
  }
  for (const [name, type] of Object.entries(spec.uniforms ?? {})) {
    const v = args[name];
    check(v !== undefined, () => `${where(name)} is missing: pass a ${type} value`);
    uniforms[glslName(name)] = uniformValue(where(name), type, v);
  }
  return { outputs, uniforms, reads };
}

function uniformValue(where: string, type: UniformType, v: KernelArg): unknown {
  const size = type === 'bool' ? 1 : type.startsWith('mat') ? Number(type[3]) ** 2 : typeInfo(type).components;
  const raw: unknown[] | null =
    typeof v === 'number' || typeof v === 'boolean' ? [v] : ArrayBuffer.isView(v) || Array.isArray(v) ? Array.from(v as ArrayLike<unknown>) : null;
  check(raw !== null, () => `${where}: expected ${size === 1 ? 'a number' : `${size} numbers`} for a ${type}, got ${describeValue(v)}`);
  check(raw.length === size, () => `${where}: a ${type} takes ${size} number(s), got ${raw.length}`);
  raw.forEach((x, i) =>
    check(
      typeof x === 'number' || (typeof x === 'boolean' && (type === 'bool' || size === 1)),
      () => `${where}: a ${type} takes numbers, got ${describeAny(x)}${size > 1 ? ` at [${i}]` : ''}`,
    ),
  );
  const values = raw.map(Number);
  const kind = type === 'bool' || type.startsWith('mat') ? 'float' : typeInfo(type).kind;
  if (kind !== 'float') {
    // GL would wrap them silently (2^31 -> -2^31, -1 -> 2^32 - 1): refuse instead
    const [lo, hi] = kind === 'int' ? [-0x80000000, 0x7fffffff] : [0, 0xffffffff];
    values.forEach((x, i) =>
      check(
        Number.isInteger(x) && x >= lo && x <= hi,
        () => `${where}: a ${type} takes integers in [${lo}, ${hi}], got ${x}${size > 1 ? ` at [${i}]` : ''}`,
      ),
    );
  }
  return size === 1 ? values[0] : values;
}

function describeValue(v: unknown): string {
  return v instanceof Iter ? 'an iterator' : describeAny(v);
}

/**
 * How an elementwise input is read over the output domain (brook_input_texel in the prelude):
 * 0 the same texel, 1 the same record index (equal lengths, whatever the shapes), and for
 * Brook's shape rules (KernelSpec.resample), where the lengths differ, each dimension resampled as
 * floor(i * in / out) — repeated where the input is smaller (replication), skipped where it is
 * larger (stride): 3 index / k, 4 index * k, 5 index * in / out (1D), 2 per dimension (2D; a 1D
 * stream of n is the 2D [1, n]).
 */
function inputMapping(s: Layout, out: Layout, where: string): [number, number[]] {
  if (s.length === out.length) {
    return s.width === out.width ? [0, [0, 0, 0, 0]] : [1, [0, 0, 0, 0]];
  }
  if (s.dims === 1 && out.dims === 1) {
    const [n, m] = [s.length, out.length];
    if (m % n === 0) return [3, [m / n, 0, 0, 0]];
    if (n % m === 0) return [4, [n / m, 0, 0, 0]];
    check(n * m < 2 ** 31, () => `${where}: resampling ${n} records over ${m} needs n * m below 2^31 unless one length divides the other`);
    return [5, [n, m, 0, 0]];
  }
  const [ih, iw] = s.dims === 2 ? s.shape : [1, s.length];
  const [oh, ow] = out.dims === 2 ? out.shape : [1, out.length];
  check(
    iw! * ow! < 2 ** 31 && ih! * oh! < 2 ** 31,
    () => `${where}: resampling a [${ih}, ${iw}] stream over [${oh}, ${ow}] needs each extent product below 2^31`,
  );
  return [2, [iw!, ow!, ih!, oh!]];
}

/** (length, width, log2 width or -1, height) of a stream's layout, for brook_texel in the prelude. */
export function dimsOf(s: Stream): number[] {
  const { length, width, height } = s.layout;
  const pow2 = (width & (width - 1)) === 0;
  return [length, width, pow2 ? Math.log2(width) : -1, height];
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
}
