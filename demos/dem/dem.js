// The DEM page: a brookgl Dem stepped every frame (binning, forces, integration) and drawn
// from its position texture, coloured by speed.
import { createContext, createDem, createPointRenderer, OrbitCamera } from '../../dist/brookgl.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = createContext({ canvas });
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
if (ctx.caps.software) $('n').value = '4096';
const renderer = createPointRenderer(ctx);
const camera = new OrbitCamera(2.2);
camera.target.set([0.5, 0.25, 0.5]);
camera.attach(canvas);
let dem = null;
let pushing = false;
let stats = { steps: 0, ms: 0, since: performance.now() };

function reset() {
  dem?.dispose();
  const n = Number($('n').value);
  // cells one diameter wide: about 2 particles' worth of volume per cell at rest
  const cells = Math.min(128, Math.max(16, Math.round(Math.cbrt(n) * 1.6)));
  dem = createDem(ctx, { count: n, diameter: 1 / cells });
  stats = { steps: 0, ms: 0, since: performance.now() };
}

$('push').addEventListener('pointerdown', () => (pushing = true));
addEventListener('pointerup', () => (pushing = false));
$('reset').onclick = reset;
$('n').onchange = reset;

async function frame() {
  try {
    const t0 = performance.now();
    for (let s = 0; s < 2; s++) await dem.step(1 / 600, { push: pushing ? [0, -40, 0] : [0, 0, 0] });
    stats.ms += performance.now() - t0;
    stats.steps += 2;
    renderer.draw(dem.positions, dem.count, camera.viewProjection(canvas.width / canvas.height), { pointSize: 6, blend: false, velocities: dem.velocities, maxSpeed: 1.5, color: [1, 1, 1, 1] });
    const secs = (performance.now() - stats.since) / 1000;
    if (secs > 1) {
      const b = dem.lastBinning;
      $('readout').textContent =
        `${dem.count} particles, ${dem.grid.cells[0]}³ cells · ${(stats.steps / secs).toFixed(1)} steps/s · ${(stats.ms / stats.steps).toFixed(1)} ms per step (wall) · ` +
        `binning: ${b.passes} passes, ${b.reductions} reductions${b.overflows ? `, ${b.overflows} capacity doublings` : ''}`;
      stats = { steps: 0, ms: 0, since: performance.now() };
    }
  } catch (e) {
    $('error').textContent = e.message;
    return;
  }
  requestAnimationFrame(frame);
}

reset();
await frame();
await ctx.queries.fence();
window.__demoReady = true;
