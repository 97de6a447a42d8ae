// The subdivision page: brookgl's subdivide (Horn's adaptive Loop subdivision with the filter
// between finished and splitting triangles) re-run whenever a control changes.
import { createContext, parsePly, subdivide, weldVertices } from '../../dist/brookgl.js';
import { bounds, drawMesh, orbit } from '../collide/mesh-view.js';

const $ = (id) => document.getElementById(id);
const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
if (ctx.caps.software) $('depth').value = '3';
const view = orbit($('view'), () => draw());
let mesh = null;
let fit = null;
let result = null;
let busy = false;
let again = false;

async function load(name) {
  mesh = weldVertices(parsePly(await (await fetch(`../../data/models/${name}.ply`)).arrayBuffer()));
  fit = bounds(mesh.positions);
}

function color(t) {
  const tag = result.tags[t];
  if (tag % 1 !== 0) return [1, 0.9, 0.2];
  const f = result.rounds.length ? tag / result.rounds.length : 0;
  return [0.25 + 0.75 * f, 0.35 + 0.3 * (1 - Math.abs(2 * f - 1)), 1 - 0.75 * f];
}

function draw() {
  if (result) drawMesh($('view'), [{ positions: result.positions, color }], { ...view, center: fit.center, radius: fit.radius * 1.1 });
}

async function run() {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  try {
    do {
      again = false;
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
    } while (again);
  } catch (e) {
    $('error').textContent = e.message;
  } finally {
    busy = false;
  }
}

for (const id of ['eps', 'depth', 'adaptive']) $(id).addEventListener('input', () => run());
$('model').onchange = async () => {
  await load($('model').value);
  await run();
};

try {
  await load($('model').value);
  await run();
  await ctx.queries.fence();
} catch (e) {
  $('error').textContent = e.message;
}
window.__demoReady = true;
