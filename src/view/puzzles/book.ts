/**
 * The puzzle book's puzzles (demos/puzzles/, notebooks/jupyter/puzzles.ipynb): sixteen small
 * kernels in Brook, in the order of the ideas of the papers brookgl implements — a map, a zip,
 * gathers and their edges, a stencil, iterators, a reduce kernel, Horn's scan and gather-search,
 * a bitonic merge step, Harris & Buck's z-cull and occlusion-query loop, a scatter by points,
 * Oat et al.'s depth-peeled bins, an N-body tile, a struct stream and an exact count.
 *
 * A puzzle is data: its words, a starter kernel, hints, the solution (with the listing it comes
 * from), deliberately wrong answers (for the specs), the fixed host script shown beside the
 * kernel, the sizes it is checked on, a seeded input generator, the CPU answer (src/reference)
 * and the host run that puts the student's kernel through its passes. `checkPuzzle` (check.ts)
 * runs them.
 */
import type { BrookContext } from '../../core/context';
import type { KernelSpec } from '../../core/kernel';
import { iter } from '../../core/kernelspec';
import { runPass } from '../../core/pass';
import type { Stream } from '../../core/stream';
import { structStream } from '../../core/struct';
import type { ElementType } from '../../core/types';
import { BrookError } from '../../core/errors';
import { reduceValue } from '../../brt/index'; // loading brt installs the lowering of Brook's kernel kinds (reduce kernels)
import { scan } from '../../idioms/scan';
import { occlusionLoop } from '../../idioms/flow';
import { binPoints } from '../../idioms/binning/build';
import * as ref from './answers';

/** Numbers of one stream: its element type, shape and records (interleaved components). */
export interface PuzzleData {
  type: ElementType | 'struct';
  shape: number[];
  /** Numbers per record. */
  components: number;
  data: ArrayLike<number>;
}

/** One checked case: the inputs (streams and uniforms) and the expected output. */
export interface PuzzleCase {
  /** What makes the case: 'n = 1', '7 × 13 grid', ... */
  label: string;
  inputs: Record<string, PuzzleData>;
  uniforms: Record<string, number>;
  expected: PuzzleData;
}

/** What a host run hands back: the output's numbers, and a sentence on what the host counted. */
export interface PuzzleOutput {
  data: ArrayLike<number>;
  note?: string;
}

export interface Puzzle {
  /** 1-based position in the book. */
  n: number;
  id: string;
  title: string;
  /** The idea it teaches, in a few words (the teachers' page and the table of contents). */
  idea: string;
  /** The task, in two or three sentences. */
  task: string;
  /** Where it comes from: the paper and its listing or section. */
  source: string;
  /** The kernel the host script runs (by name; a source defining one kernel may name it anything). */
  kernel: string;
  starter: string;
  hints: string[];
  solution: string;
  /** What the solution's comment says of the listing it follows. */
  solutionNote: string;
  /** Wrong answers the specs check fail (off by one, a missed edge, the wrong pass count...). */
  wrong: { what: string; source: string }[];
  /** The fixed host script, shown beside the kernel (null: the host only runs the kernel once). */
  host: string;
  /** Minutes a student needs, our estimate (the teachers' page). */
  minutes: number;
  /** The checked sizes (the first non-trivial one is drawn on the page). */
  sizes: number[][];
  /** Index into sizes of the case drawn on the page. */
  shown: number;
  /** Relative tolerance of the comparison (0: exact). */
  tolerance: number;
  makeCase(size: number[], random: () => number): PuzzleCase;
  run(ctx: BrookContext, kernel: KernelSpec, streams: Record<string, Stream>, c: PuzzleCase): Promise<PuzzleOutput>;
}

const float = (shape: number[], data: ArrayLike<number>): PuzzleData => ({ type: 'float', shape, components: 1, data });
/** A stream shape from a puzzle shape: a 1D shape is its length. */
export const streamShape = (shape: number[]): number | number[] => (shape.length === 1 ? shape[0]! : shape);
const records = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
const uniform = (random: () => number, lo: number, hi: number) => lo + (hi - lo) * random();
const ints = (n: number, random: () => number, lo: number, hi: number) => Float32Array.from({ length: n }, () => Math.floor(uniform(random, lo, hi + 1)));

/** Runs `kernel` once into a new stream of the expected output's type and shape and reads it. */
async function runOnce(ctx: BrookContext, kernel: KernelSpec, args: Record<string, unknown>, out: PuzzleData, output: string): Promise<PuzzleOutput> {
  const o = ctx.stream(out.type as ElementType, streamShape(out.shape));
  try {
    ctx.runInternal(kernel, { ...(args as object), [output]: o } as never);
    return { data: await o.read() };
  } finally {
    o.dispose();
  }
}

/** The output parameter of a kernel (its only one), named for messages. */
function outputName(kernel: KernelSpec, puzzle: string): string {
  const outs = Object.keys(kernel.outputs ?? {});
  if (outs.length !== 1) throw new BrookError(`puzzle ${puzzle}: kernel ${kernel.name} must write one output stream (it declares ${outs.length}: ${outs.join(', ') || 'none'})`);
  return outs[0]!;
}

const pow2 = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

