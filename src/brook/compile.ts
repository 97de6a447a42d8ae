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
 * Source is compiled in brcc's steps, each its own file (docs/architecture.md): lex.ts reads
 * tokens with their line and column and expands `#define`s; parse.ts builds the syntax tree of
 * ast.ts (C's and Cg's grammar, Brook's parameter kinds); check.ts types it from types.ts's table
 * of Cg's rules, making every implicit conversion an explicit node and giving each integer
 * literal its context's type, and reports Brook's errors in Brook's words on the user's line;
 * glsl.ts prints GLSL ES 3.00 from the typed tree (lerp -> mix, frac -> fract, rsqrt ->
 * inversesqrt, atan2 -> atan; saturate, Cg's truncating fmod and isfinite from
 * glsl/brook/helpers.glsl; gathers `v[i][j]` -> `v(i, j)`, core's accessors; names GLSL
 * reserves get a trailing `_`; every loop condition also counts against maxIterations). This
 * file reads each kernel's parameters into a KernelSpec and assembles its GLSL. docs/brook.md
 * lists what is supported and what is not.
 */
import BROOK_HELPERS from '../../glsl/brook/helpers.glsl';
import { BrookError } from '../core/errors';
import { IterType, KernelSpec, UniformType, glslName } from '../core/kernel';
import type { BrookKinds } from '../core/kernelspec';
import { StructParam, StructType, fieldParam } from '../core/struct';
import { ElementType } from '../core/types';
import { TYPE_MAP, checkNesting, normalizeType, stripComments } from './tokens';
import type { FunctionDecl, Param, Program, Sym } from './ast';
import { Checker, TypedFunction } from './check';
import { lex, sourceError } from './lex';
import { typeName } from './types';
import { EmitContext, GlslEmitter, globalDecl } from './glsl';
import { keepKernelTree } from './js';
import { parseProgram } from './parse';
import { structDecl, structGlue } from './structs';
import { REDUCE_SOURCE, REDUCE_UNIFORMS, reduceFold } from './reduce';

export { stripComments } from './tokens';
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

/** A kernel's parameters as read: the description's parameter maps and what Brook's kinds need. */
interface KernelParams {
  spec: Required<Pick<KernelSpec, 'inputs' | 'gathers' | 'iters' | 'uniforms'>> & KernelSpec;
  structParams: Record<string, StructParam>;
  reduceInput?: { name: string; type: ElementType };
  reduceResult?: { name: string; type: ElementType };
  voutOf?: BrookKinds['vout'];
}

/** The slots per input record of a `vout []` kernel: a macro voutRun defines for each bound it tries. */
const VOUT_MOST = 'BROOK_VOUT_MOST';

/**
 * Parses and checks Brook source: its syntax tree, the checker over it and the struct types as
 * core's StructType. Stack overflows of pathological input become BrookErrors.
 */
export function frontEnd(source: string): { program: Program; checker: Checker; structs: Record<string, StructType> } {
  if (typeof source !== 'string') throw new BrookError(`brook: the source must be a string of Brook code, got ${source === null ? 'null' : typeof source}`);
  checkNesting(stripComments(source)); // before any parser recurses into it
  return guard(() => {
    const program = parseProgram(source);
    const checker = new Checker(program, source);
    const structs: Record<string, StructType> = {};
    for (const st of checker.unit.structs.values()) {
      const fields = st.fields.map((f) => {
        const type = f.ty.k === 'num' && f.ty.base === 'float' && /^(float|half|double)[234]?$|^vec[234]$/.test(f.written) ? (`float${f.ty.n > 1 ? f.ty.n : ''}` as ElementType) : undefined;
        if (!type) throw sourceError(`brook, struct ${st.name}`, source, f.pos, `field '${f.name}' is ${f.written}; struct fields must be float, float2, float3 or float4`);
        return { name: f.name, type };
      });
      structs[st.name] = { name: st.name, fields, components: fields.reduce((n, f) => n + Number(f.type.slice(5) || 1), 0) };
    }
    return { program, checker, structs };
  });
}

/** Runs `f`, turning a stack overflow (input nested past what the parser's recursion takes) into a BrookError. */
function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) throw new BrookError('brook: the source is nested too deeply to compile; split long expressions with local variables');
    throw e;
  }
}

