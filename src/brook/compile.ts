/**
 * The Brook front end: kernels written as in the papers' listings, turned into KernelSpecs.
 *
 * ```ts
 * const { StartScan } = brook`
 *   kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
 *     count = isinf(value[here].x) ? 1 : 0;
 *     if (here >= 1)
 *       count += isinf(value[left_1].x) ? 1 : 0;
 *   }`;
 * ctx.run(StartScan, { value, count, here: iter(0, n), left_1: iter(-1, n - 1) });
 * ```
 *
 * Parameters: `float a<>` elementwise input, `float4 v[]` gather (also `v[][]`, `v[100]`,
 * `d[10][10]`), `iter float i<>` iterator (float..float4), `out float o<>` output, `vout[4] float
 * o<>` variable output (idioms/vout.ts), plain `float k` uniforms, struct streams `Tri t<>`,
 * `BBox b[]`, `out Tri o<>` (struct.ts). Types: float, float2-4, int, int2-4, uint, uint2-4,
 * `unsigned int`, char..char4 (also `uchar`, `unsigned char`, BrookGPU's `fixed`: 8-bit
 * normalized streams, floats in [0, 1] in the kernel) (half is read as float; floatNxN uniforms as matN). `reduce void f(T a<>,
 * reduce T r<>)` declares a reduce kernel (reduce.ts; src/brt/reducekernel.ts runs it).
 *
 * Source is read in steps: comments blanked (lines kept, tokens.ts); struct typedefs taken
 * out (structs.ts); kernels found and their parameters read (here); helpers with gather parameters and the kernels themselves kept as templates that calls
 * specialize (calls.ts); then each body is translated token by token (translate.ts;
 * lines are kept, so errors point at the listing's own lines):
 * - float2/3/4 -> vec2/3/4, int2 -> ivec2, ..., half -> float;
 * - gathers `v[i]` -> `v(i)`, `v[i][j]` -> `v(i, j)` (see kernel.ts for the accessors);
 * - integer literals become float literals (`? 1 : 0` -> `? 1.0 : 0.0`), as Cg converts them
 *   implicitly, except in statements that involve an int variable or type and inside the
 *   brackets of a non-gather index;
 * - Cg's implicit conversions made explicit (cg.ts): assignments and initializations
 *   through `brook_to_T`, logical operands and conditions through `brook_bool`, scalar
 *   swizzles, `indexof`;
 * - every loop condition also counts against maxIterations (translate.ts);
 * - names that GLSL ES reserves (`input`, `output`, `filter`, ...) get a trailing `_`;
 * - lerp -> mix, frac -> fract, rsqrt -> inversesqrt, atan2 -> atan; saturate, fmod (Cg's,
 *   truncating) and isfinite are supplied. Anything else is passed to GLSL as written.
 * Text outside the kernels (helper functions) is translated the same way and shared by all of
 * them. The tag returns every kernel of the template by name. docs/brook.md lists
 * what is supported and what is not.
 */
import BROOK_HELPERS from '../../glsl/brook/helpers.glsl';
import { BrookError } from '../core/errors';
import { IterType, KernelSpec, UniformType, glslName } from '../core/kernel';
import type { BrookKinds } from '../core/kernelspec';
import { StructParam, StructType, fieldParam } from '../core/struct';
import { FunctionTemplate, extractGatherHelpers, kernelTemplate, specializeCalls } from './calls';
import { ElementType } from '../core/types';
import { TYPE_MAP, checkNesting, lineFinder, matching, normalizeType, stripComments } from './tokens';
import { CgEnv, conversionHelpers } from './cg';
import { translateBody } from './translate';
import { checkOutputReads, checkReadOnly, checkStreamIndexing } from './checks';
import { collectFunctionTypes } from './promote';
import { extractStructs, structDecl, structGlue } from './structs';
import { REDUCE_SOURCE, REDUCE_UNIFORMS, reduceFold } from './reduce';

export { stripComments } from './tokens';
export { conversionHelpers } from './cg';
export type { CgEnv } from './cg';
export { translateBody } from './translate';
export { parseBrookStructs, brookStructs } from './structs';
export { REDUCE_SOURCE } from './reduce';

