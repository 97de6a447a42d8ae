// Suite `binning`: Figures 5 and 6 of Oat, Barczak & Shopf (2009). Time to bin n random points
// (uniform in the unit cube) into 32³, 64³ and 128³ grids: naive, predicated, stream-reduced and
// delayed-reduction binning (Figure 5), and stencil routing without and with predicated iteration
// (Figure 6; each pass draws every point, one write per bin by the stencil), plus Purcell's
// one-draw routing into k x k slot blocks. Capacity: the expected load λ = n / bins plus
// 5√λ + 6 slots, so overflow is unlikely (the paper did the same); an overflow would be handled
// (rebuilt) and is counted in the table. Wall clock from the first pass to a fence after the
// structure is complete (binning reads survivor counts back, so a GPU timer cannot span it).
import { binPoints, stencilRoute, BINNING_METHODS, ROUTING_METHODS, createDem } from '../../../dist/brookgl.js';

function cloud(n, seed = 3) {
  const v = new Float32Array(n * 4);
  let s = seed;
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  for (let i = 0; i < n; i++) v.set([r(), r(), r(), 1], i * 4);
  return v;
}

async function best(ctx, fn, reps) {
  let ms = Infinity, last = null;
  for (let r = 0; r <= reps; r++) {
    await ctx.queries.fence();
    const t0 = performance.now();
    last = await fn();
    await ctx.queries.fence();
    if (r > 0) ms = Math.min(ms, performance.now() - t0); // the first run compiles
    if (r < reps) last.dispose();
  }
  return { ms, last };
}

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const soft = ctx.caps.software;
  const grids = quick ? [32] : [32, 64, 128];
  const sizes = quick ? [2 ** 12, 2 ** 14] : soft ? [2 ** 12, 2 ** 14, 2 ** 16, 2 ** 18] : [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20, 2 ** 21];
  const reps = quick ? 1 : 2;
  const tables = [];
  const plots = [];
  const results = [];
  for (const g of grids) {
    const grid = { cells: [g, g, g], origin: [0, 0, 0], cellSize: 1 / g };
    const rows = [];
    const methods = [...BINNING_METHODS, ...ROUTING_METHODS];
    const series = Object.fromEntries([...methods, 'one-draw routing'].map((m) => [m, []]));
    for (const n of sizes) {
      const pos = ctx.stream('float4', n, cloud(n));
      const load = n / g ** 3;
      const capacity = Math.ceil(load + 5 * Math.sqrt(load) + 6);
      const row = [n, load, capacity];
      for (const method of methods) {
        const { ms, last } = await best(ctx, () => binPoints(ctx, pos, grid, { capacity, method }), reps);
        const st = last.stats;
        last.dispose();
        row.push(ms);
        series[method].push([n, ms]);
        results.push({ grid: g, n, method, ms, passes: st.passes, reductions: st.reductions, overflows: st.overflows, capacity });
        log(`binning ${g}³ n=${n} ${method}: ${ms.toFixed(1)} ms`);
      }
      const route = await best(ctx, async () => {
        const r = await stencilRoute(ctx, pos, grid, { capacity });
        return { ...r, dispose: () => r.slots.dispose() };
      }, reps);
      route.last.dispose();
      row.push(route.ms, route.last.overflow ? 'overflow' : 'ok');
      series['one-draw routing'].push([n, route.ms]);
      results.push({ grid: g, n, method: 'one-draw routing', ms: route.ms, passes: route.last.passes, overflow: route.last.overflow, capacity });
      rows.push(row);
      pos.dispose();
    }
    tables.push({
      title: `${g}³ grid: ms to bin n uniform points (Figures 5 and 6)`,
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
    for (const n of quick ? [2 ** 14] : soft ? [2 ** 14, 2 ** 16] : [2 ** 16, 2 ** 18, 2 ** 20]) {
      const pos = ctx.stream('float4', n, cloud(n));
      const load = n / 32 ** 3;
      const capacity = Math.ceil(load + 5 * Math.sqrt(load) + 6);
      const row = [n];
      for (const method of ['reduced', 'delayed']) {
        for (const reduction of ['pyramid', 'scatter']) {
          const { ms, last } = await best(ctx, () => binPoints(ctx, pos, grid, { capacity, method, reduction }), reps);
          last.dispose();
          row.push(ms);
          results.push({ reductionTest: true, grid: 32, n, method, reduction, ms });
        }
      }
      rows.push(row);
      pos.dispose();
      log(`reduction comparison n=${n}`);
    }
    tables.push({ title: 'Working-set reduction in WebGL2, 32³ grid (ms to bin)', columns: ['points', 'reduced + pyramid', 'reduced + scatter', 'delayed + pyramid', 'delayed + scatter'], rows });
  }

  // Predicated iteration without D3D10 predication: every occlusion answer is a round trip to
  // the CPU, so how many passes may run unanswered decides between stalls and wasted passes.
  {
    const rows = [];
    const grid = { cells: [32, 32, 32], origin: [0, 0, 0], cellSize: 1 / 32 };
    const depths = [1, 2, 4, 8];
    for (const n of quick ? [2 ** 14] : soft ? [2 ** 14, 2 ** 16] : [2 ** 18, 2 ** 20]) {
      const pos = ctx.stream('float4', n, cloud(n));
      const load = n / 32 ** 3;
      const capacity = Math.ceil(load + 5 * Math.sqrt(load) + 6);
      for (const method of ['predicated', 'stencil-predicated']) {
        const row = [n, method];
        for (const inFlight of depths) {
          const { ms, last } = await best(ctx, () => binPoints(ctx, pos, grid, { capacity, method, inFlight }), reps);
          row.push(`${ms.toFixed(1)} (${last.stats.passes})`);
          results.push({ inFlightTest: true, grid: 32, n, method, inFlight, ms, passes: last.stats.passes, capacity });
          last.dispose();
        }
        rows.push(row);
      }
      pos.dispose();
      log(`queries in flight n=${n}`);
    }
    tables.push({ title: 'Occlusion queries in flight, 32³ grid: ms to bin (passes drawn)', columns: ['points', 'method', ...depths.map((d) => `${d} in flight`)], rows });
  }

  // The DEM demo's step (binning + forces over the 27-neighbourhood + integration) vs particles.
  {
    const rows = [];
    const counts = quick ? [4096] : soft ? [4096, 16384] : [32768, 131072, 262144, 524288];
    for (const n of counts) {
      const cells = Math.min(128, Math.max(16, Math.round(Math.cbrt(n) * 1.6)));
      const dem = createDem(ctx, { count: n, diameter: 1 / cells });
      for (let s = 0; s < 20; s++) await dem.step(1 / 600, { push: [0, -40, 0] }); // fall and touch the floor
      await ctx.queries.fence();
      const steps = quick ? 3 : 10;
      const t0 = performance.now();
      for (let s = 0; s < steps; s++) await dem.step(1 / 600, { push: [0, -40, 0] });
      await ctx.queries.fence();
      const ms = (performance.now() - t0) / steps;
      const b = dem.lastBinning;
      rows.push([n, `${cells}³`, ms, 1000 / ms, b.passes, b.reductions, b.overflows]);
      results.push({ dem: true, n, cells, msPerStep: ms, passes: b.passes, reductions: b.reductions, overflows: b.overflows });
      log(`dem ${n}: ${ms.toFixed(1)} ms per step`);
      dem.dispose();
    }
    tables.push({ title: 'DEM step (bin, forces over 27 bins, integrate), wall clock', columns: ['particles', 'grid', 'ms per step', 'steps/s', 'binning passes', 'reductions', 'capacity doublings'], rows });
  }
  return { tables, plots, results };
}
