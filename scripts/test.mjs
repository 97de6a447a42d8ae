// Runs the mocha specs inside headless Chromium: serves the repository on 127.0.0.1, opens
// test/index.html, streams each result here, and ends with "N passed, N failed".
// Options: --grep <pattern>, --gpu (hardware renderer instead of SwiftShader).
import fs from 'node:fs';
import path from 'node:path';
import { serve, root } from './serve.mjs';
import { launch, checkRenderer } from './browser.mjs';

/**
 * What the demo run does on each page after it is ready: ['select', id, value] sets a control
 * and fires its change event, ['click', id], ['check', id, bool], ['hold', id, ms] presses a
 * button down for a while, ['drag', id, [dx, dy]] drags the mouse across an element, ['frames', k] waits for k more frames of a page's frame loop, and
 * every action waits for the page's runs (window.__demoBusy) to end. ['input', id, value] moves a
 * slider (sets the value, fires input). ['expect', js, what]
 * evaluates an expression in the page and fails unless it is true; ['problems', js, what] fails
 * listing what the expression (an array of strings) returns, unless it is empty.
 */
/** An expression that moves slider `id` to `value` and is true when the page shows its busy sign at once. */
const BUSY_ON_INPUT = (id, value) =>
  `(() => { const e = document.getElementById('${id}'); e.value = '${value}'; e.dispatchEvent(new Event('input')); return document.getElementById('busy').classList.contains('on'); })()`;

/** The mesh view (demos/lib/mesh-view.js): lit, a wireframe toggle that shows, a drag that turns it. */
const MESH_VIEW_CHECKS = [
  ['expect', 'window.__meshView.stats().shades >= 12', 'the mesh is lit: many shades, not a flat silhouette'],
  ['expect', '(window.__picture = window.__meshView.stats().sum, true)', 'the picture is noted'],
  ['check', 'wire', true],
  ['expect', 'window.__meshView.stats().sum !== window.__picture', 'the wireframe toggle changes the picture'],
  ['check', 'wire', false],
  ['expect', '(window.__azimuth = window.__meshView.camera.azimuth, window.__meshView.stats().sum === window.__picture)', 'the wireframe toggle turns off'],
  ['drag', 'view', [150, 60]],
  ['expect', 'window.__meshView.camera.azimuth !== window.__azimuth && window.__meshView.stats().sum !== window.__picture', 'a mouse drag turns the view'],
];

/** True when some stream canvas of the page holds a magenta pixel (how image.ts draws non-finite values). */
const HAS_MAGENTA =
  "[...document.querySelectorAll('#streams canvas')].some((c) => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 255) return true; return false; })";

/**
 * The playground on Backend "both, compared": for the kernel in the box, a compareBackends call
 * of the test's own (a context of its own, the page's input for that type) against what the page
 * shows. The diff view must highlight (HIGHLIGHT, orange) exactly as many records as that call
 * finds differing, the page's count must say the same, and the listed first record must be that
 * call's first, with both answers. `expected` is 'none' (the backends agree) or 'some'.
 */
const PLAYGROUND_DIFF = (kernel, output, expected) => `(async () => {
  const m = await import('/dist/brookgl.js');
  const problems = [];
  const side = Number(document.getElementById('size').value);
  const spec = m.parseBrook(document.getElementById('source').value)['${kernel}'];
  const gpu = m.createContext();
  try {
    const args = {};
    for (const [name, type] of Object.entries(spec.inputs ?? {})) args[name] = gpu.stream(type, [side, side], window.__playgroundInput(type, side, document.getElementById('input').value === 'nulls'));
    for (const [name, type] of Object.entries(spec.outputs)) args[name] = gpu.stream(type, [side, side]);
    const c = m.compareBackends(gpu, spec, args, { ulps: Number(document.getElementById('ulps').value) });
    const differing = c.outputs['${output}'].differing;
    const canvas = document.querySelector('#streams canvas.diff');
    if (!canvas) return ['no diff view (#streams canvas.diff) on the page'];
    const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let lit = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === m.HIGHLIGHT[0] && d[i + 1] === m.HIGHLIGHT[1] && d[i + 2] === m.HIGHLIGHT[2]) lit++;
    if (${expected === 'none' ? 'differing !== 0' : 'differing === 0'}) problems.push('compareBackends found ' + differing + ' differing records of ${output}: expected ${expected}');
    if (lit !== differing) problems.push(lit + ' records highlighted, compareBackends finds ' + differing);
    if (document.getElementById('compare').dataset.differing !== String(differing)) problems.push('the page counts ' + document.getElementById('compare').dataset.differing + ' differing records, compareBackends ' + differing);
    const rows = [...document.querySelectorAll('#differences tbody tr')].map((r) => [...r.cells].map((td) => td.textContent));
    if (differing === 0 && rows.length) problems.push('records listed although none differ');
    if (differing > 0) {
      const f = c.outputs['${output}'].first[0];
      const row = rows[0] ?? [];
      const want = [String(f.record), '(' + f.position.join(', ') + ')', f.gpu.join(', '), f.cpu.join(', ')];
      if (want.some((w, i) => row[i] !== w)) problems.push('the first listed record reads ' + JSON.stringify(row.slice(0, 4)) + ', compareBackends says ' + JSON.stringify(want));
      if (!row.slice(5).some((x) => x.length)) problems.push('the first listed record shows no input');
    }
    return problems;
  } finally {
    gpu.dispose();
  }
})()`;