export const PUZZLES: Puzzle[] = [
  {
    n: 1,
    id: 'map',
    title: 'Map',
    idea: 'a kernel writes one output record per input record',
    task: 'Every record of the output is computed from the record of the input at the same place. Write a kernel that squares each record: o = a · a.',
    source: 'Buck et al., "Brook for GPUs", SIGGRAPH 2004 (kernels)',
    kernel: 'square',
    starter: `kernel void square(float a<>, out float o<>) {
  o = a;
}`,
    hints: ['`a` is this record\'s value; `o` is the record you write.', 'Multiply a by itself and assign it to o.'],
    solution: `kernel void square(float a<>, out float o<>) {
  o = a * a;
}`,
    solutionNote: 'A kernel as Brook\'s paper introduces them: inputs and outputs as streams, one invocation per output record.',
    wrong: [{ what: 'doubles instead of squaring', source: 'kernel void square(float a<>, out float o<>) {\n  o = a + a;\n}' }],
    host: `// in brookgl: ctx.run(square, { a, o })
square(a, o);`,
    minutes: 3,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const a = Float32Array.from({ length: n! }, () => Math.fround(uniform(random, -4, 4)));
      return { label: `n = ${n}`, inputs: { a: float([n!], a) }, uniforms: {}, expected: float([n!], ref.puzzleSquare(a)) };
    },
    run: (ctx, k, s, c) => runOnce(ctx, k, { a: s.a }, c.expected, outputName(k, '1')),
  },
  {
    n: 2,
    id: 'zip',
    title: 'Zip with a uniform',
    idea: 'two input streams read together, and a constant (a uniform) shared by every record',
    task: 'Two streams of the same length are read record by record, and a constant alpha is the same for all. Write saxpy: o = alpha · x + y.',
    source: 'Buck et al., "Brook for GPUs", SIGGRAPH 2004 (the saxpy kernel)',
    kernel: 'saxpy',
    starter: `kernel void saxpy(float x<>, float y<>, float alpha, out float o<>) {
  o = x + y;
}`,
    hints: ['`alpha` has no <>: it is one number for every record (a uniform).', 'Scale x by alpha before adding y.'],
    solution: `kernel void saxpy(float x<>, float y<>, float alpha, out float o<>) {
  o = alpha * x + y;
}`,
    solutionNote: 'Brook\'s paper shows saxpy on float4 streams; here on floats.',
    wrong: [{ what: 'scales the sum', source: 'kernel void saxpy(float x<>, float y<>, float alpha, out float o<>) {\n  o = alpha * (x + y);\n}' }],
    host: `// in brookgl: ctx.run(saxpy, { x, y, alpha: 2.5, o })
saxpy(x, y, 2.5, o);`,
    minutes: 3,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 1e-6,
    makeCase([n], random) {
      const x = Float32Array.from({ length: n! }, () => uniform(random, -1, 1));
      const y = Float32Array.from({ length: n! }, () => uniform(random, -1, 1));
      return { label: `n = ${n}`, inputs: { x: float([n!], x), y: float([n!], y) }, uniforms: { alpha: 2.5 }, expected: float([n!], ref.puzzleSaxpy(x, y, 2.5)) };
    },
    run: (ctx, k, s, c) => runOnce(ctx, k, { x: s.x, y: s.y, alpha: c.uniforms.alpha }, c.expected, outputName(k, '2')),
  },
  {
    n: 3,
    id: 'neighbour',
    title: 'Gather a neighbour (edges!)',
    idea: 'a gather (a[]) reads any record; reads outside the stream are clamped to the edge',
    task: 'Each record subtracts its left neighbour: o[i] = a[i] − a[i − 1]. Record 0 has no left neighbour: there, take 0 for it (so o[0] = a[0]).',
    source: 'Buck et al., "Brook for GPUs", SIGGRAPH 2004 (gather streams); Horn, GPU Gems 2 ch. 36 (iter float left_1<> in StartScan)',
    kernel: 'leftDifference',
    starter: `kernel void leftDifference(float a[], iter float i<>, out float o<>) {
  // i is this record's index: 0, 1, 2, ... (an iterator)
  o = a[i];
}`,
    hints: [
      '`a[i - 1]` reads the record to the left.',
      'A gather outside the stream reads the nearest record (Brook clamps): a[-1] is a[0], not 0.',
      'Test `i >= 1` before subtracting.',
    ],
    solution: `kernel void leftDifference(float a[], iter float i<>, out float o<>) {
  o = a[i];
  if (i >= 1)
    o -= a[i - 1];
}`,
    solutionNote: 'The same guard as Horn\'s StartScan (GPU Gems 2 ch. 36, section 36.1.1): `if (here >= 1) count += ... value[left_1] ...`.',
    wrong: [{ what: 'misses the edge (a[-1] clamps to a[0])', source: 'kernel void leftDifference(float a[], iter float i<>, out float o<>) {\n  o = a[i] - a[i - 1];\n}' }],
    host: 'leftDifference(a, iter(0, n), o);',
    minutes: 5,
    sizes: [[1], [999], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const a = ints(n!, random, 1, 99);
      return { label: `n = ${n}`, inputs: { a: float([n!], a) }, uniforms: {}, expected: float([n!], ref.puzzleLeftDifference(a)) };
    },
    run: (ctx, k, s, c) => runOnce(ctx, k, { a: s.a, i: iter(0, c.expected.shape[0]!) }, c.expected, outputName(k, '3')),
  },
  {
    n: 4,
    id: 'stencil',
    title: '2D stencil',
    idea: '2D streams, indexof, and gathers by row and column',
    task: 'On a grid of h rows and w columns, each cell becomes the mean of its four neighbours (up, down, left, right). A neighbour outside the grid is the nearest cell, as Brook\'s gathers clamp. g[y][x] reads row y, column x.',
    source: 'Harris & Buck, GPU Gems 2 ch. 34, Listing 34-1 (four neighbours gathered); Buck et al. 2004 (indexof)',
    kernel: 'neighbours',
    starter: `kernel void neighbours(float g[][], out float o<>) {
  float2 p = indexof(o).xy;   // p.x = column, p.y = row
  o = g[p.y][p.x];
}`,
    hints: ['The cell above is g[p.y - 1][p.x].', 'Add the four neighbours and divide by 4; the edge takes care of itself here.', 'Rows first: g[row][column]. The grids checked are not square.'],
    solution: `kernel void neighbours(float g[][], out float o<>) {
  float2 p = indexof(o).xy;
  o = (g[p.y - 1][p.x] + g[p.y + 1][p.x] + g[p.y][p.x - 1] + g[p.y][p.x + 1]) / 4;
}`,
    solutionNote: 'The neighbour reads of Harris & Buck\'s Listing 34-1 (coords ± (1, 0), ± (0, 1)), averaged.',
    wrong: [{ what: 'swaps rows and columns', source: 'kernel void neighbours(float g[][], out float o<>) {\n  float2 p = indexof(o).xy;\n  o = (g[p.x - 1][p.y] + g[p.x + 1][p.y] + g[p.x][p.y - 1] + g[p.x][p.y + 1]) / 4;\n}' }],
    host: `// o is h × w, like g
neighbours(g, o);`,
    minutes: 8,
    sizes: [[1, 1], [7, 13], [48, 64]],
    shown: 2,
    tolerance: 0,
    makeCase([h, w], random) {
      const g = ints(h! * w!, random, 0, 255);
      return { label: `${h} × ${w} grid`, inputs: { g: float([h!, w!], g) }, uniforms: {}, expected: float([h!, w!], ref.puzzleNeighbourMean(g, h!, w!)) };
    },
    run: (ctx, k, s, c) => runOnce(ctx, k, { g: s.g }, c.expected, outputName(k, '4')),
  },
  {
    n: 5,
    id: 'iterators',
    title: 'Iterators',
    idea: 'iter streams: values interpolated across the output domain, no memory read',
    task: 'The iterator t runs over the grid: t.x is the column and t.y the row (the host passes iter((0, 0), (w, h))). Draw a checkerboard of 4 × 4 squares: 1 on squares whose square column + square row is odd, else 0.',
    source: 'Buck et al., "Brook for GPUs", SIGGRAPH 2004 (iterator streams)',
    kernel: 'checker',
    starter: `kernel void checker(iter float2 t<>, out float o<>) {
  o = t.x;
}`,
    hints: ['floor(t.x / 4) is the square\'s column.', 'fmod(v, 2) is 1 for odd v.'],
    solution: `kernel void checker(iter float2 t<>, out float o<>) {
  o = fmod(floor(t.x / 4) + floor(t.y / 4), 2);
}`,
    solutionNote: 'Iterators as Brook defines them: start + i · (end − start) / n along each dimension (docs/brook.md).',
    wrong: [{ what: 'off by one (squares shifted by a record)', source: 'kernel void checker(iter float2 t<>, out float o<>) {\n  o = fmod(floor((t.x + 1) / 4) + floor(t.y / 4), 2);\n}' }],
    host: `// o is h × w
checker(iter(float2(0, 0), float2(w, h)), o);`,
    minutes: 5,
    sizes: [[1, 1], [13, 22], [64, 64]],
    shown: 1,
    tolerance: 0,
    makeCase([h, w]) {
      return { label: `${h} × ${w} grid`, inputs: {}, uniforms: {}, expected: float([h!, w!], ref.puzzleCheckerboard(h!, w!, 4)) };
    },
    run: (ctx, k, _s, c) => {
      const [h, w] = c.expected.shape as [number, number];
      return runOnce(ctx, k, { t: iter([0, 0], [w, h]) }, c.expected, outputName(k, '5'));
    },
  },
  {
    n: 6,
    id: 'reduce',
    title: 'A reduce kernel',
    idea: 'reduce kernels: an associative operator folded over a stream in log passes',
    task: 'A reduce kernel folds a stream into one value: r holds what has been folded so far, a is the next record. Make it return the largest record (the records can all be negative).',
    source: 'Buck et al., "Brook for GPUs", SIGGRAPH 2004 (reductions)',
    kernel: 'biggest',
    starter: `reduce void biggest(float a<>, reduce float r<>) {
  r += a;
}`,
    hints: ['The runtime combines partial results in a tree, so the operator must be associative.', 'max(r, a).'],
    solution: `reduce void biggest(float a<>, reduce float r<>) {
  r = max(r, a);
}`,
    solutionNote: 'A reduce kernel as in Brook\'s paper; the runtime folds 16 records a pass.',
    wrong: [{ what: 'keeps the last record', source: 'reduce void biggest(float a<>, reduce float r<>) {\n  r = a;\n}' }],
    host: `// in brookgl: [m] = await reduceValue(ctx, biggest, { a })
float m;
biggest(a, m);`,
    minutes: 4,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const a = Float32Array.from({ length: n! }, () => uniform(random, -1000, 1000));
      return { label: `n = ${n}`, inputs: { a: float([n!], a) }, uniforms: {}, expected: float([1], ref.puzzleMax(a)) };
    },
    async run(ctx, k, s) {
      const input = k.brook?.reduce?.input;
      if (!k.brook?.reduce || !input) throw new BrookError(`puzzle 6: ${k.name} must be a reduce kernel (reduce void ${k.name}(float a<>, reduce float r<>))`);
      return { data: Float32Array.from(await reduceValue(ctx, k, { [input]: s.a! })) };
    },
  },
  {
    n: 7,
    id: 'scan',
    title: 'Scan: one Hillis–Steele step, the whole scan on the host',
    idea: 'a multipass algorithm: log2 n passes, each reading the last one\'s output (ping-pong)',
    task: 'Each pass adds to every record the record twotoi places to its left (twotoi = 1, 2, 4, ... while < n); after the last pass each record holds the running sum up to itself. Write one pass; the host loops.',
    source: 'Horn, "Stream Reduction Operations for GPGPU Applications", GPU Gems 2 ch. 36, section 36.1.1 (the Scan kernel); Hillis & Steele 1986',
    kernel: 'Scan',
    starter: `kernel void Scan(float input[], out float count<>, iter float here<>,
                 iter float left_2toi<>, float twotoi) {
  count = input[here];
}`,
    hints: ['left_2toi is here − twotoi (the host passes iter(−twotoi, n − twotoi)).', 'Only records that have a record twotoi to their left add it.', 'Which records have one: here > twotoi, or here >= twotoi? Try record here = twotoi.'],
    solution: `kernel void Scan(float input[], out float count<>, iter float here<>,
                 iter float left_2toi<>, float twotoi) {
  count = input[here];
  if (here >= twotoi)
    count += input[left_2toi];
}`,
    solutionNote: 'Horn\'s Scan kernel (GPU Gems 2 ch. 36, section 36.1.1; printed without a listing number) tests `here > twotoi`; with this host, where the first pass is a Scan step too, the record at here == twotoi would miss record 0, so the test is >=.',
    wrong: [{ what: 'off by one (here > twotoi, as printed)', source: 'kernel void Scan(float input[], out float count<>, iter float here<>,\n                 iter float left_2toi<>, float twotoi) {\n  count = input[here];\n  if (here > twotoi)\n    count += input[left_2toi];\n}' }],
    host: `for (twotoi = 1; twotoi < n; twotoi *= 2) {
  Scan(a, b, iter(0, n),
       iter(-twotoi, n - twotoi), twotoi);
  swap(a, b);   // the next pass reads this one
}`,
    minutes: 10,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const a = ints(n!, random, 0, 9);
      return { label: `n = ${n}`, inputs: { input: float([n!], a) }, uniforms: {}, expected: float([n!], ref.puzzleInclusiveScan(a)) };
    },
    async run(ctx, k, s, c) {
      const n = c.expected.shape[0]!;
      const out = outputName(k, '7');
      let a = ctx.stream('float', n, c.inputs.input!.data);
      try {
        for (let twotoi = 1; twotoi < n; twotoi *= 2) {
          const b = ctx.stream('float', n);
          try {
            ctx.runInternal(k, { input: a, [out]: b, here: iter(0, n), left_2toi: iter(-twotoi, n - twotoi), twotoi });
          } catch (e) {
            b.dispose();
            throw e;
          }
          a.dispose();
          a = b;
        }
        return { data: await a.read(), note: `${Math.ceil(Math.log2(n))} passes` };
      } finally {
        a.dispose();
        void s;
      }
    },
  },
  {
    n: 8,
    id: 'compact',
    title: 'Gather-search: compaction',
    idea: 'scatter replaced by a search: each output record finds the input record that lands on it',
    task: 'Some records are null (x = +∞, Horn\'s mark); the others must be packed to the front, in order. The host has counted the nulls up to each record (nulls[j], a scan) and runs your kernel once per kept record: output record here gathers the input record j whose kept records up to j, j + 1 − nulls[j], equal here + 1. Search for j.',
    source: 'Horn, GPU Gems 2 ch. 36, section 36.1.2, Listing 36-2 (GatherSearch with a loop)',
    kernel: 'GatherSearch',
    starter: `kernel void GatherSearch(float nulls[], float value[], iter float here<>,
                         float n, out float o<>) {
  o = value[here];
}`,
    hints: [
      'kept(j) = j + 1 − nulls[j] never decreases, so a binary search works.',
      'Search j in [here, n − 1]: keep lo, hi; look at mid = floor((lo + hi) / 2).',
      'You want the first j with kept(j) >= here + 1: if kept(mid) >= here + 1, hi = mid, else lo = mid + 1. 24 steps are enough below 2^24.',
    ],
    solution: `kernel void GatherSearch(float nulls[], float value[], iter float here<>,
                         float n, out float o<>) {
  float lo = here;
  float hi = n - 1;
  for (int step = 0; step < 24; step++) {
    float mid = floor((lo + hi) / 2);
    if (mid + 1 - nulls[mid] >= here + 1) hi = mid;
    else lo = mid + 1;
  }
  o = value[lo];
}`,
    solutionNote: 'Horn\'s Listing 36-2 searches in one pass with a loop, moving a relative guess by halving steps; this is the same search written on absolute positions.',
    wrong: [{ what: 'off by one (the first j with kept(j) > here + 1)', source: 'kernel void GatherSearch(float nulls[], float value[], iter float here<>,\n                         float n, out float o<>) {\n  float lo = here;\n  float hi = n - 1;\n  for (int step = 0; step < 24; step++) {\n    float mid = floor((lo + hi) / 2);\n    if (mid + 1 - nulls[mid] > here + 1) hi = mid;\n    else lo = mid + 1;\n  }\n  o = value[lo];\n}' }],
    host: `// 1 where value is +infinity
IsNull(value, flags);
// running count of nulls (puzzle 7)
nulls = scan(flags);
// records kept
m = n - nulls[n - 1];
// your kernel; o has m records
GatherSearch(nulls, value, iter(0, m), n, o);`,
    minutes: 15,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const v = Float32Array.from({ length: n! }, (_, i) => (i > 0 && random() < 0.3 ? Infinity : Math.fround(uniform(random, 0, 100))));
      const kept = ref.puzzleCompact(v);
      return { label: `n = ${n}, ${n! - kept.length} nulls`, inputs: { value: float([n!], v) }, uniforms: {}, expected: float([kept.length], kept) };
    },
    async run(ctx, k, s, c) {
      const n = c.inputs.value!.shape[0]!;
      const out = outputName(k, '8');
      const flags = ctx.stream('float', n);
      let nulls: Stream | null = null;
      try {
        ctx.runInternal(IS_NULL, { value: s.value!, flag: flags });
        nulls = scan(ctx, flags);
        const counts = await nulls.read();
        const m = n - counts[n - 1]!;
        if (m === 0) return { data: new Float32Array(0) };
        const o = ctx.stream('float', m);
        try {
          ctx.runInternal(k, { nulls, value: s.value!, here: iter(0, m), n, [out]: o });
          return { data: await o.read(), note: `${n - m} nulls dropped` };
        } finally {
          o.dispose();
        }
      } finally {
        flags.dispose();
        nulls?.dispose();
      }
    },
  },
  {
    n: 9,
    id: 'bitonic',
    title: 'A bitonic merge step',
    idea: 'sorting by a fixed network of compare-exchange passes: every record reads its partner',
    task: 'Bitonic sort runs passes (stage = 2, 4, ..., N; step = stage/2, ..., 1). In each, record here compares itself with its partner here ± step and keeps the smaller or the larger: the smaller when (here is the lower of the pair) equals (its block of stage records sorts upward, i.e. floor(here / stage) is even). The host pads to a power of two with +∞.',
    source: 'Horn, GPU Gems 2 ch. 36, Table 36-1 (bitonic sort, the comparison for scan/search; Buck & Purcell 2004); no listing in the five papers',
    kernel: 'bitonicStep',
    starter: `kernel void bitonicStep(float a[], iter float here<>, float stage, float step,
                        out float o<>) {
  o = a[here];
}`,
    hints: [
      'The partner is here + step when floor(here / step) is even, else here − step.',
      'up = fmod(floor(here / stage), 2) == 0; low = here < partner.',
      'o = (low == up) ? min(mine, theirs) : max(mine, theirs).',
    ],
    solution: `kernel void bitonicStep(float a[], iter float here<>, float stage, float step,
                        out float o<>) {
  float partner = fmod(floor(here / step), 2) == 0 ? here + step : here - step;
  bool up = fmod(floor(here / stage), 2) == 0;
  bool low = here < partner;
  float mine = a[here];
  float theirs = a[partner];
  o = (low == up) ? min(mine, theirs) : max(mine, theirs);
}`,
    solutionNote: 'The compare-exchange of a bitonic network, as brookgl\'s sortStream runs it (src/idioms/sort.ts); Horn measures it against scan/search in Table 36-1.',
    wrong: [{ what: 'every block sorted upward (no bitonic direction)', source: 'kernel void bitonicStep(float a[], iter float here<>, float stage, float step,\n                        out float o<>) {\n  float partner = fmod(floor(here / step), 2) == 0 ? here + step : here - step;\n  float mine = a[here];\n  float theirs = a[partner];\n  o = (here < partner) ? min(mine, theirs) : max(mine, theirs);\n}' }],
    host: `N = power of two >= n;
a = value padded with +infinity;
for (stage = 2; stage <= N; stage *= 2)
  for (step = stage / 2; step >= 1; step /= 2) {
    bitonicStep(a, iter(0, N), stage, step, b);
    swap(a, b);
  }
o = first n records of a`,
    minutes: 15,
    sizes: [[1], [1000], [2048]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const a = Float32Array.from({ length: n! }, () => uniform(random, 0, 1000));
      return { label: `n = ${n}`, inputs: { a: float([n!], a) }, uniforms: {}, expected: float([n!], ref.puzzleSorted(a)) };
    },
    async run(ctx, k, _s, c) {
      const n = c.expected.shape[0]!;
      const N = pow2(n);
      const out = outputName(k, '9');
      const padded = new Float32Array(N).fill(Infinity);
      padded.set(c.inputs.a!.data as Float32Array);
      let a = ctx.stream('float', N, padded);
      let passes = 0;
      try {
        for (let stage = 2; stage <= N; stage *= 2)
          for (let step = stage / 2; step >= 1; step /= 2) {
            const b = ctx.stream('float', N);
            try {
              ctx.runInternal(k, { a, here: iter(0, N), stage, step, [out]: b });
            } catch (e) {
              b.dispose();
              throw e;
            }
            a.dispose();
            a = b;
            passes++;
          }
        return { data: (await a.read()).slice(0, n), note: `${passes} passes over ${N} records` };
      } finally {
        a.dispose();
      }
    },
  },
  {
    n: 10,
    id: 'zcull',
    title: 'Early exit with a z-cull mask',
    idea: 'a depth-buffer mask built once lets later passes skip records before their kernel runs',
    task: 'Cells whose four neighbours are all obstacles ("landlocked") need no work. Write the mask builder: like a z-cull builder it must discard every cell that should still run, so the cells it writes get depth 0 and are skipped. The host then runs a pass that writes 1 where it runs.',
    source: 'Harris & Buck, "GPU Flow-Control Idioms", GPU Gems 2 ch. 34, section 34.2.3, Listings 34-1 (the builder) and 34-2 (the host)',
    kernel: 'landlocked',
    starter: `kernel void landlocked(float obstacles[][], out float o<>) {
  float2 p = indexof(o).xy;
  discard;   // discards every cell: nothing is masked
  o = 0;
}`,
    hints: [
      'Count the neighbours (left, right, up, down) that are obstacles (> 0.5).',
      'Discard the cells that are NOT landlocked: the builder writes depth only where it does not discard.',
      'Outside the grid, the nearest cell is read (clamped), as in Listing 34-1.',
    ],
    solution: `kernel void landlocked(float obstacles[][], out float o<>) {
  float2 p = indexof(o).xy;
  float walls = 0;
  walls += obstacles[p.y][p.x - 1] > 0.5 ? 1 : 0;
  walls += obstacles[p.y][p.x + 1] > 0.5 ? 1 : 0;
  walls += obstacles[p.y - 1][p.x] > 0.5 ? 1 : 0;
  walls += obstacles[p.y + 1][p.x] > 0.5 ? 1 : 0;
  if (walls < 4)
    discard;   // not landlocked: keep running
  o = 0;
}`,
    solutionNote: 'Harris & Buck\'s Listing 34-1 (the obstacles builder: four neighbours summed, `if (bounds.x < 4) discard;`), with Listing 34-2\'s depth setup done by ctx.buildMask.',
    wrong: [{ what: 'masks cells with three walls too', source: 'kernel void landlocked(float obstacles[][], out float o<>) {\n  float2 p = indexof(o).xy;\n  float walls = 0;\n  walls += obstacles[p.y][p.x - 1] > 0.5 ? 1 : 0;\n  walls += obstacles[p.y][p.x + 1] > 0.5 ? 1 : 0;\n  walls += obstacles[p.y - 1][p.x] > 0.5 ? 1 : 0;\n  walls += obstacles[p.y + 1][p.x] > 0.5 ? 1 : 0;\n  if (walls < 3)\n    discard;\n  o = 0;\n}' }],
    host: `// depth 1 everywhere
mask = zmask(o);
// your kernel: depth 0 where it does not discard
buildMask(mask, landlocked, obstacles);
o = 0;
// Work writes 1 where the depth test passes
Work(o) under the mask;
skipped = cells - sum(o);`,
    minutes: 12,
    sizes: [[1, 1], [20, 30], [64, 64]],
    shown: 1,
    tolerance: 0,
    makeCase([h, w], random) {
      // blobs of obstacles: a few discs, so some cells are landlocked
      const g = new Float32Array(h! * w!);
      const discs = Array.from({ length: 4 }, () => [uniform(random, 0, w!), uniform(random, 0, h!), uniform(random, 2, Math.max(3, w! / 5))]);
      for (let y = 0; y < h!; y++) for (let x = 0; x < w!; x++) g[y * w! + x] = discs.some(([cx, cy, r]) => Math.hypot(x - cx!, y - cy!) < r!) ? 1 : 0;
      if (h! * w! === 1) g[0] = 1;
      return { label: `${h} × ${w} grid`, inputs: { obstacles: float([h!, w!], g) }, uniforms: {}, expected: float([h!, w!], ref.puzzleProcessed(g, h!, w!)) };
    },
    async run(ctx, k, s, c) {
      const out = outputName(k, '10');
      const o = ctx.stream('float', streamShape(c.expected.shape), new Float32Array(records(c.expected.shape)));
      const mask = ctx.zmask(o);
      try {
        ctx.buildMask(mask, k, { obstacles: s.obstacles!, [out]: o });
        ctx.runInternal(WORK, { o }, { mask });
        const data = await o.read();
        let ran = 0;
        for (const v of data) ran += v;
        return { data, note: `the masked pass skipped ${data.length - ran} of ${data.length} records` };
      } finally {
        mask.dispose();
        o.dispose();
      }
    },
  },
  {
    n: 11,
    id: 'occlusion',
    title: 'An occlusion-query loop until convergence',
    idea: 'the GPU tells the host when to stop: a termination pass inside an occlusion query',
    task: 'Each record (x, k) is halved until x < 1, counting the halvings in k; the host repeats the Halve pass until no record is left to work on. Write the termination kernel: it must discard every record that has finished, so the occlusion query sees fragments only while some record still runs.',
    source: 'Harris & Buck, GPU Gems 2 ch. 34, section 34.3 (data-dependent looping with occlusion queries)',
    kernel: 'stillRunning',
    starter: `kernel void stillRunning(float2 s<>, out float o<>) {
  discard;   // everything finished? then the loop stops after one pass
  o = 1;
}`,
    hints: ['A record has finished when s.x < 1 (Halve leaves it alone from then on).', 'Discard the finished ones; the loop goes on while any fragment survives.'],
    solution: `kernel void stillRunning(float2 s<>, out float o<>) {
  if (s.x < 1)
    discard;   // finished: no fragment, no sample for the query
  o = 1;
}`,
    solutionNote: 'The termination program of Harris & Buck\'s section 34.3: it discards the fragments that satisfy the criterion, so the occlusion query counts the ones still running.',
    wrong: [{ what: 'the wrong pass count (stops one pass early)', source: 'kernel void stillRunning(float2 s<>, out float o<>) {\n  if (s.x < 2)\n    discard;\n  o = 1;\n}' }],
    host: `do {
  // Halve: x >= 1 ? (x / 2, k + 1) : (x, k)
  Halve(s, t);
  swap(s, t);
  query.begin();
  stillRunning(s, scratch);   // your kernel
  query.end();
} while (the query saw a sample);`,
    minutes: 8,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const x = ints(n!, random, 0, 5000);
      const s = new Float32Array(n! * 2);
      x.forEach((v, i) => (s[i * 2] = v));
      return { label: `n = ${n}`, inputs: { s: { type: 'float2', shape: [n!], components: 2, data: s } }, uniforms: {}, expected: { type: 'float2', shape: [n!], components: 2, data: ref.puzzleHalvings(x) } };
    },
    async run(ctx, k, _s, c) {
      const n = c.expected.shape[0]!;
      const out = outputName(k, '11');
      let s = ctx.stream('float2', n, c.inputs.s!.data);
      let t = ctx.stream('float2', n);
      const scratch = ctx.stream('float', n);
      try {
        const { iterations, issued } = await occlusionLoop(ctx, {
          iterate: () => {
            ctx.runInternal(HALVE, { s, t });
            [s, t] = [t, s];
          },
          terminate: () => ctx.runInternal(k, { s, [out]: scratch }),
          maxIterations: 64,
          inFlight: 1, // each query answered before the next pass: the pass count is the kernel's alone
        });
        void issued;
        return { data: await s.read(), note: `the loop stopped after ${iterations} Halve passes` };
      } finally {
        s.dispose();
        t.dispose();
        scratch.dispose();
      }
    },
  },
  {
    n: 12,
    id: 'scatter',
    title: 'Scatter by points',
    idea: 'a vertex shader can write anywhere: one point per record, drawn at the address a kernel computed',
    task: 'Fragment kernels can only gather; the host scatters by drawing one point per record at the address your kernel computes. Deinterleave: the even-numbered records go first, in order, then the odd-numbered ones. Write the address of record i among n.',
    source: 'Horn, GPU Gems 2 ch. 36, section 36.1.1 ("vertex processors can scatter by rendering a stream of input points"); brookgl\'s filter method "scatter"',
    kernel: 'address',
    starter: `kernel void address(iter float i<>, float n, out float dest<>) {
  dest = i;
}`,
    hints: ['Even i goes to i / 2.', 'There are ceil(n / 2) even records; odd i goes after them, in order: floor(i / 2) among the odd ones.', 'Try n = 1 and an odd n.'],
    solution: `kernel void address(iter float i<>, float n, out float dest<>) {
  if (fmod(i, 2) == 0)
    dest = i / 2;
  else
    dest = ceil(n / 2) + floor(i / 2);
}`,
    solutionNote: 'Horn names the vertex scatter (section 36.1.1) as the alternative to search and gather; brookgl\'s filter draws its kept records as points the same way (src/idioms/scatter.ts).',
    wrong: [{ what: 'off by one for odd n (floor instead of ceil)', source: 'kernel void address(iter float i<>, float n, out float dest<>) {\n  if (fmod(i, 2) == 0)\n    dest = i / 2;\n  else\n    dest = floor(n / 2) + floor(i / 2);\n}' }],
    host: `// your kernel
address(iter(0, n), n, dest);
o = -1 everywhere;
// one point per record: point i lands on
// record dest[i] of o and writes value[i]
draw n points;`,
    minutes: 8,
    sizes: [[1], [999], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const v = Float32Array.from({ length: n! }, () => uniform(random, 0, 1));
      return { label: `n = ${n}`, inputs: { value: float([n!], v) }, uniforms: { n: n! }, expected: float([n!], ref.puzzleDeinterleave(v)) };
    },
    async run(ctx, k, s, c) {
      const n = c.expected.shape[0]!;
      const out = outputName(k, '12');
      const dest = ctx.stream('float', n);
      const o = ctx.stream('float', n, new Float32Array(n).fill(-1));
      try {
        ctx.runInternal(k, { i: iter(0, n), n, [out]: dest });
        runPass(ctx, {
          name: 'ScatterByPoints',
          kind: 'scatter',
          vertex: { glsl: scatterVertex(n), gathers: { dest: 'float' } },
          fragment: { glsl: SCATTER_FRAGMENT, gathers: { value: 'float' } },
          primitive: 'points',
          count: n,
          targets: [o],
          gathers: { dest, value: s.value! },
        });
        return { data: await o.read() };
      } finally {
        dest.dispose();
        o.dispose();
      }
    },
  },
  {
    n: 13,
    id: 'binning',
    title: 'Binning by depth peeling',
    idea: 'a depth texture array as bins: peeling writes each bin\'s items in id order, slot by slot',
    task: 'The host bins points into a cells × cells grid by depth peeling: slot k of cell (x, y) is row k · cells + y, column x of slots, holding the k-th smallest id of the cell as key = id / 2^24, or 1.0 when empty. For each cell, output the sum of its items\' ids.',
    source: 'Oat, Barczak & Shopf, "Efficient Spatial Binning on the GPU", AMD 2009, sections 3 and 3.2 (bins as a depth texture array, built slot by slot)',
    kernel: 'cellIdSum',
    starter: `kernel void cellIdSum(float slots[][], float capacity, float cells, out float o<>) {
  float2 p = indexof(o).xy;
  o = slots[p.y][p.x];   // slot 0 of this cell, as a key
}`,
    hints: ['Loop k from 0 to capacity − 1 and read slots[k * cells + p.y][p.x].', 'A key of 1.0 is an empty slot: skip it.', 'id = key · 16777216 (2^24), exact for ids below 2^24.'],
    solution: `kernel void cellIdSum(float slots[][], float capacity, float cells, out float o<>) {
  float2 p = indexof(o).xy;
  o = 0;
  for (float k = 0; k < capacity; k++) {
    float key = slots[k * cells + p.y][p.x];
    if (key < 1)
      o += key * 16777216;
  }
}`,
    solutionNote: 'Reads the bins as Oat et al. lay them out (slot k of every bin in a layer of the depth texture array, ids as depths, section 3); brookgl\'s Bins.pack() stacks the slots as rows.',
    wrong: [{ what: 'adds the empty slots', source: 'kernel void cellIdSum(float slots[][], float capacity, float cells, out float o<>) {\n  float2 p = indexof(o).xy;\n  o = 0;\n  for (float k = 0; k < capacity; k++)\n    o += slots[k * cells + p.y][p.x] * 16777216;\n}' }],
    host: `// depth peeling into a cells × cells × 1 grid
bins = binPoints(points, grid, capacity 8);
// capacity · cells rows × cells columns
slots = bins.pack();
// o is cells × cells
cellIdSum(slots, bins.capacity, cells, o);`,
    minutes: 12,
    sizes: [[1], [500], [2000]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      const cells = 16;
      const p = new Float32Array(n! * 4);
      for (let i = 0; i < n!; i++) [p[i * 4], p[i * 4 + 1], p[i * 4 + 2], p[i * 4 + 3]] = [uniform(random, 0, 0.999), uniform(random, 0, 0.999), 0, 1];
      return { label: `${n} points, ${cells} × ${cells} cells`, inputs: { points: { type: 'float4', shape: [n!], components: 4, data: p } }, uniforms: { cells }, expected: float([cells, cells], ref.puzzleCellIdSums(p, cells)) };
    },
    async run(ctx, k, s, c) {
      const cells = c.uniforms.cells!;
      const out = outputName(k, '13');
      const bins = await binPoints(ctx, s.points!, { cells: [cells, cells, 1], origin: [0, 0, 0], cellSize: 1 / cells }, { capacity: 8 });
      try {
        const slots = bins.pack();
        try {
          const r = await runOnce(ctx, k, { slots, capacity: bins.capacity, cells }, c.expected, out);
          return { ...r, note: `capacity ${bins.capacity} slots (${bins.stats.overflows} rebuilds after an overflow)` };
        } finally {
          slots.dispose();
        }
      } finally {
        bins.dispose();
      }
    },
  },
  {
    n: 14,
    id: 'nbody',
    title: 'An N-body tile',
    idea: 'all pairs in tiles: each pass adds the forces of p bodies, the host loops over tiles',
    task: 'Each pass adds to every body\'s acceleration the pull of the bodies start .. start + p − 1 (a tile of p = 32), with softening: a += m_j r / (|r|² + eps2)^(3/2), r = pos_j − pos_i. The host loops over tiles; the last tile runs past n when n is not a multiple of p.',
    source: 'Nyland, Harris & Prins, "Fast N-Body Simulation with CUDA", GPU Gems 3 ch. 31, Listings 31-1 (bodyBodyInteraction) and 31-2 (tile_calculation)',
    kernel: 'tile',
    starter: `kernel void tile(float4 pos[], float4 acc<>, iter float i<>, float start,
                 float p, float n, float eps2, out float4 o<>) {
  float3 a = acc.xyz;
  float4 me = pos[i];
  // for each body j of the tile: a += ...
  o = float4(a, 0);
}`,
    hints: [
      'Loop j from start to start + p − 1; body j is pos[j] (xyz position, w mass).',
      'r = b.xyz − me.xyz; d2 = dot(r, r) + eps2; a += r · (b.w / (d2 · sqrt(d2))).',
      'The last tile reaches past n, and gathers past the end read body n − 1 again: skip j >= n.',
    ],
    solution: `kernel void tile(float4 pos[], float4 acc<>, iter float i<>, float start,
                 float p, float n, float eps2, out float4 o<>) {
  float3 a = acc.xyz;
  float4 me = pos[i];
  for (float j = start; j < start + p; j++) {
    if (j < n) {
      float4 b = pos[j];
      float3 r = b.xyz - me.xyz;
      float d2 = dot(r, r) + eps2;
      a += r * (b.w / (d2 * sqrt(d2)));
    }
  }
  o = float4(a, 0);
}`,
    solutionNote: 'Nyland et al.\'s Listing 31-1 (the interaction, 20 flops) inside Listing 31-2\'s loop over one tile; their CUDA tile reads shared memory, this one gathers.',
    wrong: [{ what: 'misses the last tile\'s edge (counts body n − 1 again)', source: 'kernel void tile(float4 pos[], float4 acc<>, iter float i<>, float start,\n                 float p, float n, float eps2, out float4 o<>) {\n  float3 a = acc.xyz;\n  float4 me = pos[i];\n  for (float j = start; j < start + p; j++) {\n    float4 b = pos[j];\n    float3 r = b.xyz - me.xyz;\n    float d2 = dot(r, r) + eps2;\n    a += r * (b.w / (d2 * sqrt(d2)));\n  }\n  o = float4(a, 0);\n}' }],
    host: `acc = 0;
for (start = 0; start < n; start += 32) {
  tile(pos, acc, iter(0, n), start, 32, n, 0.01, next);
  swap(acc, next);
}`,
    minutes: 15,
    sizes: [[1], [100], [512]],
    shown: 1,
    tolerance: 1e-4,
    makeCase([n], random) {
      const b = new Float32Array(n! * 4);
      for (let i = 0; i < n!; i++) [b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]] = [uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, 0.5, 1.5) / n!];
      const a = ref.puzzleAccelerations(b, 0.01);
      const e = new Float32Array(n! * 4);
      for (let i = 0; i < n!; i++) e.set([a[i * 3]!, a[i * 3 + 1]!, a[i * 3 + 2]!, 0], i * 4);
      return { label: `${n} bodies`, inputs: { pos: { type: 'float4', shape: [n!], components: 4, data: b } }, uniforms: { eps2: 0.01, p: 32 }, expected: { type: 'float4', shape: [n!], components: 4, data: e } };
    },
    async run(ctx, k, s, c) {
      const n = c.expected.shape[0]!;
      const out = outputName(k, '14');
      let acc = ctx.stream('float4', n, new Float32Array(n * 4));
      let tiles = 0;
      try {
        for (let start = 0; start < n; start += 32) {
          const next = ctx.stream('float4', n);
          try {
            ctx.runInternal(k, { pos: s.pos!, acc, i: iter(0, n), start, p: 32, n, eps2: 0.01, [out]: next });
          } catch (e) {
            next.dispose();
            throw e;
          }
          acc.dispose();
          acc = next;
          tiles++;
        }
        return { data: await acc.read(), note: `${tiles} tile passes` };
      } finally {
        acc.dispose();
      }
    },
  },
  {
    n: 15,
    id: 'struct',
    title: 'A struct stream',
    idea: 'records of several fields (one texture per field), read and written as a whole',
    task: 'Particles are records of two fields, pos and vel. Move each by vel · dt inside the unit box; a particle that leaves through a wall is reflected back in (x → −x past 0, x → 2 − x past 1) and that component of its velocity flips.',
    source: 'Buck et al., "Brook for GPUs", SIGGRAPH 2004 (structs); Horn, GPU Gems 2 ch. 36, Listing 36-3 (struct streams in print)',
    kernel: 'move',
    starter: `typedef struct { float2 pos; float2 vel; } Particle;

kernel void move(Particle p<>, float dt, out Particle q<>) {
  q.pos = p.pos + p.vel * dt;
  q.vel = p.vel;
}`,
    hints: ['Work on local copies: float2 x = p.pos + p.vel * dt; float2 v = p.vel;', 'Each component on its own: if (x.x < 0) { x.x = -x.x; v.x = -v.x; } and the same past 1, and for y.', 'Write both fields of q at the end.'],
    solution: `typedef struct { float2 pos; float2 vel; } Particle;

kernel void move(Particle p<>, float dt, out Particle q<>) {
  float2 x = p.pos + p.vel * dt;
  float2 v = p.vel;
  if (x.x < 0) { x.x = -x.x; v.x = -v.x; }
  if (x.x > 1) { x.x = 2 - x.x; v.x = -v.x; }
  if (x.y < 0) { x.y = -x.y; v.y = -v.y; }
  if (x.y > 1) { x.y = 2 - x.y; v.y = -v.y; }
  q.pos = x;
  q.vel = v;
}`,
    solutionNote: 'A struct stream as Brook declares them; Horn\'s Listing 36-3 declares the collision streams the same way.',
    wrong: [{ what: 'reflects the position but keeps the velocity', source: 'typedef struct { float2 pos; float2 vel; } Particle;\n\nkernel void move(Particle p<>, float dt, out Particle q<>) {\n  float2 x = p.pos + p.vel * dt;\n  if (x.x < 0) x.x = -x.x;\n  if (x.x > 1) x.x = 2 - x.x;\n  if (x.y < 0) x.y = -x.y;\n  if (x.y > 1) x.y = 2 - x.y;\n  q.pos = x;\n  q.vel = p.vel;\n}' }],
    host: `Particle p<n>, q<n>;
// pos.x, pos.y, vel.x, vel.y per record
streamRead(p, particles);
move(p, 0.1, q);`,
    minutes: 8,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 1e-5,
    makeCase([n], random) {
      const p = new Float32Array(n! * 4);
      for (let i = 0; i < n!; i++) [p[i * 4], p[i * 4 + 1], p[i * 4 + 2], p[i * 4 + 3]] = [uniform(random, 0, 1), uniform(random, 0, 1), uniform(random, -2, 2), uniform(random, -2, 2)];
      if (n === 1) p.set([0.05, 0.95, -1, 1]); // through both walls at once
      return { label: `n = ${n}`, inputs: { p: { type: 'struct', shape: [n!], components: 4, data: p } }, uniforms: { dt: 0.1 }, expected: { type: 'struct', shape: [n!], components: 4, data: ref.puzzleParticleStep(p, 0.1) } };
    },
    run: (ctx, k, _s, c) => runStruct(ctx, k, c),
  },
  {
    n: 16,
    id: 'exact',
    title: 'Counts past 2^24',
    idea: 'float32 counts stop being exact at 2^24 = 16,777,216: integer streams stay exact',
    task: 'Each record is a count of events in one tile; the host sums them with your reduce kernel and must get the exact total, which passes 2^24 here. The host stores the counts in the type your kernel declares. The starter sums in float: make it exact.',
    source: 'brookgl\'s exactness rule (docs/guide.md); Horn, GPU Gems 2 ch. 36 (running counts of records); Buck et al. 2004 (reductions)',
    kernel: 'total',
    starter: `reduce void total(float a<>, reduce float r<>) {
  r += a;
}`,
    hints: ['Past 2^24, float32 has no room for the ones digit: 16777216 + 1 = 16777216.', 'Declare the stream and the result as int (or uint): integer textures add exactly.'],
    solution: `reduce void total(int a<>, reduce int r<>) {
  r += a;
}`,
    solutionNote: 'A reduce kernel (Brook 2004) on an integer stream: brookgl sums int streams exactly past 2^24, as its write queries and filters count.',
    wrong: [{ what: 'sums in float (the starter)', source: 'reduce void total(float a<>, reduce float r<>) {\n  r += a;\n}' }],
    host: `// counts<n>, of the type total declares
streamRead(counts, data);
// in brookgl: [sum] = await reduceValue(ctx, total, { a: counts })
total(counts, sum);`,
    minutes: 5,
    sizes: [[1], [1000], [4096]],
    shown: 1,
    tolerance: 0,
    makeCase([n], random) {
      // n = 1: a single count of 2^24 + 1; larger n: counts averaging 2^25 / n, so the total passes 2^24 about twice
      const counts = n === 1 ? Float64Array.of(2 ** 24 + 1) : Float64Array.from({ length: n! }, () => Math.floor(uniform(random, 0, 2 ** 26 / n!)) + 1);
      return { label: `n = ${n}, total ${ref.puzzleTotal(counts).toLocaleString('en-US')}`, inputs: { a: { type: 'int', shape: [n!], components: 1, data: counts } }, uniforms: {}, expected: { type: 'int', shape: [1], components: 1, data: Float64Array.of(ref.puzzleTotal(counts)) } };
    },
    async run(ctx, k, _s, c) {
      const red = k.brook?.reduce;
      if (!red) throw new BrookError(`puzzle 16: ${k.name} must be a reduce kernel (reduce void ${k.name}(int a<>, reduce int r<>))`);
      const counts = ctx.stream(red.type as ElementType, streamShape(c.inputs.a!.shape), c.inputs.a!.data);
      try {
        return { data: Float64Array.from(await reduceValue(ctx, k, { [red.input]: counts })), note: `counts held as ${red.type}` };
      } finally {
        counts.dispose();
      }
    },
  },
];

