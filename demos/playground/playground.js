// The playground: a Brook kernel parsed in the page, run on generated streams, its inputs and
// outputs drawn, with the GLSL the runtime generated, the JavaScript the CPU backend generated
// and the pass trace. Backend: the GPU, the CPU backend, or both compared by compareBackends,
// the records that differ highlighted on a diff view of each output and the first ones listed.
import { createContext, parseBrook, iter, generateKernelSource, cpuKernelSource, compareBackends, COMPARE_ULPS, reduceValue, voutRun, typeInfo } from '../../dist/brookgl.js';
import { testMode } from '../lib/demo.js';
import { drawStream } from '../lib/view.js';
import { traceTable } from '../lib/trace.js';
import { htmlTable } from '../lib/table.js';

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
  'Horn StartScan (section 36.1.1)': `kernel void StartScan(float4 value[], out float count<>, iter float here<>, iter float left_1<>) {
  count = isinf(value[here].x) ? 1 : 0;
  if (here >= 1)
    count += isinf(value[left_1].x) ? 1 : 0;
}`,
  '8-bit sum (GPU and CPU differ by design)': `kernel void twice(uchar4 pixel<>, out uchar sum<>) {
  // uchar records are bytes (b / 255 in the kernel). Past 255 a GPU texture saturates, while
  // BrookGPU's CPU backend wrapped modulo 256 (prog/tests sum_uchar's gold), as brookgl's CPU
  // backend does: on "both, compared" the right half of the gradient (x > 127) differs.
  sum = pixel.x + pixel.x;
}`,
};

/** The input each example is meant for (the rest use the finite one): StartScan counts null records. */
const EXAMPLE_INPUT = { 'Horn StartScan (section 36.1.1)': 'nulls' };

const $ = (id) => document.getElementById(id);
const ctx = createContext();
/** The CPU backend's context (BrookGPU's BRT_RUNTIME=cpu): for Backend "CPU" and "both". */
const cpu = createContext({ backend: 'cpu' });
if (testMode) $('size').value = '64';
$('ulps').value = String(COMPARE_ULPS);
/** The renderer line: the WebGL2 renderer, and the CPU backend's name when it runs. */
function showRenderer() {
  const backend = $('backend').value;
  $('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}${backend === 'gpu' ? '' : `; CPU backend: ${cpu.caps.renderer}`}`;
  $('tolerance').hidden = backend !== 'both';
}
showRenderer();
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
$('backend').onchange = () => run();
$('ulps').onchange = () => run();
$('run').onclick = () => run();

const uniformValues = new Map();

/** What the runtime adds to a reduce kernel's description (its fold passes): never shown or bound here. */
const REDUCE_INTERNALS = new Set(['reduce_src', 'reduce_n', 'reduce_span', 'reduce_block', 'reduce_2d']);
/** The parameters the user wrote: a reduce kernel's description also lists those of its fold passes. */
const own = (spec, group) => Object.entries(spec[group] ?? {}).filter(([name]) => !(spec.brook?.reduce && REDUCE_INTERNALS.has(name)));

/**
 * The input image of a stream type: a colour gradient with rings; with `nulls`, every 23rd
 * record's x is +infinity (Horn's null records). Float types hold it as is; 8-bit types (char,
 * uchar, fixed) as bytes (v · 255, rounded; the nulls as 255) and int types as 0..255 alike.
 */
function inputData(type, side, nulls) {
  const { components, host } = typeInfo(type);
  const Host = { float: Float32Array, char: Uint8Array, int: Int32Array, uint: Uint32Array }[host];
  const data = new Host(side * side * components);
  const scale = host === 'float' ? (v) => v : (v) => (Number.isFinite(v) ? Math.round(v * 255) : 255);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      const r = Math.hypot(x - side / 2, y - side / 2) / side;
      const v = [x / side, y / side, 0.5 + 0.5 * Math.sin(r * 40), 1];
      for (let k = 0; k < components; k++) data[i * components + k] = scale(v[k]);
      if (nulls && (x * 7 + y * 13) % 23 === 0) data[i * components] = scale(Infinity);
    }
  return data;
}
// the page's test compares the highlighted records with a compareBackends call of its own on the same input
window.__playgroundInput = inputData;

