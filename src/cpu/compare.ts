/**
 * One call that runs a kernel on a GPU context and on the CPU backend and says, per output,
 * which records differ beyond a tolerance, with the first ones' positions and inputs:
 *
 * ```ts
 * const report = compareBackends(ctx, kernels.step, { x, y, out });
 * if (!report.ok) console.table(report.outputs.out.first);   // record, gpu, cpu, ulps, inputs
 * ```
 *
 * Every stream argument (streams, domains, struct streams and their domains, compared field by
 * field as interleaved records) is copied to a CPU context first (so an output that is also an input is
 * read as it was), the GPU runs the kernel on the arguments as given (its outputs change as
 * ctx.run changes them), the CPU on the copies. Floats compare within `ulps` units in the last
 * place or `abs` absolutely (NaN equals NaN, infinities equal themselves); ints, uints and 8-bit
 * records exactly. GLSL ES 3.00 bounds most built-ins at a few ulps (sin and cos absolutely, to
 * 2^-11), so a kernel that calls them may need a wider tolerance than the default.
 *
 * Masked runs compare too: `options.run` holds the run options both runs take (a z mask of the
 * GPU context, invert, region), and a write mask bound to the GPU context with its test or set
 * enabled (src/brt/writemask.ts) applies to the GPU run as usual. Each GPU depth buffer is read
 * first, exactly, by a pass under its own depth test (a uint target cleared to 0, then 1 where
 * a record drawn at 0.5 passes LESS), and the CPU run gets a depth buffer of the same values, so
 * both runs skip the same records and a skipped record keeps its old value on both.
 *
 * The comparison's own reads of the GPU's streams and depth buffers make GL objects
 * (framebuffers, a pack or depth-read pass's program or texture) that the caller did not ask for: they are counted apart from
 * `ctx.stats()` (`ctx.resources.observed()`), and move to its counts only when the caller's own
 * work uses them, so a page or spec that measures its resources measures its own.
 */
import { check } from '../core/errors';
import type { BrookContext } from '../core/context';
import type { Kernel } from '../core/kernel';
import { Iter, type KernelSpec } from '../core/kernelspec';
import type { KernelArgs } from '../core/kernelargs';
import { Stream } from '../core/stream';
import { StreamDomain } from '../core/domain';
import { StructDomain, StructStream, structStream } from '../core/struct';
import { CpuContext } from './context';
import type { RunOptions } from '../core/kernelspec';
import type { ZMask } from '../core/zmask';
import { boundMaskOn } from '../brt/lower';
import { CpuDepth } from './masks';

/** Float results within this many units in the last place count as equal (compareBackends' default). */
export const COMPARE_ULPS = 4;

export interface CompareOptions {
  /** Floats this many ulps apart or closer are equal. Default COMPARE_ULPS (4). */
  ulps?: number;
  /** Floats this close absolutely are equal too. Default 0. */
  abs?: number;
  /** How many differing records to describe per output. Default 5. */
  first?: number;
  /** The CPU context to run on (default: a new one, disposed after). */
  cpu?: CpuContext;
  /** Also list every differing record's index (OutputComparison.indices), for a diff view. Default false. */
  indices?: boolean;
  /** The run options of both runs: `mask` (a z mask of the GPU context, ctx.zmask; copied to the CPU), `invert`, `region`. Default none. */
  run?: RunOptions;
}

/** A record that differs: where, both answers, and what the kernel read there. */
export interface RecordDifference {
  /** The record's index in the output (row-major). */
  record: number;
  /** Its position, x first (indexof). */
  position: number[];
  gpu: number[];
  cpu: number[];
  /** The largest distance in ulps over its components (floats; Infinity where one is NaN and the other not). */
  ulps: number;
  /** The elementwise inputs' records at the same index (where they have the output's length). */
  inputs: Record<string, number[]>;
}

