// The agents page: a brookgl Agents crowd stepped every frame and drawn from its state texture.
import { createContext, createAgents, createPointRenderer } from '../../dist/brookgl.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = createContext({ canvas });
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
if (ctx.caps.software) $('n').value = '1024';
const renderer = createPointRenderer(ctx);
// [0, 1]^2 onto the canvas; z (the state's velocity x) ignored
const square = new Float32Array([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, -1, -1, 0, 1]);
let crowd = null;
let stats = { steps: 0, ms: 0, since: performance.now() };

function reset() {
  crowd?.dispose();
  crowd = createAgents(ctx, { count: Number($('n').value), radius: 0.004 });
  crowd.weight = Number($('w').value);
  stats = { steps: 0, ms: 0, since: performance.now() };
}
$('w').oninput = () => {
  $('wOut').textContent = Number($('w').value).toFixed(1);
  if (crowd) crowd.weight = Number($('w').value);
};
$('w').oninput();
$('reset').onclick = reset;
$('n').onchange = reset;

async function frame() {
  try {
    const t0 = performance.now();
    await crowd.step(1 / 60);
    stats.ms += performance.now() - t0;
    stats.steps++;
    renderer.draw(crowd.state, crowd.count, square, { pointSize: 4, color: [0.4, 0.9, 1.0, 1.0] });
    const secs = (performance.now() - stats.since) / 1000;
    if (secs > 1) {
      $('readout').textContent = `${crowd.count} agents, ${crowd.grid.cells[0]}² bins · ${(stats.steps / secs).toFixed(1)} steps/s · ${(stats.ms / stats.steps).toFixed(1)} ms per step (wall)`;
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
