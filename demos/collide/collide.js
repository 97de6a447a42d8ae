// The collision page: a model against a posed copy of itself, collided on the GPU through
// brookgl's createCollider (Horn's breadth-first OBB traversal with the filter between levels).
import { buildObbTree, createCollider, createContext, parsePly } from '../../dist/brookgl.js';
import { traceTable } from '../lib/trace.js';
import { bounds, MeshView, soup } from '../lib/mesh-view.js';
import { $, latest, showError, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(
  paperBox({
    ...PAPERS.horn,
    // section 36.2 (verbatim)
    quote:
      'Pairs of candidates that clearly do not collide must be filtered, and overlapping pairs of bounding boxes must be split, one for each child node of the larger bounding box. Another pass may be made on the filtered and split candidate pairs until only leaf nodes remain.',
  }),
);
let scene = null;

const view = new MeshView($('view'), () => draw());
window.__meshView = view; // the test run reads its stats()
$('wire').onchange = () => ((view.wireframe = $('wire').checked), draw());

async function load(name) {
  const mesh = parsePly(await (await fetch(`../../data/models/${name}.ply`)).arrayBuffer());
  const tree = buildObbTree(mesh.positions, mesh.indices);
  scene?.collider.dispose();
  const positions = soup(mesh.positions, mesh.indices);
  scene = { name, tree, positions, collider: createCollider(ctx, tree, tree), fit: bounds(mesh.positions), hitsA: new Set(), hitsB: new Set(), result: null };
}

function poseB() {
  const z = (Number($('rz').value) * Math.PI) / 180;
  const x = (Number($('rx').value) * Math.PI) / 180;
  const shift = (Number($('tx').value) / 100) * 2 * scene.fit.radius;
  const [cz, sz, cx, sx] = [Math.cos(z), Math.sin(z), Math.cos(x), Math.sin(x)];
  // R = Rz * Rx, about the model's centre, then shifted along x (column-major)
  const R = [cz, sz, 0, -sz * cx, cz * cx, sx, sz * sx, -cz * sx, cx];
  const c = scene.fit.center;
  const t = [0, 1, 2].map((i) => c[i] - (R[i] * c[0] + R[3 + i] * c[1] + R[6 + i] * c[2]) + (i === 0 ? shift : 0));
  return [R[0], R[1], R[2], 0, R[3], R[4], R[5], 0, R[6], R[7], R[8], 0, t[0], t[1], t[2], 1];
}
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Collides A with the posed B (loading the chosen model first when it changed) and shows the result. */
const query = latest(async () => {
  if (scene?.name !== $('model').value) await load($('model').value);
  ctx.trace.start();
  const t0 = performance.now();
  const r = await scene.collider.collide(IDENTITY, poseB());
  const ms = performance.now() - t0;
  const passes = await ctx.trace.stop();
  scene.result = r;
  scene.hitsA = new Set();
  scene.hitsB = new Set();
  for (let i = 0; i < r.count; i++) {
    scene.hitsA.add(r.pairs[i * 2]);
    scene.hitsB.add(r.pairs[i * 2 + 1]);
  }
  const tested = r.levels.reduce((s, l) => s + l.tested, 0);
  $('readout').textContent =
    `${scene.tree.triangleCount} triangles each · ${r.levels.length} levels · ${tested} box pairs tested · ` +
    `${r.triangleTests} triangle pairs tested · ${r.count} colliding pairs · ${ms.toFixed(1)} ms (wall, with readbacks) · ${passes.length} passes`;
  $('trace').innerHTML = traceTable(passes);
  $('traceBox').querySelector('summary').textContent = `The ${passes.length} passes of the last query`;
  draw();
  drawLevels(r.levels);
}, 'colliding');

function draw() {
  if (!scene) return;
  view.draw([
    { positions: scene.positions, color: (t) => (scene.hitsA.has(t) ? [1, 0.15, 0.1] : [0.55, 0.65, 0.8]) },
    { positions: scene.positions, matrix: poseB(), color: (t) => (scene.hitsB.has(t) ? [1, 0.6, 0.1] : [0.6, 0.8, 0.6]) },
  ], { center: scene.fit.center, radius: scene.fit.radius * 1.25 });
}

function drawLevels(levels) {
  const c = $('levels');
  const g = c.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, c.width, c.height);
  const max = Math.max(1, ...levels.map((l) => l.tested));
  const w = (c.width - 40) / Math.max(1, levels.length);
  const h = (v) => ((c.height - 30) * v) / max;
  levels.forEach((l, i) => {
    const x = 30 + i * w;
    g.fillStyle = '#bbb';
    g.fillRect(x, c.height - 20 - h(l.tested), w * 0.8, h(l.tested));
    g.fillStyle = '#3b6fd6';
    g.fillRect(x + w * 0.1, c.height - 20 - h(l.overlapping), w * 0.6, h(l.overlapping));
    g.fillStyle = '#2a9d3a';
    g.fillRect(x + w * 0.1, c.height - 20 - h(l.leafPairs), w * 0.6, h(l.leafPairs));
    g.fillStyle = '#333';
    g.font = '10px sans-serif';
    if (levels.length < 40 || i % 2 === 0) g.fillText(String(i), x, c.height - 6);
  });
  g.fillText(`max ${max}`, 2, 12);
}

/** The sliders' values beside them (shown at once; the query follows when the GPU is free). */
function showPose() {
  $('rzv').textContent = `${$('rz').value}°`;
  $('rxv').textContent = `${$('rx').value}°`;
  $('txv').textContent = `${$('tx').value} %`;
}
showPose();
for (const id of ['rz', 'rx', 'tx']) $(id).addEventListener('input', () => (showPose(), query()));
$('model').addEventListener('change', query);

await query();
try {
  await ctx.queries.fence();
} catch (e) {
  showError(e);
}
window.__demoReady = true;