/** The fractal page's plot and table: labels and (colour, dash) pairs that repeat, and more than one "Runs" heading. */
const FRACTAL_RUNS_APART = `(() => {
  const labels = [...document.querySelectorAll('#plot svg text.legend title')].map((t) => t.textContent);
  const styles = [...document.querySelectorAll('#plot svg polyline')].map((l) => l.getAttribute('stroke') + ' ' + (l.getAttribute('stroke-dasharray') ?? 'solid'));
  const twice = (xs) => xs.filter((x, i) => xs.indexOf(x) !== i);
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, caption')].filter((e) => /^Runs\\b/.test(e.textContent.trim()));
  return [
    ...(labels.length === 4 ? [] : ['legend has ' + labels.length + ' labels, not 4']),
    ...twice(labels).map((l) => 'legend label twice: ' + l),
    ...twice(styles).map((s) => 'line style twice: ' + s),
    ...(headings.length === 1 ? [] : [headings.length + ' headings start with "Runs": ' + headings.map((h) => h.textContent.trim()).join(' | ')]),
  ];
})()`;

/** A paper's page: its one-click reproduction at reduced size, its numbers checked by the page (papers/paper.js). */
const REPRODUCE = [
  ['click', 'repro-0'],
  ['expect', 'window.__reproduced === 1', 'the reproduction finished'],
  ['expect', 'window.__paperProblems.length === 0', 'the reproduced numbers are sane (tables, rows, finite and positive)'],
  ['problems', 'window.__layoutProblems()', 'the results are readable: no two boxes overlap, none reaches past its section'],
];

/** True when a canvas under `selector` holds a pure red pixel (how the puzzle book marks wrong records). */
const HAS_RED = (selector) =>
  `[...document.querySelectorAll('${selector} canvas')].some((c) => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 0) return true; return false; })`;

