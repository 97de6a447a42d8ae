// The subdivision page: brookgl's subdivide (Horn's adaptive Loop subdivision with the filter
// between finished and splitting triangles) re-run whenever a control changes.
import { createContext, parsePly, subdivide, weldVertices } from '../../dist/brookgl.js';
import { bounds, MeshView } from '../lib/mesh-view.js';
import { $, latest, showError, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(
  paperBox({
    ...PAPERS.horn,
    // section 36.3.1 (verbatim)
    quote:
      'In a streaming application that operates on a stream of triangles of increasing sparseness, it is prudent to have each triangle be self-contained, tracking the coordinates of its neighboring vertices, instead of saving and updating indices to neighbors.',
  }),
);
if (ctx.caps.software) $('depth').value = '3';
const view = new MeshView($('view'), () => draw());
window.__meshView = view; // the test run reads its stats()
$('wire').onchange = () => ((view.wireframe = $('wire').checked), draw());
let model = null;
let mesh = null;
let fit = null;
let result = null;

async function load(name) {
  mesh = weldVertices(parsePly(await (await fetch(`../../data/models/${name}.ply`)).arrayBuffer()));
  fit = bounds(mesh.positions);
  model = name;
}

function color(t) {
  const tag = result.tags[t];
  if (tag % 1 !== 0) return [1, 0.9, 0.2];
  const f = result.rounds.length ? tag / result.rounds.length : 0;
  return [0.25 + 0.75 * f, 0.35 + 0.3 * (1 - Math.abs(2 * f - 1)), 1 - 0.75 * f];
}

function draw() {
  if (result) view.draw([{ positions: result.positions, color }], { center: fit.center, radius: fit.radius * 0.9 });
}

/** Subdivides the chosen model (loading it first when it changed) with the controls' settings and shows the rounds. */
const run = latest(async () => {
  if (model !== $('model').value) await load($('model').value);
  const epsilon = 10 ** Number($('eps').value);
  $('epsv').textContent = epsilon.toPrecision(2);
  const t0 = performance.now();
  result = await subdivide(ctx, mesh, { epsilon, maxDepth: Number($('depth').value), adaptive: $('adaptive').checked });
  const ms = performance.now() - t0;
  const slivers = result.rounds.reduce((s, r) => s + r.slivers, 0);
  $('readout').textContent = `${mesh.indices.length / 3} triangles in, ${result.count} out (${slivers} slivers) · ${ms.toFixed(1)} ms (wall, with the readback)`;
  $('rounds').textContent = ['round  triangles  finished  split  slivers', ...result.rounds.map((r) =>
    `${String(r.round).padStart(5)}  ${String(r.triangles).padStart(9)}  ${String(r.finished).padStart(8)}  ${String(r.split).padStart(5)}  ${String(r.slivers).padStart(7)}`)].join('\n');
  draw();
}, 'subdividing');

$('eps').addEventListener('input', run);
for (const id of ['model', 'depth', 'adaptive']) $(id).addEventListener('change', run);

await run();
try {
  await ctx.queries.fence();
} catch (e) {
  showError(e);
}
window.__demoReady = true;