export interface OutputComparison {
  records: number;
  /** Records beyond the tolerance. */
  differing: number;
  first: RecordDifference[];
  /** Every differing record's index, ascending (with options.indices). */
  indices?: Uint32Array;
}

export interface Comparison {
  /** True when no output differs beyond the tolerance. */
  ok: boolean;
  /** The GPU's renderer string. */
  renderer: string;
  tolerance: { ulps: number; abs: number };
  outputs: Record<string, OutputComparison>;
}

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);
/** Float32 values in the order of their bit patterns (adjacent floats differ by 1). */
function ordered(x: number): number {
  f32[0] = x;
  const b = i32[0]!;
  return b < 0 ? -2147483648 - b : b;
}

/** The distance between two float32 values in units in the last place (0 for NaN and NaN). */
export function ulpDistance(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  if (a === b) return 0;
  return Math.abs(ordered(a) - ordered(b));
}

type Arg = KernelArgs[string];

/** The same argument on the CPU context: streams, domains and struct streams copied (a stream passed twice, once). */
function toCpu(cpu: CpuContext, v: Arg, copies: Map<object, Stream | StructStream>): Arg {
  if (v instanceof StreamDomain) return domainLike(toCpu(cpu, v.stream, copies) as Stream, v);
  if (v instanceof StructDomain) {
    // the same domain of the struct stream's copy (every field's domain has the same bounds)
    const s = toCpu(cpu, v.struct, copies) as StructStream;
    const { start, end } = bounds(s.fields[s.type.fields[0]!.name]!, Object.values(v.fields)[0]!);
    return s.shape.length === 1 ? s.domain(start[0]!, end[0]!) : s.domain(start, end);
  }
  if (!(v instanceof Stream) && !(v instanceof StructStream)) return v;
  let c = copies.get(v);
  if (!c) {
    if (v instanceof StructStream) {
      const s = structStream(cpu as never, v.type, v.shape.length === 1 ? v.shape[0]! : [...v.shape]);
      for (const [k, fs] of Object.entries(v.fields)) (s.fields[k] as Stream).write(fs.readSync());
      c = s;
    } else c = cpu.stream(v.type, v.layout.dims === 1 ? v.length : [...v.shape], v.readSync());
    copies.set(v, c);
  }
  return c as Arg;
}

/** The start and end of the domain `d`, for a domain of the same bounds on `s` (its copy). */
function bounds(s: Stream, d: StreamDomain): { start: number[]; end: number[] } {
  const start = d.origin.slice(0, s.layout.dims);
  return { start, end: start.map((o, k) => o + d.extents[k]!) };
}

/** `d`'s domain of the CPU copy `s` of its stream. */
function domainLike(s: Stream, d: StreamDomain): StreamDomain {
  const { start, end } = bounds(s, d);
  return s.layout.dims === 1 ? s.domain(start[0]!, end[0]!) : s.domain(start, end);
}

/**
 * Which texels of the GPU depth buffer `depth` let a pass drawn at 0.5 with the test LESS through
 * (1) or not (0): a z mask's 1.0 (run) against 0.0, a write mask's 1.0 (clear) against 0.5 (set).
 */
function depthPasses(gpu: BrookContext, depth: ZMask): Uint32Array {
  const flag = gpu.scratch('uint', [depth.height, depth.width]);
  try {
    gpu.runInternal({ name: 'compareBackends: depth read (clear)', outputs: { flag: 'uint' }, body: 'flag = 0u;' }, { flag });
    gpu.runInternal({ name: 'compareBackends: depth read', outputs: { flag: 'uint' }, body: 'flag = 1u;' }, { flag }, { writeMask: { mask: depth, test: true, set: false } });
    return flag.readSync() as Uint32Array;
  } finally {
    flag.dispose();
  }
}