const EXERCISE = {
  'index.html': [
    [
      'expect',
      "Promise.all([...document.querySelectorAll('#more a')].map((a) => fetch(a.href).then((r) => r.ok))).then((ok) => ok.length >= 14 && ok.every(Boolean))",
      'the gallery links to every notebook and to docs/, and each link answers',
    ],
    [
      'problems',
      "[...document.querySelectorAll('.gallery img')].filter((i) => i.naturalWidth !== 480 || i.naturalHeight !== 320).map((i) => `${i.getAttribute('src')} is ${i.naturalWidth}×${i.naturalHeight}`)",
      "every gallery picture is 480×320, the cards' 3:2 (none cropped by the card, none shorter than the others)",
    ],
  ],
  'papers/nyland-31/index.html': [
    [
      'expect',
      "(() => { const pre = document.querySelector('.listing pre'); const note = document.querySelector('.listing .printedNote'); return /i < blockDim\\.x/.test(pre.textContent) && !/&\\s*lt;/.test(pre.textContent) && /\\[3 FLOPS\\]/.test(pre.textContent) && /margin/.test(note.textContent) && /i < blockDim\\.x/.test(note.textContent); })()",
      'the printed listings read `i < blockDim.x`, and a note under them says what the [FLOPS] notes and the entity were',
    ],
    ...REPRODUCE,
  ],
  'dem/index.html': [
    ['frames', 2], ['click', 'reset'], ['frames', 1], ['click', 'reset'], ['click', 'reset'], ['frames', 2],
    ['expect', "document.getElementById('n').value === '1024' && document.getElementById('params').textContent.includes('overlap ≤ 0.25 d')", 'a software renderer starts with 1024 softer particles'],
    ['expect', "/simulated [0-9.]+ s in [0-9.]+ s: ×[0-9.e+-]+ real time/.test(document.getElementById('clock').textContent)", 'the simulated time rate is shown'],
    ['select', 'n', '4096'], ['frames', 1], ['select', 'n', '1024'], ['frames', 1], ['hold', 'push', 600], ['frames', 2],
  ],
  'agents/index.html': [
    ['frames', 2], ['click', 'reset'], ['frames', 1], ['click', 'reset'], ['click', 'reset'], ['frames', 2],
    ['expect', "document.getElementById('n').value === '256'", 'a software renderer starts with 256 agents'],
    ['expect', "/simulated [0-9.]+ s in [0-9.]+ s: ×[0-9.e+-]+ real time \\(steps of 100\\.0 ms\\)/.test(document.getElementById('clock').textContent)", 'the simulated time rate is shown, with the longer software step'],
    ['select', 'n', '1024'], ['frames', 1], ['select', 'n', '256'], ['frames', 2],
  ],
  'nbody/index.html': [
    ['frames', 2], ['click', 'reset'], ['frames', 1], ['select', 'n', '4096'], ['frames', 1], ['select', 'n', '1024'],
    ['select', 'preset', 'plummer'], ['frames', 2], ['click', 'pause'], ['click', 'pause'], ['frames', 2],
  ],
  'fluid/index.html': [
    ['frames', 2], ['select', 'size', '256'], ['frames', 1], ['select', 'size', '128'], ['frames', 2], ['check', 'zcull', false], ['frames', 2], ['check', 'zcull', true],
    ['click', 'compare'], ['expect', "document.querySelectorAll('#comparison tbody tr').length === 5", 'the idiom timings are compared'],
  ],
  'filter/index.html': [
    ['expect', "document.getElementById('method').value === 'pyramid'", 'the page opens on the default method, pyramid'],
    ['select', 'method', 'bitonic'],
    ['expect', "document.querySelectorAll('#passes figure').length > 10", 'bitonic draws its passes'],
    ['select', 'method', 'scan-multipass'], ['select', 'method', 'scan-loop'], ['click', 'cpu'],
  ],
  'playground/index.html': [
    ['select', 'example', 'Blur (gathers)'],
    ['expect', "/^Ran blur: [0-9]+ pass(es)?, [0-9.]+ ms\\.$/.test(document.getElementById('which').textContent)", 'after the run, the status says the blur ran (not "Running blur.")'],
    ['input', 'source', 'kernel void mine(float4 a<>, out float4 o<>) { o = a; }'],
    ['expect', "document.getElementById('example').selectedOptions[0].textContent === '(your own code)'", 'typing in the box: the example menu says it is your own code'],
    ['select', 'example', 'Blur (gathers)'],
    ['expect', "![...document.querySelectorAll('#streams figcaption')].some((c) => c.textContent.includes('non-finite'))", 'the default input and the blur of it are finite'],
    ['select', 'input', 'nulls'],
    ['expect', "[...document.querySelectorAll('#streams figcaption')].some((c) => c.textContent.includes('(input)') && c.textContent.includes('non-finite values (magenta)'))", 'the input with null records says they are drawn magenta'],
    ['expect', HAS_MAGENTA, '... and draws them magenta'],
    ['expect', "![...document.querySelectorAll('#streams figcaption')].some((c) => c.textContent.includes('(output)') && c.textContent.includes('non-finite'))", 'the blur leaves the null records out'],
    ['select', 'input', 'finite'],
    ['select', 'example', 'Two kernels (choose which runs)'],
    ['expect', "document.getElementById('kernel').options.length === 2 && /^Ran luma: 1 pass, [0-9.]+ ms; the box also defines rings/.test(document.getElementById('which').textContent)", 'the page says which kernel ran, once it has finished, and lists the others'],
    ['select', 'kernel', 'rings'],
    ['expect', "[...document.querySelectorAll('#streams figcaption')].some((c) => c.textContent.startsWith('r (output)'))", 'the chosen kernel runs'],
    ['value', 'source', 'kernel void k(float a<>, out float o<>) {\n  o = a[3];\n}'],
    ['expect', "document.getElementById('example').selectedOptions[0].textContent === '(your own code)'", 'the example menu no longer names an example once the code is changed'],
    ['click', 'run'],
    ['expectError', "document.getElementById('error').textContent.includes(\"kernel k, line 2: 'a' is an input stream (float a<>)\")", 'indexing a <> stream is a Brook error naming the line'],
    ['select', 'example', 'Mandelbrot (iterator, uniforms, loop)'],
    ['expect', "document.getElementById('glsl').textContent.includes('void main')", 'the generated GLSL is shown'],
    ['value', 'uniform-zoom', '4'],
    ['expect', "![...document.querySelectorAll('#streams figcaption')].some((c) => c.textContent.includes('constant'))", 'zoom 4 is not a flat image'],
    ['value', 'source', 'kernel void broken(out float o<>) { o = undefinedName; }'],
    ['click', 'run'],
    ['expectError', "document.getElementById('streams').children.length === 0 && document.getElementById('trace').textContent === ''", 'an error clears the old output'],
    ['select', 'example', 'Reduce (sum, to a value and to blocks)'],
    ['expect', "document.getElementById('error').textContent === '' && document.getElementById('result').textContent.startsWith('sum over all 4096 records = (') && document.getElementById('result').textContent.endsWith(', 4096.00)')", 'a reduce kernel runs and shows its value (every record has w = 1: the sum of w is the record count)'],
    ['expect', "[...document.querySelectorAll('#streams figcaption')].some((c) => c.textContent.startsWith('r (each record reduces an 8×8 block)'))", '... and its reduction to 8x8 blocks is drawn'],
    ['expect', "document.getElementById('uniforms').children.length === 0", 'no field for a parameter the user never wrote'],
    ['value', 'source', 'kernel void twice(float a<>, vout[2] float o<>) {\n  o = a; push(o);\n  if (a > 0.5) { o = -a; push(o); }\n}'],
    ['click', 'run'],
    ['expect', "document.getElementById('error').textContent === '' && /^twice pushed \\d+ records/.test(document.getElementById('result').textContent)", 'a vout kernel runs and says how many records it pushed'],
    // the CPU backend, and both compared (issue 37)
    ['select', 'example', 'Two outputs (input stream)'],
    ['select', 'backend', 'cpu'],
    ['expect', "/^Ran split on the CPU backend \\(JavaScript\\): [0-9.]+ ms\\.$/.test(document.getElementById('which').textContent) && document.getElementById('renderer').textContent.includes('brookgl CPU (JavaScript)')", 'Backend CPU: the kernel ran on the CPU backend, and the page says so'],
    ['expect', "[...document.querySelectorAll('#streams figcaption')].filter((c) => c.textContent.includes('(output, CPU)')).length === 2 && !document.querySelector('#streams canvas.diff')", '... both outputs drawn from the CPU, no diff view'],
    ['expect', "document.getElementById('js').textContent.includes('function brook_kernel') && document.getElementById('glsl').textContent.includes('void main')", 'the generated JavaScript is shown beside the GLSL'],
    ['select', 'backend', 'both'],
    ['problems', PLAYGROUND_DIFF('split', 'luma', 'none'), 'both compared: the backends agree on the split kernel, nothing highlighted'],
    ['expect', "document.querySelectorAll('#streams canvas.diff').length === 2 && document.getElementById('verdict').textContent.startsWith('The GPU (') && document.getElementById('verdict').textContent.includes('agree on every record')", '... a diff view per output, and the verdict says they agree'],
    ['select', 'example', '8-bit sum (GPU and CPU differ by design)'],
    ['problems', PLAYGROUND_DIFF('twice', 'sum', 'some'), "the 8-bit sum differs by design (the GPU saturates, the CPU wraps): the diff view highlights compareBackends' records, the first listed with both answers and its input"],
    ['expect', "document.querySelector('#differences tbody tr').cells[2].textContent.split(', ').includes('255')", '... where the GPU saturated at 255'],
    ['select', 'example', 'Reduce (sum, to a value and to blocks)'],
    ['expect', "/ on the GPU, \\(.*\\) on the CPU$/.test(document.getElementById('result').textContent) && document.querySelectorAll('#streams canvas.diff').length === 1", 'a reduce kernel on both: both values printed, its blocks compared'],
    ['value', 'source', 'kernel void twice(float a<>, vout[2] float o<>) {\n  o = a; push(o);\n  if (a > 0.5) { o = -a; push(o); }\n}'],
    ['click', 'run'],
    ['expect', "document.getElementById('error').textContent === '' && /^twice pushed \\d+ records.*; the CPU backend pushed the same records$/.test(document.getElementById('result').textContent)", 'a vout kernel on both: the CPU backend pushes the same records as the GPU'],
    ['select', 'backend', 'cpu'],
    ['expect', "document.getElementById('error').textContent === '' && /^twice pushed \\d+ records/.test(document.getElementById('result').textContent)", 'a vout kernel on the CPU backend alone'],
    ['select', 'backend', 'gpu'],
    ['select', 'example', 'Blur (gathers)'],
  ],
  'puzzles/index.html': [
    ['click', 'reset'],
    ['expect', "document.querySelectorAll('section.puzzle').length === 16 && document.getElementById('progress').textContent === 'Solved 0 of 16.'", 'sixteen puzzles, none solved'],
    ['expect', "document.querySelectorAll('#streams-3 canvas').length === 2", 'puzzle 3 draws its input and the output it expects'],
    ['click', 'check-3'],
    ['expect', "!!document.querySelector('#result-3 .verdict.fail') && !!document.querySelector('#diagnosis-3 table.record') && document.querySelectorAll('#result-3 table.trace tbody tr').length > 0", "the starter fails: the first wrong record with its inputs, and the run's passes"],
    ['expect', HAS_RED('#diagnosis-3'), 'the wrong records are drawn red'],
    ['click', 'hint-3'],
    ['expect', "document.querySelectorAll('#hints-3 li').length === 1", 'hints come one at a time'],
    ['click', 'solution-3'],
    ['expect', "!document.getElementById('solbox-3').hidden && document.getElementById('solbox-3').textContent.includes('Horn')", 'the solution, on request, cites the listing it comes from'],
    ['click', 'use-3'],
    ['click', 'check-3'],
    ['expect', "!!document.querySelector('#result-3 .verdict.pass') && document.getElementById('progress').textContent === 'Solved 1 of 16.' && JSON.parse(localStorage.getItem('brookgl-puzzles')).solved.neighbour === true", 'the solution passes, and the browser keeps it'],
    ['value', 'src-1', 'kernel void square(float a<>, out float o<>) {\n  float b = a;\n  o = undefinedName * b;\n}'],
    ['click', 'check-1'],
    ['expect', "document.getElementById('compile-1').textContent.includes('line 3') && document.querySelector('#compile-1 .line').textContent.includes('undefinedName')", "a compile error shows the student's line"],
    ['click', 'starter-1'],
    ['click', 'check-1'],
    ['expect', "document.getElementById('compile-1').textContent === '' && !!document.querySelector('#result-1 .verdict.fail')", 'the starter again compiles (and fails)'],
    ['click', 'reset'],
    ['expect', "document.getElementById('progress').textContent === 'Solved 0 of 16.' && document.getElementById('result-3').textContent === '' && localStorage.getItem('brookgl-puzzles') === null", 'reset forgets the progress'],
  ],
  'bench/index.html': [
    ['expect', "document.querySelectorAll('#recorded img.plot').length >= 2", 'the recorded plots are shown'],
    ['select', 'suite', 'filter'],
    ['expect', "document.querySelectorAll('#recorded img.plot').length >= 2", 'the recorded filter plots are shown'],
    ['select', 'suite', 'mixed'],
    ['expect', "['SwiftShader', 'NVIDIA H200', 'brookgl in a mixed page'].every((t) => document.getElementById('recorded').textContent.includes(t))", "the mixed suite's SwiftShader and H200 recordings are shown"],
  ],
  'ccd/index.html': [
    ['expect', "document.querySelectorAll('#stages tr').length === 7", "Table 1's breakdown: five stages and the total"],
    ['select', 'balance', 'static'], ['frames', 2], ['check', 'profile', false], ['frames', 1], ['select', 'scene', 'bart'], ['frames', 2],
  ],
  'collide/index.html': [
    ['expect', "document.getElementById('readout').textContent.includes('colliding pairs')", 'the default pose is collided'],
    ['select', 'model', 'cube'],
    ['expect', "document.getElementById('readout').textContent.startsWith('12 triangles each')", 'the cube was loaded and collided'],
    ['input', 'rz', '30'], ['input', 'rx', '60'], ['input', 'tx', '40'],
    ['expect', "document.querySelectorAll('#trace tr').length > 1", 'the passes of the last query are listed'],
    ['expect', "['rzv', 'rxv', 'txv'].map((id) => document.getElementById(id).textContent).join() === '30°,60°,40 %'", 'every slider shows its value'],
    ['expect', BUSY_ON_INPUT('rx', '45'), 'a slider move shows the busy sign at once'],
    ['select', 'model', 'dragon'],
    ['expect', 'document.documentElement.scrollHeight < 4000', 'the pass table does not make the page tall (it is folded)'],
    ['expect', "(document.getElementById('traceBox').open = true, document.documentElement.scrollHeight < 4000)", 'the pass table, unfolded, scrolls in its box'],
    ['expect', "document.querySelector('aside.paper a').href.includes('chapter-36')", 'the paper is linked'],
    ...MESH_VIEW_CHECKS,
  ],
  'subdivide/index.html': [
    ['expect', "document.getElementById('readout').textContent.includes('triangles in')", 'the default model is subdivided'],
    ['expect', BUSY_ON_INPUT('eps', '-1.5'), 'a slider move shows the busy sign at once'],
    ['input', 'eps', '-2'], ['select', 'depth', '2'], ['check', 'adaptive', false], ['check', 'adaptive', true],
    ['select', 'model', 'cube'],
    ['expect', "document.getElementById('readout').textContent.startsWith('12 triangles in')", 'the cube was loaded and subdivided'],
    ['select', 'model', 'iso'], ['check', 'adaptive', false],
    ...MESH_VIEW_CHECKS,
    ['select', 'model', 'supercube'], ['check', 'adaptive', true], // the default again, for the thumbnail
  ],
  'fractal/index.html': [
    ['expect', "document.getElementById('view').value === 'whole' && document.getElementById('summary').textContent.includes('iteration cap')", 'the page opens on the whole set (which runs to the cap)'],
    ['select', 'view', 'edge'],
    ['expect', "document.getElementById('summary').textContent.includes('ended the loop')", 'the view above the set ends the loop early by the query'],
    ['select', 'per', '16'],
    ['expect', "document.querySelectorAll('#runs tbody tr').length === 3", 'earlier runs are kept'],
    ['select', 'per', '4'],
    ['expect', "document.querySelectorAll('#runs tbody tr').length === 4 && document.querySelector('#runs tbody tr').cells[0].textContent === '4'", 'a run with the settings of run 2 is run 4, numbered in the table'],
    ['problems', FRACTAL_RUNS_APART, 'every run has its own legend label and its own line style, under one heading'],
  ],
};

