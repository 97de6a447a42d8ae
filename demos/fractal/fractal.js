// The occlusion-query loop page: brookgl's occlusionLoop over a Mandelbrot iteration, timed,
// then replayed pass by pass with exact live counts (liveCount, a reduction) for the plot.
import { createContext, occlusionLoop, liveCount, iter } from '../../dist/brookgl.js';
import { drawStream } from '../lib/view.js';
import { linePlot } from '../lib/plot.js';

const $ = (id) => document.getElementById(id);
const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
const MAX_ITER = 256;

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

async function run() {
  $('error').textContent = '';
  const side = Number($('size').value);
  const per = Number($('per').value);
  const inFlight = Number($('inFlight').value);
  const zcull = $('zcull').checked;
  const state = ctx.stream('float4', [side, side]);
  const unused = ctx.stream('float', [side, side]);
  const mask = ctx.zmask(state);
  const step = stepKernel(per);
  const args = { s: state, o: state, uv: iter([0, 0], [1, 1]), center: [-0.6, 0], scale: 2.8, maxIter: MAX_ITER };
  const iterate = (k) => {
    if (zcull && k % 8 === 0) ctx.buildMask(mask, live, { s: state, u: unused });
    ctx.run(step, args, zcull ? { mask } : {});
  };
  const terminate = () => ctx.run(finished, { s: state, u: unused });
  const reset = () => state.write(new Float32Array(side * side * 4));
  try {
    reset();
    await occlusionLoop(ctx, { iterate, terminate, maxIterations: MAX_ITER, inFlight }); // compile and warm up
    reset();
    await ctx.queries.fence();
    const t0 = performance.now();
    const { iterations, issued } = await occlusionLoop(ctx, { iterate, terminate, maxIterations: MAX_ITER, inFlight });
    await ctx.queries.fence();
    const ms = performance.now() - t0;
    const data = state.readSync();
    const counts = new Float32Array(side * side);
    for (let i = 0; i < counts.length; i++) counts[i] = Math.log(1 + data[i * 4 + 2]);
    drawStream($('image'), counts, [side, side], 1);
    // replay pass by pass with exact live counts
    reset();
    const points = [[0, side * side]];
    for (let k = 0; k < iterations; k++) {
      iterate(k);
      points.push([k + 1, await liveCount(ctx, state, 'x.w == 0.0')]);
    }
    $('plot').innerHTML = linePlot({ title: 'Live pixels after each pass (exact, by reduction)', xLabel: 'pass', yLabel: 'live pixels', series: [{ name: `${per} iteration(s) per pass`, points }], width: 560, height: 340 });
    $('summary').textContent =
      `${side}×${side} pixels: every pixel finished after ${iterations} passes (${iterations * per} iterations at most); ` +
      `${issued} passes were issued (${issued - iterations} extra while queries were in flight); ${ms.toFixed(1)} ms` +
      (zcull ? ', finished pixels masked by z-cull.' : '.');
  } finally {
    mask.dispose();
    state.dispose();
    unused.dispose();
  }
}

const guarded = () => run().catch((e) => ($('error').textContent = e.message));
$('run').onclick = guarded;
for (const id of ['size', 'per', 'inFlight', 'zcull']) $(id).onchange = guarded;
if (ctx.caps.software) $('size').value = '256';
await guarded();
window.__demoReady = true;
