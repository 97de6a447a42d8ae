// The playground: a Brook kernel parsed in the page, run on generated streams, its inputs and
// outputs drawn, with the GLSL the runtime generated and the pass trace.
import { createContext, parseBrook, iter, generateKernelSource, reduceValue, voutRun } from '../../dist/brookgl.js';
import { testMode } from '../lib/demo.js';
import { drawStream } from '../lib/view.js';
import { traceTable } from '../lib/trace.js';

const EXAMPLES = {
  'Mandelbrot (iterator, uniforms, loop)': `kernel void mandelbrot(iter float2 uv<>, float zoom, out float escape<>) {
  // zoom into the seahorse valley, where the set's boundary stays detailed at every zoom
  float2 c = float2(-0.7436, 0.1318) + (uv - float2(0.5, 0.5)) * 3 / zoom;
  float2 z = float2(0, 0);
  escape = 0;
  for (int i = 0; i < 100; i++) {
    z = float2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    if (dot(z, z) > 4.0) break;
    escape += 1.0;
  }
}`,
  'Blur (gathers)': `kernel void blur(float4 img[], iter float2 uv<>, float radius, out float4 result<>) {
  // a 5x5 box blur; with the input "with null records", those (x = +infinity, Horn's
  // convention) are left out of the mean
  float4 sum = float4(0, 0, 0, 0);
  float count = 0;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) {
      float4 s = img[indexof(result).xy + float2(dx, dy) * (int)radius];
      if (!isinf(s.x)) {
        sum += s;
        count += 1.0;
      }
    }
  result = sum / max(count, 1.0);
}`,
  'Two outputs (input stream)': `kernel void split(float4 pixel<>, out float luma<>, out float4 inverted<>) {
  luma = dot(pixel.xyz, float3(0.299, 0.587, 0.114));
  inverted = float4(1, 1, 1, 1) - pixel;
}`,
  'Two kernels (choose which runs)': `kernel void luma(float4 pixel<>, out float y<>) {
  y = dot(pixel.xyz, float3(0.299, 0.587, 0.114));
}

kernel void rings(float4 pixel<>, out float r<>) {
  r = pixel.z;
}`,
  'Reduce (sum, to a value and to blocks)': `reduce void sum(float4 a<>, reduce float4 r<>) {
  // folds records in index order: r holds the records before, a is the next
  r += a;
}`,
  'Horn StartScan (Listing 36-1)': `kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
  count = isinf(value[here].x) ? 1 : 0;
  if (here >= 1)
    count += isinf(value[left_1].x) ? 1 : 0;
}`,
};

/** The input each example is meant for (the rest use the finite one): StartScan counts null records. */
const EXAMPLE_INPUT = { 'Horn StartScan (Listing 36-1)': 'nulls' };

const $ = (id) => document.getElementById(id);
const ctx = createContext();
if (testMode) $('size').value = '64';
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
/** The example menu's entry while the box holds code of no example (edited, or typed anew). */
const EDITED = Object.assign(new Option('(your own code)', ''), { disabled: true, hidden: true });
$('example').add(EDITED);
for (const name of Object.keys(EXAMPLES)) $('example').add(new Option(name, name));
$('example').value = Object.keys(EXAMPLES)[0];
$('source').value = EXAMPLES[$('example').value];
$('example').onchange = () => {
  if (!EXAMPLES[$('example').value]) return; // the "(your own code)" entry: the box keeps its code
  $('source').value = EXAMPLES[$('example').value];
  $('input').value = EXAMPLE_INPUT[$('example').value] ?? 'finite';
  run();
};
/** The menu names the example the box holds, or "(your own code)" once the code is no example's. */
function matchExample() {
  const name = Object.keys(EXAMPLES).find((k) => EXAMPLES[k] === $('source').value);
  EDITED.hidden = Boolean(name);
  $('example').value = name ?? '';
}
$('source').addEventListener('input', matchExample);
$('source').addEventListener('change', matchExample);
$('size').onchange = () => run();
$('input').onchange = () => run();
$('kernel').onchange = () => run();
$('run').onclick = () => run();

const uniformValues = new Map();

/** What the runtime adds to a reduce kernel's description (its fold passes): never shown or bound here. */
const REDUCE_INTERNALS = new Set(['reduce_src', 'reduce_n', 'reduce_span', 'reduce_block', 'reduce_2d']);
/** The parameters the user wrote: a reduce kernel's description also lists those of its fold passes. */
const own = (spec, group) => Object.entries(spec[group] ?? {}).filter(([name]) => !(spec.brook?.reduce && REDUCE_INTERNALS.has(name)));

/** The input image: a colour gradient with rings; with `nulls`, every 23rd record's x is +infinity (Horn's null records). */
function inputData(side, components, nulls) {
  const data = new Float32Array(side * side * components);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      const r = Math.hypot(x - side / 2, y - side / 2) / side;
      const v = [x / side, y / side, 0.5 + 0.5 * Math.sin(r * 40), 1];
      for (let k = 0; k < components; k++) data[i * components + k] = v[k];
      if (nulls && (x * 7 + y * 13) % 23 === 0) data[i * components] = Infinity;
    }
  return data;
}