/** --pictures: frames to wait before a picture, so the simulations show more than their first state. */
const PICTURE_FRAMES = { 'dem/index.html': 120, 'agents/index.html': 60, 'nbody/index.html': 60, 'fluid/index.html': 150 };

/** An action that turns the wheel of element `id` by `notches` (negative: in), as a person zooms an orbit view. */
const WHEEL = (id, notches) => [
  'expect',
  `(() => { for (let i = 0; i < ${Math.abs(notches)}; i++) document.getElementById('${id}').dispatchEvent(new WheelEvent('wheel', { deltaY: ${Math.sign(notches)}, cancelable: true })); return true; })()`,
  `the wheel turns ${notches} notches`,
];

/**
 * --pictures: what a page does before its picture (after its test), so the gallery shows it well:
 * the point simulations with more bodies, framed closer (on SwiftShader their test sizes were a
 * few dim dots on black); the playground's blur of an input with null records.
 */
const PICTURE_SETUP = {
  'nbody/index.html': [['select', 'n', '4096'], ['select', 'preset', 'disks'], WHEEL('view', -3), ['drag', 'view', [70, 0]]],
  'dem/index.html': [['select', 'n', '4096'], WHEEL('view', -3)],
  // the input with null records: the picture shows how non-finite values are drawn (magenta)
  'playground/index.html': [['select', 'example', 'Blur (gathers)'], ['select', 'input', 'nulls']],
};