/** A CPU depth buffer for the CPU run's first output holding `value(passes)` per record of the GPU's. */
function cpuDepth(cpu: CpuContext, spec: KernelSpec, cpuArgs: KernelArgs, passes: () => Uint32Array, value: (pass: boolean) => number): CpuDepth | null {
  let out: unknown;
  for (const name of Object.keys(spec.outputs)) {
    out = cpuArgs[name];
    break;
  }
  if (out === undefined) for (const [name, p] of Object.entries(spec.structParams ?? {})) if (p.role === 'outputs' && out === undefined) out = cpuArgs[name];
  const s = out instanceof StreamDomain ? out.stream : out instanceof StructStream ? Object.values(out.fields)[0] : out;
  if (!(s instanceof Stream)) return null; // (no output: the runs refuse the arguments)
  const p = passes();
  const d = cpu.depthBuffer(s.layout.width, s.layout.height) as unknown as CpuDepth;
  const v = d.values();
  for (let i = 0; i < Math.min(v.length, p.length); i++) v[i] = value(p[i] !== 0);
  return d;
}

/** The CPU run's options for a GPU run with `run` and the GPU's bound write mask: its depth buffers copied (disposed with the CPU context's copies). */
function masked(gpu: BrookContext, cpu: CpuContext, spec: KernelSpec, cpuArgs: KernelArgs, run: RunOptions | undefined, depths: CpuDepth[]): RunOptions {
  const o: RunOptions = { ...(run ?? {}) };
  if (run?.mask) {
    // (a z mask of another context, disposed or never built: the GPU run refuses it, with its own message)
    const m = run.mask as ZMask;
    if (m && typeof m === 'object' && !m.disposed && m.ctx === (gpu as never) && m.builds > 0) {
      const d = cpuDepth(cpu, spec, cpuArgs, () => depthPasses(gpu, m), (pass) => (pass ? 1 : 0));
      if (d) (d.builds = m.builds), depths.push(d), (o.mask = d as unknown as ZMask);
    }
  }
  const bound = run?.mask || run?.build || run?.internal || spec.brook?.reduce ? undefined : boundMaskOn(gpu);
  if (bound && !bound.disposed && (bound.testing || bound.setting)) {
    const d = cpuDepth(cpu, spec, cpuArgs, () => depthPasses(gpu, bound.depth), (pass) => (pass ? 1 : 0.5));
    if (d) depths.push(d), (o.writeMask = { mask: d as unknown as ZMask, test: bound.testing, set: bound.setting });
  }
  return o;
}

/**
 * Runs `kernel` on the GPU context `gpu` and on the CPU backend and compares every output record
 * by record (see the module's header). Returns the comparison; throws only for bad arguments.
 * @example const { ok, outputs } = compareBackends(ctx, kernels.saxpy, { a: 2, x, y, r }, { ulps: 2 });
 */
