// Suite `binning`: Figures 5 and 6 of Oat, Barczak & Shopf (2009). Time to bin n random points
// (uniform in the unit cube) into 32³, 64³ and 128³ grids: naive, predicated, stream-reduced and
// delayed-reduction binning (Figure 5), and stencil routing without and with predicated iteration
// (Figure 6; each pass draws every point, one write per bin by the stencil), plus Purcell's
// one-draw routing into k x k slot blocks. Capacity: the expected load λ = n / bins plus
// 5√λ + 6 slots, so overflow is unlikely (the paper did the same); an overflow would be handled
// (rebuilt) and is counted in the table. Wall clock from the first pass to a fence after the
// structure is complete (binning reads survivor counts back, so a GPU timer cannot span it):
// the median of `reps` builds after one that compiles, with their min-max beside it.
import { binPoints, stencilRoute, BINNING_METHODS, ROUTING_METHODS, createDem } from '../../../dist/brookgl.js';

function cloud(n, seed = 3) {
  const v = new Float32Array(n * 4);
  let s = seed;
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  for (let i = 0; i < n; i++) v.set([r(), r(), r(), 1], i * 4);
  return v;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** A table cell: the median with the min-max of its samples. */
const cell = (t) => `${t.ms.toFixed(2)} (${t.min.toFixed(2)}-${t.max.toFixed(2)})`;

/** Median ms of `reps` runs of `fn` after one that compiles, with min and max; `last` is the last run's result, not disposed. */
async function timed(ctx, fn, reps) {
  const samples = [];
  let last = null;
  for (let r = 0; r <= reps; r++) {
    await ctx.queries.fence();
    const t0 = performance.now();
    last = await fn();
    await ctx.queries.fence();
    if (r > 0) samples.push(performance.now() - t0);
    if (r < reps) last.dispose();
  }
  return { ms: median(samples), min: Math.min(...samples), max: Math.max(...samples), last };
}

/** Cancel stops the suite between measurements; it returns the tables of what it measured. */
export const stoppable = true;

export async function run(ctx, { log = () => {}, plan = () => {}, stopped = () => false, quick = false } = {}) {
  const soft = ctx.caps.software;
  const grids = quick ? [32] : [32, 64, 128];
  const sizes = quick ? [2 ** 12, 2 ** 14] : soft ? [2 ** 12, 2 ** 14, 2 ** 16, 2 ** 18] : [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20, 2 ** 21];
  // five builds a cell in --quick too: one build gave a single sample (H100 spread up to 64 % over runs)
  const reps = 5;
  const reductionSizes = quick ? [2 ** 14] : soft ? [2 ** 14, 2 ** 16] : [2 ** 16, 2 ** 18, 2 ** 20];
  const inFlightSizes = quick ? [2 ** 14] : soft ? [2 ** 14, 2 ** 16] : [2 ** 18, 2 ** 20];
  const demCounts = quick ? [4096] : soft ? [4096, 16384] : [32768, 131072, 262144, 524288];
  const methodCount = BINNING_METHODS.length + ROUTING_METHODS.length;
  // steps weighted by the points each handles (a larger grid takes more passes over them)
  plan([
    ...grids.flatMap((g) => sizes.flatMap((n) => Array(methodCount).fill(n * (1 + g / 64)))),
    ...reductionSizes.map((n) => 4 * n),
    ...inFlightSizes.map((n) => 8 * n),
    ...demCounts.map((n) => (quick ? 41 : 90) * n),
  ]);
  const tables = [];
  const plots = [];
  const results = [];
  for (const g of grids) {
    if (stopped()) break;
    const grid = { cells: [g, g, g], origin: [0, 0, 0], cellSize: 1 / g };
    const rows = [];
    const methods = [...BINNING_METHODS, ...ROUTING_METHODS];
    const series = Object.fromEntries([...methods, 'one-draw routing'].map((m) => [m, []]));
    for (const n of sizes) {
      if (stopped()) break;
      const pos = ctx.stream('float4', n, cloud(n));
      const load = n / g ** 3;
      const capacity = Math.ceil(load + 5 * Math.sqrt(load) + 6);
      const row = [n, load, capacity];
      for (const method of methods) {
        if (stopped()) {
          row.push(null);
          continue;
        }
        const t = await timed(ctx, () => binPoints(ctx, pos, grid, { capacity, method }), reps);
        const { ms, last } = t;
        const st = last.stats;
        last.dispose();
        row.push(cell(t));
        series[method].push([n, ms]);
        results.push({ grid: g, n, method, ms, min: t.min, max: t.max, passes: st.passes, reductions: st.reductions, overflows: st.overflows, capacity });
        log(`binning ${g}³ n=${n} ${method}: ${ms.toFixed(1)} ms`);
      }
      if (stopped()) {
        rows.push([...row, null, 'cancelled']);
        pos.dispose();
        break;
      }
      const route = await timed(ctx, async () => {
        const r = await stencilRoute(ctx, pos, grid, { capacity });
        return { ...r, dispose: () => r.slots.dispose() };
      }, reps);
      route.last.dispose();
      row.push(cell(route), route.last.overflow ? 'overflow' : 'ok');
      series['one-draw routing'].push([n, route.ms]);
      results.push({ grid: g, n, method: 'one-draw routing', ms: route.ms, min: route.min, max: route.max, passes: route.last.passes, overflow: route.last.overflow, capacity });
      rows.push(row);
      pos.dispose();
    }
    if (!rows.length) break;
    tables.push({
      title: `${g}³ grid: ms to bin n uniform points (Figures 5 and 6), median (min-max) of ${reps} builds`,
      columns: ['points', 'mean load', 'capacity', ...methods, 'one-draw routing', 'one-draw'],
      rows,
    });
    plots.push({
      title: `Figures 5/6, ${g}³ grid: binning time vs points`,
      xLabel: 'points',
      yLabel: 'ms',
      logX: true,
      logY: true,
      series: Object.entries(series).map(([name, points]) => ({ name, points })),
    });
  }
  // Working-set reduction without DrawAuto: the histogram-pyramid filter vs an exclusive scan
  // plus a vertex-shader scatter, inside 'reduced' and 'delayed' binning on a 32³ grid.
  {
    const rows = [];
    const grid = { cells: [32, 32, 32], origin: [0, 0, 0], cellSize: 1 / 32 };
    for (const n of reductionSizes) {
      if (stopped()) break;
      const pos = ctx.stream('float4', n, cloud(n));
      const load = n / 32 ** 3;
      const capacity = Math.ceil(load + 5 * Math.sqrt(load) + 6);
      const row = [n];
      for (const method of ['reduced', 'delayed']) {
        for (const reduction of ['pyramid', 'scatter']) {
          const t = await timed(ctx, () => binPoints(ctx, pos, grid, { capacity, method, reduction }), reps);
          t.last.dispose();
          row.push(cell(t));
          results.push({ reductionTest: true, grid: 32, n, method, reduction, ms: t.ms, min: t.min, max: t.max });
        }
      }
      rows.push(row);
      pos.dispose();
      log(`reduction comparison n=${n}`);
    }
    if (rows.length) tables.push({ title: `Working-set reduction in WebGL2, 32³ grid (ms to bin: median (min-max) of ${reps} builds)`, columns: ['points', 'reduced + pyramid', 'reduced + scatter', 'delayed + pyramid', 'delayed + scatter'], rows });
  }

  // Predicated iteration without D3D10 predication: every occlusion answer is a round trip to
  // the CPU, so how many passes may run unanswered decides between stalls and wasted passes.
  {
    const rows = [];
    const grid = { cells: [32, 32, 32], origin: [0, 0, 0], cellSize: 1 / 32 };
    const depths = [1, 2, 4, 8];
    for (const n of inFlightSizes) {
      if (stopped()) break;
      const pos = ctx.stream('float4', n, cloud(n));
      const load = n / 32 ** 3;
      const capacity = Math.ceil(load + 5 * Math.sqrt(load) + 6);
      for (const method of ['predicated', 'stencil-predicated']) {
        const row = [n, method];
        for (const inFlight of depths) {
          const { ms, min, max, last } = await timed(ctx, () => binPoints(ctx, pos, grid, { capacity, method, inFlight }), reps);
          row.push(`${ms.toFixed(1)} (${min.toFixed(1)}-${max.toFixed(1)}; ${last.stats.passes} passes)`);
          results.push({ inFlightTest: true, grid: 32, n, method, inFlight, ms, min, max, passes: last.stats.passes, capacity });
          last.dispose();
        }
        rows.push(row);
      }
      pos.dispose();
      log(`queries in flight n=${n}`);
    }
    if (rows.length) tables.push({ title: `Occlusion queries in flight, 32³ grid: ms to bin, median (min-max) of ${reps} builds, and the passes drawn`, columns: ['points', 'method', ...depths.map((d) => `${d} in flight`)], rows });
  }

  // The DEM demo's step (binning + forces over the 27-neighbourhood + integration) vs particles.
  {
    const rows = [];
    for (const n of demCounts) {
      if (stopped()) break;
      const cells = Math.min(128, Math.max(16, Math.round(Math.cbrt(n) * 1.6)));
      const dem = createDem(ctx, { count: n, diameter: 1 / cells });
      for (let s = 0; s < 20; s++) await dem.step(1 / 600, { push: [0, -40, 0] }); // fall and touch the floor
      await ctx.queries.fence();
      // batches of steps (each ends with a fence): the median batch's ms per step, min-max beside
      const steps = quick ? 3 : 10;
      const batches = [];
      for (let k = 0; k < 7; k++) {
        const t0 = performance.now();
        for (let s = 0; s < steps; s++) await dem.step(1 / 600, { push: [0, -40, 0] });
        await ctx.queries.fence();
        batches.push((performance.now() - t0) / steps);
      }
      const ms = median(batches);
      const t = { ms, min: Math.min(...batches), max: Math.max(...batches) };
      const b = dem.lastBinning;
      rows.push([n, `${cells}³`, cell(t), 1000 / ms, b.passes, b.reductions, b.overflows]);
      results.push({ dem: true, n, cells, msPerStep: ms, min: t.min, max: t.max, passes: b.passes, reductions: b.reductions, overflows: b.overflows });
      log(`dem ${n}: ${ms.toFixed(1)} ms per step`);
      dem.dispose();
    }
    if (rows.length) tables.push({ title: `DEM step (bin, forces over 27 bins, integrate), wall clock: median (min-max) of 7 batches of ${quick ? 3 : 10} steps`, columns: ['particles', 'grid', 'ms per step', 'steps/s', 'binning passes', 'reductions', 'capacity doublings'], rows });
  }
  return { tables, plots, results };
}