const grepAt = process.argv.indexOf('--grep');
const grep = grepAt > 0 ? process.argv[grepAt + 1] : '';
const started = Date.now();
const { server, url } = await serve(root, 0);
const { page, close, gpu } = await launch({ origin: url });
let passed = 0;
let failed = 0;
let pending = 0;
let exitCode = 1;
try {
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  page.on('error', (e) => console.error(`page crashed: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') console.error(`[browser ${m.type()}] ${m.text()}`);
  });
  const done = new Promise((resolve) => {
    page.exposeFunction('__brookReport', (e) => {
      if (e.type === 'suite') console.log(`${'  '.repeat(e.depth)}${e.title}`);
      else if (e.type === 'pass') {
        passed++;
        console.log(`${'  '.repeat(e.depth)}✓ ${e.title} (${e.duration} ms)`);
      } else if (e.type === 'fail') {
        failed++;
        console.log(`${'  '.repeat(e.depth)}✗ ${e.title}\n${indent(e.error, e.depth + 2)}`);
      } else if (e.type === 'pending') {
        pending++;
        console.log(`${'  '.repeat(e.depth)}- ${e.title} (skipped${e.reason ? `: ${e.reason}` : ''})`);
      } else if (e.type === 'info') {
        console.log(e.text);
      } else if (e.type === 'end') resolve();
    });
  });
  await page.goto(`${url}/test/index.html?grep=${encodeURIComponent(grep)}`);
  const renderer = await page.evaluate(() => window.__brookRenderer ?? 'unknown');
  console.log(`renderer: ${renderer}`);
  checkRenderer(renderer, gpu);
  await done;
  // --grep demos runs every page; --grep demos/papers only the pages under demos/papers
  if (!grep || 'demos'.includes(grep) || grep.startsWith('demos/')) await loadDemos(page, url, grep.startsWith('demos/') ? grep.slice(6) : '');
  exitCode = failed > 0 ? 1 : 0;
} catch (e) {
  console.error(String(e?.stack ?? e));
  failed++;
} finally {
  await close();
  server.close();
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\n${pending} skipped, ${secs} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);

/**
 * Opens every page of the gallery in the test page (one page for the whole run: see
 * browser.mjs) with ?test=1 (reduced sizes), waits for window.__demoReady, then exercises its
 * controls (EXERCISE below: Restart, new counts, methods, examples) and waits for the frames or
 * runs they start, sweeps every control of the gallery's own pages (sweep below) and opens the
 * page's "View source" listing. A page fails on any console error, page error or text in its
 * .error box.
 * Each page is saved as screenshots/<page>.png (git-ignored); with --pictures the run also
 * writes the small JPEG thumbnails the gallery and README show (demos/img/<page>.jpg).
 */
async function loadDemos(page, url, only = '') {
  console.log('demos (every page in demos/ loads, runs and has its controls exercised)');
  const pages = fs
    .readdirSync(path.join(root, 'demos'), { recursive: true })
    .filter((f) => f.endsWith('index.html'))
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.startsWith(only))
    .sort();
  const shots = path.join(root, 'screenshots');
  fs.mkdirSync(shots, { recursive: true });
  await page.setViewport({ width: 1100, height: 900 });
  for (const file of pages) {
    const errors = [];
    const onError = (e) => errors.push(e.message);
    // errors, and WebGL's warnings (a use of a deleted object is only a warning)
    const onConsole = (m) => (m.type() === 'error' || (m.type() === 'warn' && m.text().startsWith('WebGL'))) && errors.push(m.text());
    page.on('pageerror', onError);
    page.on('console', onConsole);
    const t0 = Date.now();
    const name = file === 'index.html' ? 'gallery' : file.replace(/\/index\.html$/, '').replaceAll('/', '-');
    let steps = 0;
    try {
      await page.goto(`${url}/demos/${file}?test=1`);
      await page.waitForFunction(() => window.__demoReady === true, { timeout: 120_000 });
      // the page names the site's icon, and it is there (an empty data: icon was a page with none)
      const icon = await page.evaluate(async () => {
        const href = document.querySelector('link[rel=icon]')?.href ?? '';
        const r = href.startsWith('http') ? await fetch(href) : null;
        return { href, ok: r?.ok, type: r?.headers.get('content-type') };
      });
      if (!icon.ok || icon.type !== 'image/svg+xml') throw new Error(`the page's icon (link rel=icon) is not the site's favicon: ${JSON.stringify(icon)}`);
      const actions = EXERCISE[file] ?? (file.startsWith('papers/') ? REPRODUCE : []);
      for (const [i, action] of actions.entries()) {
        await act(page, action);
        steps++;
        if (action[0] === 'expectError' || actions[i + 1]?.[0] === 'expectError') continue; // an error expected here
        const shown = await page.evaluate(() => [...document.querySelectorAll('.error')].map((e) => e.textContent).join('\n').trim());
        if (shown) throw new Error(`after ${JSON.stringify(action)}: ${shown}`);
      }
      if (SWEPT(file)) steps += await sweep(page, errors);
      await settle(page, 2);
      const shown = await page.evaluate(() => [...document.querySelectorAll('.error')].map((e) => e.textContent).join('\n').trim());
      if (shown) errors.push(shown);
      await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
      if (process.argv.includes('--pictures')) {
        for (const action of PICTURE_SETUP[file] ?? []) await act(page, action);
        await settle(page, PICTURE_FRAMES[file] ?? 0);
        await thumbnail(page, path.join(root, 'demos', 'img', `${name}.jpg`));
      }
      if (file !== 'index.html') await viewSource(page);
    } catch (e) {
      errors.push(String(e.message ?? e));
      await page.screenshot({ path: path.join(shots, `${name}.png`) }).catch(() => {});
    }
    page.off('pageerror', onError);
    page.off('console', onConsole);
    if (errors.length) {
      failed++;
      console.log(`  ✗ demos/${file}\n${indent(errors.join('\n'), 3)}`);
    } else {
      passed++;
      console.log(`  ✓ demos/${file} (${steps} control steps, ${Date.now() - t0} ms)`);
    }
  }
}

/** The pages the sweep drives: the gallery's own (the paper and benchmark pages run their reproductions instead). */
function SWEPT(file) {
  return !file.startsWith('papers/') && !file.startsWith('bench/');
}

/**
 * After a page's EXERCISE, the sweep: every option of every <select> is chosen once (then the
 * first value is put back), every checkbox turned off and on again, and every button clicked (a
 * button whose label changes, as Pause → Resume, is clicked again). A select marked
 * data-sweep="size" holds sizes: only options no larger than its value when the sweep starts
 * (the test-mode size) are chosen. A control marked data-sweep="skip" is left out. Each step
 * waits for the page's runs and frames and fails on a page error or text in an .error box.
 * Returns the number of steps.
 */
async function sweep(page, errors) {
  const controls = await page.evaluate(() =>
    [...document.querySelectorAll('select, input[type=checkbox], button')]
      .filter((el) => el.id && el.dataset.sweep !== 'skip' && !el.closest('#busy'))
      .map((el) => ({
        id: el.id,
        tag: el.tagName.toLowerCase(),
        size: el.dataset.sweep === 'size',
        value: el.value,
        options: el.tagName === 'SELECT' ? [...el.options].map((o) => o.value) : [],
      })),
  );
  let steps = 0;
  const step = async (action) => {
    await act(page, action);
    await settle(page, 1);
    steps++;
    const shown = await page.evaluate(() => [...document.querySelectorAll('.error')].map((e) => e.textContent).join('\n').trim());
    if (errors.length || shown) throw new Error(`sweep, after ${JSON.stringify(action)}: ${[...errors, shown].join('\n').trim()}`);
  };
  for (const c of controls) {
    if (c.tag === 'select') {
      const chosen = c.size ? c.options.filter((v) => Number(v) <= Number(c.value)) : c.options;
      for (const v of chosen) if (v !== c.value) await step(['select', c.id, v]);
      if (chosen.length > 1) await step(['select', c.id, c.value]);
    } else if (c.tag === 'input') {
      const on = await page.evaluate((id) => document.getElementById(id).checked, c.id);
      await step(['check', c.id, !on]);
      await step(['check', c.id, on]);
    } else {
      const label = () => page.evaluate((id) => document.getElementById(id).textContent, c.id);
      const before = await label();
      if (await page.evaluate((id) => document.getElementById(id).disabled, c.id)) continue;
      await step(['click', c.id]);
      if ((await label()) !== before) await step(['click', c.id]);
    }
  }
  return steps;
}

/** The page's "View source" link (demos/lib/demo.js) opens a listing of every file it names. */
async function viewSource(page) {
  const href = await page.evaluate(() => document.querySelector('a.view-source')?.href);
  if (!href) throw new Error('the page has no "View source" link (a.view-source, made by demos/lib/demo.js)');
  // The link covers nothing: at the top of the page and scrolled to its end, its box meets no
  // text, code box, control or picture of the page (a fixed corner button covered them).
  const covered = await page.evaluate(async () => {
    const a = document.querySelector('a.view-source');
    const boxes = [...document.querySelectorAll('p, pre, td, th, li, h1, h2, h3, h4, figcaption, canvas, svg, img, button, select, textarea, input, label, code, summary')]
      .filter((e) => !e.contains(a) && !a.contains(e) && e.getClientRects().length);
    const hits = [];
    for (const y of [0, document.documentElement.scrollHeight]) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => r()));
      const r = a.getBoundingClientRect();
      for (const e of boxes) {
        const b = e.getBoundingClientRect();
        if (b.width && b.height && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) hits.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${e.textContent.trim().slice(0, 40)}" (scrolled to ${y})`);
      }
    }
    window.scrollTo(0, 0);
    return [...new Set(hits)];
  });
  if (covered.length) throw new Error(`the "View source" link covers: ${covered.slice(0, 6).join('; ')}`);
  const files = new URL(href).searchParams.get('files').split(',');
  await page.goto(href);
  await page.waitForFunction(() => window.__sourceReady === true, { timeout: 30_000 });
  const [shown, listed] = await page.evaluate(() => [document.getElementById('error').textContent, document.querySelectorAll('pre.listing').length]);
  if (shown || listed !== files.length) throw new Error(`View source (${href}): ${shown || `${listed} listings for ${files.length} files`}`);
}