/** Options of the Brook front end (`parseBrook(text, options)`, `brookWith(options)`). */
export interface BrookOptions {
  /**
   * The most loop iterations (all loops of a record together: every `for`, `while` and
   * `do ... while` condition the body evaluates) one record may run. Past it every loop exits
   * and the record's float outputs are written as NaN, so a kernel that loops forever ends
   * instead of freezing the browser. WebGL2 has no way to interrupt a running shader, so this
   * bound is compiled into the GLSL. Default `DEFAULT_MAX_ITERATIONS`; `Infinity` leaves loops
   * unbounded.
   */
  maxIterations?: number;
}

/** Loop iterations one record may run in a kernel from the Brook front end, unless set otherwise. */
export const DEFAULT_MAX_ITERATIONS = 1_000_000;
/** A kernel found in the source: its header, body and where they are. */
interface FoundKernel {
  reduce: boolean;
  name: string;
  params: string;
  paramsLine: number;
  /** The body with comments and structs blanked, and as the user wrote it (for error messages). */
  body: string;
  shown: string;
  bodyLine: number;
}

/** A kernel's parameters as read: the description's parameter maps and what Brook's kinds need. */
interface KernelParams {
  spec: Required<Pick<KernelSpec, 'inputs' | 'gathers' | 'iters' | 'uniforms'>> & KernelSpec;
  intNames: Set<string>;
  structParams: Record<string, StructParam>;
  reduceInput?: { name: string; type: ElementType };
  reduceResult?: { name: string; type: ElementType };
  voutOf?: BrookKinds['vout'];
}

/** Parses Brook source into kernel descriptions, by name. */
export function parseBrook(source: string, options: BrookOptions = {}): Record<string, KernelSpec> {
  if (typeof source !== 'string') throw new BrookError(`brook: the source must be a string of Brook code, got ${source === null ? 'null' : typeof source}`);
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!(maxIterations === Infinity || (Number.isInteger(maxIterations) && maxIterations >= 1 && maxIterations < 2 ** 31))) {
    throw new BrookError(`brook: maxIterations must be a positive integer below 2^31 or Infinity, got ${String(maxIterations)}`);
  }
  const stripped = stripComments(source);
  checkNesting(stripped); // before any parser recurses into it
  const { text, structs } = extractStructs(stripped);
  const { found, helpers } = findKernels(text, source);
  const bound = maxIterations === Infinity ? undefined : maxIterations;
  const sharedEnv: CgEnv = { types: new Map(), structs, used: new Set(), ambiguous: new Set(), functions: new Map() };
  const { text: helperText, templates: gatherHelpers } = extractGatherHelpers(helpers.join('\n'));
  collectFunctionTypes(helperText, sharedEnv.functions!);
  const templates = new Map<string, FunctionTemplate>(gatherHelpers.map((t) => [t.name, t]));
  for (const k of found) {
    if (k.reduce) continue;
    try {
      templates.set(k.name, kernelTemplate(k.name, k.params, k.body));
    } catch {
      // a parameter list that cannot be read is reported, better worded, when the kernel is read
    }
  }
  const shared = translateBody(helperText, new Set(), new Set(), bound !== undefined, sharedEnv).trim();
  const decls = Object.values(structs).map(structDecl).join('\n');

  const kernels: Record<string, KernelSpec> = {};
  for (const k of found) {
    const where = `brook, kernel ${k.name} (line ${k.paramsLine})`;
    if (kernels[k.name]) throw new BrookError(`${where}: a kernel named ${k.name} is already declared`);
    const read = readParams(k, structs, where);
    const { spec, intNames, structParams, reduceInput, voutOf } = read;
    const { extraHelpers, bodyPrefix } = applyKinds(k, read, where);
    const gathers = new Set([...Object.keys(spec.gathers), ...Object.entries(structParams).filter(([, p]) => p.role === 'gathers').map(([n]) => n)]);
    const env: CgEnv = { types: new Map(), structs, used: new Set(sharedEnv.used), ambiguous: new Set(), functions: sharedEnv.functions };
    for (const role of [spec.inputs, spec.gathers, spec.iters, spec.uniforms, spec.outputs] as Array<Record<string, string>>) {
      for (const [n, ty] of Object.entries(role)) env.types.set(n, ty);
    }
    for (const [n, p] of Object.entries(structParams)) env.types.set(n, p.struct.name);
    if (reduceInput) env.types.set(reduceInput.name, reduceInput.type);
    checkBody(k, read, gathers);
    if (voutOf) k.body = k.body.replace(/\bpush\s*\(\s*([A-Za-z_]\w*)\s*\)/g, (call, name: string) => (name === voutOf.output ? `brook_push(${name})` : call));
    else if (/\bpush\s*\(/.test(k.body)) throw new BrookError(`${where}: push() needs a vout parameter (vout[4] float o<>)`);
    const calls = specializeCalls(k.body, gathers, templates, where);
    let called = calls.functions.length ? translateBody(calls.functions.join('\n'), gathers, intNames, bound !== undefined, env) : '';
    // (the prefix goes on the body's first line, the line of its '{', so lines still match)
    env.inputs = new Set(Object.keys(spec.inputs)); // indexof(a) of an input is its own position (not in called kernels: their names are their own)
    spec.body = bodyPrefix + translateBody(calls.body, gathers, intNames, bound !== undefined, env);
    if (voutOf) {
      spec.body = spec.body.replaceAll('brook_indexof()', 'brook_vindexof()');
      called = called.replaceAll('brook_indexof()', 'brook_vindexof()');
    }
    const glue = structGlue(structParams);
    spec.helpers = [BROOK_HELPERS, conversionHelpers(env.used), decls, glue.helpers, extraHelpers, shared, called].filter(Boolean).join('\n');
    if (glue.prologue) spec.prologue = glue.prologue;
    if (glue.epilogue) spec.epilogue = glue.epilogue;
    if (Object.keys(structParams).length) spec.structParams = structParams;
    if (Object.keys(structs).length) spec.structs = structs;
    spec.origin = { text: k.shown, bodyLine: k.bodyLine };
    spec.resample = true;
    // BrookGPU's gathers clamp to the edge (its textures' CLAMP_TO_EDGE, its CPU backend's
    // __BrtArray::indexOf): every gather the user declared (struct gathers by field), not the
    // reduce kernels' own source, which reads only inside its stream
    const edges = Object.keys(spec.gathers).filter((n) => n !== REDUCE_SOURCE);
    if (edges.length) spec.gatherEdge = Object.fromEntries(edges.map((n) => [n, 'clamp' as const]));
    if (bound !== undefined) spec.maxIterations = bound;
    kernels[k.name] = spec;
  }
  return kernels;
}

