// The N-body demo: a system on the GPU stepped once per frame, drawn from its position texture
// with an orbit camera. The readout keeps two measurements apart: frames and steps per second by
// the wall clock (what you see), and, where the browser has EXT_disjoint_timer_query_webgl2,
// the GPU time of sampled steps (what the kernels cost); interactions/s are given for each.
import { createContext, createNBody, nbodyPreset, createPointRenderer, OrbitCamera, NBODY_FLOPS, defaultVariant } from '../../dist/brookgl.js';
import { $, testMode, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const params = new URLSearchParams(location.search);
const canvas = $('view');
const ctx = createContext({ canvas });
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(paperBox({ ...PAPERS.nyland, quote: PAPERS.nyland.quotes.nbody }));
// the default body count follows the renderer: a software renderer runs every interaction on the CPU
$('n').value = params.get('n') ?? (ctx.caps.software || testMode ? '1024' : '16384');

const VARIANTS = {
  'default (b=4 from 4096 bodies, else b=1)': null,
  'one body per fragment, no unrolling (p=1 u=1)': { p: 1, u: 1, q: 1, b: 1 },
  'unrolled (p=16 u=4)': { p: 16, u: 4, q: 1, b: 1 },
  '4 fragments per body (q=4)': { p: 16, u: 4, q: 4, b: 1 },
  '8 bodies per fragment (b=8)': { p: 16, u: 4, q: 1, b: 8 },
  'N x N force texture (2004 style)': 'nxn',
};
for (const k of Object.keys(VARIANTS)) $('variant').add(new Option(k, k));

const renderer = createPointRenderer(ctx);
const camera = new OrbitCamera(9);
camera.attach(canvas);
let sys = null;
let paused = false;
let timing = { gpuMs: 0, gpuSteps: 0, frames: 0, wall0: performance.now() };

function show(id, digits) {
  $(`${id}Out`).textContent = Number($(id).value).toFixed(digits);
}

function restart() {
  $('error').textContent = '';
  sys?.dispose();
  const n = Number($('n').value);
  const bodies = nbodyPreset($('preset').value, n, 7);
  sys = createNBody(ctx, { ...bodies, softening: Number($('eps').value) });
  setVariant();
  timing = { gpuMs: 0, gpuSteps: 0, frames: 0, wall0: performance.now() };
}

function setVariant() {
  try {
    sys.method = VARIANTS[$('variant').value] ?? defaultVariant(sys.count);
  } catch (e) {
    $('error').textContent = e.message;
    $('variant').selectedIndex = 0;
    sys.method = defaultVariant(sys.count);
  }
}

let pendingTimer = false;
function frame() {
  try {
    if (!paused) {
      const dt = Number($('dt').value);
      if (ctx.caps.timerQuery && !pendingTimer) {
        pendingTimer = true;
        ctx.queries.time(() => sys.step(dt, 1)).then((ms) => {
          pendingTimer = false;
          if (ms !== null) { timing.gpuMs += ms; timing.gpuSteps++; }
        }, () => (pendingTimer = false));
      } else {
        sys.step(dt, 1);
      }
      timing.frames++;
    }
    renderer.draw(sys.positions, sys.count, camera.viewProjection(canvas.width / canvas.height), { pointSize: sys.count > 20000 ? 10 : 18, color: sys.count > 4096 ? undefined : [1.0, 0.8, 0.55, 1.0] }); // fewer bodies: brighter points
    const wall = (performance.now() - timing.wall0) / 1000;
    if (wall > 0.5 && timing.frames) {
      const G = (perStepS) => `${(sys.interactions / perStepS / 1e9).toFixed(2)} G interactions/s, ${((sys.interactions * NBODY_FLOPS) / perStepS / 1e9).toFixed(1)} GFLOP/s`;
      const stepsPerS = timing.frames / wall;
      const lines = [`${sys.count} bodies · wall clock: ${stepsPerS.toFixed(1)} steps/s (one step and one draw per frame) → ${G(1 / stepsPerS)}`];
      if (timing.gpuSteps) lines.push(`GPU timer: ${(timing.gpuMs / timing.gpuSteps).toFixed(2)} ms per step (${timing.gpuSteps} sampled steps) → ${G(timing.gpuMs / timing.gpuSteps / 1000)}`);
      else lines.push(ctx.caps.timerQuery ? 'GPU timer: no answer yet (or disjoint)' : 'GPU timer: not available in this browser (EXT_disjoint_timer_query_webgl2)');
      $('readout').textContent = lines.join('\n');
      timing = { gpuMs: 0, gpuSteps: 0, frames: 0, wall0: performance.now() };
    }
  } catch (e) {
    $('error').textContent = e.message;
    return;
  }
  window.__demoFrames++;
  requestAnimationFrame(frame);
}

$('dt').oninput = () => show('dt', 3);
$('eps').oninput = () => show('eps', 3);
$('eps').onchange = restart;
$('n').onchange = restart;
$('preset').onchange = restart;
$('variant').onchange = setVariant;
$('reset').onclick = restart;
$('pause').onclick = () => {
  paused = !paused;
  $('pause').textContent = paused ? 'Run' : 'Pause';
};
show('dt', 3);
show('eps', 3);
restart();
requestAnimationFrame(frame);
// ready once two frames have been stepped and drawn
const waitFrames = (k) => new Promise((resolve) => { const f = () => (k-- <= 0 ? resolve() : requestAnimationFrame(f)); requestAnimationFrame(f); });
await waitFrames(2);
await ctx.queries.fence();
window.__demoReady = true;
