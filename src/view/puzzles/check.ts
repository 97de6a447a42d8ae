/**
 * The puzzle book's checker: a student's Brook source, compiled and run through the puzzle's
 * fixed host script on the GPU on several seeded inputs (edge sizes among them), compared
 * record by record with the CPU answer in src/view/puzzles/answers.ts.
 *
 * ```ts
 * const result = await checkPuzzle(ctx, 3, source);      // puzzle 3, the student's kernel
 * result.pass;                                             // every case right
 * result.error;                                            // { message, line } when it did not compile or run
 * result.cases[0].first;                                   // the first wrong record: inputs, expected, actual
 * result.cases[0].wrongMask;                               // 1 per wrong record (the page paints them)
 * result.cases[0].passes;                                  // the pass trace of that case's run
 * puzzleReport(result);                                    // the same as plain text (notebooks)
 * ```
 */
import type { BrookContext } from '../../core/context';
import { BrookError } from '../../core/errors';
import type { KernelSpec } from '../../core/kernel';
import { seededRandom } from '../../core/random';
import type { Stream } from '../../core/stream';
import type { ElementType } from '../../core/types';
import type { PassRecord } from '../../core/trace';
import { parseBrook } from '../../brook/compile';
import { traceText } from '../tracetable';
import { PUZZLES, streamShape, type Puzzle, type PuzzleCase, type PuzzleData } from './book';

/** The first wrong record of a case, with what went into it. */
export interface PuzzleRecord {
  index: number;
  /** 'record 17' or 'row 3, column 5'. */
  position: string;
  /** The inputs at that record (streams of the output's length) and the uniforms, as text. */
  inputs: { name: string; value: string }[];
  expected: string;
  actual: string;
}

export interface PuzzleCaseResult {
  label: string;
  seed: number;
  pass: boolean;
  /** Records compared (the expected output's). */
  records: number;
  /** Records wrong (a missing or extra record counts as wrong). */
  wrong: number;
  /** One byte per expected record: 1 where it is wrong. */
  wrongMask: Uint8Array;
  case: PuzzleCase;
  /** What the GPU wrote (null when the run failed). */
  actual: ArrayLike<number> | null;
  first: PuzzleRecord | null;
  /** The passes the case ran (ctx.trace). */
  passes: PassRecord[];
  /** What the host counted (passes, records skipped, ...). */
  note: string;
}

export interface PuzzleResult {
  n: number;
  id: string;
  title: string;
  pass: boolean;
  /** A compile or run error: its message and the line of the student's source it names, if any. */
  error: { message: string; line: number | null } | null;
  cases: PuzzleCaseResult[];
  /**
   * The failing case to show: the size the page draws (puzzle.shown) when it has a wrong record,
   * else the first case that has one; null when none does.
   */
  diagnosis: PuzzleCaseResult | null;
}

export interface CheckOptions {
  /** Seed of the first case (case k uses seed + k). Default 1. */
  seed?: number;
  /** Only these cases (indices into puzzle.sizes). Default: all. */
  cases?: number[];
}

/** A puzzle by its number (1-based) or id. */
export function puzzle(which: number | string): Puzzle {
  const p = typeof which === 'number' ? PUZZLES[which - 1] : PUZZLES.find((q) => q.id === which);
  if (!p) throw new BrookError(`puzzle: no puzzle ${JSON.stringify(which)}; the book has puzzles 1 to ${PUZZLES.length} (ids ${PUZZLES.map((q) => q.id).join(', ')})`);
  return p;
}

/** Case k of a puzzle for a seed: the inputs and the expected output (CPU only; the page draws them). */
export function puzzleCase(p: Puzzle, k: number, seed = 1): PuzzleCase {
  return p.makeCase(p.sizes[k]!, seededRandom(seed + k));
}

/** The line of the student's source an error message names ("line 4"), or null. */
export function errorLine(message: string): number | null {
  const m = /\bline (\d+)/.exec(message);
  return m ? Number(m[1]) : null;
}

/** The kernel the host runs: the one named as the puzzle names it, else the source's only (or last) kernel. */
function chooseKernel(p: Puzzle, kernels: Record<string, KernelSpec>): KernelSpec {
  const names = Object.keys(kernels);
  if (kernels[p.kernel]) return kernels[p.kernel]!;
  if (names.length === 0) throw new BrookError(`puzzle ${p.n}: the source defines no kernel; write kernel void ${p.kernel}(...) { ... }`);
  if (names.length > 1) throw new BrookError(`puzzle ${p.n}: the host runs a kernel named ${p.kernel}; the source defines ${names.join(', ')}`);
  return kernels[names[0]!]!;
}

