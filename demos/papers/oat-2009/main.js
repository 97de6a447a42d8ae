// Oat, Barczak & Shopf 2009: equations 1-5 of section 4.1 beside the DEM force kernel, checked
// against a brute-force CPU sum, and Figures 5 and 6 by the `binning` suite.
import { createDem, DEM_FORCE, reference } from '../../../dist/brookgl.js';
import { paperPage, quickRows } from '../paper.js';

const EQUATIONS = `r_ij = x_j − x_i                                         (1)
f_ij = f_ij^spring + f_ij^damp                            (2)
f_ij^spring = −k_s (d − |r_ij|) r_ij / |r_ij|             (3)
f_ij^damp = η (v_j − v_i)                                 (4)
f_i = Σ_{k ∈ N} f_ik                                      (5)

“Collisions occur (and forces are computed) when the distance between two
particles is less than the particle diameter, d.” N: “particles in i's bin
and its immediate neighboring bins”.   (Section 4.1, as printed but in plain text.)`;

/** Forces on 400 particles in a tight clump through the 27 bins, against the CPU's all-pairs sum. */
async function runForces(ctx) {
  const n = 400, d = 1 / 16;
  const dem = createDem(ctx, { count: n, diameter: d });
  try {
    const { positions: pos, velocities: vel } = reference.demClump(n, 5);
    dem.positions.write(pos);
    dem.velocities.write(vel);
    const got = (await dem.computeForces()).readSync();
    const { force, scale } = reference.demForces(pos, vel, dem.params.spring, dem.params.damping, d);
    let contacts = 0;
    for (let i = 0; i < n; i++)
      for (let k = 0; k < 3; k++) {
        const bound = reference.demForceTolerance(scale[i * 3 + k]);
        if (!(Math.abs(got[i * 4 + k] - force[i * 3 + k]) <= bound)) throw new Error(`particle ${i} component ${k}: GPU ${got[i * 4 + k]}, CPU ${force[i * 3 + k]}`);
        if (scale[i * 3 + k] > 0) contacts++;
      }
    const b = dem.lastBinning;
    return `${n} particles, ${contacts} force components from contacts: within float32 rounding of the CPU's all-pairs sum. Binning: ${b.passes} passes, ${b.reductions} reductions.`;
  } finally {
    dem.dispose();
  }
}

/** The report's statements about Figures 5 and 6 beside ours, from the `binning` suite's results (here or recorded). */
function compareOat(results) {
  const pts = (Array.isArray(results) ? results : []).filter((r) => r.grid && r.method && !r.reductionTest && !r.inFlightTest);
  const grids = [...new Set(pts.map((r) => r.grid))].sort((a, b) => a - b);
  const ms = (g, n, m) => pts.find((r) => r.grid === g && r.n === n && r.method === m)?.ms;
  const ns = (g) => [...new Set(pts.filter((r) => r.grid === g).map((r) => r.n))].sort((a, b) => a - b);
  /** a / b at the largest (or smallest) n of the grid where both were measured, with "agrees" or not. */
  const cell = (g, a, b, good, end = 'largest') => {
    const list = ns(g).filter((n) => ms(g, n, Array.isArray(a) ? a[0] : a) !== undefined);
    const n = end === 'largest' ? list.at(-1) : list[0];
    if (n === undefined) return '-';
    const num = Array.isArray(a) ? Math.min(...a.map((m) => ms(g, n, m) ?? Infinity)) : ms(g, n, a);
    const den = Array.isArray(b) ? Math.min(...b.map((m) => ms(g, n, m) ?? Infinity)) : ms(g, n, b);
    if (!(num > 0 && den > 0 && Number.isFinite(num) && Number.isFinite(den))) return '-';
    const r = num / den;
    return `${r.toFixed(2)} at n = ${n} (${good(r) ? 'agrees' : 'does not agree'})`;
  };
  const row = (statement, ratio, a, b, good, end, only) => [statement, ratio, ...grids.map((g) => (only && g !== only ? '' : cell(g, a, b, good, end)))];
  return {
    title: 'The report’s statements (Radeon HD 4870) beside ours: time ratios (below 1: the first is faster)',
    columns: ['statement', 'ratio', ...grids.map((g) => `${g}³ grid`)],
    rows: [
      row('5: predication is effective', 'predicated / naive', 'predicated', 'naive', (r) => r < 0.95),
      row('5: stream reduction is much more effective', 'reduced / predicated', 'reduced', 'predicated', (r) => r < 0.8),
      row('5: on 32³, delaying the reduction helps', 'delayed / reduced', 'delayed', 'reduced', (r) => r < 0.95, 'largest', 32),
      row('6: predication helps stencil routing', 'stencil-predicated / stencil', 'stencil-predicated', 'stencil', (r) => r < 0.95),
      row('6: at few points predicated stencil routing is competitive', 'stencil-predicated / delayed, fewest points', 'stencil-predicated', 'delayed', (r) => r < 1.5, 'smallest'),
      row('6: in the limit binning with reduction defeats both stencil routings', 'delayed / faster stencil routing', 'delayed', ['stencil', 'stencil-predicated'], (r) => r < 1),
    ],
  };
}

