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
        '<p>The figures are plots (ATI Radeon HD 4870, Direct3D 10). Figure 5: “predication is an effective optimization, but also that stream reduction tends to be much more effective”, ' +
        'and at 32³ delayed reduction helps most. Figure 6: “On the far left side of the plots, CPU performance is the bottleneck, and predicated stencil routing is extremely competitive. […] ' +
        'In the limit, however, we find that our binning technique with stream reduction soundly defeats both variants of stencil routing.”</p>',
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