const fmt = (v: number) => (Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Number(v.toPrecision(7))));
const recordText = (data: ArrayLike<number>, i: number, c: number) => (c === 1 ? fmt(data[i]!) : `(${Array.from({ length: c }, (_, k) => fmt(data[i * c + k]!)).join(', ')})`);
const recordsOf = (d: PuzzleData) => d.shape.reduce((a, b) => a * b, 1);

/** The neighbours of record i of an input (a gather may read them): records i − 2 .. i + 2 of a 1D stream, the 3 × 3 block of a 2D one. */
function around(d: PuzzleData, i: number): string {
  const n = recordsOf(d);
  if (n < 2) return '';
  if (d.shape.length === 2) {
    const [h, w] = d.shape as [number, number];
    const [y, x] = [Math.floor(i / w), i % w];
    const rows: string[] = [];
    for (let r = Math.max(0, y - 1); r <= Math.min(h - 1, y + 1); r++) {
      const cells: string[] = [];
      for (let c = Math.max(0, x - 1); c <= Math.min(w - 1, x + 1); c++) cells.push(recordText(d.data, r * w + c, d.components));
      rows.push(cells.join(' '));
    }
    return `   (rows ${Math.max(0, y - 1)}..${Math.min(h - 1, y + 1)}, columns ${Math.max(0, x - 1)}..${Math.min(w - 1, x + 1)}: ${rows.join(' | ')})`;
  }
  const lo = Math.max(0, i - 2);
  const hi = Math.min(n - 1, i + 2);
  return `   (records ${lo}..${hi}: ${Array.from({ length: hi - lo + 1 }, (_, k) => recordText(d.data, lo + k, d.components)).join(', ')})`;
}

function same(a: number, e: number, tolerance: number): boolean {
  if (a === e || (Number.isNaN(a) && Number.isNaN(e))) return true;
  if (tolerance === 0 || !Number.isFinite(a) || !Number.isFinite(e)) return false;
  return Math.abs(a - e) <= tolerance * Math.max(1, Math.abs(e));
}

/**
 * Compiles `source` (Brook), runs it through the puzzle's host script on each case's seeded
 * inputs on the GPU, and compares with the CPU answer. Never throws for the student's mistakes:
 * a compile or run error comes back in `error` with the line it names.
 */
export async function checkPuzzle(ctx: BrookContext, which: number | string | Puzzle, source: string, options: CheckOptions = {}): Promise<PuzzleResult> {
  const p = typeof which === 'object' ? which : puzzle(which);
  if (typeof source !== 'string') throw new BrookError(`checkPuzzle: source must be the Brook text of the kernel (a string), got ${source === null ? 'null' : typeof source}`);
  const seed = options.seed ?? 1;
  const result: PuzzleResult = { n: p.n, id: p.id, title: p.title, pass: false, error: null, cases: [], diagnosis: null };
  let kernel: KernelSpec;
  try {
    kernel = chooseKernel(p, parseBrook(source));
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    result.error = { message, line: errorLine(message) };
    return result;
  }
  const indices = options.cases ?? p.sizes.map((_, k) => k);
  for (const k of indices) {
    const c = puzzleCase(p, k, seed);
    const streams: Record<string, Stream> = {};
    let passes: PassRecord[] = [];
    let tracing = false;
    try {
      for (const [name, d] of Object.entries(c.inputs)) if (d.type !== 'struct') streams[name] = ctx.stream(d.type as ElementType, streamShape(d.shape), d.data);
      ctx.trace.start();
      tracing = true;
      const out = await p.run(ctx, kernel, streams, c);
      passes = await ctx.trace.stop();
      tracing = false;
      result.cases.push(compare(p, c, seed + k, out.data, passes, out.note ?? ''));
    } catch (e) {
      if (tracing) passes = await ctx.trace.stop().catch(() => []);
      let message = (e as Error).message ?? String(e);
      if (/has no parameter|missing|must be given/i.test(message)) message += `; the host script passes the starter's parameters by name: keep its parameter list ${p.starter.slice(p.starter.indexOf('('), p.starter.indexOf(')') + 1).replace(/\s+/g, ' ')}`;
      result.error = { message, line: errorLine(message) };
      const n = recordsOf(c.expected);
      result.cases.push({ label: c.label, seed: seed + k, pass: false, records: n, wrong: n, wrongMask: new Uint8Array(n).fill(1), case: c, actual: null, first: null, passes, note: '' });
      break;
    } finally {
      for (const s of Object.values(streams)) s.dispose();
    }
  }
  result.pass = result.error === null && result.cases.length === indices.length && result.cases.every((c) => c.pass);
  const shown = result.cases[indices.indexOf(p.shown)];
  result.diagnosis = shown?.first ? shown : (result.cases.find((c) => c.first) ?? null);
  return result;
}