/** The slots per input record of a `vout []` kernel: a macro voutRun defines for each bound it tries. */
const VOUT_MOST = 'BROOK_VOUT_MOST';

/** A `;` right after a kernel's parameter list: a declaration, not a definition. */
const DECLARATION_END = /\s*;/y;

/** The kernels of `text` (comments and structs blanked) and the text between them (helpers). */
function findKernels(text: string, source: string): { found: FoundKernel[]; helpers: string[] } {
  const helpers: string[] = [];
  const re = /\b(kernel|reduce)\s+void\s+([A-Za-z_]\w*)\s*\(/g;
  let cursor = 0;
  let m: RegExpExecArray | null;
  const found: FoundKernel[] = [];
  const declared: Declaration[] = [];
  const lineAt = lineFinder(text);
  while ((m = re.exec(text))) {
    const line = lineAt(m.index);
    helpers.push(text.slice(cursor, m.index));
    const open = m.index + m[0].length;
    const close = matching(text, open - 1, '(', ')', `brook, kernel ${m[2]}`);
    DECLARATION_END.lastIndex = close + 1;
    const after = DECLARATION_END.exec(text);
    if (after) {
      // a declaration (prototype), as BrookGPU's drivers write for kernels defined further on
      declared.push({ reduce: m[1] === 'reduce', name: m[2]!, params: text.slice(open, close), line });
      cursor = close + 1 + after[0].length;
      re.lastIndex = cursor;
      continue;
    }
    const brace = text.indexOf('{', close);
    if (brace < 0 || text.slice(close + 1, brace).trim() !== '') {
      throw new BrookError(`brook, kernel ${m[2]} (line ${line}): expected '{' after the parameter list`);
    }
    const end = matching(text, brace, '{', '}', `brook, kernel ${m[2]}`);
    found.push({
      reduce: m[1] === 'reduce',
      name: m[2]!, params: text.slice(open, close), paramsLine: line,
      body: text.slice(brace + 1, end), shown: source.slice(brace + 1, end), bodyLine: lineAt(brace),
    });
    cursor = end + 1;
    re.lastIndex = cursor;
  }
  helpers.push(text.slice(cursor));
  checkDeclarations(declared, found);
  if (found.length === 0) throw new BrookError('brook: no `kernel void Name(...) { ... }` found in the source');
  return { found, helpers };
}

interface Declaration {
  reduce: boolean;
  name: string;
  params: string;
  line: number;
}

/**
 * Kernel declarations (`kernel void f(float a<>, out float b<>);`, BrookGPU's prototypes) are
 * accepted where the same source defines the kernel with the same parameters; brookgl compiles
 * one source at a time, so a kernel declared here and defined elsewhere cannot be linked to.
 */
function checkDeclarations(declared: Declaration[], found: FoundKernel[]): void {
  const squeeze = (params: string) => params.replace(/\s+/g, ' ').replace(/ ?([,<>()[\]*]) ?/g, '$1').trim();
  for (const d of declared) {
    const k = found.find((f) => f.name === d.name);
    const kind = d.reduce ? 'reduce' : 'kernel';
    if (!k) {
      throw new BrookError(`brook, ${kind} ${d.name} (line ${d.line}): declared but not defined in this source; brookgl compiles one source at a time: put the definition (${kind} void ${d.name}(...) { ... }) in the same source`);
    }
    if (k.reduce !== d.reduce || squeeze(k.params) !== squeeze(d.params)) {
      throw new BrookError(`brook, ${kind} ${d.name} (line ${d.line}): the declaration '${kind} void ${d.name}(${squeeze(d.params)})' differs from the definition on line ${k.paramsLine} ('${k.reduce ? 'reduce' : 'kernel'} void ${k.name}(${squeeze(k.params)})'): write the same parameter list`);
    }
  }
}

/** Reads a kernel's parameter list into a description's parameter maps (and its reduce and vout parameters). */
function readParams(k: FoundKernel, structs: Record<string, StructType>, where: string): KernelParams {
  const spec: KernelParams['spec'] = { name: k.name, inputs: {}, gathers: {}, iters: {}, uniforms: {}, outputs: {}, body: '' };
  const intNames = new Set<string>();
  const structParams: Record<string, StructParam> = {};
  let reduceInput: KernelParams['reduceInput'];
  let reduceResult: KernelParams['reduceResult'];
  let voutOf: KernelParams['voutOf'];
  const params = k.params.split(',').map((p) => p.trim().replace(/\s+/g, ' ').replace(/\bunsigned (char[234]?)\b/g, '$1').replace(/\bunsigned int\b|\bunsigned\b/g, 'uint'));
  for (const raw of params.filter((p, i) => p.length > 0 || i > 0 || params.length > 1)) {
    // vout[N] T o<>: up to N records pushed per input record (Brook's variable output)
    const vm = /^vout ?\[ ?(\d*) ?\] ?(.*)$/.exec(raw);
    const p = vm ? `out ${vm[2]}` : raw;
    const pm = /^(?:(out|iter|const|reduce) )?([A-Za-z_]\w*) ?([A-Za-z_]\w*) ?(< ?>|(?:\[ ?\d* ?\] ?)+)?$/.exec(p);
    if (!pm) {
      throw new BrookError(`${where}: cannot read parameter '${p}': write e.g. 'float a<>', 'float4 v[]', 'float d[10][10]', 'iter float i<>', 'out float o<>' or 'float k'`);
    }
    const [, qualifier, rawType, rawName, suffix] = pm;
    const name = rawName!;
    const isStream = suffix?.startsWith('<');
    const isGather = suffix?.startsWith('[');
    const struct = structs[rawType!];
    if (struct) {
      const role =
        qualifier === 'out' ? 'outputs'
        : qualifier === 'iter' || qualifier === 'reduce' ? undefined
        : isStream ? 'inputs' : isGather ? 'gathers' : 'uniforms';
      if (!role || (role === 'outputs' && !isStream)) {
        throw new BrookError(`${where}: struct parameter '${name}' must be a stream (${rawType} ${name}<>), a gather (${rawType} ${name}[]), a constant (${rawType} ${name}) or an output (out ${rawType} ${name}<>)`);
      }
      structParams[name] = { struct, role };
      for (const f of struct.fields) spec[role][fieldParam(name, f.name)] = f.type;
      continue;
    }
    const type = normalizeType(rawType!, `${where}, parameter '${rawName}'`);
    if (/^(u?int)/.test(type)) intNames.add(rawName!);
    const elementType = type as ElementType;
    if (qualifier === 'reduce' || (k.reduce && isStream && !qualifier)) {
      if (!k.reduce) throw new BrookError(`${where}: '${rawName}' is a reduce parameter: declare the kernel as reduce void ${k.name}(...)`);
      if (qualifier === 'reduce' ? reduceResult : reduceInput) {
        throw new BrookError(`${where}: a reduce kernel takes one stream to reduce (T a<>) and one reduce parameter (reduce T r<>); '${rawName}' is one too many`);
      }
      if (qualifier === 'reduce') reduceResult = { name, type: elementType };
      else reduceInput = { name, type: elementType };
      if (/^mat|^bool/.test(type)) throw new BrookError(`${where}: '${rawName}' must be a stream type (float..float4, int.., uint..)`);
      continue;
    }
    if (vm) {
      // vout [] (no bound, BrookGPU's pass-after-pass form): most 0, voutRun finds the bound
      const most = vm[1] ? Number(vm[1]) : 0;
      if (vm[1] && !(most >= 1 && most <= 64)) throw new BrookError(`${where}: say how many records one input may push at most: vout[4] ${rawType} ${rawName}<> (1 to 64), or vout [] for no bound`);
      if (!isStream || !/^float[234]?$/.test(type)) throw new BrookError(`${where}: vout parameter '${rawName}' must be a float..float4 stream: vout[${most || ''}] float ${rawName}<>`);
      if (voutOf) throw new BrookError(`${where}: one vout parameter per kernel`);
      voutOf = { output: name, most, type: elementType };
    }
    if (qualifier === 'out') {
      if (k.reduce) throw new BrookError(`${where}: a reduce kernel has no out parameters; its result is the reduce parameter`);
      if (!isStream) throw new BrookError(`${where}: output '${rawName}' must be a stream: out ${rawType} ${rawName}<>`);
      spec.outputs[name] = elementType;
    } else if (qualifier === 'iter') {
      if (!isStream) throw new BrookError(`${where}: iterator '${rawName}' must be declared as iter ${rawType} ${rawName}<>`);
      if (!/^float[234]?$/.test(type)) throw new BrookError(`${where}: iterator '${rawName}' must be float, float2, float3 or float4`);
      spec.iters[name] = type as IterType;
    } else if (isStream) {
      spec.inputs[name] = elementType;
    } else if (isGather) {
      spec.gathers[name] = elementType;
    } else {
      if (type.startsWith('char')) throw new BrookError(`${where}: constant '${rawName}' is ${rawType}; char types are 8-bit streams here: pass the constant as a float in [0, 1] (float ${rawName})`);
      spec.uniforms[name] = type as UniformType;
    }
  }
  return { spec, intNames, structParams, reduceInput, reduceResult, voutOf };
}

/** Reduce and vout kernels: their extra parameters, prologue and epilogue; returns their GLSL globals and body prefix. */
function applyKinds(k: FoundKernel, read: KernelParams, where: string): { extraHelpers: string; bodyPrefix: string } {
  const { spec, structParams, reduceInput, reduceResult, voutOf } = read;
  let extraHelpers = '';
  let bodyPrefix = '';
  if (k.reduce) {
    if (!reduceInput || !reduceResult) throw new BrookError(`${where}: a reduce kernel needs a stream to reduce (float a<>) and a reduce parameter (reduce float r<>)`);
    if (reduceInput.type !== reduceResult.type) {
      throw new BrookError(`${where}: the reduced stream '${reduceInput.name}' is ${reduceInput.type} but the reduce parameter '${reduceResult.name}' is ${reduceResult.type}; they must match`);
    }
    if (Object.keys(structParams).length || Object.keys(spec.iters).length) throw new BrookError(`${where}: reduce kernels take no struct or iterator parameters here`);
    const fold = reduceFold(reduceInput.name, reduceResult.name, reduceInput.type);
    spec.gathers[REDUCE_SOURCE] = reduceInput.type;
    Object.assign(spec.uniforms, REDUCE_UNIFORMS);
    spec.outputs[reduceResult.name] = reduceResult.type;
    spec.brook = { reduce: { input: reduceInput.name, result: reduceResult.name, type: reduceInput.type } };
    spec.prologue = fold.prologue;
    extraHelpers = fold.globals;
    bodyPrefix = fold.skip;
  }
  if (Object.keys(spec.outputs).length === 0) throw new BrookError(`${where}: a kernel needs at least one 'out' stream parameter`);
  if (voutOf) {
    if (Object.keys(spec.outputs).length > 1 || Object.keys(spec.iters).length || Object.keys(structParams).length) {
      throw new BrookError(`${where}: a kernel with a vout parameter has no other outputs, iterators or struct parameters here`);
    }
    const t = TYPE_MAP[voutOf.type] ?? voutOf.type;
    const o = glslName(voutOf.output);
    spec.brook = { vout: voutOf };
    extraHelpers = [
      // vout []: voutRun defines the slots per record before this; a plain run gets one (the first push)
      ...(voutOf.most ? [] : [`#ifndef ${VOUT_MOST}`, `#define ${VOUT_MOST} 1`, '#endif']),
      `int brook_vslot; int brook_vcount = 0; bool brook_vset = false; ${t} brook_vvalue;`,
      `void brook_push(${t} v) { if (brook_vcount == brook_vslot) { brook_vvalue = v; brook_vset = true; } brook_vcount++; }`,
      // the N slots of input record (c, r) are columns c·N.. of row r (1D: records i·N..): indexof is the input's
      `vec4 brook_vindexof() { return vec4(brook_coord.x / ${voutOf.most || VOUT_MOST}, brook_coord.yzw); }`,
    ].join('\n');
    spec.prologue = `  brook_vslot = brook_index % ${voutOf.most || VOUT_MOST};`;
    // a slot nobody pushed into is null: +infinity in its first component (the filter's sentinel)
    spec.epilogue = `  ${o} = brook_vset ? brook_vvalue : ${t}(uintBitsToFloat(0x7f800000u));`;
  }
  return { extraHelpers, bodyPrefix };
}

/** What Brook rejects in a body: writing a stream input, an iterator or a gather; indexing a scalar stream; reading an output before writing it. */
function checkBody(k: FoundKernel, read: KernelParams, gathers: ReadonlySet<string>): void {
  const { spec, structParams, reduceInput, reduceResult } = read;
  const readOnly: Array<[string, string]> = [
    ...Object.keys(spec.inputs).filter((n) => !n.startsWith(REDUCE_SOURCE)).map((n): [string, string] => [n, 'an input stream']),
    ...Object.keys(spec.iters).map((n): [string, string] => [n, 'an iterator']),
    ...[...gathers].map((n): [string, string] => [n, 'a gather']),
    ...Object.entries(structParams).filter(([, p]) => p.role === 'inputs').map(([n]): [string, string] => [n, 'an input stream']),
    ...(reduceInput ? [[reduceInput.name, 'the stream being reduced'] as [string, string]] : []),
  ];
  const site = { kernel: k.name, body: k.body, bodyLine: k.bodyLine };
  checkReadOnly(site, readOnly);
  const scalar = (ty: string) => !/[234]$/.test(ty);
  checkStreamIndexing(site, [
    ...Object.entries(spec.inputs).filter(([n, ty]) => !n.startsWith(REDUCE_SOURCE) && scalar(ty)).map(([n, ty]): [string, string, string] => [n, ty, 'an input stream']),
    ...Object.entries(spec.iters).filter(([, ty]) => scalar(ty)).map(([n, ty]): [string, string, string] => [n, ty, 'an iterator']),
    ...(reduceInput && scalar(reduceInput.type) ? [[reduceInput.name, reduceInput.type, 'the stream being reduced'] as [string, string, string]] : []),
  ]);
  // ... and reading an output before writing it (a reduce kernel's result is its accumulator)
  const outputNames = [
    ...Object.keys(spec.outputs).filter((n) => n !== reduceResult?.name),
    ...Object.entries(structParams).filter(([, p]) => p.role === 'outputs').map(([n]) => n),
  ];
  checkOutputReads(site, outputNames);
}

/**
 * Tagged template for Brook kernels; returns them by name. Interpolated values are pasted in
 * as text (numbers become constants in the source).
 * @example const { saxpy } = brook`kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }`;
 */
export function brook(strings: TemplateStringsArray, ...values: unknown[]): Record<string, KernelSpec> {
  return parseBrook(String.raw({ raw: strings }, ...values));
}

/**
 * A `brook` tag with options, e.g. a tighter loop bound for code typed into a teaching page.
 * @example const { spin } = brookWith({ maxIterations: 1000 })`kernel void spin(out float o<>) { while (true) o += 1; }`;
 */
export function brookWith(options: BrookOptions): (strings: TemplateStringsArray, ...values: unknown[]) => Record<string, KernelSpec> {
  return (strings, ...values) => parseBrook(String.raw({ raw: strings }, ...values), options);
}
