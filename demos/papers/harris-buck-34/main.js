// Harris & Buck, GPU Gems 2 ch. 34: Listings 34-1 and 34-2 (the z-cull mask of landlocked cells,
// and the masked pass) run and checked cell by cell, and Figures 34-1/34-2 by the `branch` suite.
import { LANDLOCKED } from '../../../dist/brookgl.js';
import { paperPage, quickRows } from '../paper.js';
import { PRINTED } from './printed.js';

/** A 48² obstacle grid (a disc and a bar): the mask of Listing 34-1, then a masked pass (Listing 34-2) marks the cells it shades. */
async function runMask(ctx) {
  const n = 48;
  const obst = new Float32Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) if ((x - 20) ** 2 + (y - 24) ** 2 < 12 ** 2 || (x > 34 && x < 42 && y > 5 && y < 40)) obst[y * n + x] = 1;
  const grid = ctx.stream('float', [n, n], obst);
  const unused = ctx.stream('float', [n, n]);
  const shaded = ctx.stream('float', [n, n]);
  const mask = ctx.zmask(shaded);
  try {
    ctx.buildMask(mask, LANDLOCKED, { obstacleGrid: grid, unused });
    ctx.run({ name: 'Shade', outputs: { o: 'float' }, body: 'o = 1.0;' }, { o: shaded }, { mask });
    const got = shaded.readSync();
    let landlocked = 0;
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) {
        // Listing 34-1 on the CPU: the four neighbours all solid (a gather outside the grid reads 0)
        const at = (i, j) => (i >= 0 && j >= 0 && i < n && j < n ? obst[j * n + i] : 0);
        const locked = at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) >= 4;
        if (locked) landlocked++;
        if ((got[y * n + x] === 1) === locked) throw new Error(`cell (${x}, ${y}): ${locked ? 'landlocked but shaded' : 'not landlocked but skipped'}`);
      }
    return `${n}×${n} cells, ${landlocked} landlocked: the masked pass shaded exactly the other ${n * n - landlocked}, as the CPU predicts.`;
  } finally {
    [grid, unused, shaded].forEach((s) => s.dispose());
    mask.dispose();
  }
}

/** The chapter's statements about Figures 34-1 and 34-2 beside ours, from the `branch` suite's results (here or recorded). */
function compareHarris(results) {
  const kinds = results?.kinds ?? {};
  const t = (x) => x?.gpu ?? x?.wall;
  const mid = (k) => kinds[k]?.probs.indexOf(0.5);
  const at = (k, m, i) => t(kinds[k]?.[m]?.[i]);
  const ratio = (a, b) => (a > 0 && b > 0 ? a / b : null);
  const fmt = (r, good) => (r === null ? '-' : `${r.toFixed(2)} (${good(r) ? 'agrees' : 'does not agree'})`);
  const zLocal = ratio(at('coherent', 'zcull', mid('coherent')), at('random', 'zcull', mid('random')));
  const zRandom = ratio(at('random', 'zcull', mid('random')), at('random', 'predicate', mid('random')));
  const bCoh = ratio(at('coherent', 'branch', mid('coherent')), at('random', 'branch', mid('random')));
  const r = kinds.random;
  // at p = 0 or 1 every fragment takes one side: a branch does only that side's work, predication both
  const ends = r ? [0, r.probs.length - 1].map((i) => ratio(at('random', 'branch', i), at('random', 'predicate', i))) : [null];
  const bEnds = ends.includes(null) ? null : Math.max(...ends);
  return {
    title: 'The chapter’s statements (GeForce 6800) beside ours: time ratios at p = 0.5 unless said (GPU timer where there is one, else wall clock)',
    columns: ['statement', 'ratio measured', 'ours'],
    rows: [
      ['34-1: z-cull is most effective with locality', 'z-cull coherent / z-cull random', fmt(zLocal, (x) => x < 0.9)],
      ['34-1: without locality z-cull is not much better than predication', 'z-cull random / predication random', fmt(zRandom, (x) => x > 0.75)],
      ['34-2: branching needs locality too', 'branch coherent / branch random', fmt(bCoh, (x) => x < 0.9)],
      ['34-2: branching is effective at very low or very high probability', 'branch / predication, the worse of p = 0 and p = 1', fmt(bEnds, (x) => x <= 1.1)],
    ],
  };
}

await paperPage({
  paper: 'harris',
  intro:
    'Branching on a GPU, four ways: predication (compute both sides, select), static branch resolution (a quad over the interior, lines over the border), ' +
    'precomputation (an offset texture), and z-cull (a depth mask that keeps fragments from being shaded), plus the occlusion-query loop of section 34.3. ' +
    'The fluid demo switches each on and off; the occlusion-query loop has a page of its own.',
  listings: [
    {
      title: 'Listing 34-1: the landlocked-cell mask',
      printed: PRINTED['Listing 34-1: Cg code to set z-depth values for z-culling in subsequent passes'],
      code: [['the GLSL body of LANDLOCKED in src/apps/fluid/fluid.ts', '../../../src/apps/fluid/fluid.ts', LANDLOCKED.body]],
      run: runMask,
    },
    {
      title: 'Listing 34-2: the passes that skip landlocked cells',
      printed: PRINTED['Listing 34-2: application pseudocode'],
      code: [['src/core/zmask.ts (buildMask, and the masked pass state)', '../../../src/core/zmask.ts']],
      run: runMask,
    },
  ],
  reproductions: [
    {
      title: 'Figures 34-1 and 34-2',
      suite: 'branch',
      paper:
        '<p>The figures are plots (GeForce 6800, 2004): the time of a pass against the probability of the expensive branch, random and spatially coherent. ' +
        'Our copy of the chapter holds the captions but not the pictures, and the text gives no value read from them, so there is no number to plot under ours. ' +
        'What the text states about the curves is below; the table above every set of plots checks each statement against our measurements (yours and the recorded runs), with the ratio it rests on.</p>' +
        '<ul><li>Figure 34-1: “z-cull is most effective if there is plenty of locality in the branch. […] If locality is not present, z-cull is not much better than predication.”</li>' +
        '<li>Figure 34-2 (Pixel Shader 3.0 branch instructions): “the same spatial locality caveat applies to branching efficiency. However, as with z-cull, if the branch has either a very low or a very high probability, branching instructions are quite effective.”</li></ul>',
      compare: compareHarris,
      options: (ctx, { quick }) => ({ quick }),
      expect: [
        { title: 'Random condition', rows: quickRows(3) },
        { title: 'Coherent (rectangle) condition', rows: quickRows(3) },
        { title: 'Occlusion query latency', rows: 1 },
      ],
    },
  ],
  webgl2:
    '<ul><li>Depth-tested full-screen passes give z-cull in WebGL2 too: a mask is a depth renderbuffer built by a discarding kernel (Listing 34-1) and attached to later passes at depth 0.5 with writes off (Listing 34-2). Whether the hardware culls early is up to the driver; SwiftShader runs the fragment and then discards it.</li>' +
    '<li>Every WebGL2 GPU has real branch instructions, so “predication” here is the bit-blend select the chapter describes, measured beside them.</li>' +
    '<li>Occlusion queries are only ANY_SAMPLES_PASSED (no counts), and their answers come a frame or more late: the loop keeps several iterations in flight instead of waiting on each.</li></ul>',
});
