/**
 * Flow-control idioms of Harris & Buck, GPU Gems 2 ch. 34, as operations on streams.
 *
 * A branch is described once — inputs, outputs, a GLSL condition and the two sides — and run
 * by any of the chapter's mechanisms, which all give the same records:
 *
 * ```ts
 * const step = { name: 'Step', inputs: { x: 'float4' }, outputs: { y: 'float' },
 *                cond: 'x.z > 0.5', then: 'y = expensive(x);', else: 'y = x.x;' };
 * runBranch(ctx, step, { x, y }, { method: 'predicate' });   // both sides, one selected
 * runBranch(ctx, step, { x, y }, { method: 'branch' });      // a plain `if` in the kernel
 * const mask = branchMask(ctx, step, { x, y });              // precomputed: build once ...
 * runBranch(ctx, step, { x, y }, { method: 'zcull', mask }); // ... reuse while x.z is unchanged
 * ```
 *
 * Cost models (per record, for a pass over n records, `T` and `E` the costs of the two sides):
 * - predication: T + E + select, whatever the condition — best for sides of a few operations
 *   (the select is a bit blend, so the compiler cannot turn it back into a branch);
 * - branching (`if`): max(T, E) for a SIMD group whose records all agree, T + E + branch where
 *   they disagree — the group (a warp of 32 fragments on NVIDIA, a 2x2 quad at least) is the
 *   unit, so it pays only for coherent conditions;
 * - z-cull: one pass to build the mask (a full read of the condition's inputs, a depth write),
 *   then per masked pass a depth test per record, shading only records that pass; skipped work
 *   is saved per depth tile (several pixels), so coherent masks save the most. Two passes (then,
 *   else) instead of one, so it pays when a side is expensive and the mask is reused;
 * - static branch resolution (`region` in ctx.run): a per-cell boundary test replaced by two
 *   passes, one over the interior quad and one over the border lines; costs one extra draw;
 * - precomputation: a branch result (e.g. an obstacle's offset direction) stored in a stream
 *   by one pass and read by every later pass until its inputs change: one gather instead of
 *   the branch per pass.
 *
 * `occlusionLoop` is the chapter's CPU loop over a GPU computation with an occlusion query per
 * iteration, kept from stalling (see its comment); `liveCount` counts records exactly.
 *
 * On a CPU context (createContext({ backend: 'cpu' })): occlusionLoop runs (its queries are the
 * CPU context's, settled at once) and so does liveCount (the predicate as a CPU filter); runBranch
 * and branchMask take GLSL (cond, then, else), which the CPU backend does not run, and say so.
 */
import type { BrookContext } from '../core/context';
import { BrookError, check } from '../core/errors';
import { glslName, type KernelSpec, type UniformType } from '../core/kernelspec';
import { type KernelArgs } from '../core/kernelargs';
import { Stream, type StreamShape } from '../core/stream';
import { typeInfo, type ElementType } from '../core/types';
import type { ZMask } from '../core/zmask';
import { checkContext, checkFunction, checkInteger, checkOptions, checkRequired, checkStream, checkString, describeValue } from '../core/validate';
import { OcclusionWindow } from '../core/queries';
import { markKernel } from './predicate';
import { brookPredicate } from '../brook/predicate';

export interface BranchDesc {
  name: string;
  inputs?: Record<string, ElementType>;
  gathers?: Record<string, ElementType>;
  uniforms?: Record<string, UniformType>;
  outputs: Record<string, ElementType>;
  /** GLSL boolean expression of the inputs, gathers, uniforms and brook_index. */
  cond: string;
  /** GLSL statements assigning the outputs where cond holds. */
  then: string;
  /** GLSL statements assigning the outputs where it does not. */
  else: string;
  helpers?: string;
}

export type BranchMethod = 'branch' | 'predicate' | 'zcull';
export const BRANCH_METHODS: readonly BranchMethod[] = ['branch', 'predicate', 'zcull'];

function base(d: BranchDesc): Omit<KernelSpec, 'name' | 'body'> {
  return { inputs: d.inputs, gathers: d.gathers, uniforms: d.uniforms, outputs: d.outputs, helpers: d.helpers };
}