async function run() {
  window.__demoBusy++;
  $('error').textContent = '';
  showRenderer();
  const side = Number($('size').value);
  const n = side * side;
  const backend = $('backend').value; // 'gpu' | 'cpu' | 'both'
  const on = backend === 'cpu' ? cpu : ctx; // where the streams live ('both': the GPU; compareBackends copies them to the CPU)
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
      const s = on.stream(type, [side, side], inputData(type, side, $('input').value === 'nulls'));
      owned.push(s);
      args[name] = s;
      shown.push([`${name} (input)`, s]);
    }
    for (const [name, type] of Object.entries(spec.iters ?? {})) args[name] = type === 'float2' ? iter([0, 0], [1, 1]) : iter(0, n);
    for (const [name] of own(spec, 'uniforms')) args[name] = uniformValues.get(name) ?? 1;
    $('glsl').textContent = generateKernelSource(spec).source;
    $('js').textContent = javascriptOf(spec);
    const ulps = Number($('ulps').value);
    if (!(Number.isFinite(ulps) && ulps >= 0)) throw new Error(`ulps must be a number >= 0 (got ${$('ulps').value}): floats this many units in the last place apart count as equal`);
    const traced = on === ctx;
    let passes = [];
    if (traced) ctx.trace.start();
    let result = '';
    /** 'both': compareBackends' report of the run (for a reduce kernel, of its blocks). */
    let comparison = null;
    /** The run itself: on the chosen backend, or on both, compared. */
    const runOnce = (kernelArgs) => {
      if (backend === 'both') comparison = compareBackends(ctx, spec, kernelArgs, { ulps, first: 8, indices: true, cpu });
      else on.run(spec, kernelArgs);
    };
    try {
      if (spec.brook?.reduce) {
        // a reduce kernel: to one value (Brook's reduce to a float), then to 8x8 blocks (a smaller stream)
        const value = await reduceValue(on, spec, args);
        const fmt = (v) => `(${v.map((x) => x.toPrecision(6)).join(', ')})`;
        result = `${spec.name} over all ${n} records = ${fmt(value)}`;
        if (backend === 'both') {
          const copy = cpu.stream(spec.brook.reduce.type, [side, side], inputData(spec.brook.reduce.type, side, $('input').value === 'nulls'));
          owned.push(copy);
          result += ` on the GPU, ${fmt(await reduceValue(cpu, spec, { ...args, [spec.brook.reduce.input]: copy }))} on the CPU`;
        }
        const blocks = on.stream(spec.brook?.reduce.type, [side / 8, side / 8]);
        owned.push(blocks);
        runOnce({ ...args, [spec.brook?.reduce.result]: blocks });
        shown.push([`${spec.brook?.reduce.result} (each record reduces an 8×8 block)`, blocks, spec.brook.reduce.result]);
      } else if (spec.brook?.vout) {
        // a vout kernel: every record pushes 0..N values; the pushed records come back in order
        const { stream, count } = await voutRun(on, spec, args);
        if (stream) owned.push(stream);
        const records = stream ? await stream.read() : new Float32Array(0);
        const first = Array.from(records.slice(0, 8 * components(spec.brook?.vout.type)), (v) => v.toPrecision(4));
        result = `${spec.name} pushed ${count} records (at most ${spec.brook?.vout.most || 'any number'} per input record)${first.length ? `; the first: ${first.join(', ')}` : ''}`;
        if (backend === 'both') {
          // the same inputs on the CPU backend; the pushed records compared exactly (count, shape, every value)
          const cpuArgs = { ...args };
          for (const [name, type] of [...own(spec, 'inputs'), ...own(spec, 'gathers')]) {
            const copy = cpu.stream(type, [side, side], inputData(type, side, $('input').value === 'nulls'));
            owned.push(copy);
            cpuArgs[name] = copy;
          }
          const other = await voutRun(cpu, spec, cpuArgs);
          if (other.stream) owned.push(other.stream);
          const theirs = other.stream ? other.stream.readSync() : new Float32Array(0);
          const differing = Array.from(records).filter((x, k) => !Object.is(x, theirs[k])).length;
          const same = other.count === count && theirs.length === records.length && differing === 0;
          result += same ? '; the CPU backend pushed the same records' : `; the CPU backend pushed ${other.count} records, ${differing} values differing`;
        }
      } else {
        for (const [name, type] of Object.entries(spec.outputs)) {
          const s = on.stream(type, [side, side]);
          owned.push(s);
          args[name] = s;
          shown.push([`${name} (output)`, s, name]);
        }
        runOnce(args);
      }
    } finally {
      // stopped whether the run finished or threw (an error mid-run would leave every later pass traced)
      if (traced) passes = await ctx.trace.stop();
    }
    const ms = performance.now() - started;
    $('which').textContent = backend === 'cpu' ? ranOnCpuText(spec.name, Object.keys(kernels), ms) : ranText(spec.name, Object.keys(kernels), passes.length, ms, backend === 'both');
    $('result').textContent = result;
    $('streams').innerHTML = '';
    for (const [label, s, output] of shown) {
      const data = await s.read();
      const where = output === undefined ? '' : backend === 'cpu' ? ', CPU' : backend === 'both' ? ', GPU' : '';
      $('streams').append(streamFigureOf(`${label.replace(/\)$/, `${where})`)}`, s, data, components(s.type)));
      const differs = output !== undefined && comparison ? comparisonOf(comparison, spec, output) : null;
      if (differs) {
        const fig = streamFigureOf(`${output} (GPU vs CPU)`, s, data, components(s.type), differs, comparison.tolerance);
        fig.querySelector('canvas').classList.add('diff');
        $('streams').append(fig);
      }
    }
    showComparison(comparison, spec);
    $('trace').innerHTML = traced ? traceTable(passes) : '<p>No passes: the CPU backend runs the kernel as a JavaScript loop over the records.</p>';
  } catch (e) {
    // nothing of the previous run stays on the page next to the error
    $('streams').innerHTML = '';
    $('trace').innerHTML = '';
    $('which').textContent = '';
    $('result').textContent = '';
    showComparison(null);
    $('error').textContent = e.message;
  } finally {
    owned.forEach((s) => s.dispose());
    window.__demoBusy--;
    window.__demoReady = true;
  }
}