async function run() {
  window.__demoBusy++;
  $('error').textContent = '';
  const side = Number($('size').value);
  const n = side * side;
  const owned = [];
  const started = performance.now();
  try {
    const kernels = parseBrook($('source').value);
    const spec = chooseKernel(kernels);
    renderUniformFields(spec);
    const args = {};
    const shown = [];
    const components = (t) => ({ 2: 2, 3: 3, 4: 4 })[t.at(-1)] ?? 1;
    const reduced = spec.brook?.reduce ? [[spec.brook?.reduce.input, spec.brook?.reduce.type]] : [];
    for (const [name, type] of [...reduced, ...own(spec, 'inputs'), ...own(spec, 'gathers')]) {
      const s = ctx.stream(type, [side, side], inputData(side, components(type), $('input').value === 'nulls'));
      owned.push(s);
      args[name] = s;
      shown.push([`${name} (input)`, s]);
    }
    for (const [name, type] of Object.entries(spec.iters ?? {})) args[name] = type === 'float2' ? iter([0, 0], [1, 1]) : iter(0, n);
    for (const [name] of own(spec, 'uniforms')) args[name] = uniformValues.get(name) ?? 1;
    $('glsl').textContent = generateKernelSource(spec).source;
    ctx.trace.start();
    let result = '';
    if (spec.brook?.reduce) {
      // a reduce kernel: to one value (Brook's reduce to a float), then to 8x8 blocks (a smaller stream)
      const value = await reduceValue(ctx, spec, args);
      result = `${spec.name} over all ${n} records = (${value.map((v) => v.toPrecision(6)).join(', ')})`;
      const blocks = ctx.stream(spec.brook?.reduce.type, [side / 8, side / 8]);
      owned.push(blocks);
      ctx.run(spec, { ...args, [spec.brook?.reduce.result]: blocks });
      shown.push([`${spec.brook?.reduce.result} (each record reduces an 8×8 block)`, blocks]);
    } else if (spec.brook?.vout) {
      // a vout kernel: every record pushes 0..N values; the pushed records come back in order
      const { stream, count } = await voutRun(ctx, spec, args);
      if (stream) owned.push(stream);
      const first = stream ? Array.from((await stream.read()).slice(0, 8 * components(spec.brook?.vout.type)), (v) => v.toPrecision(4)) : [];
      result = `${spec.name} pushed ${count} records (at most ${spec.brook?.vout.most} per input record)${first.length ? `; the first: ${first.join(', ')}` : ''}`;
    } else {
      for (const [name, type] of Object.entries(spec.outputs)) {
        const s = ctx.stream(type, [side, side]);
        owned.push(s);
        args[name] = s;
        shown.push([`${name} (output)`, s]);
      }
      ctx.run(spec, args);
    }
    const passes = await ctx.trace.stop();
    $('which').textContent = ranText(spec.name, Object.keys(kernels), passes.length, performance.now() - started);
    $('result').textContent = result;
    $('streams').innerHTML = '';
    for (const [label, s] of shown) {
      const fig = document.createElement('figure');
      const canvas = document.createElement('canvas');
      canvas.className = 'stream';
      const data = await s.read();
      const { lo, hi } = drawStream(canvas, data, s.shape, components(s.type));
      fig.append(canvas);
      const cap = document.createElement('figcaption');
      let bad = 0;
      for (const v of data) if (!Number.isFinite(v)) bad++;
      const range = lo[0] === hi[0] ? `every x = ${lo[0]?.toPrecision(3)} (constant: drawn grey)` : `x in ${lo[0]?.toPrecision(3)}..${hi[0]?.toPrecision(3)}`;
      cap.textContent = `${label}: ${s.type} [${s.shape.join('×')}], ${range}${bad ? `, ${bad} non-finite values (magenta)` : ''}`;
      fig.append(cap);
      $('streams').append(fig);
    }
    $('trace').innerHTML = traceTable(passes);
  } catch (e) {
    // nothing of the previous run stays on the page next to the error
    $('streams').innerHTML = '';
    $('trace').innerHTML = '';
    $('which').textContent = '';
    $('result').textContent = '';
    $('error').textContent = e.message;
  } finally {
    owned.forEach((s) => s.dispose());
    window.__demoBusy--;
    window.__demoReady = true;
  }
}

/**
 * The kernel to run: the one chosen in #kernel when the box still defines it, else the first.
 * The select lists every kernel of the box; #which says which one runs.
 */
function chooseKernel(kernels) {
  const names = Object.keys(kernels);
  if (names.length === 0) throw new Error('playground: the box defines no kernel (write `kernel void name(...) { ... }`)');
  const box = $('kernel');
  if (box.dataset.names !== names.join(',')) {
    const keep = box.value;
    box.replaceChildren(...names.map((n) => new Option(n, n)));
    box.dataset.names = names.join(',');
    box.value = names.includes(keep) ? keep : names[0];
  }
  box.disabled = names.length < 2;
  const name = box.value;
  $('which').textContent = `Running ${name}…${alsoDefines(name, names)}`;
  return kernels[name];
}

/** "; the box also defines a, b (choose one under Kernel)." or "." */
function alsoDefines(name, names) {
  const others = names.filter((n) => n !== name);
  return others.length ? `; the box also defines ${others.join(', ')} (choose one under Kernel).` : '.';
}

/** #which once a run has finished: which kernel ran, in how many passes and how long (wall clock, with the readback). */
function ranText(name, names, passes, ms) {
  return `Ran ${name}: ${passes} pass${passes === 1 ? '' : 'es'}, ${ms.toFixed(1)} ms${alsoDefines(name, names)}`;
}

function renderUniformFields(spec) {
  const box = $('uniforms');
  const names = own(spec, 'uniforms').map(([name]) => name);
  if (box.dataset.names === names.join(',')) return;
  box.dataset.names = names.join(',');
  box.innerHTML = '';
  for (const name of names) {
    const label = document.createElement('label');
    label.textContent = `${name} `;
    const input = document.createElement('input');
    input.type = 'number';
    input.id = `uniform-${name}`;
    input.step = 'any';
    input.value = uniformValues.get(name) ?? 1;
    input.onchange = () => {
      uniformValues.set(name, Number(input.value));
      run();
    };
    label.append(input);
    box.append(label, ' ');
  }
}

run();