/** The single kernel of `d` with a plain `if` ('branch') or both sides and a select ('predicate'). */
export function branchKernel(d: BranchDesc, method: 'branch' | 'predicate'): KernelSpec {
  if (method === 'branch') {
    return { ...base(d), name: `${d.name}<branch>`, body: `if (${d.cond}) {\n${d.then}\n} else {\n${d.else}\n}` };
  }
  // Each side in its own function writing its own copies of the outputs; both always run.
  const params = [
    ...Object.entries(d.inputs ?? {}).map(([n, t]) => `${typeInfo(t).glsl} ${glslName(n)}`),
    ...Object.entries(d.outputs).map(([n, t]) => `inout ${typeInfo(t).glsl} ${glslName(n)}`),
  ].join(', ');
  const args = (prefix: string) =>
    [...Object.keys(d.inputs ?? {}).map(glslName), ...Object.keys(d.outputs).map((n) => `${prefix}${glslName(n)}`)].join(', ');
  const outs = Object.entries(d.outputs);
  const body = [
    ...outs.map(([n, t]) => `${typeInfo(t).glsl} flow_t_${glslName(n)} = ${glslName(n)}, flow_e_${glslName(n)} = ${glslName(n)};`),
    `flow_then(${args('flow_t_')});`,
    `flow_else(${args('flow_e_')});`,
    `bool flow_c = ${d.cond};`,
    ...outs.map(([n, t]) => `${glslName(n)} = ${select(t, `flow_t_${glslName(n)}`, `flow_e_${glslName(n)}`)};`),
  ].join('\n');
  const helpers = [d.helpers ?? '', `void flow_then(${params}) {\n${d.then}\n}`, `void flow_else(${params}) {\n${d.else}\n}`].join('\n');
  return { ...base(d), helpers, name: `${d.name}<predicate>`, body };
}

/**
 * `flow_c ? a : b` as a bit blend with an all-ones or all-zeros mask (condition codes): a
 * ternary lets the compiler move the unused side under a real branch, and `mix` would turn -0
 * into +0; a blend needs both sides' bits, so both are computed, as predication means.
 */
function select(type: ElementType, a: string, b: string): string {
  const info = typeInfo(type);
  const n = info.components;
  const u = n === 1 ? 'uint' : `uvec${n}`;
  const mask = `${u}(flow_c ? 0xffffffffu : 0u)`;
  if (info.kind === 'float') return `uintBitsToFloat((floatBitsToUint(${a}) & ${mask}) | (floatBitsToUint(${b}) & ~${mask}))`;
  if (info.kind === 'uint') return `((${a}) & ${mask}) | ((${b}) & ~${mask})`;
  const i = n === 1 ? 'int' : `ivec${n}`;
  return `((${a}) & ${i}(${mask})) | ((${b}) & ~${i}(${mask}))`;
}

/** The two z-cull passes of `d`: each side alone, run where the mask lets it. */
function sideKernel(d: BranchDesc, side: 'then' | 'else'): KernelSpec {
  return { ...base(d), name: `${d.name}<${side}>`, body: d[side] };
}

/** Listing 34-1's pass for `d`: discards the records where cond holds (they run the then side). */
function maskBuilder(d: BranchDesc): KernelSpec {
  return {
    name: `${d.name}<mask>`,
    inputs: d.inputs,
    gathers: d.gathers,
    uniforms: d.uniforms,
    helpers: d.helpers,
    outputs: { flow_unused: 'float' },
    body: `if (${d.cond}) discard;`,
  };
}

function shapeOf(s: Stream): StreamShape {
  return s.layout.dims === 2 ? [s.layout.height, s.layout.width] : s.length;
}

