/**
 * A Brook kernel run on the CPU: the JavaScript of its body (src/brook/js.ts) inside a record
 * loop generated for the shapes of this run's arguments, compiled once per kernel and shape plan
 * (`new Function`) and cached on the kernel description.
 *
 * The loop does what core's kernelsource.ts main() does for a fragment: the record's position
 * (`brook_coord`, x the fastest), its elementwise inputs (the same record, or resampled as
 * floor(i * in / out) per dimension where the shapes differ, or through a domain), iterators
 * (start + step * position, in float32), outputs zeroed, the body, then the outputs stored unless
 * the record was discarded. Gathers clamp every dimension to the stream's edge, as BrookGPU's
 * CPU backend (__BrtArray) and its textures (CLAMP_TO_EDGE) did, through accessors written into
 * the compiled source for the bound streams' shapes (`accessors`; the shapes, and which iterators
 * are whole, are part of the plan's key). An output that is also read
 * (an input or a gather of the same run) is written to a copy that replaces the stream's array
 * after the run, as a GPU pass writes a texture of its own.
 */
import { BrookError, check } from '../core/errors';
import { compileError } from './csp';
import { Iter, KernelSpec, glslName } from '../core/kernelspec';
import { checkIterForStream, iterSteps, type KernelArgs } from '../core/kernelargs';
import { Stream } from '../core/stream';
import { StreamDomain } from '../core/domain';
import { StructDomain, StructStream, expandStructArgs, fieldParam } from '../core/struct';
import { typeInfo, type ElementType } from '../core/types';
import { describeValue } from '../core/checks';
import { KernelJs, adoptKernelTree, hasKernelTree, kernelJs, jsGather, jsIterPart, jsVar } from '../brook/js';
import { REDUCE_SOURCE, parseBrook } from '../brook/compile';
import { CpuData, CpuStream } from './stream';
import { DISCARD, R } from './runtime';
import type { RunGate, RunTarget } from './masks';
import { matrixUniform } from './matrix';
import { VoutCollect, VoutPlan, voutCode, voutPlan } from './vout';

/** A stream or domain as a run sees it: its array, its extents (x first) and where it sits in its stream. */
export interface Binding {
  stream: CpuStream;
  data: CpuData;
  comps: number;
  char: boolean;
  /** Extents of the records bound, x first, 1 beyond the rank. */
  ext: number[];
  /** Extents of the whole stream, x first. */
  full: number[];
  origin: number[];
  view: boolean;
  rank: number;
  length: number;
}

const xyzw = (shape: readonly number[]): number[] => {
  const e = [...shape].reverse();
  while (e.length < 4) e.push(1);
  return e;
};

export function bind(v: unknown, what: string): Binding {
  if (v instanceof StreamDomain) {
    const s = v.stream;
    check(s instanceof CpuStream, () => `${what}: the domain's stream belongs to a GPU context; pass streams of this CPU context`);
    check(!s.disposed, () => `${what}: the stream of the domain was disposed`); // a GPU context's words
    return { stream: s as CpuStream, data: (s as CpuStream).data, comps: s.info.components, char: s.info.host === 'char', ext: [...v.extents], full: xyzw(s.shape), origin: [...v.origin], view: true, rank: s.layout.dims, length: v.length };
  }
  check(v instanceof Stream, () => `${what}: expected a stream, got ${describeValue(v)}`);
  check(v instanceof CpuStream, () => `${what}: the ${(v as Stream).describe()} belongs to a GPU context; pass streams of this CPU context (ctx.stream), or copy its records over (readSync, then write)`);
  check(!v.disposed, () => `${what}: the stream was disposed`); // a GPU context's words
  const e = xyzw(v.shape);
  return { stream: v, data: v.data, comps: v.info.components, char: v.info.host === 'char', ext: e, full: e, origin: [0, 0, 0, 0], view: false, rank: v.layout.dims, length: v.length };
}

/** The record index (in its stream's array) of position (x, y, z, w) + origin, as JavaScript over the loop's cx..cw. */
function flatExpr(b: Binding, c: [string, string, string, string]): string {
  const [fx, fy, fz] = b.full;
  const p = c.map((x, k) => (b.origin[k] ? `(${x} + ${b.origin[k]})` : x));
  const terms = [p[0]!];
  if (b.full[1]! > 1 || b.ext[1]! > 1) terms.push(`${p[1]} * ${fx}`);
  if (b.full[2]! > 1 || b.ext[2]! > 1) terms.push(`${p[2]} * ${fx! * fy!}`);
  if (b.full[3]! > 1 || b.ext[3]! > 1) terms.push(`${p[3]} * ${fx! * fy! * fz!}`);
  return terms.join(' + ');
}

/** Reads record `i` of `b` into a JS value (scalar or array), chars as floats in [0, 1]. */
function readExpr(arr: string, i: string, b: { comps: number; char: boolean }): string {
  const at = (k: number) => {
    const x = b.comps === 1 ? `${arr}[${i}]` : `${arr}[(${i}) * ${b.comps}${k ? ` + ${k}` : ''}]`;
    return b.char ? `f(${x} / 255)` : x;
  };
  if (b.comps === 1) return at(0);
  return `[${Array.from({ length: b.comps }, (_, k) => at(k)).join(', ')}]`;
}

/** Stores a value into an 8-bit record: wrapping modulo 256 (char, uchar) or saturating (fixed), as BrookGPU's CPU backend did. */
export function charStore(x: number, saturate: boolean): number {
  return saturate ? Math.round(Math.min(Math.max(x, 0), 1) * 255) : Math.round(x * 255) & 255;
}

function writeStmt(arr: string, i: string, v: string, b: { comps: number; char: boolean }, kind: string, saturate: boolean): string {
  const conv = (x: string) => (b.char ? `R.charStore(${x}, ${saturate})` : kind === 'int' ? `(${x} | 0)` : x);
  if (b.comps === 1) return `${arr}[${i}] = ${conv(v)};`;
  return `{ const o = (${i}) * ${b.comps}; ${Array.from({ length: b.comps }, (_, k) => `${arr}[o + ${k}] = ${conv(`${v}[${k}]`)};`).join(' ')} }`;
}

