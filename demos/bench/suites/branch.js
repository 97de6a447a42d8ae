// Suite `branch`: Figures 34-1 and 34-2 of Harris & Buck (GPU Gems 2 ch. 34). The time of one
// pass whose records take an expensive side with probability p, for a random condition and a
// spatially coherent one (a rectangle covering the fraction p of the grid), by predication
// (both sides always), a dynamic branch (`if`) and z-cull (a mask built once, then a masked
// pass per side), and what building the mask costs.
import { runBranch, branchMask, BRANCH_METHODS, createFluid } from '../../../dist/brookgl.js';

const STEPS = 64; // float4 multiply-adds on the expensive side (512 flops)

const desc = {
  name: 'Costly',
  inputs: { x: 'float4' },
  uniforms: { t: 'float' },
  outputs: { y: 'float' },
  cond: 'x.z < t',
  then: `vec4 a = x;\nfor (int k = 0; k < ${STEPS}; k++) a = a * 0.999 + 0.001;\ny = a.x + a.y + a.z + a.w;`,
  else: 'y = x.x;',
};

function grid(side, kind, seed = 7) {
  const v = new Float32Array(side * side * 4);
  let s = seed;
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const r = s / 4294967296;
      // random: z uniform; coherent: z grows left to right, so z < p is a rectangle of width p
      v.set([r, 1 - r, kind === 'random' ? r : (x + 0.5) / side, 0], (y * side + x) * 4);
    }
  return v;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const range = (xs) => (xs.length ? `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}` : '-');

/** Medians of `reps` runs after one that compiles: wall clock to a fence, and the GPU timer (null without one); min-max beside. */
async function timeIt(ctx, fn, reps) {
  fn();
  await ctx.queries.fence();
  const walls = [], gpus = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    fn();
    await ctx.queries.fence();
    walls.push(performance.now() - t0);
    const g = await ctx.queries.time(fn);
    if (g !== null) gpus.push(g);
  }
  return { wall: median(walls), gpu: gpus.length ? median(gpus) : null, wallRange: range(walls), gpuRange: range(gpus) };
}