export function compareBackends(gpu: BrookContext, kernel: Kernel | KernelSpec, args: KernelArgs, options: CompareOptions = {}): Comparison {
  check(gpu !== null && typeof gpu === 'object' && typeof gpu.run === 'function', 'compareBackends(gpu, kernel, args): gpu must be a context (createContext())');
  check(args !== null && typeof args === 'object', 'compareBackends(gpu, kernel, args): args must be the kernel\'s arguments by name');
  const ulps = options.ulps ?? COMPARE_ULPS;
  const abs = options.abs ?? 0;
  check(Number.isFinite(ulps) && ulps >= 0, () => `compareBackends: options.ulps must be a number >= 0, got ${String(ulps)}`);
  check(Number.isFinite(abs) && abs >= 0, () => `compareBackends: options.abs must be a number >= 0, got ${String(abs)}`);
  const spec = 'spec' in kernel ? kernel.spec : kernel;
  const cpu = options.cpu ?? new CpuContext();
  const copies = new Map<object, Stream | StructStream>();
  const depths: CpuDepth[] = [];
  // this comparison's reads of the GPU's streams are counted apart from the caller's work (Resources.observe): ctx.stats() is what it would be without them
  const resources = (gpu as { resources?: { observe?: <T>(fn: () => T) => T } }).resources;
  const observe = <T>(fn: () => T): T => (resources && typeof resources.observe === 'function' ? resources.observe(fn) : fn());
  try {
    const cpuArgs: KernelArgs = {};
    observe(() => {
      for (const [k, v] of Object.entries(args)) cpuArgs[k] = toCpu(cpu, v, copies);
    });
    // the inputs as the kernel reads them, before either run writes
    const inputs: Record<string, { data: ArrayLike<number>; comps: number; length: number }> = {};
    for (const n of Object.keys(spec.inputs ?? {})) {
      const v = cpuArgs[n];
      if (v instanceof Stream && !(v instanceof Iter)) inputs[n] = { data: v.readSync(), comps: v.info.components, length: v.length };
    }
    const cpuOptions = observe(() => masked(gpu, cpu, spec, cpuArgs, options.run, depths)); // (its depth reads are the comparison's too)
    gpu.run(kernel, args, options.run);
    cpu.run(kernel, cpuArgs, cpuOptions);
    // struct outputs compare as their struct streams (interleaved records)
    const structOut = Object.entries(spec.structParams ?? {}).filter(([, p]) => p.role === 'outputs');
    const fieldOf = new Set(structOut.flatMap(([n, p]) => p.struct.fields.map((f) => `${n}_${f.name}`)));
    const outNames = spec.brook?.reduce ? [spec.brook.reduce.result] : [...Object.keys(spec.outputs).filter((n) => !fieldOf.has(n)), ...structOut.map(([n]) => n)];
    const outputs: Record<string, OutputComparison> = {};
    let ok = true;
    for (const n of outNames) {
      const g = args[n];
      const c = cpuArgs[n];
      const read = (x: unknown) => (x instanceof StructStream || x instanceof StructDomain || x instanceof Stream || x instanceof StreamDomain ? x.readSync() : undefined);
      const gd = observe(() => read(g));
      const cd = read(c);
      if (!gd || !cd) continue;
      const records = (g as Stream).length;
      const comps = gd.length / records;
      const exact = !(gd instanceof Float32Array);
      const shape = (g as Stream).shape;
      const ext = [...shape].reverse();
      const cmp: OutputComparison = { records, differing: 0, first: [] };
      const marks: number[] | null = options.indices ? [] : null;
      for (let r = 0; r < records; r++) {
        let worst = 0;
        let bad = false;
        for (let k = 0; k < comps; k++) {
          const a = gd[r * comps + k]!;
          const b = cd[r * comps + k]!;
          if (exact) {
            if (a !== b) (bad = true), (worst = Math.max(worst, Math.abs(a - b)));
            continue;
          }
          const d = ulpDistance(a, b);
          worst = Math.max(worst, d);
          if (d > ulps && !(Math.abs(a - b) <= abs)) bad = true;
        }
        if (!bad) continue;
        cmp.differing++;
        marks?.push(r);
        if (cmp.first.length < (options.first ?? 5)) {
          const position: number[] = [];
          let rest = r;
          for (const e of ext) position.push(rest % e), (rest = Math.floor(rest / e));
          const ins: Record<string, number[]> = {};
          for (const [name, x] of Object.entries(inputs)) if (x.length === records) ins[name] = Array.from(x.data).slice(r * x.comps, (r + 1) * x.comps);
          cmp.first.push({ record: r, position, gpu: Array.from(gd).slice(r * comps, (r + 1) * comps), cpu: Array.from(cd).slice(r * comps, (r + 1) * comps), ulps: worst, inputs: ins });
        }
      }
      if (marks) cmp.indices = Uint32Array.from(marks);
      if (cmp.differing) ok = false;
      outputs[n] = cmp;
    }
    return { ok, renderer: gpu.caps.renderer, tolerance: { ulps, abs }, outputs };
  } finally {
    for (const m of copies.values()) m.dispose();
    for (const d of depths) d.dispose();
    if (!options.cpu) cpu.dispose();
  }
}