/** A gather accessor over `b` with BrookGPU's edge clamp: every index form the GLSL accessors take. */
export function gatherOf(b: Binding): (...idx: Array<number | number[]>) => unknown {
  const { data, comps, char, ext, full, origin } = b;
  const fl = (x: number) => (x !== x ? 0 : Math.floor(x));
  const cl = (x: number, n: number) => (x < 0 ? 0 : x >= n ? n - 1 : x);
  const fetch = (x: number, y: number, z: number, w: number) => {
    const i = x + origin[0]! + (y + origin[1]!) * full[0]! + (z + origin[2]!) * full[0]! * full[1]! + (w + origin[3]!) * full[0]! * full[1]! * full[2]!;
    if (comps === 1) return char ? Math.fround(data[i]! / 255) : data[i];
    const out: number[] = new Array(comps);
    for (let k = 0; k < comps; k++) out[k] = char ? Math.fround(data[i * comps + k]! / 255) : data[i * comps + k]!;
    return out;
  };
  const records = ext[0]! * ext[1]! * ext[2]! * ext[3]!;
  function scalar(a: number) {
    // a scalar counts records in row-major order
    const i = cl(fl(a), records);
    const x = i % ext[0]!;
    const t = (i - x) / ext[0]!;
    const y = t % ext[1]!;
    const t2 = (t - y) / ext[1]!;
    const z = t2 % ext[2]!;
    return fetch(x, y, z, (t2 - z) / ext[2]!);
  }
  // fixed parameters (no rest array): g(i), g(vec), g(i, j), g(i, j, k), g(i, j, k, l), slowest first
  const general = function gather(a: number | number[], b?: number, c?: number, d?: number) {
    if (b === undefined) {
      if (typeof a === 'number') return scalar(a);
      return fetch(cl(fl(a[0]!), ext[0]!), cl(fl(a[1] ?? 0), ext[1]!), cl(fl(a[2] ?? 0), ext[2]!), cl(fl(a[3] ?? 0), ext[3]!));
    }
    if (c === undefined) return fetch(cl(fl(b), ext[0]!), cl(fl(a as number), ext[1]!), 0, 0);
    if (d === undefined) return fetch(cl(fl(c), ext[0]!), cl(fl(b), ext[1]!), cl(fl(a as number), ext[2]!), 0);
    return fetch(cl(fl(d), ext[0]!), cl(fl(c), ext[1]!), cl(fl(b), ext[2]!), cl(fl(a as number), ext[3]!));
  };
  if (comps !== 1 || char || origin.some((o) => o !== 0) || ext[2] !== 1 || ext[3] !== 1) return general as (...idx: Array<number | number[]>) => unknown;
  // the common case, a whole 1D or 2D stream of scalars: the clamps and the fetch inline
  const W = ext[0]!;
  const Wm = W - 1;
  const Hm = ext[1]! - 1;
  const flat = data;
  return function gather2(a: number | number[], b?: number, c?: number, d?: number) {
    let x: number;
    let y: number;
    if (b !== undefined && c === undefined) {
      x = b;
      y = a as number;
    } else if (b === undefined) {
      if (typeof a === 'number') return scalar(a);
      x = a[0]!;
      y = a.length > 1 ? a[1]! : 0;
    } else return general(a, b, c, d);
    x = x !== x ? 0 : Math.floor(x);
    y = y !== y ? 0 : Math.floor(y);
    x = x < 0 ? 0 : x > Wm ? Wm : x;
    y = y < 0 ? 0 : y > Hm ? Hm : y;
    return flat[y * W + x];
  } as (...idx: Array<number | number[]>) => unknown;
}

/**
 * An iterator passed where a stream is expected (BrookGPU's convert_iter_to_stream): its
 * values over the output's records as a stream of their own, as the GPU's IterToStream pass makes it.
 */
function iterBinding(it: Iter, type: ElementType, o0: Binding, what: string): Binding {
  // the GPU context's checks and words (src/brt/lower.ts, core/kernelargs.ts)
  checkIterForStream(what, type);
  const c = typeInfo(type).components;
  const steps = iterSteps(what, type, it, o0.rank, o0.length, o0.ext);
  const step = steps.step.map((x) => Math.fround(x));
  const s0 = steps.start.map((x) => Math.fround(x));
  const n = o0.length;
  const data = new Float32Array(n * c);
  const [ex, ey, ez] = o0.ext;
  for (let r = 0; r < n; r++) {
    const pos = [r % ex!, Math.floor(r / ex!) % ey!, Math.floor(r / (ex! * ey!)) % ez!, Math.floor(r / (ex! * ey! * ez!))];
    for (let k = 0; k < c; k++) data[r * c + k] = Math.fround(s0[k]! + Math.fround(step[k]! * (c === 1 || o0.rank !== c ? r : pos[k]!)));
  }
  const stream = { type, describe: () => `iterator ${type}` } as unknown as CpuStream;
  return { stream, data, comps: c, char: false, ext: [...o0.ext], full: [...o0.ext], origin: [0, 0, 0, 0], view: false, rank: o0.rank, length: n };
}

interface Compiled {
  run: (env: Env) => void;
  source: string;
}

interface Env {
  n: number;
  /** A masked run's gate (masks.ts): records that may run, and the records written. */
  gateRun?: Uint8Array | null;
  gateWrote?: Uint8Array | null;
  gateStore?: boolean;
  data: Record<string, CpuData>;
  gathers: Record<string, unknown>;
  uniforms: Record<string, unknown>;
  iters: Record<string, { start: number[]; step: number[] }>;
  /** voutRun's collection of a vout kernel's pushes (vout.ts). */
  vout?: VoutCollect;
}

const cache = new WeakMap<object, Map<string, Compiled>>();

/** The JavaScript a CPU run of `spec` executes (for looking at it beside the GLSL), given a plan key's bindings. */
export function kernelSource(spec: KernelSpec): string {
  const js = jsOf(spec);
  const text = [js.globals, js.functions, `function brook_kernel() {\n${js.body}\n}`].filter(Boolean).join('\n');
  const note = '// g_name$k(...): a gather of k indices, slowest first (g_name$ki: every index whole, so no floor); each run writes it for the bound stream\'s shape and edge clamp\n';
  return /\bg_\w+\$\d/.test(text) ? note + text : text;
}

/** parseBrook's kernels of the Brook sources descriptions carried here lately (a module's kernels share one), by loop bound and source. */
const recompiled = new Map<string, Record<string, KernelSpec>>();
const RECOMPILED_KEPT = 8;

/**
 * A description the Brook front end made that has lost its typed tree (a module written by
 * `npx brookgl`, a description copied as data) gets the tree of the same kernel compiled again
 * from the Brook source it carries (origin.source), with its own loop bound; then it runs as the
 * brook tag's kernel does. The two must agree: a description whose GLSL differs from what its
 * source compiles to (edited by hand) is refused.
 */
function recompile(spec: KernelSpec): void {
  const source = spec.origin?.source;
  if (typeof source !== 'string' || hasKernelTree(spec)) return;
  const bound = spec.maxIterations ?? Infinity;
  const key = `${bound}\u0000${source}`;
  let all = recompiled.get(key);
  if (!all) {
    try {
      all = parseBrook(source, { maxIterations: bound });
    } catch (e) {
      throw new BrookError(`kernel ${spec.name}: the Brook source the description carries (origin.source) does not compile: ${e instanceof Error ? e.message : String(e)}`);
    }
    recompiled.set(key, all);
    if (recompiled.size > RECOMPILED_KEPT) recompiled.delete(recompiled.keys().next().value!);
  }
  const twin = Object.prototype.hasOwnProperty.call(all, spec.name) ? all[spec.name] : undefined;
  check(
    twin !== undefined && canonical(twin) === canonical(spec),
    () => `kernel ${spec.name}: the description differs from ${twin ? 'the kernel' : 'every kernel'} its Brook source (origin.source) compiles to (changed after the Brook front end made it); the CPU backend runs a kernel as its Brook source compiles: compile the source again (the brook tag, npx brookgl), or run this description on a GPU context (createContext())`,
  );
  adoptKernelTree(spec, twin!);
}

