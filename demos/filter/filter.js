// The filter page: runs brookgl's filter with every intermediate stream drawn (the `watch`
// option) beside the code those passes run, checks the result against the CPU reference, and
// times the CPU doing the same.
import { createContext, filter, FILTER_METHODS, pyramidDescent, reference } from '../../dist/brookgl.js';
import { drawStream } from '../lib/view.js';
import { traceTable } from '../lib/trace.js';
import { $, busyRunner, clearError, showError, testMode, paperBox } from '../lib/demo.js';
import { PAPERS } from '../papers/papers.js';

const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
$('paper').replaceWith(paperBox({ ...PAPERS.horn, quote: PAPERS.horn.quotes.filter }));
for (const m of FILTER_METHODS) $('method').add(new Option(m === 'pyramid' ? 'pyramid (default)' : m, m));
$('method').value = new URLSearchParams(location.search).get('method') ?? 'pyramid';
if (testMode) $('n').value = '4096';
const showDensity = () => ($('densityOut').textContent = Number($('density').value).toFixed(2));
$('density').oninput = showDensity;
showDensity();

/** The code each method's passes run: the files in glsl/ the library imports. */
const CODE = {
  'scan-multipass': [['Listing 36-1: StartScan, Scan, GatherSearch, RelGather (glsl/idioms/horn-36-1.brook)', '../../glsl/idioms/horn-36-1.brook']],
  'scan-loop': [
    ['StartScan and Scan of Listing 36-1 (glsl/idioms/horn-36-1.brook)', '../../glsl/idioms/horn-36-1.brook'],
    ['Listing 36-2: the looping search (glsl/idioms/horn-36-2.brook)', '../../glsl/idioms/horn-36-2.brook'],
  ],
  pyramid: [
    ["one pyramid level: each texel the counts of four children (glsl/idioms/pyramid-level4.glsl)", '../../glsl/idioms/pyramid-level4.glsl'],
    ['the descent, one texel a level (generated for this n by pyramidDescent, src/idioms/filter.ts)', (n) => pyramidDescent('float4', pyramidLevels(n), true).body],
  ],
  bitonic: [['one bitonic merge pass (glsl/idioms/bitonic-step.glsl)', '../../glsl/idioms/bitonic-step.glsl']],
  scatter: [
    ['one pass of the exclusive scan of the flags (glsl/idioms/scan-step.glsl)', '../../glsl/idioms/scan-step.glsl'],
    ['the scatter: each kept record drawn as a point at its rank (glsl/idioms/scatter.vert.glsl)', '../../glsl/idioms/scatter.vert.glsl'],
  ],
};
/** Levels of the packed pyramid over n records: flags four to a texel, then four texels a node up to one. */
function pyramidLevels(n) {
  let levels = 1;
  for (let len = Math.ceil(n / 4); len > 1; len = Math.ceil(len / 4)) levels++;
  return levels;
}
/** Shows the code of `method`'s passes: files fetched (a failed fetch is an error), or code generated for `n`. */
async function showCode(method, n) {
  if (!CODE[method]) throw new Error(`filter page: no code listed for the method '${method}' (add it to CODE in demos/filter/filter.js)`);
  const text = async (src) => {
    if (typeof src === 'function') return src(n);
    const r = await fetch(src);
    if (!r.ok) throw new Error(`filter page: ${src}: ${r.status} ${r.statusText}`);
    return r.text();
  };
  const parts = await Promise.all(CODE[method].map(async ([title, src]) => [title, await text(src)]));
  $('code').replaceChildren(...parts.flatMap(([title, text]) => [Object.assign(document.createElement('h4'), { textContent: title }), Object.assign(document.createElement('pre'), { className: 'code', textContent: text })]));
}

/** Random float4 records; x.x uniform in [0, 1), the rest a record id to watch move. */
let cached = null;
function records(n) {
  if (cached?.n === n) return cached;
  const data = new Float32Array(n * 4);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < n; i++) data.set([rand(), i / n, (i % 97) / 97, 1], i * 4);
  cached?.stream.dispose();
  cached = { n, data, stream: ctx.stream('float4', n, data) };
  return cached;
}

function figure(label, canvas) {
  const f = document.createElement('figure');
  canvas.className = 'stream';
  canvas.style.width = '180px';
  f.append(canvas, Object.assign(document.createElement('figcaption'), { textContent: label }));
  return f;
}