/** Puzzle 15's host: struct streams of the kernel's own struct type, bound to its struct input and output. */
async function runStruct(ctx: BrookContext, k: KernelSpec, c: PuzzleCase): Promise<PuzzleOutput> {
  const params = Object.entries(k.structParams ?? {});
  const input = params.find(([, p]) => p.role === 'inputs');
  const output = params.find(([, p]) => p.role === 'outputs');
  if (!input || !output) throw new BrookError(`puzzle 15: kernel ${k.name} must read a struct stream and write one (Particle p<>, out Particle q<>)`);
  const n = c.expected.shape[0]!;
  const p = structStream(ctx, input[1].struct, n, c.inputs.p!.data);
  const q = structStream(ctx, output[1].struct, n);
  try {
    const uniforms = Object.keys(k.uniforms ?? {});
    ctx.runInternal(k, { [input[0]]: p, [output[0]]: q, ...(uniforms.includes('dt') ? { dt: c.uniforms.dt! } : {}) } as never);
    return { data: await q.read() };
  } finally {
    p.dispose();
    q.dispose();
  }
}

const IS_NULL: KernelSpec = { name: 'IsNull', inputs: { value: 'float' }, outputs: { flag: 'float' }, body: 'flag = isinf(value) && value > 0.0 ? 1.0 : 0.0;' };
const WORK: KernelSpec = { name: 'Work', outputs: { o: 'float' }, body: 'o = 1.0;' };
const HALVE: KernelSpec = { name: 'Halve', inputs: { s: 'float2' }, outputs: { t: 'float2' }, body: 't = s.x >= 1.0 ? vec2(s.x * 0.5, s.y + 1.0) : s;' };

/** The scatter's vertex stage: point i at record dest(i) of an n-record target, nowhere when dest is outside it. */
function scatterVertex(n: number): string {
  return [
    'flat out int brook_src;',
    'void main() {',
    '  int i = gl_VertexID;',
    '  brook_src = i;',
    '  float d = floor(dest(i) + 0.5);',
    `  gl_Position = d >= 0.0 && d < ${n}.0 ? brook_scatter(int(d), 0.0) : BROOK_NOWHERE;`,
    '  gl_PointSize = 1.0;',
    '}',
  ].join('\n');
}

const SCATTER_FRAGMENT = ['flat in int brook_src;', 'layout(location = 0) out vec4 kept;', 'void main() {', '  kept = vec4(value(brook_src), 0.0, 0.0, 0.0);', '}'].join('\n');
