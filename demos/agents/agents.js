// The agents page: a brookgl Agents crowd stepped every frame and drawn from its state texture,
// one colour per crowd (agent i belongs to crowd i mod 4: a small gather kernel splits the state
// into four streams), with the crowds' goal strips drawn on an overlay.
import { createContext, createAgents, createPointRenderer } from '../../dist/brookgl.js';
import { $, animate, testMode, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const canvas = $('view');
const ctx = createContext({ canvas });
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(paperBox({ ...PAPERS.oat, quote: PAPERS.oat.quotes.agents }));
// A software renderer (ctx.caps.software, by the renderer string) manages a few steps a second
// (SwiftShader: ~1.5 of 1024 agents, ~10 of 256): there the page starts with 256 agents and
// steps 0.1 s at a time (the move never passes a collision the step could reach, equation 8,
// and 0.1 s stays under the 0.25 s look-ahead), so the crowds visibly cross; elsewhere 1/60 s,
// one step a frame.
const soft = ctx.caps.software || testMode;
if (soft) $('n').value = '256';
const DT = soft ? 0.1 : 1 / 60;
/** Simulated and wall time since the last restart, shown every frame. */
let clock = { started: performance.now(), simTime: 0 };
const renderer = createPointRenderer(ctx);
// [0, 1]^2 onto the canvas; z (the state's velocity x) ignored
const square = new Float32Array([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, -1, -1, 0, 1]);
const CROWDS = [
  { name: 'left → right', rgb: [1.0, 0.45, 0.35], goal: [0.85, 0.2, 0.15, 0.6] },
  { name: 'right → left', rgb: [0.35, 0.8, 1.0], goal: [0.0, 0.2, 0.15, 0.6] },
  { name: 'bottom → top', rgb: [0.5, 1.0, 0.4], goal: [0.2, 0.85, 0.6, 0.15] },
  { name: 'top → bottom', rgb: [1.0, 0.85, 0.3], goal: [0.2, 0.0, 0.6, 0.15] },
];
/** Records k, k + 4, k + 8, ... of the state: crowd k. */
const CROWD = { name: 'Crowd', gathers: { a: 'float4' }, uniforms: { k: 'float' }, outputs: { p: 'float4' }, body: 'p = a(brook_index * 4 + int(k));' };
let crowd = null;
let parts = [];
let stats = { steps: 0, ms: 0, since: performance.now() };

function setup() {
  crowd?.dispose();
  parts.forEach((s) => s.dispose());
  crowd = null;
  parts = [];
  crowd = createAgents(ctx, { count: Number($('n').value), radius: 0.004 });
  crowd.weight = Number($('w').value);
  parts = CROWDS.map(() => ctx.stream('float4', crowd.count / 4));
  stats = { steps: 0, ms: 0, since: performance.now() };
  clock = { started: performance.now(), simTime: 0 };
}
$('w').oninput = () => {
  $('wOut').textContent = Number($('w').value).toFixed(1);
  if (crowd) crowd.weight = Number($('w').value);
};
$('w').oninput();
const loop = animate({ setup, frame });
$('reset').onclick = () => loop.restart();
$('n').onchange = () => loop.restart();

async function frame() {
  const t0 = performance.now();
  await crowd.step(DT);
  stats.ms += performance.now() - t0;
  stats.steps++;
  clock.simTime += DT;
  const wall = (performance.now() - clock.started) / 1000;
  $('clock').textContent = `simulated ${clock.simTime.toFixed(1)} s in ${wall.toFixed(1)} s: ×${(clock.simTime / wall).toPrecision(2)} real time (steps of ${(DT * 1000).toFixed(1)} ms)`;
  CROWDS.forEach((c, k) => {
    ctx.run(CROWD, { a: crowd.state, k, p: parts[k] });
    renderer.draw(parts[k], parts[k].length, square, { pointSize: 4, color: [...c.rgb, 1], clear: k === 0 });
  });
  const secs = (performance.now() - stats.since) / 1000;
  if (secs > 1) {
    $('readout').textContent = `${crowd.count} agents, ${crowd.grid.cells[0]}² bins · ${(stats.steps / secs).toFixed(1)} steps/s · ${(stats.ms / stats.steps).toFixed(1)} ms per step (wall)`;
    stats = { steps: 0, ms: 0, since: performance.now() };
  }
}

// goal strips (where each crowd's goals lie; agents turn round there) and the legend
const g = $('goals').getContext('2d');
const S = $('goals').width;
g.font = '12px sans-serif';
for (const c of CROWDS) {
  const [x, y, w, h] = c.goal;
  const rgb = c.rgb.map((v) => Math.round(v * 255));
  g.fillStyle = `rgba(${rgb}, 0.15)`;
  g.strokeStyle = `rgba(${rgb}, 0.8)`;
  g.setLineDash([4, 4]);
  g.fillRect(x * S, (1 - y - h) * S, w * S, h * S);
  g.strokeRect(x * S, (1 - y - h) * S, w * S, h * S);
}
$('legend').innerHTML = CROWDS.map((c) => `<span style="color: rgb(${c.rgb.map((v) => Math.round(v * 255))})">■</span> ${c.name}`).join(' &nbsp; ') +
  ' &nbsp; (dashed strips: each crowd\'s goals, where its agents turn round)';

await new Promise((r) => { const f = () => (window.__demoFrames >= 2 || $('error').textContent ? r() : requestAnimationFrame(f)); f(); });
await ctx.queries.fence();
window.__demoReady = true;