export async function run(ctx, { log = () => {}, plan = () => {}, quick = false } = {}) {
  const side = quick ? 256 : ctx.caps.software ? 512 : 2048;
  const reps = quick ? 1 : 5;
  const probs = quick ? [0, 0.5, 1] : [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
  const fluidSizes = quick ? [128] : ctx.caps.software ? [128, 256] : [256, 512, 1024];
  // steps: each probability of each condition (4 timings of side² records), then 5 fluid steps per size (40 sweeps of n²)
  plan([...probs, ...probs].map(() => 4 * side * side).concat(fluidSizes.flatMap((n) => Array(5).fill(n * n * 10))));
  const tables = [];
  const plots = [];
  const results = { side, steps: STEPS, kinds: {} };
  for (const kind of ['random', 'coherent']) {
    const x = ctx.stream('float4', [side, side], grid(side, kind));
    const y = ctx.stream('float', [side, side]);
    const rows = [];
    const series = Object.fromEntries(BRANCH_METHODS.map((m) => [m, []]));
    const maskSeries = [];
    const mask = ctx.zmask(y);
    for (const p of probs) {
      const args = { x, y, t: p };
      const row = [p];
      for (const method of BRANCH_METHODS) {
        if (method === 'zcull') {
          const build = await timeIt(ctx, () => branchMask(ctx, desc, args, mask), reps);
          maskSeries.push(build);
          const t = await timeIt(ctx, () => runBranch(ctx, desc, args, { method, mask }), reps);
          series[method].push(t);
          row.push(t.wall, t.gpu, build.gpu ?? build.wall);
        } else {
          const t = await timeIt(ctx, () => runBranch(ctx, desc, args, { method }), reps);
          series[method].push(t);
          row.push(t.wall, t.gpu);
        }
      }
      log(`branch ${kind} p=${p}`);
      rows.push(row);
    }
    mask.dispose();
    x.dispose();
    y.dispose();
    results.kinds[kind] = { probs, ...Object.fromEntries(BRANCH_METHODS.map((m) => [m, series[m]])), maskBuild: maskSeries };
    tables.push({
      title: `${kind === 'random' ? 'Random' : 'Coherent (rectangle)'} condition, ${side}² records, expensive side ${STEPS * 8} flops (ms per pass, medians of ${reps}; min-max in the JSON)`,
      columns: ['p', 'predication wall', 'predication GPU', 'branch wall', 'branch GPU', 'z-cull wall', 'z-cull GPU', 'mask build GPU'],
      rows,
    });
    const pick = (t) => t.gpu ?? t.wall;
    plots.push({
      title: `Figures 34-1/34-2: ${kind} condition — time vs probability of the expensive side`,
      xLabel: 'probability p',
      yLabel: 'ms per pass (GPU timer)',
      series: [
        { name: 'predication', points: probs.map((p, i) => [p, pick(series.predicate[i])]) },
        { name: 'branch (if)', points: probs.map((p, i) => [p, pick(series.branch[i])]) },
        { name: 'z-cull (2 masked passes)', points: probs.map((p, i) => [p, pick(series.zcull[i])]) },
        { name: 'mask build', points: probs.map((p, i) => [p, pick(maskSeries[i])]) },
      ],
    });
  }
  // The fluid demo's step with each idiom switched off in turn (the obstacles of the demo page:
  // a disc of radius 0.16 n, whose inside is landlocked, and a thin wall).
  {
    const rows = [];
    const sizes = fluidSizes;
    const variants = [
      ['all idioms', { zcull: true, staticBranches: true, precomputed: true }],
      ['no z-cull', { zcull: false, staticBranches: true, precomputed: true }],
      ['no static branches', { zcull: true, staticBranches: false, precomputed: true }],
      ['no precomputed offsets', { zcull: true, staticBranches: true, precomputed: false }],
      ['none', { zcull: false, staticBranches: false, precomputed: false }],
    ];
    results.fluid = [];
    for (const n of sizes) {
      const fluid = createFluid(ctx, { size: n, jacobi: 40 });
      fluid.paintObstacle(n * 0.55, n * 0.5, n * 0.16);
      for (let y = n * 0.1; y < n * 0.35; y += 1) fluid.paintObstacle(n * 0.3, y, n * 0.015);
      const splat = { x: n * 0.08, y: n * 0.5, fx: n * 0.6, fy: 0, dye: 0.6, radius: n * 0.025 };
      for (const [label, idioms] of variants) {
        Object.assign(fluid.idioms, idioms);
        const t = await timeIt(ctx, () => fluid.step(0.5, { splat }), reps);
        rows.push([`${n}²`, label, fluid.passesPerStep, t.wall, t.wallRange, t.gpu, t.gpuRange]);
        results.fluid.push({ n, variant: label, passes: fluid.passesPerStep, wallMs: t.wall, gpuMs: t.gpu, wallRange: t.wallRange, gpuRange: t.gpuRange });
        log(`fluid ${n} ${label}`);
      }
      const landlocked = Array.from(fluid.obstacleCells.keys()).filter((k) => {
        const i = k % n, j = Math.floor(k / n);
        const o = (a, b) => (a < 0 || b < 0 || a >= n || b >= n ? 0 : fluid.obstacleCells[b * n + a]);
        return o(i - 1, j) + o(i + 1, j) + o(i, j - 1) + o(i, j + 1) === 4;
      }).length;
      rows.push([`${n}²`, `(masked cells: ${((100 * landlocked) / (n * n)).toFixed(1)} %)`, null, null, null, null, null]);
      fluid.dispose();
    }
    tables.push({ title: `Fluid demo step (40 Jacobi sweeps), each idiom switched off in turn (ms per step, medians of ${reps} steps)`, columns: ['grid', 'idioms', 'passes', 'wall ms', 'wall min-max', 'GPU ms', 'GPU min-max'], rows });
  }
  // Occlusion-query latency: issue a query around one small pass, time until its answer.
  {
    const a = ctx.stream('float', 4096, new Float32Array(4096).fill(1));
    const out = ctx.stream('float', 4096);
    const pass = { name: 'QueryProbe', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'if (a < 0.0) discard;\nb = a;' };
    const lat = [];
    for (let i = 0; i < (quick ? 5 : 30); i++) {
      const t0 = performance.now();
      await ctx.queries.occlusion(() => ctx.run(pass, { a, b: out }));
      lat.push(performance.now() - t0);
    }
    lat.sort((x, y) => x - y);
    const frame = await new Promise((r) => requestAnimationFrame((t0) => requestAnimationFrame((t1) => r(t1 - t0))));
    results.queryLatency = { medianMs: lat[lat.length >> 1], minMs: lat[0], maxMs: lat[lat.length - 1], frameMs: frame };
    tables.push({
      title: 'Occlusion query latency (issue to answer, one 4096-record pass)',
      columns: ['median ms', 'min ms', 'max ms', 'display frame ms'],
      rows: [[lat[lat.length >> 1], lat[0], lat[lat.length - 1], frame]],
    });
    a.dispose();
    out.dispose();
  }
  return { tables, plots, results };
}
