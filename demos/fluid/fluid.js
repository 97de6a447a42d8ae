// The fluid page: steps a brookgl Fluid every frame, draws it from its textures, and times each
// step with a GPU timer query (where the browser has one) for the idioms switched on.
import { createContext, createFluid, createFieldRenderer } from '../../dist/brookgl.js';
import { $, animate, busyRunner, frames, testMode, paperBox, showError } from '../lib/demo.js';
import { htmlTable } from '../lib/table.js';
import { PAPERS } from '../papers/papers.js';

const canvas = $('view');
const ctx = createContext({ canvas });
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(paperBox({ ...PAPERS.harris, quote: PAPERS.harris.quotes.fluid }));
if (testMode || ctx.caps.software) $('size').value = '128';
let paused = false;
const renderer = createFieldRenderer(ctx);
let fluid = null;
let stats = { ms: 0, steps: 0, since: performance.now() };
let timerPending = false;

function reset() {
  fluid?.dispose();
  fluid = null;
  const n = Number($('size').value);
  fluid = createFluid(ctx, { size: n, jacobi: Number($('jacobi').value) });
  // a large disc (its inside is landlocked) and a wall with a gap
  fluid.paintObstacle(n * 0.55, n * 0.5, n * 0.16);
  for (let y = n * 0.1; y < n * 0.35; y += 1) fluid.paintObstacle(n * 0.3, y, n * 0.015);
  applyIdioms();
}

function applyIdioms() {
  for (const k of ['zcull', 'staticBranches', 'precomputed']) fluid.idioms[k] = $(k).checked;
  stats = { ms: 0, steps: 0, since: performance.now() };
}

// mouse: position in cells (y up), drag velocity as force
let drag = null;
function cell(e) {
  const r = canvas.getBoundingClientRect();
  return [((e.clientX - r.left) / r.width) * fluid.size, (1 - (e.clientY - r.top) / r.height) * fluid.size];
}
canvas.addEventListener('pointerdown', (e) => { drag = { at: cell(e), moved: [0, 0] }; canvas.setPointerCapture(e.pointerId); paint(e); });
canvas.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const at = cell(e);
  drag.moved = [at[0] - drag.at[0], at[1] - drag.at[1]];
  drag.at = at;
  paint(e);
});
canvas.addEventListener('pointerup', () => (drag = null));
function paint() {
  const tool = $('tool').value;
  if (tool !== 'push') fluid.paintObstacle(drag.at[0], drag.at[1], fluid.size * 0.025, tool === 'paint');
}

let t = 0;
function frame() {
  if (paused) return;
  {
    t++;
    const n = fluid.size;
    // a jet from the left that wobbles, plus the user's push
    // fastest fluid a few cells per step (see the page's note on speckle)
    const jet = { x: n * 0.08, y: n * (0.5 + 0.2 * Math.sin(t * 0.01)), fx: n * 0.15, fy: 0, dye: 0.6, radius: n * 0.025 };
    const push = drag && $('tool').value === 'push' ? { x: drag.at[0], y: drag.at[1], fx: drag.moved[0] * 30, fy: drag.moved[1] * 30, dye: 1, radius: n * 0.03 } : null;
    const step = () => {
      fluid.step(0.5, { splat: jet });
      if (push) fluid.step(0, { splat: push });
    };
    if (ctx.caps.timerQuery && !timerPending) {
      timerPending = true;
      ctx.queries.time(step).then((ms) => { timerPending = false; if (ms !== null) { stats.ms += ms; stats.steps++; } }, () => (timerPending = false));
    } else {
      step();
      if (!ctx.caps.timerQuery) stats.steps++;
    }
    const f = fluid.fields;
    renderer.draw(f.dye, fluid.obstacles, fluid.offsets, $('showMask').checked);
    const secs = (performance.now() - stats.since) / 1000;
    if (secs > 1 && stats.steps) {
      const per = ctx.caps.timerQuery ? `${(stats.ms / stats.steps).toFixed(2)} ms GPU per step` : `${((secs * 1000) / stats.steps).toFixed(1)} ms wall per frame`;
      const on = ['zcull', 'staticBranches', 'precomputed'].filter((k) => fluid.idioms[k]).join(', ') || 'no idioms';
      $('readout').textContent = `${n}x${n} grid, ${fluid.jacobi} Jacobi sweeps, ${fluid.passesPerStep} passes per step: ${per}  (${on})`;
      stats = { ms: 0, steps: 0, since: performance.now() };
    }
  }
}

const IDIOMS = ['zcull', 'staticBranches', 'precomputed'];
const loop = animate({ setup: reset, frame });
for (const k of IDIOMS) $(k).onchange = applyIdioms;
$('size').onchange = () => loop.restart();
$('jacobi').onchange = () => { fluid.jacobi = Math.max(1, Number($('jacobi').value) | 0); applyIdioms(); };

/** Times `steps` fluid steps with the given idioms: GPU timer where there is one, else wall clock to a fence. */
async function timeSteps(idioms, steps) {
  Object.assign(fluid.idioms, idioms);
  const splat = { x: fluid.size * 0.08, y: fluid.size * 0.5, fx: fluid.size * 0.15, fy: 0, dye: 0.6, radius: fluid.size * 0.025 };
  fluid.step(0.5, { splat }); // compile this combination
  await ctx.queries.fence();
  const t0 = performance.now();
  const gpu = await ctx.queries.time(() => { for (let i = 0; i < steps; i++) fluid.step(0.5, { splat }); });
  await ctx.queries.fence();
  const wall = performance.now() - t0;
  return { gpu: gpu === null ? null : gpu / steps, wall: wall / steps };
}

const busy = busyRunner({ disable: ['compare', 'size', ...IDIOMS], cancellable: true });
$('compare').onclick = () =>
  busy('timing the idioms', async ({ progress }) => {
    paused = true;
    const saved = { ...fluid.idioms };
    try {
      const all = { zcull: true, staticBranches: true, precomputed: true };
      const cases = [
        ['all three idioms on', all],
        ['z-cull off', { ...all, zcull: false }],
        ['static branches off', { ...all, staticBranches: false }],
        ['precomputed offsets off', { ...all, precomputed: false }],
        ['all three off', { zcull: false, staticBranches: false, precomputed: false }],
      ];
      const steps = testMode || ctx.caps.software ? 2 : 20;
      const rows = [];
      for (const [label, idioms] of cases) {
        progress(`timing: ${label}`);
        const r = await timeSteps(idioms, steps);
        rows.push([label, r.gpu, r.wall]);
      }
      const base = rows[0][1] ?? rows[0][2];
      $('comparison').innerHTML = htmlTable({
        title: `${fluid.size}×${fluid.size} grid, ${fluid.jacobi} Jacobi sweeps, ${steps} steps per case — ms per step`,
        columns: ['idioms', 'GPU ms (timer)', 'wall ms (to a fence)', 'relative to all on'],
        rows: rows.map(([l, g, w]) => [l, g, w, `${((g ?? w) / base).toFixed(2)}×`]),
      });
    } finally {
      Object.assign(fluid.idioms, saved);
      for (const k of IDIOMS) $(k).checked = saved[k];
      paused = false;
    }
  }).catch((e) => (e.name === 'Cancelled' ? null : showError(e)));

await frames(3);
await ctx.queries.fence();
window.__demoReady = true;
