/**
 * The elementary tests of continuous collision detection as one kernel pass: each record is a
 * vertex-face or edge-edge query (four vertex indices into the positions at t = 0 and t = 1),
 * tested by the conservative branch and bound of glsl/apps/ccd/elementary.glsl (Provot's
 * coplanarity cubic, Tang et al.'s Bernstein sign filter, interval inside checks; the error
 * bound is derived in src/reference/ccdinclusion.ts, which computes the same verdicts on the
 * CPU). It never misses a collision in float32; its false positives are near misses.
 *
 * ```ts
 * const verdicts = runElementary(ctx, { kind: 'vf', x0, x1, queries });   // int2 per query
 * ```
 */
import ELEMENTARY from '../../../glsl/apps/ccd/elementary.glsl';
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import type { Stream } from '../../core/stream';
import type { CcdKind } from '../../geometry/bvh';

/**
 * One query per record: `q` holds four vertex indices (vertex-face: v, f0, f1, f2; edge-edge:
 * ea0, ea1, eb0, eb1) into `x0` (xyz at t = 0) and `x1` (t = 1). `verdict.x` is 0 (no contact),
 * 1 (contact) or 2 (contact reported by the visit cap), `verdict.y` the intervals visited.
 */
export const CCD_ELEMENTARY: KernelSpec = {
  name: 'CcdElementary',
  inputs: { q: 'int4' },
  gathers: { x0: 'float4', x1: 'float4' },
  uniforms: { vf: 'int', inputUlp: 'float' },
  outputs: { verdict: 'int2' },
  helpers: ELEMENTARY,
  body: [
    'int tick;',
    'verdict = ccdTest(vf != 0, x0(q.x).xyz, x0(q.y).xyz, x0(q.z).xyz, x0(q.w).xyz,',
    '                  x1(q.x).xyz, x1(q.y).xyz, x1(q.z).xyz, x1(q.w).xyz, tick);',
  ].join('\n'),
};

/** CCD_ELEMENTARY with a conservative time of impact per query: `toi` in [0, 1] (a multiple of
 * 2^-16, never after the first contact), 1 when none is reported. */
export const CCD_ELEMENTARY_TOI: KernelSpec = {
  ...CCD_ELEMENTARY,
  name: 'CcdElementaryToi',
  outputs: { verdict: 'int2', toi: 'float' },
  body: [
    'int tick;',
    'verdict = ccdTest(vf != 0, x0(q.x).xyz, x0(q.y).xyz, x0(q.z).xyz, x0(q.w).xyz,',
    '                  x1(q.x).xyz, x1(q.y).xyz, x1(q.z).xyz, x1(q.w).xyz, tick);',
    'toi = float(tick) / 65536.0;',
  ].join('\n'),
};

export interface ElementaryArgs {
  kind: CcdKind;
  /** Vertex positions at t = 0 and t = 1 (float4, xyz used). */
  x0: Stream;
  x1: Stream;
  /** int4 queries: four vertex indices each. */
  queries: Stream;
  /**
   * Relative radius given to every input coordinate: 0 (default) when the float32 coordinates
   * are the geometry; 2^-24 when they were rounded from doubles, so the verdicts stay
   * conservative for the unrounded queries.
   */
  inputUlp?: number;
  /** Where to write the verdicts (int2, one per query); a new stream by default. */
  into?: Stream;
  /** A float stream (one per query) for the conservative times of impact (1 where none). */
  toi?: Stream;
}

/** Runs the elementary tests of every query in one pass; returns the int2 verdicts. */
export function runElementary(ctx: BrookContext, args: ElementaryArgs): Stream {
  check(args.kind === 'vf' || args.kind === 'ee', () => `runElementary: kind must be 'vf' or 'ee', got ${String(args.kind)}`);
  check(args.queries.type === 'int4', () => `runElementary: queries must be an int4 stream, got ${args.queries.type}`);
  check(args.x0.type === 'float4' && args.x1.type === 'float4', 'runElementary: x0 and x1 must be float4 streams');
  if (args.toi !== undefined) check(args.toi.type === 'float' && args.toi.length === args.queries.length, () => `runElementary: toi must be a float stream of ${args.queries.length} records (one per query)`);
  const verdict = args.into ?? ctx.stream('int2', args.queries.length);
  const common = { q: args.queries, x0: args.x0, x1: args.x1, vf: args.kind === 'vf' ? 1 : 0, inputUlp: args.inputUlp ?? 0, verdict };
  try {
    if (args.toi) ctx.runInternal(CCD_ELEMENTARY_TOI, { ...common, toi: args.toi });
    else ctx.runInternal(CCD_ELEMENTARY, common);
  } catch (e) {
    if (verdict !== args.into) verdict.dispose(); // ours: not left behind by a failed pass
    throw e;
  }
  return verdict;
}

/**
 * Uploads self-contained queries (24 coordinates each, Wang et al.'s row order: four points at
 * t = 0, then the same four at t = 1) and tests them on the GPU. Returns the verdicts (int2 per
 * query). `inputUlp` is chosen per set: 2^-24 when any coordinate is not a float32.
 */
export async function testQueriesOnGpu(ctx: BrookContext, kind: CcdKind, coords: ArrayLike<number>): Promise<Int32Array>;
/** With `{ toi: true }`: the verdicts and the conservative times of impact (1 where none). */
export async function testQueriesOnGpu(ctx: BrookContext, kind: CcdKind, coords: ArrayLike<number>, options: { toi: true }): Promise<{ verdict: Int32Array; toi: Float32Array }>;
export async function testQueriesOnGpu(ctx: BrookContext, kind: CcdKind, coords: ArrayLike<number>, options?: { toi?: boolean }): Promise<Int32Array | { verdict: Int32Array; toi: Float32Array }> {
  const n = Math.floor(coords.length / 24);
  check(n >= 1 && n * 24 === coords.length, () => `testQueriesOnGpu: coords must hold 24 numbers per query, got ${coords.length}`);
  const p0 = new Float32Array(n * 16), p1 = new Float32Array(n * 16), q = new Int32Array(n * 4);
  let exact = true;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 4; k++) {
      for (let c = 0; c < 3; c++) {
        const a = coords[i * 24 + k * 3 + c]!, b = coords[i * 24 + (k + 4) * 3 + c]!;
        p0[(i * 4 + k) * 4 + c] = a;
        p1[(i * 4 + k) * 4 + c] = b;
        if (Math.fround(a) !== a || Math.fround(b) !== b) exact = false;
      }
      q[i * 4 + k] = i * 4 + k;
    }
  }
  const owned: Stream[] = [];
  try {
    const x0 = ctx.stream('float4', n * 4, p0);
    owned.push(x0);
    const x1 = ctx.stream('float4', n * 4, p1);
    owned.push(x1);
    const queries = ctx.stream('int4', n, q);
    owned.push(queries);
    const toi = options?.toi ? ctx.stream('float', n) : undefined;
    if (toi) owned.push(toi);
    const verdict = runElementary(ctx, { kind, x0, x1, queries, inputUlp: exact ? 0 : 2 ** -24, toi });
    owned.push(verdict);
    const out = (await verdict.read()) as Int32Array;
    if (!toi) return out;
    const times = (await toi.read()) as Float32Array;
    return { verdict: out, toi: times };
  } finally {
    owned.forEach((s) => s.dispose()); // on a failure too: nothing left behind
  }
}