/** A branch description with its strings and roles checked (before any GL call). */
function checkBranch(ctx: BrookContext, d: BranchDesc, args: KernelArgs, where: string): void {
  checkContext(ctx, where);
  check(
    (ctx as unknown as { backend?: string }).backend !== 'cpu',
    () => `${where}: a branch's cond, then and else are GLSL, which the CPU backend does not run: run it on a GPU context (createContext()), or write the branch as Brook kernels (an if/else; or ctx.zmask, ctx.buildMask and runs with { mask } and { mask, invert: true }, which a CPU context runs)`,
  );
  d = checkRequired(d, `${where}: branch`, "{ name, inputs, outputs, cond, then, else }");
  checkString(d.name, `${where}: branch.name`, "a name such as 'Step'");
  check(
    d.outputs !== null && typeof d.outputs === 'object' && Object.keys(d.outputs).length > 0,
    () => `${where}: branch ${d.name}: outputs must name at least one output stream, e.g. { y: 'float' }, got ${describeValue(d.outputs)}`,
  );
  checkString(d.cond, `${where}: branch ${d.name}: cond`, "a GLSL boolean expression, e.g. 'x.z > 0.5'");
  for (const side of ['then', 'else'] as const) {
    check(typeof d[side] === 'string', () => `${where}: branch ${d.name}: ${side} must be a string of GLSL statements, got ${describeValue(d[side])}`);
  }
  checkRequired(args, `${where}: args`, '{ name: stream or value, ... } for the branch parameters');
}

function outputStream(d: BranchDesc, args: KernelArgs): Stream {
  const first = Object.keys(d.outputs)[0]!;
  const s = args[first];
  if (!(s instanceof Stream)) throw new BrookError(`branch ${d.name}: output '${first}' must be a stream`);
  return s;
}

/** A z mask holding cond for `args` (then-records at depth 1.0, else-records at 0.0). Rebuild when cond's inputs change. */
export function branchMask(ctx: BrookContext, d: BranchDesc, args: KernelArgs, reuse?: ZMask): ZMask {
  checkBranch(ctx, d, args, 'branchMask');
  const out = outputStream(d, args);
  checkStream(ctx, out, `branchMask: branch ${d.name}: output '${Object.keys(d.outputs)[0]}'`);
  const mask = reuse ?? ctx.zmask(out);
  const unused = ctx.scratch('float', shapeOf(out));
  try {
    const builderArgs: KernelArgs = { flow_unused: unused };
    for (const role of [d.inputs, d.gathers, d.uniforms]) for (const n of Object.keys(role ?? {})) builderArgs[n] = args[n]!;
    ctx.buildMask(mask, maskBuilder(d), builderArgs);
  } finally {
    unused.dispose();
  }
  return mask;
}

/** Runs branch `d` over its outputs by `method` (see the module comment). */
export function runBranch(ctx: BrookContext, d: BranchDesc, args: KernelArgs, options: { method?: BranchMethod; mask?: ZMask } = {}): void {
  checkBranch(ctx, d, args, 'runBranch');
  options = checkOptions(options, 'runBranch: options');
  const method = options.method ?? 'branch';
  check(BRANCH_METHODS.includes(method), () => `branch ${d.name}: unknown method '${method}': use ${BRANCH_METHODS.join(', ')}`);
  if (method !== 'zcull') {
    ctx.runInternal(branchKernel(d, method), args);
    return;
  }
  const mask = options.mask ?? branchMask(ctx, d, args);
  try {
    ctx.runInternal(sideKernel(d, 'then'), args, { mask });
    ctx.runInternal(sideKernel(d, 'else'), args, { mask, invert: true });
  } finally {
    if (!options.mask) mask.dispose();
  }
}

export interface OcclusionLoopOptions {
  /** Runs iteration k's computation passes (k from 0). Must leave finished records unchanged. */
  iterate: (k: number) => void;
  /** Runs the termination pass: a kernel that discards the records that have finished. */
  terminate: () => void;
  /** Error out after this many iterations with records still live. */
  maxIterations: number;
  /** Iterations issued ahead of the oldest unanswered query (default: defaultInFlight, 8 on a GPU, 2 on a software renderer). */
  inFlight?: number;
}