/** A description as text, keys sorted at every level, for telling whether two are the same (origin aside: its text is for messages). */
function canonical(spec: KernelSpec): string {
  const { origin: _origin, ...rest } = spec;
  return JSON.stringify(rest, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  );
}

function jsOf(spec: KernelSpec, run?: { wholeIters?: ReadonlyMap<string, number>; positionBound?: number }): KernelJs {
  recompile(spec);
  const js = kernelJs(spec, false, run);
  if (js) return js;
  // the library's copies (a domain's host I/O, an iterator made a stream) are the descriptions the CPU runs without the front end: `o = i;`
  const copy = /^\s*(\w+) = (\w+);\s*$/.exec(spec.body);
  if (copy && !spec.helpers && !spec.prologue && spec.outputs[copy[1]!] && (spec.inputs?.[copy[2]!] || spec.iters?.[copy[2]!])) {
    return { body: `${jsVar(copy[1]!)} = ${jsVar(copy[2]!)};`, functions: '', globals: 'function brook_globals() {}', structs: {}, saturating: [copy[1]!] };
  }
  throw new BrookError(`kernel ${spec.name}: the CPU backend runs kernels written in Brook (the brook tag, parseBrook); this description's body is GLSL only: run it on a GPU context (createContext())`);
}

/**
 * Runs `spec` over `args` on the CPU. Reduce kernels go to runReduce. `gateFor`, given the output
 * the run covers, plans a masked run (masks.ts: z masks, regions, write masks, counting); the
 * result is what its finish() returns (the records written, or -1 when nobody counts them). A
 * vout kernel run with its output given writes its slots as a GPU pass does; with `collect`
 * (voutRun) it runs over its first input's records and keeps their pushes there (vout.ts).
 */
export function runCpuKernel(spec: KernelSpec, args0: KernelArgs, gateFor?: (target: RunTarget) => RunGate, collect?: VoutCollect): number {
  const where = (n: string) => `kernel ${spec.name}, argument '${n}'`;
  check(args0 !== null && typeof args0 === 'object', () => `kernel ${spec.name}: the arguments must be an object of streams and values by parameter name, got ${describeValue(args0)}`);
  const args = expandStructArgs(spec.name, spec.structParams, args0) as Record<string, unknown>;
  const structOf = (n: string) => Object.entries(spec.structParams ?? {}).find(([p, sp]) => sp.struct.fields.some((f) => fieldParam(p, f.name) === n))?.[0];
  const vout = voutPlan(spec, collect);
  const outNames = collect ? [] : Object.keys(spec.outputs);
  const outs = outNames.map((n) => bind(args[n], where(n)));
  const firstIn = Object.keys(spec.inputs ?? {})[0]!;
  const o0 = collect ? bind(args[firstIn], where(firstIn)) : outs[0]!;
  // the GPU context's checks and words (core/kernelargs.ts bindArguments)
  const described = (n: string) => (args[n] as { describe(): string }).describe();
  const same = (a: readonly number[], b: readonly number[]) => a.every((x, k) => x === b[k]);
  outs.forEach((o, k) => {
    const n = outNames[k]!;
    check(o.stream.type === spec.outputs[n], () => `${where(n)}: expected a ${spec.outputs[n]} stream, got a ${o.stream.describe()}`);
    check(o.stream.layout.length === o0.stream.layout.length && o.stream.layout.width === o0.stream.layout.width, () => `${where(n)}: all outputs must have the same shape; got ${described(n)} and ${described(outNames[0]!)}`);
    check(
      o.view === o0.view && same(o.origin, o0.origin) && same(o.ext, o0.ext),
      () => `${where(n)}: outputs written through domains must all cover the same records (the same domain of streams of one shape); got ${described(n)} and ${described(outNames[0]!)}`,
    );
    check(outs.findIndex((x) => x.stream === o.stream) === k, () => `${where(n)}: the same stream is passed as two outputs`);
  });
  const inNames = Object.keys(spec.inputs ?? {});
  const ins = inNames.map((n) => {
    const a = args[n];
    const b = a instanceof Iter ? iterBinding(a, spec.inputs![n]!, o0, where(n)) : bind(a, where(n));
    check(b.stream.type === spec.inputs![n], () => `${where(n)}: expected a ${spec.inputs![n]} stream, got a ${b.stream.describe()}`);
    check(spec.resample || b.length === o0.length, () => `${where(n)}: a ${a instanceof Iter ? b.stream.describe() : described(n)} cannot be read elementwise over a domain of ${o0.length} records (lengths must match; use a gather [] to read other shapes)`);
    return b;
  });
  const gNames = Object.keys(spec.gathers ?? {}).filter((n) => n !== REDUCE_SOURCE);
  const gathers: Record<string, unknown> = {};
  const gBound: Record<string, Binding> = {};
  const gBinds = gNames.map((n) => {
    const b = bind(args[n], where(n));
    check(b.stream.type === spec.gathers![n], () => `${where(n)}: expected a ${spec.gathers![n]} stream, got a ${b.stream.describe()}`);
    gathers[n] = gatherOf(b);
    gBound[n] = b;
    return b;
  });
  const iters: Env['iters'] = {};
  const wholeIters = new Map<string, number>();
  for (const [n, type] of Object.entries(spec.iters ?? {})) {
    const steps = iterSteps(where(n), type, args[n], o0.rank, o0.length, o0.ext); // checked as a GPU context checks it (core/kernelargs.ts)
    iters[n] = { start: steps.start.map((x) => Math.fround(x)), step: steps.step.map((x) => Math.fround(x)) };
    // whole start and step: every value start + step * position (float32) is a whole number; within
    // 2^24 float32 holds each exactly (the bound: |start| + |step| * the largest position)
    const { start, step } = iters[n]!;
    if ([...start, ...step].every((x) => Number.isInteger(x))) {
      const last = (k: number) => (start.length === 1 || o0.rank === 1 ? o0.length : o0.ext[k]!) - 1;
      const bound = Math.max(...start.map((s, k) => Math.abs(s) + Math.abs(step[k]!) * last(k)));
      wholeIters.set(n, bound <= 2 ** 24 ? bound : Infinity);
    }
  }
  const uniforms: Record<string, unknown> = {};
  for (const [n, type] of Object.entries(spec.uniforms ?? {})) {
    if (n.startsWith('reduce_')) continue;
    const v = args[n];
    check(v !== undefined, () => `${where(n)} is missing: pass a ${type} value`);
    uniforms[n] = uniformValue(where(n), type, v);
  }
  const lay = o0.stream.layout;
  const gate = gateFor?.({ width: lay.width, height: lay.height, dims: lay.dims, length: o0.stream.length, view: o0.view });
  // outputs that are also read go to a copy
  const readStreams = new Set<CpuStream>([...ins, ...gBinds].map((b) => b.stream));
  const targets = outs.map((o) => (readStreams.has(o.stream) || outs.filter((p) => p.stream === o.stream).length > 1 ? o.data.slice() : o.data));
  const data: Record<string, CpuData> = {};
  inNames.forEach((n, k) => (data[`in_${n}`] = ins[k]!.data));
  outNames.forEach((n, k) => (data[`out_${n}`] = targets[k]!));
  for (const n of gNames) data[`gd_${n}`] = gBound[n]!.data;

  const plan: Plan = { o0, outs, ins, inNames, outNames, structOf, gathers: gBound, wholeIters, gated: gate !== undefined && (gate.run !== null || gate.wrote !== null), vout };
  const key = planKey(plan);
  let byKey = cache.get(spec);
  if (!byKey) cache.set(spec, (byKey = new Map()));
  let compiled = byKey.get(key);
  if (!compiled) {
    compiled = compile(spec, plan);
    byKey.set(key, compiled);
  }
  compiled.run({ n: o0.length, data, gathers, uniforms, iters, gateRun: gate?.run ?? null, gateWrote: gate?.wrote ?? null, gateStore: gate?.store ?? true, vout: collect });
  outs.forEach((o, k) => {
    if (targets[k] !== o.data) o.stream.data = targets[k]!;
  });
  return gate ? gate.finish() : -1;
}

