// The CPU backend's benchmark work (scripts/bench-cpu.mjs, not a spec): saxpy, a 5-point stencil and a sum,
// each as a Brook kernel on a context and as a hand-written JavaScript loop over typed arrays
// (float32 rounding as the kernel does it). Runs in Node (the CPU backend) and in a page
// (the CPU backend and the page's WebGL2 context).
import { brook, iter, type BrookContext, type Stream } from '../../src/index';

export const N = 1 << 20;
export const SIDE = 1024;

const K = brook`
  kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
  kernel void stencil(float u[][], iter float2 p<>, out float o<>) {
    o = u[p] + 0.25 * (u[p + float2(1, 0)] + u[p - float2(1, 0)] + u[p + float2(0, 1)] + u[p - float2(0, 1)] - 4.0 * u[p]);
  }
  reduce void sum(float a<>, reduce float r<>) { r += a; }
`;

const data = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => ((i * 7919 + seed * 104729) % 1000) / 1000);

/** One workload: its setup on a context, one run (returns after the work is done: a sync read of one value), teardown. */
export interface Work {
  name: string;
  setup(ctx: BrookContext): { run(): void; dispose(): void; read(): void };
  hand(): { run(): void };
}

export const WORK: Work[] = [
  {
    name: `saxpy (${N} records)`,
    setup(ctx) {
      const x = ctx.stream('float', N, data(N, 1)), y = ctx.stream('float', N, data(N, 2)), r = ctx.stream('float', N);
      return { run: () => ctx.run(K.saxpy!, { a: 2.5, x, y, r }), read: () => r.readSync(), dispose: () => [x, y, r].forEach((s: Stream) => s.dispose()) };
    },
    hand() {
      const x = data(N, 1), y = data(N, 2), r = new Float32Array(N);
      const f = Math.fround;
      return { run: () => { for (let i = 0; i < N; i++) r[i] = f(f(2.5 * x[i]!) + y[i]!); } };
    },
  },
  {
    name: `5-point stencil (${SIDE}x${SIDE}, edges clamped)`,
    setup(ctx) {
      const u = ctx.stream('float', [SIDE, SIDE], data(SIDE * SIDE, 3)), o = ctx.stream('float', [SIDE, SIDE]);
      return { run: () => ctx.run(K.stencil!, { u, p: iter([0, 0], [SIDE, SIDE]), o }), read: () => o.readSync(), dispose: () => [u, o].forEach((s: Stream) => s.dispose()) };
    },
    hand() {
      const u = data(SIDE * SIDE, 3), o = new Float32Array(SIDE * SIDE);
      const f = Math.fround;
      const at = (x: number, y: number) => u[Math.min(Math.max(y, 0), SIDE - 1) * SIDE + Math.min(Math.max(x, 0), SIDE - 1)]!;
      return {
        run: () => {
          for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) {
            const c = u[y * SIDE + x]!;
            o[y * SIDE + x] = f(c + f(0.25 * f(f(f(f(at(x + 1, y) + at(x - 1, y)) + at(x, y + 1)) + at(x, y - 1)) - f(4 * c))));
          }
        },
      };
    },
  },
  {
    name: `sum reduce (${N} records)`,
    setup(ctx) {
      const a = ctx.stream('float', N, data(N, 4)), r = ctx.stream('float', 1);
      return { run: () => { ctx.run(K.sum!, { a, r }); r.readSync(); }, read: () => undefined, dispose: () => [a, r].forEach((s: Stream) => s.dispose()) };
    },
    hand() {
      const a = data(N, 4);
      const f = Math.fround;
      // the sum in a local (kept where the run leaves it, so that the loop is not dropped)
      const kept = new Float32Array(1);
      return {
        run: () => {
          let s = a[0]!;
          for (let i = 1; i < N; i++) s = f(s + a[i]!);
          kept[0] = s;
        },
      };
    },
  },
];

/** Median, min and max of `reps` timed runs after one warm-up (ms). */
export function time(run: () => void, reps = 7): { median: number; min: number; max: number; runs: number } {
  run();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    run();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { median: t[reps >> 1]!, min: t[0]!, max: t[reps - 1]!, runs: reps };
}

/** Per-run time of `run`, which does `per` runs (ms): median, min and max of `batches` batches after one warm-up. */
export function perRun(run: () => void, per: number, batches = 7): { median: number; min: number; max: number; runs: number } {
  const t = time(run, batches);
  return { median: t.median / per, min: t.min / per, max: t.max / per, runs: batches * per };
}
