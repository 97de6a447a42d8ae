// Both backends under the specs: while a spec of one of SUITES runs (brook/, view/, core/, idioms/,
// reliability/: every spec directory whose specs run kernels on newContext(), except apps/, whose
// apps are GPU-only, and cpu/, whose specs call compareBackends themselves), each plain
// `ctx.run` of a GPU context made by newContext() is also run on the CPU backend through
// compareBackends (the same arguments, copied before either run writes) and the records compared
// (floats within COMPARE_ULPS, ints and 8-bit records exactly). The spec fails on a difference
// unless its kernel is listed in BY_RULE with the documented rule (docs/brook.md, "CPU backend")
// that explains it. A kernel the CPU backend refuses with a BrookError (GPU-only: hand-written
// GLSL KernelSpecs, brook_index, ...) is counted as skipped under that error's message (asked
// once per kernel before any copy: cpuKernelSource). Runs with z masks, regions or under a bound
// write mask are compared too (compareBackends copies the GPU's depth buffers to the CPU run); the
// library's own passes (runInternal) are left to the GPU. compareBackends' reads of the GPU's
// streams and depth buffers are counted apart from ctx.stats() (Resources.observe), so a spec's
// resource counts are its own. The last spec of the run (test/brook/both.test.ts) prints the tally.
import type { BrookContext, Kernel, KernelArgs, KernelSpec, RunOptions } from '../src/index';
import { COMPARE_ULPS, compareBackends, cpuKernelSource, createContext } from '../src/index';
import type { CpuContext } from '../src/cpu/context';

const EIGHT_BIT = '8-bit stores saturate at 0 and 255 on the GPU (UNORM textures) and wrap modulo 256 on the CPU, as BrookGPU\'s CPU backend (docs/brook.md, CPU backend)';

const REDUCE_ORDER = 'reduce kernels fold in passes over groups on the GPU, in one fold in record order on the CPU: float rounding, and a non-associative operator, differ (docs/brook.md, CPU backend)';

/**
 * Kernels (by name) whose GPU and CPU answers may differ, each with the documented rule that
 * explains it (docs/brook.md, "CPU backend"). A difference of any other kernel fails its spec.
 */
export const BY_RULE: Record<string, string> = {
  // BrookGPU's prog/tests sum_uchar, sum_uchar3, sum_uchar4 (test/brook/brookgpu-tests.test.ts) and chars.test.ts' narrow
  sum: EIGHT_BIT,
  narrow: EIGHT_BIT,
  // view/diff.test.ts: 8-bit sums, the spec's own example of a difference
  add8: EIGHT_BIT,
  // reduce.test.ts: 2x2 matrix products folded to a value (11 ulps on SwiftShader)
  foo: REDUCE_ORDER,
  // view/puzzles: puzzle 6's starter (r = a: keeps the last record folded, not associative) and the
  // exactness puzzle's float starter (float sums past 2^24)
  biggest: REDUCE_ORDER,
  total: REDUCE_ORDER,
};

/** A rule's own check: 8-bit records differ only where the GPU saturated (0 or 255); the fold order only for reduce kernels. */
function ruleHolds(rule: string, c: ReturnType<typeof compareBackends>, spec: KernelSpec | null): boolean {
  if (rule === REDUCE_ORDER) return spec?.brook?.reduce !== undefined;
  if (rule !== EIGHT_BIT) return true;
  return Object.values(c.outputs).every((o) => o.first.every((r) => r.gpu.every((g, k) => g === r.cpu[k] || g === 0 || g === 255)));
}

/** Specs (by title) left to the GPU, each with the reason (none now: the comparison's reads no longer show in ctx.stats()). */
export const LEFT_ALONE: Record<string, string> = {};

export interface BothTally {
  /** Runs compared record by record. */
  compared: number;
  /** Distinct kernels compared. */
  kernels: Set<string>;
  /** Output records compared. */
  records: number;
  /** Runs whose outputs differed, explained by BY_RULE: kernel -> differing records. */
  byRule: Map<string, number>;
  /** Runs the CPU backend refused with a BrookError: the message (its kernel's name as <kernel>) -> the kernels and runs. */
  skipped: Map<string, { kernels: Set<string>; runs: number }>;
  skippedRuns: number;
  /** Runs with run options compareBackends does not take (other than mask, invert, region): GPU only. */
  withOptions: number;
  /** Runs the GPU refused (the spec expected a BrookError), so nothing to compare. */
  gpuRefused: number;
  /** Runs in the specs of LEFT_ALONE. */
  leftAlone: number;
  /** Runs that differed with no rule (each failed its spec, unless the spec caught the error): kernel -> the first message. */
  unexplained: number;
  unexplainedKernels: Map<string, string>;
}

export const tally: BothTally = { compared: 0, kernels: new Set(), records: 0, byRule: new Map(), skipped: new Map(), skippedRuns: 0, withOptions: 0, gpuRefused: 0, leftAlone: 0, unexplained: 0, unexplainedKernels: new Map() };

/** The suites (top titles, and their "name/..." children) whose specs run kernels on newContext(): all but apps/ (GPU-only) and cpu/ (compares itself). */
export const SUITES = ['brook', 'view', 'core', 'idioms', 'reliability'];