interface Plan {
  o0: Binding;
  outs: Binding[];
  ins: Binding[];
  inNames: string[];
  outNames: string[];
  structOf: (n: string) => string | undefined;
  /** Whether the run is gated (masks.ts): the loop skips records its gate holds off and marks those written. */
  gated?: boolean;
  /** A vout kernel's run: its slots or voutRun's collection (vout.ts). */
  vout?: VoutPlan;
  /** Gathers bound, by parameter (their accessors are written for these shapes; none: the run's gatherOf functions). */
  gathers?: Record<string, Binding>;
  /** Iterators whose every value is a whole number (integer start and step). */
  wholeIters?: ReadonlyMap<string, number>;
}

function planKey(p: Plan): string {
  const b = (x: Binding) => `${x.view ? `v${x.origin}/${x.full}` : ''}${x.ext}`;
  const g = Object.entries(p.gathers ?? {}).map(([n, x]) => `${n}:${x.origin}/${x.full}/${x.ext}/${x.comps}${x.char ? 'c' : ''}`);
  return [b(p.o0), ...p.outs.map(b), ...p.ins.map(b), ...g, [...(p.wholeIters ?? [])].join(','), ...(p.vout ? [JSON.stringify(p.vout)] : [])].join('|') + (p.gated ? '|gated' : '');
}

/** What the JavaScript generator is told of a run: iterators whose values are whole (with a bound), and a bound on indexof. */
function runFacts(p: Plan): { wholeIters?: ReadonlyMap<string, number>; positionBound: number } {
  return { wholeIters: p.wholeIters, positionBound: Math.max(...p.o0.ext, ...p.ins.flatMap((b) => b.ext)) };
}

/**
 * The accessors `g_u$k` / `g_u$ki` (js.ts gatherCall) a kernel's JavaScript calls: for a gather
 * bound in the plan, the clamp and the read written out for its stream's shape, the indices'
 * floor left out where they are whole (`i`); otherwise (a struct's field streams, a reduce
 * kernel's fold) a call of the run's gatherOf function.
 */