// Drawing a pass reads it back (and, for bitonic, there are 0.5 log2 n (log2 n + 1) of them),
// so only smaller streams are drawn; larger ones are counted, timed and checked.
const MAX_DRAWN = { pyramid: 1 << 20, scatter: 1 << 20, 'scan-multipass': 1 << 20, 'scan-loop': 1 << 20, bitonic: 1 << 16 };
for (const m of FILTER_METHODS) if (!CODE[m] || !MAX_DRAWN[m]) showError(new Error(`filter page: the method '${m}' has no entry in CODE or MAX_DRAWN (demos/filter/filter.js)`));

async function runGpu({ progress }) {
  clearError();
  const n = Number($('n').value);
  const density = Number($('density').value);
  const method = $('method').value;
  const code = showCode(method, n);
  code.catch(() => {}); // awaited below, after the run; an error then shows
  const { data, stream } = records(n);
  const draw = n <= MAX_DRAWN[method];
  const shown = [];
  if (draw) {
    const c = document.createElement('canvas');
    drawStream(c, data, [n], 4);
    shown.push(figure('input (x.x, i/n, ...)', c));
  }
  const keep = `x.x < ${density.toFixed(6)}`;
  const watch = draw
    ? (label, s) => {
        const c = document.createElement('canvas');
        drawStream(c, s.readSync(), [s.length], s.info.components);
        shown.push(figure(label, c));
      }
    : undefined;
  progress(`${method}: compiling and timing on ${n} records`);
  // Timed without the watcher (its readbacks would dominate), then run again to draw.
  await filter(ctx, stream, { keep, method }).then((r) => r.stream?.dispose()); // compile
  await ctx.queries.fence();
  const t0 = performance.now();
  const timedRun = await filter(ctx, stream, { keep, method });
  await ctx.queries.fence();
  const ms = performance.now() - t0;
  timedRun.stream?.dispose();
  progress(draw ? `${method}: running again, reading every pass back to draw it` : `${method}: running again with the trace`);
  ctx.trace.start();
  const r = await filter(ctx, stream, { keep, method, watch, indices: true });
  const passes = await ctx.trace.stop();
  const got = r.stream ? r.stream.readSync() : new Float32Array(0);
  const gotIdx = r.indices ? r.indices.readSync() : new Uint32Array(0);
  r.stream?.dispose();
  r.indices?.dispose();

  const want = reference.filterReference(data, 4, (rec) => rec[0] < Math.fround(density));
  const same = r.count === want.indices.length && want.indices.every((v, i) => gotIdx[i] === v) && want.values.every((v, i) => Object.is(got[i], Math.fround(v)));
  $('passes').replaceChildren(...shown);
  $('notDrawn').textContent = draw
    ? ''
    : `${n} records: the passes are not drawn above ${MAX_DRAWN[method]} records for ${method} (drawing reads every pass back to the CPU, ` +
      `${passes.length} readbacks of up to ${n} records here); the run was timed, traced below and checked against the CPU.`;
  $('trace').innerHTML = traceTable(passes);
  await code;
  $('summary').innerHTML =
    `<b>${method}</b>: kept ${r.count} of ${n} records in ${passes.length} passes, ${ms.toFixed(2)} ms ` +
    `(${((ms * 1000) / n).toFixed(4)} µs per record, count read back). ` +
    (same ? 'Identical to the CPU reference.' : '<span class="error">DIFFERS from the CPU reference.</span>');
  if (!same) throw new Error(`${method} differs from the CPU reference (count ${r.count}, expected ${want.indices.length})`);
}

function runCpu() {
  const n = Number($('n').value);
  const density = Math.fround(Number($('density').value));
  const { data } = records(n);
  const t0 = performance.now();
  const out = new Float32Array(n * 4);
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (data[i * 4] < density) {
      out[m * 4] = data[i * 4]; out[m * 4 + 1] = data[i * 4 + 1]; out[m * 4 + 2] = data[i * 4 + 2]; out[m * 4 + 3] = data[i * 4 + 3];
      m++;
    }
  }
  const ms = performance.now() - t0;
  $('summary').innerHTML = `<b>CPU</b> (a plain JavaScript loop over a Float32Array): kept ${m} of ${n} records in ${ms.toFixed(2)} ms (${((ms * 1000) / n).toFixed(4)} µs per record).`;
}

const busy = busyRunner({ disable: ['gpu', 'cpu', 'n', 'method', 'density'] });
const gpu = () => busy('running on the GPU', runGpu).catch(showError);
$('gpu').onclick = gpu;
$('cpu').onclick = () => Promise.resolve().then(runCpu).catch(showError);
for (const id of ['n', 'density', 'method']) $(id).onchange = gpu;
await gpu();
window.__demoReady = true;