/**
 * The chapter's loop (section 34.3): iterate, then run the termination pass inside an
 * occlusion query, until a query reports that no fragment survived. WebGL2 gives only "any
 * samples passed" and answers a frame or more later, so waiting on each query would stall the
 * GPU every iteration. Instead up to `inFlight` iterations run ahead of the oldest pending
 * query: the loop may run up to inFlight - 1 iterations past the one that finished everything.
 * Those extra iterations must be harmless (finished records unchanged — the usual case, and
 * what a z mask or a `done` test gives). Like the chapter's loop it runs at least once.
 * Resolves with the first iteration after which nothing was live (1-based) and how many ran.
 */
export async function occlusionLoop(ctx: BrookContext, o: OcclusionLoopOptions): Promise<{ iterations: number; issued: number }> {
  checkContext(ctx, 'occlusionLoop');
  o = checkRequired(o, 'occlusionLoop: options', '{ iterate, terminate, maxIterations }');
  checkFunction(o.iterate, 'occlusionLoop: options.iterate', '(k) => ctx.runInternal(step, ...)');
  checkFunction(o.terminate, 'occlusionLoop: options.terminate', '() => ctx.runInternal(terminationKernel, ...)');
  checkInteger(o.maxIterations, 'occlusionLoop: options.maxIterations (the bound on a loop that never ends)', 1);
  if (o.inFlight !== undefined) checkInteger(o.inFlight, 'occlusionLoop: options.inFlight', 1);
  const r = await occlusionSteps(ctx, { ...o, most: o.maxIterations });
  if (!r.done) {
    throw new BrookError(`occlusionLoop: records were still live after maxIterations = ${o.maxIterations} iterations; raise the limit or check the termination kernel`);
  }
  return { iterations: r.iterations, issued: r.issued };
}

/**
 * @internal occlusionLoop's loop with no argument checks, ending after `most` answers with
 * records still live (`done` false) instead of erring: for a caller that runs the loop in pieces
 * (ccd's lazy work stealing compacts its front between them). `iterations` is the first after
 * which nothing was live (1-based; `most` where some still are); `issued` counts those run.
 */
export async function occlusionSteps(
  ctx: BrookContext,
  o: { iterate: (k: number) => void; terminate: () => void; inFlight?: number; most: number },
): Promise<{ iterations: number; issued: number; done: boolean }> {
  const window = new OcclusionWindow(ctx, o.inFlight);
  let issued = 0;
  let answered = 0;
  try {
    for (;;) {
      while (window.size < window.inFlight && issued < o.most) {
        o.iterate(issued);
        issued++;
        window.add(ctx.queries.occlusion(o.terminate));
      }
      const live = await window.next();
      answered++;
      if (!live) {
        window.abandon(); // later answers are not needed
        return { iterations: answered, issued, done: true };
      }
      if (answered >= o.most) return { iterations: answered, issued, done: false };
    }
  } catch (e) {
    // a failed loop releases its queries before it rejects: wait for the answers in flight
    await window.settle();
    throw e;
  }
}

/** The exact number of records of `s` for which `keep`, one Brook expression of x and i (src/brook/predicate.ts), holds. */
export async function liveCount(ctx: BrookContext, s: Stream, keep: string): Promise<number> {
  checkContext(ctx, 'liveCount');
  checkStream(ctx, s, 'liveCount: stream');
  checkString(keep, 'liveCount: keep', "a Brook expression of x and i, e.g. 'x.w > 0.0'");
  const cpu = (ctx as unknown as { backend?: string }).backend === 'cpu' ? (ctx as unknown as { filterRecords(s: Stream, k: string, i: boolean): { stream: Stream | null; count: number } }) : undefined;
  if (cpu) {
    // the CPU backend's filter (src/cpu/idioms.ts) compiles the same predicate and counts exactly
    const kept = cpu.filterRecords(s, keep, false);
    kept.stream?.dispose();
    return kept.count;
  }
  const glsl = brookPredicate(keep, s.type, 'liveCount: keep').glsl; // one expression, typed by the front end
  const flags = ctx.scratch('uint', shapeOf(s));
  try {
    ctx.runInternal(markKernel('flag', s.type, glsl, { flag: 'uint' }, 'flag = keep ? 1u : 0u;'), { x: s, flag: flags });
    return (await ctx.reduce(flags, 'sum'))[0]!;
  } finally {
    flags.dispose();
  }
}