function accessors(text: string, spec: KernelSpec, p: Plan): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/\bg_(\w+?)\$([1-4])(i?)\(/g)) {
    const [, n, ks, wi] = m;
    const name = `${jsGather(n!)}$${ks}${wi}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const k = Number(ks);
    const args = Array.from({ length: k }, (_, j) => `a${k - 1 - j}`);
    const b = p.gathers?.[n!];
    if (!b || !spec.gathers?.[n!]) {
      out.push(`function ${name}(${args.join(', ')}) { return ${jsGather(n!)}(${args.join(', ')}); }`);
      continue;
    }
    // a0 is x (the fastest), a1 y, ...; a dimension of extent 1, or past the indices given, is 0
    // the clamped coordinate is a whole number in [0, e - 1]: `| 0` keeps it and makes it an int32
    const clamp = (x: string, e: number) => (e === 1 ? '0' : `(${wi ? x : `(${x} = Math.floor(${x}))`} > 0 ? (${x} < ${e - 1} ? ${x} : ${e - 1}) : 0)${e <= 2 ** 31 ? ' | 0' : ''}`).replace(/^(.*) \| 0$/, '(($1) | 0)');
    const body: string[] = [];
    const c: string[] = ['0', '0', '0', '0'];
    if (k === 1 && b.ext[1]! * b.ext[2]! * b.ext[3]! > 1) {
      // a scalar counts records in row-major order
      body.push(`let i = ${clamp('a0', b.ext[0]! * b.ext[1]! * b.ext[2]! * b.ext[3]!)};`);
      body.push(`const x = i % ${b.ext[0]}; i = (i - x) / ${b.ext[0]}; const y = i % ${b.ext[1]}; i = (i - y) / ${b.ext[1]}; const z = i % ${b.ext[2]}; const w = (i - z) / ${b.ext[2]};`);
      c.splice(0, 4, 'x', 'y', 'z', 'w');
    } else {
      for (let d = 0; d < Math.min(k, 4); d++) c[d] = clamp(`a${d}`, b.ext[d]!);
    }
    const stride = [1, b.full[0]!, b.full[0]! * b.full[1]!, b.full[0]! * b.full[1]! * b.full[2]!];
    const base = b.origin.reduce((s, o, d) => s + o * stride[d]!, 0);
    const terms = c.map((x, d) => (x === '0' ? '' : stride[d] === 1 ? x : `${x} * ${stride[d]}`)).filter(Boolean);
    if (base) terms.push(String(base));
    const flat = terms.length ? terms.join(' + ') : '0';
    const D = `gd_${n}`;
    const at = (i: string) => (b.char ? `f(${D}[${i}] / 255)` : `${D}[${i}]`);
    if (b.comps === 1) body.push(`return ${at(flat)};`);
    else body.push(`const o = (${flat}) * ${b.comps};`, `return [${Array.from({ length: b.comps }, (_, j) => at(j ? `o + ${j}` : 'o')).join(', ')}];`);
    out.push(`function ${name}(${args.join(', ')}) {\n${body.join('\n')}\n}`);
  }
  return out;
}

/**
 * The same gather read twice in one statement of a kernel's body (`u[p]` in a stencil's centre
 * term and its -4·u[p]) read once: the line's repeated accessor calls whose indices are plain
 * arithmetic (names, components `v[1]`, numbers, + − × /, `f(...)`) of names the line does not
 * assign (vectors are never changed in place, only assigned anew) become a
 * `const` before it (lines of an expression statement, declarations or an if's test). An accessor only reads a stream the run does not write (an output that is
 * also read goes to a copy), so reading it earlier reads the same record.
 */
function sharedGathers(body: string): string {
  let k = 0;
  return body
    .split('\n')
    .map((line) => {
      // statements evaluated once where they stand: an expression, declarations, an if's test
      // (not a loop's test, nor a line that closes a block first)
      if (!/^(\(|let |if \()/.test(line) || /\b(while|for|do)\b/.test(line)) return line;
      const calls = new Map<string, number>();
      for (const m of line.matchAll(/\bg_\w+?\$[1-4]i?\(/g)) {
        let depth = 0;
        let end = m.index! + m[0].length - 1;
        for (; end < line.length; end++) {
          if (line[end] === '(') depth++;
          else if (line[end] === ')' && --depth === 0) break;
        }
        const call = line.slice(m.index!, end + 1);
        calls.set(call, (calls.get(call) ?? 0) + 1);
      }
      const pre: string[] = [];
      let out = line;
      for (const [call, n] of calls) {
        if (n < 2) continue;
        const args = call.slice(call.indexOf('(') + 1, -1);
        const plain = args.replace(/\bf\(/g, '(');
        if (!/^[\w$\s.+\-*/(),]*$/.test(plain.replace(/\[\d+\]/g, '')) || /[\w$]\s*\(/.test(plain)) continue;
        const names = new Set(plain.match(/[A-Za-z_$][\w$]*/g) ?? []);
        const assigned = [...names].some((id) => {
          const e = id.replace(/\$/g, '\\$');
          return new RegExp(`(^|[^\\w$.])${e}\\s*(=(?!=)|\\+\\+|--|[-+*/%&|^]=|<<=|>>>?=)|(\\+\\+|--)\\s*${e}(?![\\w$])`).test(line);
        });
        if (assigned) continue;
        const name = `brook_g${k++}`;
        pre.push(`const ${name} = ${call};`);
        out = out.split(call).join(name);
      }
      return pre.length ? `${pre.join(' ')} ${out}` : line;
    })
    .join('\n');
}

function uniformValue(what: string, type: string, v: unknown): unknown {
  if (/^mat[234]$/.test(type)) return matrixUniform(what, Number(type[3]), v);
  const n = type === 'bool' ? 1 : typeInfo(type as ElementType).components;
  const host = type === 'bool' ? 'bool' : typeInfo(type as ElementType).host;
  const one = (x: unknown, k: string): number | boolean => {
    if (host === 'bool') return !!x;
    check(typeof x === 'number' && !Number.isNaN(x as number) || typeof x === 'number', () => `${what}${k}: expected a number, got ${describeValue(x)}`);
    const y = x as number;
    return host === 'int' ? y | 0 : host === 'uint' ? y >>> 0 : host === 'char' ? Math.fround(y) : Math.fround(y);
  };
  if (n === 1) {
    check(typeof v === 'number' || typeof v === 'boolean', () => `${what}: expected a number for the ${type} constant, got ${describeValue(v)}`);
    return one(v, '');
  }
  check((Array.isArray(v) || ArrayBuffer.isView(v)) && (v as ArrayLike<number>).length === n, () => `${what}: expected ${n} numbers for the ${type} constant, got ${describeValue(v)}`);
  return Array.from(v as ArrayLike<number>, (x, k) => one(x, `[${k}]`));
}

function compile(spec: KernelSpec, p: Plan): Compiled {
  const js = jsOf(spec, runFacts(p));
  const { o0 } = p;
  const lines: string[] = ['"use strict";', 'const f = Math.fround;'];
  // struct types
  lines.push(`const STRUCTS = {${Object.entries(js.structs).map(([n, fs]) => `${JSON.stringify(n)}: () => ({${fs.map((x) => `${x.name}: ${x.zero}`).join(', ')}})`).join(', ')}};`);
  lines.push(`const FIELDS = ${JSON.stringify(Object.fromEntries(Object.entries(js.structs).map(([n, fs]) => [n, fs.map((x) => x.name)])))};`);
  lines.push('const zeroStruct = (n) => STRUCTS[n]();');
  lines.push('const mkStruct = (n, vals) => { const o = {}; FIELDS[n].forEach((k, i) => (o[k] = vals[i])); return o; };');
  lines.push(js.globals);
  const max = spec.maxIterations;
  lines.push('let brook_iterations = 0, brook_overrun = false, discarded = false;');
  lines.push(max !== undefined ? `function loop() { if (brook_iterations >= ${max}) { brook_overrun = true; return false; } brook_iterations++; return true; }` : 'function loop() { return true; }');
  lines.push('let cx = 0, cy = 0, cz = 0, cw = 0, r = 0;');
  lines.push('function indexof() { return [cx, cy, cz, cw]; }');
  lines.push('function push() { R.discard(); }');
  // names bound per run (gathers, constants, arrays): declared here, set by the run function
  const binds: string[] = [];
  const bound: string[] = [];
  const bindLine = (name: string, value: string) => {
    bound.push(name);
    binds.push(`${name} = ${value};`);
  };
  // gathers: plain ones and struct gathers made of their fields
  const structGathers = new Map<string, string[]>();
  for (const n of Object.keys(spec.gathers ?? {})) {
    if (n === REDUCE_SOURCE) continue;
    const s = p.structOf(n);
    if (s) structGathers.set(s, [...(structGathers.get(s) ?? []), n]);
    else bindLine(jsGather(n), `env.gathers[${JSON.stringify(n)}]`);
    if (!s && p.gathers?.[n]) bindLine(`gd_${n}`, `env.data[${JSON.stringify(`gd_${n}`)}]`);
  }
  for (const [s, fields] of structGathers) {
    const sp = spec.structParams![s]!;
    bindLine(jsGather(s), `((g) => (...i) => ({${sp.struct.fields.map((fl, k) => `${fl.name}: g[${JSON.stringify(fields[k])}](...i)`).join(', ')}}))(env.gathers)`);
  }
  // uniforms (struct constants as objects)
  const structUniforms = new Map<string, string[]>();
  for (const n of Object.keys(spec.uniforms ?? {})) {
    if (n.startsWith('reduce_')) continue;
    const s = p.structOf(n);
    if (s) structUniforms.set(s, [...(structUniforms.get(s) ?? []), n]);
    else bindLine(jsVar(n), `env.uniforms[${JSON.stringify(n)}]`);
  }
  for (const [s, fields] of structUniforms) {
    const sp = spec.structParams![s]!;
    bindLine(jsVar(s), `{${sp.struct.fields.map((fl, k) => `${fl.name}: env.uniforms[${JSON.stringify(fields[k])}]`).join(', ')}}`);
  }
  // inputs, iterators, outputs: per record
  const structIns = new Map<string, string[]>();
  const structOuts = new Map<string, string[]>();
  p.inNames.forEach((n) => {
    const s = p.structOf(n);
    if (s) structIns.set(s, [...(structIns.get(s) ?? []), n]);
  });
  p.outNames.forEach((n) => {
    const s = p.structOf(n);
    if (s) structOuts.set(s, [...(structOuts.get(s) ?? []), n]);
  });
  const decl = new Set<string>();
  for (const n of [...p.inNames, ...p.outNames, ...Object.keys(spec.iters ?? {}), ...structIns.keys(), ...structOuts.keys()]) decl.add(jsVar(n));
  if (spec.brook?.reduce) decl.add(jsVar(spec.brook.reduce.input)).add(jsVar(spec.brook.reduce.result));
  if (spec.brook?.vout) decl.add(jsVar(spec.brook.vout.output));
  if (decl.size) lines.push(`let ${[...decl].join(', ')};`);
  p.inNames.forEach((n) => bindLine(`in_${n}`, `env.data[${JSON.stringify(`in_${n}`)}]`));
  p.outNames.forEach((n) => bindLine(`out_${n}`, `env.data[${JSON.stringify(`out_${n}`)}]`));
  for (const n of Object.keys(spec.iters ?? {})) bindLine(`it_${n}`, `env.iters[${JSON.stringify(n)}]`);
  // var: read by the functions below with no check of let's temporal dead zone
  if (bound.length) lines.push(`var ${bound.join(', ')};`);
  // indexof of an input: its own record's position (resampled inputs differ from the output's)
  p.inNames.forEach((n, k) => {
    const b = p.ins[k]!;
    const same = b.length === o0.length;
    const e = b.ext;
    lines.push(
      same
        ? `function indexof_${n}() { let i = r; const x = i % ${e[0]}; i = (i - x) / ${e[0]}; const y = i % ${e[1]}; i = (i - y) / ${e[1]}; const z = i % ${e[2]}; return [x, y, z, (i - z) / ${e[2]}]; }`
        : `function indexof_${n}() { return [Math.floor(cx * ${e[0]} / ${o0.ext[0]}), Math.floor(cy * ${e[1]} / ${o0.ext[1]}), Math.floor(cz * ${e[2]} / ${o0.ext[2]}), Math.floor(cw * ${e[3]} / ${o0.ext[3]})]; }`,
    );
  });
  // the record loop's body (below) is the kernel's inlined (js.ts, inline)
  const inl = kernelJs(spec, true, runFacts(p));
  const inlineBody = inl ? sharedGathers(inl.body) : js.body;
  lines.push(...accessors(`${js.functions}\n${js.body}\n${inlineBody}`, spec, p));
  lines.push(js.functions);
  lines.push(`function brook_kernel() {\n${js.body}\n}`);
  lines.push('function brook_setpos(a, b, c, d) { cx = a; cy = b; cz = c; cw = d; }');

  const globals = /\S/.test(js.globals.replace(/^let .*;$/m, '').replace('function brook_globals() {', '').replace(/}\s*$/, ''));
  if (spec.brook?.reduce) return compileReduce(spec, lines, binds, inl ? inlineBody : undefined, globals, /loop\(\)/.test(inlineBody + js.functions));

  // the record loop, in a function of its own whose per-record values are locals (V8 keeps them
  // in registers): the kernel's body inlined in `brook_body: { ... }`, its return and discard
  // leaving the block (js.ts, inline); the factory's names stay for the functions it calls
  const uses = (name: string) => inlineBody.includes(name);
  const bounded = max !== undefined && /loop\(\)/.test(inlineBody + js.functions);
  const vc = p.vout ? voutCode(spec, p.vout, bounded) : undefined;
  if (vc) lines.push(vc.factory);
  const loop: string[] = [];
  loop.push('function brook_run(env) {');
  for (const line of binds) loop.push(`const ${line}`);
  // a vector iterator the body reads by its components (js.ts JsEmitter.parts) is kept as numbers
  const byParts = (n: string) => inlineBody.includes(`${jsIterPart(n, 0)}`);
  // the record's variables are declared in the loop's body: none is live from one record to the
  // next, so V8 keeps a float in a register (a variable declared outside, undefined at first,
  // made a float a heap number at every assignment); a vector iterator's array (filled in place,
  // below) is the loop's
  const arrays = new Set(Object.entries(spec.iters ?? {}).filter(([n, type]) => type !== 'float' && !byParts(n)).map(([n]) => jsVar(n)));
  const recordVars = [...decl].filter((v) => !arrays.has(v));
  for (const [n, type] of Object.entries(spec.iters ?? {})) if (type !== 'float' && byParts(n)) recordVars.push(...Array.from({ length: Number(type[5]) }, (_, k) => jsIterPart(n, k)));
  loop.push(`let cx = 0, cy = 0, cz = 0, cw = 0, discarded = false${arrays.size ? `, ${[...arrays].join(', ')}` : ''};`);
  // Math.fround as a local: no load of the factory's f per call
  loop.push('const n = env.n, f = Math.fround;');
  if (p.gated) loop.push('const gate_run = env.gateRun, gate_wrote = env.gateWrote, gate_store = env.gateStore;');
  if (vc) loop.push(...vc.setup);
  // iterators: start and step as locals
  for (const [n, type] of Object.entries(spec.iters ?? {})) {
    const c = type === 'float' ? 1 : Number(type[5]);
    // whole within 2^24 (p.wholeIters): start and step as int32s, the values computed exactly
    const int = (p.wholeIters?.get(n) ?? Infinity) <= 2 ** 24 ? ' | 0' : '';
    for (let k = 0; k < c; k++) loop.push(`const it_${n}_s${k} = it_${n}.start[${k}]${int}, it_${n}_t${k} = it_${n}.step[${k}]${int};`);
  }
  for (const [n, type] of Object.entries(spec.iters ?? {})) if (arrays.has(jsVar(n))) loop.push(`${jsVar(n)} = [${Array(Number(type[5])).fill('0').join(', ')}];`);
  loop.push('for (let r = 0; r < n; r++) {');
  if (recordVars.length) loop.push(`let ${recordVars.join(', ')};`);
  const [ex, ey, ez] = o0.ext;
  // the position steps with r, x the fastest (no division per record)
  if (o0.rank === 1 && !o0.view) loop.push('cx = r;');
  else loop.push(`if (r > 0 && ++cx === ${ex}) { cx = 0; if (++cy === ${ey}) { cy = 0; if (++cz === ${ez}) { cz = 0; cw++; } } }`);
  if (js.functions.includes('indexof()')) loop.push('brook_setpos(cx, cy, cz, cw);');
  // a gated run: the record's index in the output's stream, as masks.ts indexes its gate
  const gateIndex = o0.view ? flatExpr(o0, ['cx', 'cy', 'cz', 'cw']) : 'r';
  if (p.gated) loop.push(`if (gate_run !== null && gate_run[${gateIndex}] === 0) continue;`);
  // indexof of an input: its own record's position (resampled inputs differ from the output's); made per record where the body asks
  p.inNames.forEach((n, k) => {
    if (!uses(`indexof_${n}(`)) return;
    const b = p.ins[k]!;
    const same = b.length === o0.length;
    const e = b.ext;
    loop.push(
      same
        ? `const indexof_${n} = () => { let i = r; const x = i % ${e[0]}; i = (i - x) / ${e[0]}; const y = i % ${e[1]}; i = (i - y) / ${e[1]}; const z = i % ${e[2]}; return [x, y, z, (i - z) / ${e[2]}]; };`
        : `const indexof_${n} = () => [Math.floor(cx * ${e[0]} / ${o0.ext[0]}), Math.floor(cy * ${e[1]} / ${o0.ext[1]}), Math.floor(cz * ${e[2]} / ${o0.ext[2]}), Math.floor(cw * ${e[3]} / ${o0.ext[3]})];`,
    );
  });
  const C: [string, string, string, string] = ['cx', 'cy', 'cz', 'cw'];
  const identity = (b: Binding) => !b.view && !o0.view && b.length === o0.length;
  const recOf = (b: Binding): string => {
    if (identity(b)) return 'r';
    if (b.length === o0.length) {
      // same records, another shape or a domain: the same row-major index, unflattened in b's extents
      if (!b.view) return 'r';
      return `((i) => { const x = i % ${b.ext[0]}; i = (i - x) / ${b.ext[0]}; const y = i % ${b.ext[1]}; i = (i - y) / ${b.ext[1]}; const z = i % ${b.ext[2]}; const w = (i - z) / ${b.ext[2]}; return ${flatExpr(b, ['x', 'y', 'z', 'w'])}; })(r)`;
    }
    const rs = C.map((c, k) => (b.ext[k] === o0.ext[k] ? c : `Math.floor(${c} * ${b.ext[k]} / ${o0.ext[k]})`)) as [string, string, string, string];
    return flatExpr(b, rs);
  };
  p.inNames.forEach((n, k) => {
    const b = p.ins[k]!;
    if (p.structOf(n)) return;
    loop.push(`${jsVar(n)} = ${readExpr(`in_${n}`, recOf(b), b)};`);
  });
  for (const [s, fields] of structIns) {
    const sp = spec.structParams![s]!;
    const parts = fields.map((n) => {
      const b = p.ins[p.inNames.indexOf(n)]!;
      return readExpr(`in_${n}`, recOf(b), b);
    });
    loop.push(`${jsVar(s)} = {${sp.struct.fields.map((fl, k) => `${fl.name}: ${parts[k]}`).join(', ')}};`);
  }
  for (const [n, type] of Object.entries(spec.iters ?? {})) {
    const c = type === 'float' ? 1 : Number(type[5]);
    const coord = (k: number) => (c === 1 ? 'r' : o0.rank === c ? C[k]! : 'r');
    const comp = (k: number) => ((p.wholeIters?.get(n) ?? Infinity) <= 2 ** 24 ? `(it_${n}_s${k} + it_${n}_t${k} * ${coord(k)})` : `f(it_${n}_s${k} + f(it_${n}_t${k} * ${coord(k)}))`);
    // a vector iterator's array is made once and filled per record: nothing the body makes
    // outlives its record (vectors are never changed in place, values kept are copied out)
    loop.push(c === 1 ? `${jsVar(n)} = ${comp(0)};` : Array.from({ length: c }, (_, k) => `${byParts(n) ? jsIterPart(n, k) : `${jsVar(n)}[${k}]`} = ${comp(k)};`).join(' '));
  }
  p.outNames.forEach((n) => {
    if (p.structOf(n)) return;
    const info = typeInfo(spec.outputs[n]!);
    loop.push(`${jsVar(n)} = ${info.components === 1 ? '0' : `[${Array(info.components).fill('0').join(', ')}]`};`);
  });
  for (const [s] of structOuts) loop.push(`${jsVar(s)} = zeroStruct(${JSON.stringify(spec.structParams![s]!.struct.name)});`);
  if (globals) loop.push('brook_globals();');
  loop.push('discarded = false;');
  if (vc) loop.push(vc.record);
  if (bounded) loop.push('brook_iterations = 0; brook_overrun = false;');
  const throwsDiscard = /R\.discard\(\)/.test(js.functions);
  const block = `brook_body: {\n${inlineBody}\n}`;
  loop.push(throwsDiscard ? `try { ${block} } catch (e) { if (e !== DISCARD) throw e; discarded = true; }` : block);
  loop.push(vc?.discard ? `if (discarded) { ${vc.discard} continue; }` : 'if (discarded) continue;');
  if (vc?.after) loop.push(vc.after);
  if (p.gated) loop.push(`if (gate_wrote !== null) gate_wrote[${gateIndex}] = 1;`, 'if (!gate_store) continue;');
  const outIndex = o0.view ? flatExpr(o0, C) : 'r';
  p.outNames.forEach((n, k) => {
    const b = p.outs[k]!;
    const type = spec.outputs[n]!;
    const info = typeInfo(type);
    const s = p.structOf(n);
    const v = s ? `${jsVar(s)}.${n.slice(s.length + 1)}` : jsVar(n);
    const idx = b.view || o0.view ? flatExpr(b, C) : outIndex;
    const nan = bounded && info.kind === 'float' ? `brook_overrun ? ${info.components === 1 ? 'NaN' : `[${Array(info.components).fill('NaN').join(', ')}]`} : ` : '';
    loop.push(writeStmt(`out_${n}`, idx, `(${nan}${v})`, b, info.kind, js.saturating.includes(n)));
  });
  loop.push('}');
  loop.push('}');
  const source = [...lines, ...loop, 'return (env) => {', ...binds, 'brook_run(env);', '};'].join('\n');
  return { run: build(source, spec)(R, DISCARD) as (env: Env) => void, source };
}

/** A reduce kernel's fold: `fold(records)` folds them in order with the kernel body (r holds the fold so far, a the next). */
function compileReduce(spec: KernelSpec, lines: string[], binds: string[], inlineBody: string | undefined, globals: boolean, bounded: boolean): Compiled {
  const red = spec.brook!.reduce!;
  const A = jsVar(red.input);
  const Rr = jsVar(red.result);
  const info = typeInfo(red.type);
  const b = { comps: info.components, char: info.host === 'char' };
  // one application of the body: inlined in the fold's loop, its fold and record locals (js.ts, inline)
  const step = inlineBody === undefined
    ? ['brook_globals(); discarded = false; brook_iterations = 0;', 'brook_kernel();']
    : [`${globals ? 'brook_globals(); ' : ''}discarded = false;${bounded ? ' brook_iterations = 0;' : ''}`, `brook_body: {\n${inlineBody}\n}`];
  const fold = (index: string) => [`for (let k = 1; k < n; k++) {`, `${A} = ${readExpr('d', index, b)};`, ...step, '}'];
  const body = [
    'return (env) => {',
    ...binds,
    // over a stream's array: records first, first + 1, ... (or those env.index lists), in order
    'if (env.src) {',
    '  const d = env.src, ix = env.index, n = env.count, first = env.first;',
    `  let ${A}, ${Rr} = ${readExpr('d', 'ix ? ix[0] : first', b)}, discarded = false;`,
    '  if (ix) {',
    ...fold('ix[k]'),
    '  } else {',
    ...fold('first + k'),
    '  }',
    `  return ${Rr};`,
    '}',
    'const recs = env.records;',
    `${Rr} = recs[0];`,
    'for (let k = 1; k < recs.length; k++) {',
    `  ${A} = recs[k];`,
    '  brook_globals(); discarded = false; brook_iterations = 0;',
    '  brook_kernel();',
    '}',
    `return ${Rr};`,
    '};',
  ];
  const source = [...lines, ...body].join('\n');
  return { run: build(source, spec)(R, DISCARD) as unknown as (env: Env) => void, source };
}

function build(source: string, spec: KernelSpec): (r: typeof R, discard: unknown) => unknown {
  try {
    return new Function('R', 'DISCARD', source) as never;
  } catch (e) {
    throw compileError(e, spec.name); // (a Content-Security-Policy without 'unsafe-eval' says so: csp.ts)
  }
}

/** Whether a reduce kernel's 8-bit results saturate (BrookGPU's fixed types) rather than wrap modulo 256 (char, uchar). */
export function charSaturates(spec: KernelSpec): boolean {
  return jsOf(spec).saturating.length > 0;
}

/** One application of a reduce kernel: `step(x, r)` is what the body leaves in r given the stream record x. */
export function reduceStep(spec: KernelSpec, args: KernelArgs): (x: unknown, r: unknown) => unknown {
  const { gathers, uniforms, compiled } = reducePrep(spec, args);
  return (x, r) => (compiled.run as unknown as (e: unknown) => unknown)({ records: [r, x], gathers, uniforms, iters: {}, data: {}, n: 0 });
}

function reducePrep(spec: KernelSpec, args: KernelArgs): { gathers: Record<string, unknown>; uniforms: Record<string, unknown>; compiled: Compiled } {
  const where = (n: string) => `reduce kernel ${spec.name}, argument '${n}'`;
  const gathers: Record<string, unknown> = {};
  for (const n of Object.keys(spec.gathers ?? {})) if (n !== REDUCE_SOURCE) gathers[n] = gatherOf(bind(args[n], where(n)));
  const uniforms: Record<string, unknown> = {};
  for (const [n, type] of Object.entries(spec.uniforms ?? {})) {
    if (n.startsWith('reduce_')) continue;
    check(args[n] !== undefined, () => `${where(n)} is missing: pass a ${type} value`);
    uniforms[n] = uniformValue(where(n), type, args[n]);
  }
  let byKey = cache.get(spec);
  if (!byKey) cache.set(spec, (byKey = new Map()));
  let compiled = byKey.get('reduce');
  if (!compiled) {
    const none = { data: new Float32Array(0), comps: 1, char: false, ext: [1, 1, 1, 1], full: [1, 1, 1, 1], origin: [0, 0, 0, 0], view: false, rank: 1, length: 1 } as unknown as Binding;
    compiled = compile(spec, { o0: none, outs: [], ins: [], inNames: [], outNames: [], structOf: () => undefined });
    byKey.set('reduce', compiled);
  }
  return { gathers, uniforms, compiled };
}

/**
 * Runs a reduce kernel on the CPU: its result stream of one record folds the whole stream in
 * record order; of m records (1D) or [h, w] (2D), record k folds its block, row by row, as
 * src/brt/reducekernel.ts describes for the GPU passes.
 */
export function runCpuReduce(spec: KernelSpec, args: KernelArgs): void {
  const red = spec.brook!.reduce!;
  const where = (n: string) => `reduce kernel ${spec.name}, argument '${n}'`;
  const src = bind(args[red.input], where(red.input));
  const out = bind(args[red.result], where(red.result));
  check(src.stream.type === red.type, () => `${where(red.input)}: expected a ${red.type} stream, got a ${src.stream.describe()}`);
  check(out.stream.type === red.type, () => `${where(red.result)}: expected a ${red.type} stream, got a ${out.stream.describe()}`);
  const { gathers, uniforms, compiled } = reducePrep(spec, args);
  // records of src by position (x, y) in its array (a domain's through its origin)
  const at = (x: number, y: number) => x + src.origin[0]! + (y + src.origin[1]!) * src.full[0]!;
  const run = compiled.run as unknown as (e: unknown) => unknown;
  const foldRange = (first: number, count: number) => run({ src: src.data, index: null, first, count, gathers, uniforms });
  const foldIndex = (index: Int32Array) => run({ src: src.data, index, first: 0, count: index.length, gathers, uniforms });
  const put = (k: number, v: unknown) => {
    const vs = Array.isArray(v) ? v : [v];
    vs.forEach((x, j) => (out.data[k * out.comps + j] = out.char ? charStore(x as number, saturating) : (x as number)));
  };
  const saturating = charSaturates(spec);
  const [W, H] = src.ext;
  if (out.length === 1) {
    if (!src.view) return put(0, foldRange(0, src.length));
    const index = new Int32Array(src.length);
    let k = 0;
    for (let w = 0; w < src.ext[3]!; w++) for (let z = 0; z < src.ext[2]!; z++) for (let y = 0; y < src.ext[1]!; y++) for (let x = 0; x < W!; x++) {
      index[k++] = x + src.origin[0]! + (y + src.origin[1]!) * src.full[0]! + (z + src.origin[2]!) * src.full[0]! * src.full[1]! + (w + src.origin[3]!) * src.full[0]! * src.full[1]! * src.full[2]!;
    }
    return put(0, foldIndex(index));
  }
  if (src.rank === 2 && out.rank === 2) {
    const [w, h] = out.ext;
    check(H! % h! === 0 && W! % w! === 0, () => `${where(red.result)}: a [${H}, ${W}] stream reduces to [h, w] only where h divides ${H} and w divides ${W}; got [${h}, ${w}]`);
    const bw = W! / w!;
    const bh = H! / h!;
    for (let row = 0; row < h!; row++) {
      for (let col = 0; col < w!; col++) {
        const index = new Int32Array(bw * bh);
        let k = 0;
        for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) index[k++] = at(col * bw + x, row * bh + y);
        put(row * w! + col, foldIndex(index));
      }
    }
    return;
  }
  check(src.rank === 1 && out.rank === 1, () => `${where(red.result)}: reduce a 1D stream to a 1D stream and a 2D one to a 2D one (or either to one record); got a ${src.stream.describe()} into a ${out.stream.describe()}`);
  check(src.length % out.length === 0, () => `${where(red.result)}: ${src.length} records reduce to m records only where m divides ${src.length}; got ${out.length}`);
  const span = src.length / out.length;
  for (let k = 0; k < out.length; k++) put(k, foldRange(src.origin[0]! + k * span, span));
}

export { glslName };

/** @internal The JavaScript sources compiled for `spec` so far (one per shape plan), for looking at. */
export function compileDebug(spec: KernelSpec): string[] {
  return [...(cache.get(spec)?.values() ?? [])].map((c) => c.source);
}