await paperPage({
  paper: 'oat',
  intro:
    'Binning points into a uniform grid on a GPU without scatter: bins are slices of a depth texture, each pass keeps the smallest id above the one binned before ' +
    '(depth peeling), predicated iteration stops when a pass bins nothing, and stream reduction drops binned points from the working set. ' +
    'The DEM particles and agent demos use it every step. The paper prints no code; its equations for the DEM forces are shown beside the kernel that computes them.',
  listings: [
    {
      title: 'Equations 1–5: the DEM collision force',
      printed: EQUATIONS,
      code: [['the GLSL body of DEM_FORCE in src/apps/dem/dem.ts (bin queries from glsl/idioms/binning-query.glsl)', '../../../src/apps/dem/dem.ts', DEM_FORCE.body]],
      run: runForces,
    },
  ],
  reproductions: [
    {
      title: 'Figures 5 and 6',
      suite: 'binning',
      paper:
        '<p>The figures are plots (ATI Radeon HD 4870, Direct3D 10): time to bin against the number of points on 32³, 64³ and 128³ grids. ' +
        'Our copy of the report holds the captions but not the pictures, and its text gives no value read from them, so there is no number to plot under ours. ' +
        'What the text states about the curves is below; the table above every set of plots checks each statement against our measurements (yours and the recorded runs) at the largest point count measured, with the ratio it rests on.</p>' +
        '<ul><li>Figure 5: “predication is an effective optimization, but also that stream reduction tends to be much more effective”; on the 32³ grid, delaying the reduction “results in a significant performance improvement, compared to reducing on each iteration”.</li>' +
        '<li>Figure 6: predicated iteration “provides a significant performance improvement to the stencil routing algorithm”; “On the far left side of the plots […] predicated stencil routing is extremely competitive. […] In the limit, however, we find that our binning technique with stream reduction soundly defeats both variants of stencil routing.” (delayed reduction, as the paper used there)</li></ul>',
      compare: compareOat,
      options: (ctx, { quick }) => ({ quick }),
      expect: [
        { title: '32³ grid: ms to bin', rows: quickRows(2) },
        { title: 'DEM step' },
      ],
    },
  ],
  webgl2:
    '<ul><li>WebGL2 has no stream output, no predicated rendering and no texture arrays as render targets of one draw: the working set is compacted by the histogram-pyramid filter (or a scan and a vertex-shader scatter), each predicated pass waits for an occlusion query’s answer (several kept in flight), and the bins are a flat 3D layout of 2D tiles.</li>' +
    '<li>Depth textures cannot be sampled as integers, so ids are stored as depth = id / 2<sup>24</sup>, exact for 2<sup>24</sup> items.</li>' +
    '<li>The stencil-routing comparator (Harada 2007) is built as the paper describes it, one write per bin per pass by the stencil test.</li></ul>',
});
