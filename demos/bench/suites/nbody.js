// Suite `nbody`: all-pairs N-body (GPU Gems 3 ch. 31) on this browser's GPU. Interactions per
// second and GFLOP/s (20 flops per interaction, as the chapter counts) of one acceleration
// evaluation: against N (Figure 31-6), the unroll factor u (31-5), the tile p (31-7), the
// fragments per body q (31-8), the bodies per fragment b, and the 2004-style N x N force
// texture. Each point: a warm-up evaluation, then as many back to back as fill ~0.3 s (wall,
// ending with a fence), and the same under a timer query.
import { createNBody, nbodyPreset, NBODY_FLOPS, DEFAULT_VARIANT } from '../../../dist/brookgl.js';

/** FP32 peaks of GPUs we have measured on (FMA = 2 flops), to report the fraction reached. */
const PEAKS = [[/H100/, 'H100 SXM FP32 peak 66.9 TFLOP/s', 66.9e12]];

const NAIVE = { p: 1, u: 1, q: 1, b: 1 };
const name = (m) => (m === 'nxn' ? 'N x N force texture + row sums' : m === 'points' ? "'points' (the loop in a vertex shader)" : `p=${m.p} u=${m.u} q=${m.q} b=${m.b}`);

async function measure(ctx, n, method) {
  const sys = createNBody(ctx, { ...nbodyPreset('plummer', n, 1), softening: 0.05, method });
  try {
    sys.accelerations(); // compile, fill the pool
    await ctx.queries.fence();
    let t0 = performance.now();
    sys.accelerations();
    await ctx.queries.fence();
    const one = performance.now() - t0;
    const reps = Math.max(1, Math.min(64, Math.floor(300 / Math.max(one, 0.01))));
    t0 = performance.now();
    for (let i = 0; i < reps; i++) sys.accelerations();
    await ctx.queries.fence();
    const wallMs = (performance.now() - t0) / reps;
    const gpu = await ctx.queries.time(() => {
      for (let i = 0; i < reps; i++) sys.accelerations();
    });
    const gpuMs = gpu === null ? null : gpu / reps;
    const per = (ms) => (ms === null ? null : (n * n) / (ms / 1000));
    return { n, method: name(method), reps, wallMs, gpuMs, interactionsPerS: per(wallMs), gpuInteractionsPerS: per(gpuMs), gflops: (per(wallMs) * NBODY_FLOPS) / 1e9, gpuGflops: gpuMs === null ? null : (per(gpuMs) * NBODY_FLOPS) / 1e9 };
  } finally {
    sys.dispose();
  }
}

const G = (x) => (x === null ? null : x / 1e9);