/** Parses Brook source into kernel descriptions, by name. */
export function parseBrook(source: string, options: BrookOptions = {}): Record<string, KernelSpec> {
  if (typeof source !== 'string') throw new BrookError(`brook: the source must be a string of Brook code, got ${source === null ? 'null' : typeof source}`);
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!(maxIterations === Infinity || (Number.isInteger(maxIterations) && maxIterations >= 1 && maxIterations < 2 ** 31))) {
    throw new BrookError(`brook: maxIterations must be a positive integer below 2^31 or Infinity, got ${String(maxIterations)}`);
  }
  if (!/\b(?:kernel|reduce)\b/.test(stripComments(source))) throw new BrookError('brook: no `kernel void Name(...) { ... }` found in the source');
  const { program, checker, structs } = frontEnd(source);
  // the source the descriptions carry (origin.source) for a CPU context to compile again: lines of spaces (host code npx brookgl blanked) left empty
  const kept = source.replace(/^[ \t]+$/gm, '');
  return guard(() => compileKernels(program, checker, structs, maxIterations === Infinity ? undefined : maxIterations, kept));
}

function compileKernels(program: Program, checker: Checker, structs: Record<string, StructType>, bound: number | undefined, source: string): Record<string, KernelSpec> {
  const fns = program.items.filter((x): x is FunctionDecl => x.k === 'function');
  checkDeclarations(fns);
  const found = fns.filter((f) => f.body && (f.kind === 'reduce' || (f.kind === 'kernel' && f.ret.name === 'void')));
  if (found.length === 0) throw new BrookError('brook: no `kernel void Name(...) { ... }` found in the source');
  // every function is checked once as a function (a type error in one is reported even if no kernel calls it)
  const typed = new Map<FunctionDecl, TypedFunction>();
  const typedOf = (fn: FunctionDecl) => {
    let t = typed.get(fn);
    if (!t) {
      t = checker.checkFunction(fn, false);
      typed.set(fn, t);
    }
    return t;
  };
  for (const f of fns) if (f.body && !f.kind) typedOf(f);
  const decls = Object.values(structs).map(structDecl).join('\n');

  const kernels: Record<string, KernelSpec> = {};
  for (const k of found) {
    const where = `brook, kernel ${k.name} (line ${k.pos.line})`;
    if (kernels[k.name]) throw new BrookError(`${where}: a kernel named ${k.name} is already declared`);
    const read = readParams(k, structs, where, (n) => { const t = checker.unit.typedefs.get(n); return t ? typeName(t) : n; });
    const { spec, structParams, voutOf } = read;
    const { extraHelpers, bodyPrefix } = applyKinds(k, read, where);
    const t = checker.checkFunction(k, true);
    keepKernelTree(spec, { checker, kernel: t, typed: typedOf, bounded: bound !== undefined });
    const ctx: EmitContext = { checker, typed: typedOf, bounded: bound !== undefined, vout: !!voutOf, helpers: new Map(), functions: new Map(), active: [] };
    const em = new GlslEmitter(ctx);
    const body = em.kernelBody(t, k.body!.pos.line);
    spec.body = bodyPrefix + body;
    const globals = checker.unit.globals.map((g) => globalDecl(new GlslEmitter(ctx), g.decl)).join('\n');
    const glue = structGlue(structParams);
    spec.helpers = [BROOK_HELPERS, [...ctx.helpers.values()].join('\n'), decls, glue.helpers, extraHelpers, globals, [...ctx.functions.values()].join('\n')].filter(Boolean).join('\n');
    if (glue.prologue) spec.prologue = glue.prologue;
    if (glue.epilogue) spec.epilogue = glue.epilogue;
    if (Object.keys(structParams).length) spec.structParams = structParams;
    if (Object.keys(structs).length) spec.structs = structs;
    spec.origin = { text: k.shown ?? '', bodyLine: k.body!.pos.line, source };
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

/** A parameter as written, for comparing a declaration with its definition. */
function paramText(p: Param): string {
  return `${p.vout ? `vout[${p.vout.most || ''}] ` : ''}${p.qual ? `${p.qual} ` : ''}${p.type.name} ${p.name}${p.stream ? '<>' : ''}${'[]'.repeat(p.gather)}`;
}

/**
 * Declarations (prototypes: `kernel void f(float a<>, out float b<>);`, as BrookGPU's drivers
 * write for kernels defined further on) are accepted where the same source defines the function
 * with the same parameters; brookgl compiles one source at a time, so one declared here and
 * defined elsewhere cannot be linked to.
 */
function checkDeclarations(fns: FunctionDecl[]): void {
  for (const d of fns.filter((f) => !f.body)) {
    const kind = d.kind ?? 'function';
    const sig = (f: FunctionDecl) => f.params.map(paramText).join(',');
    const defs = fns.filter((f) => f.body && f.name === d.name);
    if (defs.length === 0) {
      if (!d.kind) continue; // a function declared and never defined is reported where it is called
      throw new BrookError(`brook, ${kind} ${d.name} (line ${d.pos.line}): declared but not defined in this source; brookgl compiles one source at a time: put the definition (${kind} void ${d.name}(...) { ... }) in the same source`);
    }
    const k = defs.find((f) => sig(f) === sig(d) && f.kind === d.kind);
    if (!k && d.kind) {
      const f = defs[0]!;
      throw new BrookError(`brook, ${kind} ${d.name} (line ${d.pos.line}): the declaration '${kind} void ${d.name}(${sig(d)})' differs from the definition on line ${f.pos.line} ('${f.kind ?? 'function'} void ${f.name}(${sig(f)})'): write the same parameter list`);
    }
  }
}

/** Reads a kernel's parameter list into a description's parameter maps (and its reduce and vout parameters). */
function readParams(k: FunctionDecl, structs: Record<string, StructType>, where: string, typedef: (name: string) => string): KernelParams {
  const spec: KernelParams['spec'] = { name: k.name, inputs: {}, gathers: {}, iters: {}, uniforms: {}, outputs: {}, body: '' };
  const structParams: Record<string, StructParam> = {};
  let reduceInput: KernelParams['reduceInput'];
  let reduceResult: KernelParams['reduceResult'];
  let voutOf: KernelParams['voutOf'];
  const isReduce = k.kind === 'reduce';
  for (const p of k.params) {
    const { qual, name } = p;
    const rawType = typedef(p.type.name);
    const isStream = p.stream;
    const isGather = p.gather > 0;
    if (qual === 'inout') throw new BrookError(`${where}: '${name}': a kernel's parameter is not inout; use out for an output stream`);
    const struct = structs[rawType];
    if (struct) {
      const role = qual === 'out' ? 'outputs' : qual === 'iter' || qual === 'reduce' ? undefined : isStream ? 'inputs' : isGather ? 'gathers' : 'uniforms';
      if (!role || (role === 'outputs' && !isStream)) {
        throw new BrookError(`${where}: struct parameter '${name}' must be a stream (${rawType} ${name}<>), a gather (${rawType} ${name}[]), a constant (${rawType} ${name}) or an output (out ${rawType} ${name}<>)`);
      }
      structParams[name] = { struct, role };
      for (const f of struct.fields) spec[role][fieldParam(name, f.name)] = f.type;
      continue;
    }
    const type = normalizeType(rawType === 'double' ? 'float' : rawType.replace(/^double/, 'float'), `${where}, parameter '${name}'`);
    const elementType = type as ElementType;
    if (qual === 'reduce' || (isReduce && isStream && !qual)) {
      if (!isReduce) throw new BrookError(`${where}: '${name}' is a reduce parameter: declare the kernel as reduce void ${k.name}(...)`);
      if (qual === 'reduce' ? reduceResult : reduceInput) {
        throw new BrookError(`${where}: a reduce kernel takes one stream to reduce (T a<>) and one reduce parameter (reduce T r<>); '${name}' is one too many`);
      }
      if (qual === 'reduce') reduceResult = { name, type: elementType };
      else reduceInput = { name, type: elementType };
      if (/^mat|^bool/.test(type)) throw new BrookError(`${where}: '${name}' must be a stream type (float..float4, int.., uint..)`);
      continue;
    }
    if (p.vout) {
      // vout [] (no bound, BrookGPU's pass-after-pass form): most 0, voutRun finds the bound
      const most = p.vout.most;
      if (most && !(most >= 1 && most <= 64)) throw new BrookError(`${where}: say how many records one input may push at most: vout[4] ${rawType} ${name}<> (1 to 64), or vout [] for no bound`);
      if (!isStream || !/^float[234]?$/.test(type)) throw new BrookError(`${where}: vout parameter '${name}' must be a float..float4 stream: vout[${most || ''}] float ${name}<>`);
      if (voutOf) throw new BrookError(`${where}: one vout parameter per kernel`);
      voutOf = { output: name, most, type: elementType };
    }
    if (qual === 'out' || p.vout) {
      if (isReduce) throw new BrookError(`${where}: a reduce kernel has no out parameters; its result is the reduce parameter`);
      if (!isStream) throw new BrookError(`${where}: output '${name}' must be a stream: out ${rawType} ${name}<>`);
      spec.outputs[name] = elementType;
    } else if (qual === 'iter') {
      if (!isStream) throw new BrookError(`${where}: iterator '${name}' must be declared as iter ${rawType} ${name}<>`);
      if (!/^float[234]?$/.test(type)) throw new BrookError(`${where}: iterator '${name}' must be float, float2, float3 or float4`);
      spec.iters[name] = type as IterType;
    } else if (isStream) {
      spec.inputs[name] = elementType;
    } else if (isGather) {
      spec.gathers[name] = elementType;
    } else {
      if (type.startsWith('char')) throw new BrookError(`${where}: constant '${name}' is ${rawType}; char types are 8-bit streams here: pass the constant as a float in [0, 1] (float ${name})`);
      spec.uniforms[name] = type as UniformType;
    }
  }
  return { spec, structParams, reduceInput, reduceResult, voutOf };
}

/** Reduce and vout kernels: their extra parameters, prologue and epilogue; returns their GLSL globals and body prefix. */
function applyKinds(k: FunctionDecl, read: KernelParams, where: string): { extraHelpers: string; bodyPrefix: string } {
  const { spec, structParams, reduceInput, reduceResult, voutOf } = read;
  let extraHelpers = '';
  let bodyPrefix = '';
  if (k.kind === 'reduce') {
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

/**
 * The struct types of Brook source, by name: Listing 36-3's and 36-5's typedefs as printed.
 * @example const { Tri, BBox } = parseBrookStructs(listing36_3);
 */
export function parseBrookStructs(source: string): Record<string, StructType> {
  if (typeof source !== 'string') throw new BrookError('brook: the source must be a string of Brook code');
  return frontEnd(source).structs;
}

/** Tagged template for struct declarations: `const { Tri } = brookStructs\`typedef struct { float3 A, B, C; } Tri;\``. */
export function brookStructs(strings: TemplateStringsArray, ...values: unknown[]): Record<string, StructType> {
  return parseBrookStructs(String.raw({ raw: strings }, ...values));
}

/**
 * Brook statements to GLSL ES 3.00 through the typed front end, outside any kernel: the names
 * the text uses without declaring them are float variables, those in `intNames` ints and those
 * in `gathers` float gathers (`v[i]` -> `v(i)`). For looking at what the generator makes of a
 * few lines; kernels go through parseBrook. `boundLoops`: every loop condition also counts
 * against brook_loop().
 * @example translateBody('c = x ? 1 : 0;', new Set(), new Set()) // 'c = bool(x) ? 1.0 : 0.0;'
 */
export function translateBody(text: string, gathers: Set<string>, intNames: Set<string>, boundLoops = false): string {
  if (typeof text !== 'string') throw new BrookError('translateBody: the text must be a string of Brook statements');
  checkNesting(stripComments(text), 'translateBody');
  return guard(() => {
    const head = 'void brook_translate() {';
    const source = `${head}${text}\n}`;
    const shown = `${' '.repeat(head.length)}${text}\n}`; // errors quote the user's text only
    const program = parseProgram(source, 'translateBody', shown);
    const checker = new Checker(program, shown);
    const fn = program.items.find((x): x is FunctionDecl => x.k === 'function')!;
    // every name not declared here (nor a function or a type) is a float, an int or a gather
    const toks = lex(source, 'translateBody');
    toks.forEach((t, k) => {
      if (t.k !== 'id' || toks[k - 1]?.t === '.' || toks[k + 1]?.t === '(' || checker.unit.globalSyms.has(t.t) || /^(?:brook_translate|if|else|for|while|do|return|break|continue|true|false|indexof|const|struct|switch|case|default|discard|unsigned)$/.test(t.t)) return;
      if (typeOfNameOrStruct(checker, t.t)) return;
      const sym: Sym = gathers.has(t.t)
        ? { name: t.t, ty: { k: 'num', base: 'float', n: 1 }, role: 'gather' }
        : { name: t.t, ty: { k: 'num', base: intNames.has(t.t) ? 'int' : 'float', n: 1 }, role: 'global' };
      checker.unit.globalSyms.set(t.t, sym);
    });
    const t = checker.checkFunction(fn, false, 'translateBody');
    const ctx: EmitContext = { checker, typed: (f) => checker.checkFunction(f, false), bounded: boundLoops, vout: false, helpers: new Map(), functions: new Map(), active: [] };
    return new GlslEmitter(ctx).kernelBody(t, 1);
  });
}

function typeOfNameOrStruct(checker: Checker, name: string): boolean {
  return checker.unit.structs.has(name) || checker.unit.typedefs.has(name) || /^(?:void|unsigned|(?:float|half|double|fixed|int|uint|bool|char|uchar)[234]?|[biu]?vec[234]|mat[234]|(?:float|half|double)[234]x[234])$/.test(name);
}