/** The JavaScript the CPU backend generates for `spec`, or why it has none. */
function javascriptOf(spec) {
  try {
    return cpuKernelSource(spec);
  } catch (e) {
    return `// the CPU backend has no JavaScript for this kernel:\n// ${e.message}`;
  }
}

/**
 * A figure of one stream: its canvas and a caption with its type, shape and range; with
 * `differs` (compareBackends' report for this output, within `tolerance`) the diff view: the records that differ
 * highlighted, the caption counting them.
 */
function streamFigureOf(label, s, data, comps, differs = null, tolerance = null) {
  const fig = document.createElement('figure');
  const canvas = document.createElement('canvas');
  canvas.className = 'stream';
  const drawn = drawStream(canvas, data, s.shape, comps, differs ? { highlight: differs.indices } : {});
  fig.append(canvas);
  const cap = document.createElement('figcaption');
  if (differs) {
    const { ulps } = tolerance;
    const float = isFloat(s.type);
    cap.textContent = `${label}: ${drawn.highlighted === 0
      ? `all ${differs.records} records agree${float ? ` within ${ulps} ulps` : ' exactly'}`
      : `${drawn.highlighted} of ${differs.records} records differ${float ? ` by more than ${ulps} ulps` : ''} (orange)`}`;
    canvas.dataset.highlighted = String(drawn.highlighted);
  } else {
    let bad = 0;
    for (const v of data) if (!Number.isFinite(v)) bad++;
    const { lo, hi } = drawn;
    const range = lo[0] === hi[0] ? `every x = ${lo[0]?.toPrecision(3)} (constant: drawn grey)` : `x in ${lo[0]?.toPrecision(3)}..${hi[0]?.toPrecision(3)}`;
    cap.textContent = `${label}: ${s.type} [${s.shape.join('×')}], ${range}${bad ? `, ${bad} non-finite values (magenta)` : ''}`;
  }
  fig.append(cap);
  return fig;
}

