// The occlusion-query loop page: brookgl's occlusionLoop over a Mandelbrot iteration, timed,
// then replayed pass by pass with exact live counts (liveCount, a reduction) for the plot.
import { createContext, occlusionLoop, liveCount, iter } from '../../dist/brookgl.js';
import { drawStream } from '../lib/view.js';
import { linePlot } from '../lib/plot.js';
import { htmlTable } from '../lib/table.js';
import { $, busyRunner, clearError, showError, testMode, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(paperBox({ ...PAPERS.harris, quote: PAPERS.harris.quotes.fractal }));
const MAX_ITER = 256;
/** Centre and width of each view: 'edge' lies above the set (every pixel escapes within ~46 iterations, in float32 too). */
const VIEWS = { edge: { center: [-0.5, 0.9], scale: 0.4 }, whole: { center: [-0.6, 0], scale: 2.8 } };
const runs = [];
let runNumber = 0; // each run's number: its legend label and table row (two runs of the same settings differ by it)

const stepKernel = (per) => ({
  name: `MandelbrotStep<${per}>`,
  inputs: { s: 'float4' },
  iters: { uv: 'float2' },
  uniforms: { center: 'float2', scale: 'float', maxIter: 'float' },
  outputs: { o: 'float4' },
  body: `o = s;
if (s.w == 0.0) {
  vec2 c = center + (uv - 0.5) * scale;
  vec2 z = s.xy;
  float n = s.z;
  for (int k = 0; k < ${per}; k++) {
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    n += 1.0;
    if (dot(z, z) > 4.0) { o.w = 1.0; break; }
  }
  o.xyz = vec3(z, n);
  if (n >= maxIter) o.w = 2.0;
}`,
});
// (x, y, iterations, state): state 0 = live, 1 = escaped, 2 = hit the iteration limit
const finished = { name: 'Finished', inputs: { s: 'float4' }, outputs: { u: 'float' }, body: 'if (s.w != 0.0) discard;\nu = 0.0;' };
const live = { name: 'Live', inputs: { s: 'float4' }, outputs: { u: 'float' }, body: 'if (s.w == 0.0) discard;\nu = 0.0;' };

async function run({ progress }) {
  clearError();
  const view = $('view').value;
  const side = Number($('size').value);
  const per = Number($('per').value);
  const inFlight = Number($('inFlight').value);
  const zcull = $('zcull').checked;
  const state = ctx.stream('float4', [side, side]);
  const unused = ctx.stream('float', [side, side]);
  const mask = ctx.zmask(state);
  const step = stepKernel(per);
  const args = { s: state, o: state, uv: iter([0, 0], [1, 1]), ...VIEWS[view], maxIter: MAX_ITER };
  const iterate = (k) => {
    if (zcull && k % 8 === 0) ctx.buildMask(mask, live, { s: state, u: unused });
    ctx.run(step, args, zcull ? { mask } : {});
  };
  const terminate = () => ctx.run(finished, { s: state, u: unused });
  const reset = () => state.write(new Float32Array(side * side * 4));
  try {
    progress('compiling and warming up');
    reset();
    await occlusionLoop(ctx, { iterate, terminate, maxIterations: MAX_ITER, inFlight }); // compile and warm up
    progress('timing the loop');
    reset();
    await ctx.queries.fence();
    const t0 = performance.now();
    const { iterations, issued } = await occlusionLoop(ctx, { iterate, terminate, maxIterations: MAX_ITER, inFlight });
    await ctx.queries.fence();
    const ms = performance.now() - t0;
    const data = state.readSync();
    const counts = new Float32Array(side * side);
    // record row 0 is the bottom of the view (imaginary axis up); an image's first row is its top
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++) counts[(side - 1 - y) * side + x] = Math.log(1 + data[(y * side + x) * 4 + 2]);
    drawStream($('image'), counts, [side, side], 1);
    // replay pass by pass with exact live counts
    reset();
    const points = [[0, side * side]];
    for (let k = 0; k < iterations; k++) {
      progress(`replaying pass ${k + 1} of ${iterations} with an exact live count`);
      iterate(k);
      points.push([k + 1, await liveCount(ctx, state, 'x.w == 0.0')]);
    }
    const early = iterations * per < MAX_ITER;
    runNumber++;
    runs.unshift({ label: `run ${runNumber}: ${view}, ${side}², ${per}/pass, ${inFlight} in flight${zcull ? ', z-cull' : ''}`, points, row: [runNumber, view, side, per, inFlight, zcull ? 'on' : 'off', iterations, issued, issued - iterations, ms, early ? 'yes' : 'no (iteration cap)'] });
    runs.length = Math.min(runs.length, 8);
    $('plot').innerHTML = linePlot({ title: 'Live pixels after each pass (exact, by reduction)', xLabel: 'pass', yLabel: 'live pixels', logY: true, series: runs.map((r) => ({ name: r.label, points: r.points.map(([x, y]) => [x, Math.max(y, 0.5)]) })), width: 760, height: 360 });
    $('runs').innerHTML = htmlTable({ title: 'Runs, newest first (numbered as in the plot’s legend)', columns: ['run', 'view', 'size', 'iterations per pass', 'queries in flight', 'z-cull', 'passes needed', 'passes issued', 'extra passes', 'ms (wall)', 'ended early by the query'], rows: runs.map((r) => r.row) });
    $('summary').textContent = early
      ? `${side}×${side} pixels: every pixel escaped after ${iterations} passes (${iterations * per} iterations at most, cap ${MAX_ITER}); the occlusion query ended the loop. ` +
        `${issued} passes were issued (${issued - iterations} extra while queries were in flight); ${ms.toFixed(1)} ms${zcull ? ', finished pixels masked by z-cull.' : '.'}`
      : `${side}×${side} pixels: the loop ran to the iteration cap (${MAX_ITER}) because pixels inside the set never escape; the query never found the stream finished. ` +
        `${issued} passes issued, ${ms.toFixed(1)} ms.`;
  } finally {
    mask.dispose();
    state.dispose();
    unused.dispose();
  }
}

const busy = busyRunner({ disable: ['run', 'view', 'size', 'per', 'inFlight', 'zcull'], cancellable: true });
const guarded = () => busy('running the loop', run).catch((e) => (e.name === 'Cancelled' ? ($('summary').textContent = 'Cancelled.') : showError(e)));
$('run').onclick = guarded;
$('clear').onclick = () => {
  runs.length = 0;
  $('runs').innerHTML = '';
  $('plot').innerHTML = '';
};
for (const id of ['view', 'size', 'per', 'inFlight', 'zcull']) $(id).onchange = guarded;
if (ctx.caps.software || testMode) $('size').value = '256';
await guarded();
window.__demoReady = true;