export async function run(ctx, { log = () => {}, plan = () => {}, quick = false } = {}) {
  const soft = ctx.caps.software;
  const all = [];
  const go = async (n, method) => {
    const r = await measure(ctx, n, method);
    all.push(r);
    log(`nbody N=${n} ${r.method}: ${G(r.interactionsPerS).toFixed(2)} G interactions/s`);
    return r;
  };
  const tables = [];
  const plots = [];
  const cols = ['N', 'variant', 'evaluations', 'wall ms', 'G interactions/s', 'GFLOP/s', 'GPU ms', 'G interactions/s (GPU timer)', 'GFLOP/s (GPU timer)'];
  const row = (r) => [r.n, r.method, r.reps, r.wallMs, G(r.interactionsPerS), r.gflops, r.gpuMs, G(r.gpuInteractionsPerS), r.gpuGflops];
  const best = (r) => r.gpuInteractionsPerS ?? r.interactionsPerS;

  // Figure 31-6: against N
  const sizes = quick ? [1024, 4096] : soft ? [1024, 2048, 4096, 8192, 16384] : [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];
  const nxnMax = soft ? 4096 : 8192;
  const vsN = { default: [], points: [], naive: [], nxn: [] };
  const big = quick ? 2048 : soft ? 4096 : 16384;
  const sweeps = [
    [quick ? [1, 4] : [1, 2, 4, 8, 16], [big]],
    [quick ? [4, 64] : [4, 16, 64, 256], quick ? [1024] : soft ? [1024, 4096] : [1024, 4096, 16384]],
    [quick ? [1, 4] : [1, 2, 4, 8], quick ? [1024] : [1024, 2048, 4096]],
    [quick ? [1, 4] : [1, 2, 4, 8], [big]],
  ];
  // every measurement fills about 0.3 s (plus its set-up): equal steps
  plan(sizes.reduce((k, n) => k + 1 + (!soft || n <= 4096 ? 1 : 0) + (!quick && (!soft || n <= 8192) ? 1 : 0) + (n <= nxnMax ? 1 : 0), 0) + sweeps.reduce((k, [v, ns]) => k + v.length * ns.length, 0));
  for (const n of sizes) {
    vsN.default.push(await go(n, DEFAULT_VARIANT));
    if (!soft || n <= 4096) vsN.points.push(await go(n, 'points'));
    if (!quick && (!soft || n <= 8192)) vsN.naive.push(await go(n, NAIVE));
    if (n <= nxnMax) vsN.nxn.push(await go(n, 'nxn'));
  }
  const rowsN = [...vsN.default, ...vsN.points, ...vsN.naive, ...vsN.nxn];
  tables.push({ title: 'Figure 31-6: performance against N (one acceleration evaluation)', columns: cols, rows: rowsN.map(row) });
  plots.push({
    title: 'Figure 31-6: interactions per second vs N',
    xLabel: 'N (bodies)',
    yLabel: 'G interactions/s',
    logX: true,
    logY: true,
    series: [
      { name: `${name(DEFAULT_VARIANT)} (default from N = 4096)`, points: vsN.default.map((r) => [r.n, G(best(r))]) },
      { name: "'points' (vertex shader)", points: vsN.points.map((r) => [r.n, G(best(r))]) },
      { name: 'naive p=1 u=1 q=1 b=1', points: vsN.naive.map((r) => [r.n, G(best(r))]) },
      { name: 'N x N + row sums', points: vsN.nxn.map((r) => [r.n, G(best(r))]) },
    ],
  });

  // Figures 31-5 (u), 31-7 (p), 31-8 (q) and bodies per fragment (b)
  const sweep = async (title, fig, param, values, ns, base) => {
    const lines = [];
    for (const n of ns) {
      const pts = [];
      for (const v of values) pts.push(await go(n, { ...base, [param]: v }));
      lines.push({ n, pts });
    }
    tables.push({ title, columns: cols, rows: lines.flatMap((l) => l.pts.map(row)) });
    plots.push({
      title: `${fig}: interactions per second vs ${param}`,
      xLabel: param,
      yLabel: 'G interactions/s',
      logX: true,
      series: lines.map((l) => ({ name: `N = ${l.n}`, points: l.pts.map((r, i) => [values[i], G(best(r))]) })),
    });
  };
  const base = { p: 16, u: 4, q: 1, b: 1 };
  await sweep(`Figure 31-5: unrolling (N = ${big})`, 'Figure 31-5', 'u', ...sweeps[0], base);
  await sweep('Figure 31-7: tile size p', 'Figure 31-7', 'p', ...sweeps[1], base);
  await sweep('Figure 31-8: fragments per body q', 'Figure 31-8', 'q', ...sweeps[2], base);
  await sweep(`Bodies per fragment b (N = ${big})`, 'Bodies per fragment', 'b', ...sweeps[3], base);

  // the best point, and what fraction of the hardware it is
  const top = all.reduce((a, r) => (best(r) > best(a) ? r : a));
  const peak = PEAKS.find(([re]) => re.test(ctx.caps.renderer));
  const topFlops = best(top) * NBODY_FLOPS;
  tables.push({
    title: 'Best point',
    columns: ['N', 'variant', 'G interactions/s', 'GFLOP/s (20 per interaction)', 'fraction of FP32 peak'],
    rows: [[top.n, top.method, G(best(top)), topFlops / 1e9, peak ? `${((100 * topFlops) / peak[2]).toFixed(2)} % of ${peak[1]}` : 'peak unknown for this renderer']],
  });
  return { tables, plots, results: { points: all, best: top, flopsPerInteraction: NBODY_FLOPS } };
}