function compare(p: Puzzle, c: PuzzleCase, seed: number, actual: ArrayLike<number>, passes: PassRecord[], note: string): PuzzleCaseResult {
  const e = c.expected;
  const comps = e.components;
  const n = recordsOf(e);
  const got = Math.floor(actual.length / comps);
  const mask = new Uint8Array(n);
  let wrong = 0;
  let firstIndex = -1;
  for (let i = 0; i < n; i++) {
    let ok = i < got;
    for (let k = 0; ok && k < comps; k++) ok = same(actual[i * comps + k]!, e.data[i * comps + k]!, p.tolerance);
    if (!ok) {
      mask[i] = 1;
      wrong++;
      if (firstIndex < 0) firstIndex = i;
    }
  }
  if (got > n) wrong += got - n;
  let first: PuzzleRecord | null = null;
  if (firstIndex >= 0) {
    const i = firstIndex;
    const position = e.shape.length === 2 ? `row ${Math.floor(i / e.shape[1]!)}, column ${i % e.shape[1]!}` : `record ${i}`;
    const inputs: { name: string; value: string }[] = [];
    for (const [name, d] of Object.entries(c.inputs)) {
      const m = recordsOf(d);
      inputs.push({ name, value: m === n ? `${recordText(d.data, i, d.components)}${around(d, i)}` : `${m} records${m <= 8 ? `: ${Array.from({ length: m }, (_, j) => recordText(d.data, j, d.components)).join(', ')}` : ''}` });
    }
    for (const [name, v] of Object.entries(c.uniforms)) inputs.push({ name, value: fmt(v) });
    first = { index: i, position, inputs, expected: recordText(e.data, i, comps), actual: i < got ? recordText(actual, i, comps) : `nothing (the output has ${got} records)` };
  } else if (got > n) {
    first = { index: n, position: `record ${n}`, inputs: [], expected: `nothing (${n} records)`, actual: recordText(actual, n, comps) };
  }
  return { label: c.label, seed, pass: wrong === 0, records: n, wrong, wrongMask: mask, case: c, actual, first, passes, note };
}

/**
 * The result as plain text: pass or fail, each case, the first wrong record and (unless
 * `passes` is false) the failing run's pass trace with its GPU times — for notebooks and
 * consoles. `passes: false` gives a text that repeats from run to run (no timings).
 */
export function puzzleReport(r: PuzzleResult, { passes = true }: { passes?: boolean } = {}): string {
  const lines = [`Puzzle ${r.n} (${r.title}): ${r.pass ? 'PASS' : 'FAIL'}`];
  if (r.error) lines.push(`  error${r.error.line !== null ? ` (your line ${r.error.line})` : ''}: ${r.error.message}`);
  for (const c of r.cases) {
    lines.push(`  ${c.pass ? 'ok  ' : 'FAIL'} ${c.label} (seed ${c.seed}): ${c.wrong === 0 ? `all ${c.records} records right` : `${c.wrong} of ${c.records} records wrong`}${c.note ? `; ${c.note}` : ''}`);
  }
  const bad = r.diagnosis;
  if (bad?.first) {
    const f = bad.first;
    lines.push(`  first wrong record (${bad.label}): ${f.position}`);
    for (const { name, value } of f.inputs) lines.push(`    ${name} = ${value}`);
    lines.push(`    expected ${f.expected}`, `    got      ${f.actual}`);
    if (passes) lines.push(traceText(bad.passes, `  the passes of that run (${bad.passes.length})`));
  }
  return lines.join('\n');
}
