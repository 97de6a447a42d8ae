// The DEM page: a brookgl Dem stepped every frame (binning, forces, integration) and drawn
// from its position texture, coloured by speed. Spring, damping and time step come from
// demParameters (a stable explicit step for a pile that must not sink through itself).
import { createContext, createDem, demParameters, createPointRenderer, OrbitCamera } from '../../dist/brookgl.js';
import { $, animate, testMode, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const canvas = $('view');
const ctx = createContext({ canvas });
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(paperBox({ ...PAPERS.oat, quote: PAPERS.oat.quotes.dem }));
// A software renderer (ctx.caps.software: SwiftShader, llvmpipe, ... by the renderer string) spends
// ~15 ms on a step however few the particles: there the page starts with 1024 softer particles
// (a quarter-diameter overlap allowed instead of a tenth), whose longer stable step makes the
// fall visible (about 0.1× real time on SwiftShader instead of 0.02×).
const soft = ctx.caps.software || testMode;
if (soft) $('n').value = '1024';
const OVERLAP = soft ? 0.25 : 0.1;
const renderer = createPointRenderer(ctx);
const camera = new OrbitCamera(2.2);
camera.target.set([0.5, 0.25, 0.5]);
camera.attach(canvas);
const PUSH = -20; // 2 g toward the floor while the button is held
const MAX_SPEED = 1.5;
let dem = null;
let params = null;
let pushing = false;
let stats = { steps: 0, ms: 0, since: performance.now(), simTime: 0 };
/** Simulated and wall time since the last restart, shown every frame. */
let clock = { started: performance.now(), simTime: 0 };

function setup() {
  dem?.dispose();
  dem = null;
  const n = Number($('n').value);
  // cells one diameter wide: about 2 particles' worth of volume per cell at rest
  const cells = Math.min(128, Math.max(16, Math.round(Math.cbrt(n) * 1.6)));
  const diameter = 1 / cells;
  params = demParameters({ count: n, diameter, load: 9.8 - PUSH, overlap: OVERLAP });
  dem = createDem(ctx, { count: n, diameter, spring: params.spring, damping: params.damping });
  $('params').textContent =
    `d = 1/${cells}, k_s = ${params.spring.toFixed(0)} (overlap ≤ ${OVERLAP} d), η = ${params.damping.toFixed(1)} (30 % of critical), ` +
    `dt = ${(params.dt * 1000).toFixed(3)} ms (0.2 √(m/k_s)), unit masses, gravity 9.8, push ${-PUSH}`;
  stats = { steps: 0, ms: 0, since: performance.now(), simTime: 0 };
  clock = { started: performance.now(), simTime: 0 };
}

$('push').addEventListener('pointerdown', () => (pushing = true));
addEventListener('pointerup', () => (pushing = false));
const loop = animate({ setup, frame });
$('reset').onclick = () => loop.restart();
$('n').onchange = () => loop.restart();

async function frame() {
  const t0 = performance.now();
  const k = Number($('steps').value);
  for (let s = 0; s < k; s++) await dem.step(params.dt, { push: pushing ? [0, PUSH, 0] : [0, 0, 0] });
  stats.ms += performance.now() - t0;
  stats.steps += k;
  stats.simTime += k * params.dt;
  clock.simTime += k * params.dt;
  const wall = (performance.now() - clock.started) / 1000;
  $('clock').textContent = `simulated ${clock.simTime.toFixed(2)} s in ${wall.toFixed(1)} s: ×${(clock.simTime / wall).toPrecision(2)} real time`;
  renderer.draw(dem.positions, dem.count, camera.viewProjection(canvas.width / canvas.height), { pointSize: Math.max(6, 156 / dem.grid.cells[0]), blend: false, velocities: dem.velocities, maxSpeed: MAX_SPEED, color: [1, 1, 1, 1] });
  const secs = (performance.now() - stats.since) / 1000;
  if (secs > 1) {
    const b = dem.lastBinning;
    $('readout').textContent =
      `${dem.count} particles, ${dem.grid.cells[0]}³ cells · ${(stats.steps / secs).toFixed(1)} steps/s · ${(stats.ms / stats.steps).toFixed(1)} ms per step (wall) · ` +
      `simulated time ×${(stats.simTime / secs).toFixed(3)} real time · binning: ${b.passes} passes, ${b.reductions} reductions${b.overflows ? `, ${b.overflows} capacity doublings` : ''}`;
    stats = { steps: 0, ms: 0, since: performance.now(), simTime: 0 };
  }
}

// the legend: the renderer's speed ramp (blue at rest, green, red at MAX_SPEED)
const legend = $('legend');
const g = legend.getContext('2d');
for (let x = 0; x < legend.width; x++) {
  const s = x / (legend.width - 1);
  const smooth = (a, b, v) => { const t = Math.min(1, Math.max(0, (v - a) / (b - a))); return t * t * (3 - 2 * t); };
  const rgb = [smooth(0.4, 1, s), 1 - Math.abs(s - 0.5) * 2, 1 - smooth(0, 0.6, s)].map((c) => Math.round(255 * c));
  g.fillStyle = `rgb(${rgb})`;
  g.fillRect(x, 0, 1, legend.height);
}
$('legendMax').textContent = `${MAX_SPEED} units/s and faster`;

await new Promise((r) => { const f = () => (window.__demoFrames >= 2 || $('error').textContent ? r() : requestAnimationFrame(f)); f(); });
await ctx.queries.fence();
window.__demoReady = true;