let active = false;
let leftAlone = false;
let cpu: CpuContext | null = null;

beforeEach(function () {
  const suite = this.currentTest?.titlePath()[0] ?? '';
  active = SUITES.some((p) => suite === p || suite.startsWith(`${p}/`));
  leftAlone = active && LEFT_ALONE[this.currentTest?.title ?? ''] !== undefined;
});
afterEach(() => {
  active = false;
  leftAlone = false;
});

function skip(reason: string, name: string): void {
  tally.skippedRuns++;
  const general = reason.split(`kernel ${name}`).join('kernel <kernel>');
  const short = general.length > 160 ? `${general.slice(0, 160)}…` : general;
  let s = tally.skipped.get(short);
  if (!s) tally.skipped.set(short, (s = { kernels: new Set(), runs: 0 }));
  s.kernels.add(name);
  s.runs++;
}

/** Kernels the CPU backend refuses whatever their arguments (GLSL-only descriptions, brook_index): the BrookError's message, or null; asked once per description. */
const cpuRefusal = new WeakMap<KernelSpec, string | null>();
function refusedByCpu(spec: KernelSpec | null): string | null {
  if (!spec) return null;
  let r = cpuRefusal.get(spec);
  if (r === undefined) {
    try {
      cpuKernelSource(spec);
      r = null;
    } catch (e) {
      r = e instanceof Error && e.name === 'BrookError' ? e.message : null; // (another error: left to compareBackends, which fails the spec with it)
    }
    cpuRefusal.set(spec, r);
  }
  return r;
}

/** Makes `ctx.run` also compare with the CPU backend while a brook spec runs (see the header). */
export function bothBackends(ctx: BrookContext): void {
  const run = ctx.run.bind(ctx);
  let inner = false;
  let gpuRan = false;
  let gpuError: unknown = null;
  ctx.run = (kernel: Kernel | KernelSpec, args: KernelArgs, options?: RunOptions): void => {
    if (inner) {
      if (!options?.internal) gpuRan = true; // (compareBackends' own passes, which read a GPU depth buffer, are not the run)
      try {
        return run(kernel, args, options);
      } catch (e) {
        gpuError = e;
        throw e;
      }
    }
    if (!active || options?.internal) return run(kernel, args, options); // the library's own passes (runInternal) are not the spec's runs
    const spec = kernel && typeof kernel === 'object' ? ('spec' in kernel ? kernel.spec : kernel) : null;
    const name = spec?.name ?? '?';
    if (leftAlone) {
      tally.leftAlone++;
      return run(kernel, args, options);
    }
    if (options !== undefined && Object.keys(options).some((k) => !['mask', 'invert', 'region'].includes(k))) {
      tally.withOptions++;
      return run(kernel, args, options);
    }
    const refused = refusedByCpu(spec);
    if (refused !== null) {
      // the CPU backend cannot run this kernel: the GPU runs it as the spec made it, nothing is copied or read
      try {
        run(kernel, args, options);
      } catch (g) {
        tally.gpuRefused++;
        throw g;
      }
      skip(refused, name);
      return;
    }
    cpu ??= createContext({ backend: 'cpu' }) as unknown as CpuContext;
    inner = true;
    gpuRan = false;
    gpuError = null;
    let c;
    try {
      c = compareBackends(ctx, kernel, args, { cpu, first: 3, run: options });
    } catch (e) {
      inner = false;
      if (!gpuRan) {
        // refused before the GPU ran (bad arguments, or arguments compareBackends does not copy): the GPU run as the spec made it
        try {
          run(kernel, args, options);
        } catch (g) {
          tally.gpuRefused++;
          throw g;
        }
        skip(e instanceof Error ? e.message : String(e), name);
        return;
      }
      if (e === gpuError) {
        tally.gpuRefused++;
        throw e;
      }
      if (e instanceof Error && e.name === 'BrookError') {
        skip(e.message, name);
        return;
      }
      tally.unexplained++; // the CPU backend failed other than with a BrookError: fails the spec
      tally.unexplainedKernels.set(name, e instanceof Error ? e.message : String(e));
      throw e;
    } finally {
      inner = false;
    }
    tally.compared++;
    tally.kernels.add(name);
    for (const o of Object.values(c.outputs)) tally.records += o.records;
    if (c.ok) return;
    const differing = Object.values(c.outputs).reduce((s, o) => s + o.differing, 0);
    if (BY_RULE[name] && ruleHolds(BY_RULE[name], c, spec)) {
      tally.byRule.set(name, (tally.byRule.get(name) ?? 0) + differing);
      return;
    }
    tally.unexplained++;
    const what = Object.entries(c.outputs)
      .filter(([, o]) => o.differing)
      .map(([n, o]) => `${n}: ${o.differing} of ${o.records} records, first ${JSON.stringify(o.first)}`)
      .join('; ');
    const message = `kernel ${name} differs between ${c.renderer} and the CPU backend beyond ${COMPARE_ULPS} ulps (ints exactly), with no documented rule listed in test/both.ts BY_RULE: ${what}`;
    if (!tally.unexplainedKernels.has(name)) tally.unexplainedKernels.set(name, message);
    throw new Error(message);
  };
}