async function act(page, [kind, a, b]) {
  const before = await page.evaluate(() => window.__demoFrames ?? 0);
  if (kind === 'frames') {
    await waitFrames(page, before + a);
    return;
  }
  if (kind === 'expect' || kind === 'expectError') {
    const ok = await page.evaluate(a);
    if (!ok) throw new Error(`expected: ${b}`);
    if (kind === 'expectError' && !(await page.evaluate(() => document.getElementById('error').textContent))) throw new Error(`expected an error shown: ${b}`);
    return;
  }
  if (kind === 'problems') {
    const problems = await page.evaluate(a);
    if (problems.length) throw new Error(`expected: ${b}; found:\n${problems.slice(0, 12).join('\n')}${problems.length > 12 ? `\n… ${problems.length - 12} more` : ''}`);
    return;
  }
  if (kind === 'drag') {
    // a real mouse drag across the element's middle (pointer capture needs a real pointer)
    const box = await (await page.$(`#${a}`)).boundingBox();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + b[0] / 2, y + b[1] / 2);
    await page.mouse.move(x + b[0], y + b[1]);
    await page.mouse.up();
    await new Promise((r) => setTimeout(r, 100)); // the view redraws on the next frame
  } else if (kind === 'hold') {
    await page.evaluate((id) => document.getElementById(id).dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })), a);
    await new Promise((r) => setTimeout(r, b));
    await page.evaluate(() => window.dispatchEvent(new PointerEvent('pointerup', { bubbles: true })));
  } else {
    await page.evaluate(
      (kind, id, value) => {
        const el = document.getElementById(id);
        if (!el) throw new Error(`no control #${id}`);
        if (kind === 'click') el.click();
        else if (kind === 'check') {
          el.checked = value;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        } else if (kind === 'value') {
          el.value = value;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        } else if (kind === 'input') {
          el.value = value;
          el.dispatchEvent(new Event('input', { bubbles: true }));
        } else if (kind === 'select') {
          if (![...el.options].some((o) => o.value === value)) throw new Error(`#${id} has no option ${value}`);
          el.value = value;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        } else throw new Error(`unknown action ${kind}`);
      },
      kind,
      a,
      b,
    );
  }
  await settle(page, 0);
}