const isFloat = (type) => typeInfo(type).host === 'float';

/** compareBackends' report for the output `name`: its own, or its struct stream's (a struct output's fields share its records). */
function comparisonOf(comparison, spec, name) {
  if (comparison.outputs[name]) return comparison.outputs[name];
  const owner = Object.entries(spec.structParams ?? {}).find(([p, sp]) => sp.struct.fields.some((f) => `${p}_${f.name}` === name));
  return owner ? (comparison.outputs[owner[0]] ?? null) : null;
}

/** The verdict and the first differing records of each output (hidden unless both backends ran). */
function showComparison(comparison) {
  $('compare').hidden = !comparison;
  $('differences').innerHTML = '';
  if (!comparison) {
    $('verdict').textContent = '';
    return;
  }
  const outs = Object.entries(comparison.outputs);
  const differing = outs.reduce((t, [, o]) => t + o.differing, 0);
  $('compare').dataset.differing = String(differing);
  const tol = `floats within ${comparison.tolerance.ulps} ulps, ints and 8-bit records exactly`;
  $('verdict').textContent = comparison.ok
    ? `The GPU (${comparison.renderer}) and the CPU backend agree on every record of ${outs.map(([k, o]) => `${k} (${o.records})`).join(', ')} (${tol}).`
    : `The GPU (${comparison.renderer}) and the CPU backend differ on ${outs.filter(([, o]) => o.differing).map(([k, o]) => `${o.differing} of ${o.records} records of ${k}`).join(', ')} (${tol}); highlighted orange in the diff view, the first ones below.`;
  const fmt = (v) => v.map((x) => (Number.isInteger(x) ? String(x) : x.toPrecision(7))).join(', ');
  for (const [name, o] of outs) {
    if (!o.differing) continue;
    const inputs = [...new Set(o.first.flatMap((d) => Object.keys(d.inputs)))];
    const rows = o.first.map((d) => [String(d.record), `(${d.position.join(', ')})`, fmt(d.gpu), fmt(d.cpu), Number.isFinite(d.ulps) ? String(d.ulps) : '∞', ...inputs.map((k) => (d.inputs[k] ? fmt(d.inputs[k]) : ''))]);
    $('differences').insertAdjacentHTML('beforeend', htmlTable({
      title: `${name}: the first ${o.first.length} of ${o.differing} differing records`,
      columns: ['record', 'position (x, y)', 'GPU', 'CPU', 'ulps (floats) / difference', ...inputs.map((k) => `input ${k}`)],
      rows,
    }));
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
function ranText(name, names, passes, ms, both = false) {
  return `Ran ${name}${both ? ' on the GPU and the CPU backend, compared' : ''}: ${passes} pass${passes === 1 ? '' : 'es'}, ${ms.toFixed(1)} ms${alsoDefines(name, names)}`;
}

/** #which after a run on the CPU backend (no passes: a JavaScript loop). */
function ranOnCpuText(name, names, ms) {
  return `Ran ${name} on the CPU backend (JavaScript): ${ms.toFixed(1)} ms${alsoDefines(name, names)}`;
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