/** Waits until no run is in progress and, on a page with a frame loop, `k` more frames. */
async function settle(page, k) {
  await new Promise((r) => setTimeout(r, 50));
  await page.waitForFunction(() => !window.__demoBusy, { timeout: 300_000, polling: 50 });
  const before = await page.evaluate(() => window.__demoFrames ?? 0);
  if (k && before > 0) await waitFrames(page, before + k);
}

/** Waits for frame `n` of the page's frame loop, or for an error shown on the page (the loop stops). */
async function waitFrames(page, n) {
  const done = (n) => window.__demoFrames >= n || [...document.querySelectorAll('.error')].some((e) => e.textContent.trim());
  await page.waitForFunction(done, { timeout: 120_000, polling: 50 }, n);
}

/** A small JPEG of the page's [data-shot] element (else its first canvas): its top, 3:2, 480 px wide. */
/**
 * The gallery's picture of a page: its [data-shot] element (else its first canvas), or the box of
 * that element's children where it has some (a row of figures narrower than the page), as a
 * 480 × 320 JPEG, the gallery cards' 3:2: a taller box gives its top, a slightly wider element
 * its middle, a wider row of children (figures) or a much wider element all of it on the page's
 * background.
 */
async function thumbnail(page, file) {
  const [W, H] = [480, 320];
  const box = await page.evaluate(() => {
    const el = document.querySelector('[data-shot]') ?? document.querySelector('canvas');
    if (!el) return null;
    el.scrollIntoView({ block: 'start' });
    const parts = [...el.children].filter((c) => c.getClientRects().length);
    const rects = (parts.length ? parts : [el]).map((c) => c.getBoundingClientRect());
    const [left, top] = [Math.min(...rects.map((r) => r.left)), Math.min(...rects.map((r) => r.top))];
    const [right, bottom] = [Math.max(...rects.map((r) => r.right)), Math.max(...rects.map((r) => r.bottom))];
    let background = 'white';
    for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (c && c !== 'transparent' && c !== 'rgba(0, 0, 0, 0)') {
        background = c;
        break;
      }
    }
    return { clip: { x: left + scrollX, y: top + scrollY, width: right - left, height: bottom - top }, background, whole: parts.length > 0 };
  });
  const png = await page.screenshot({ encoding: 'base64', ...(box ? { clip: box.clip } : {}) });
  const jpeg = await page.evaluate(
    async (b64, W, H, background, whole) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      [c.width, c.height] = [W, H];
      const g = c.getContext('2d');
      const aspect = img.width / img.height;
      if (aspect <= W / H) g.drawImage(img, 0, 0, img.width, (img.width * H) / W, 0, 0, W, H); // the top
      else if (!whole && aspect <= (1.25 * W) / H) g.drawImage(img, (img.width - (img.height * W) / H) / 2, 0, (img.height * W) / H, img.height, 0, 0, W, H); // the middle
      else {
        g.fillStyle = background;
        g.fillRect(0, 0, W, H);
        const h = (img.height * W) / img.width;
        g.drawImage(img, 0, (H - h) / 2, W, h); // all of it
      }
      return c.toDataURL('image/jpeg', 0.85).split(',')[1];
    },
    png,
    W,
    H,
    box?.background ?? 'white',
    box?.whole ?? false,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(jpeg, 'base64'));
}

function indent(text, depth) {
  return String(text)
    .split('\n')
    .map((l) => '  '.repeat(depth) + l)
    .join('\n');
}
