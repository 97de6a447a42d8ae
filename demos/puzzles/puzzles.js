// The puzzle book: each puzzle of the library's book (src/view/puzzles) as a section with its
// task, its streams drawn (the shown case's inputs and expected output), an editable starter
// kernel beside the fixed host script, Check (the library's checkPuzzle on this page's GPU),
// hints one at a time, the solution on request, and progress kept in localStorage.
import { createContext, PUZZLES, checkPuzzle, puzzleCase, puzzlePixels, traceTable } from '../../dist/brookgl.js';
import { $, showError } from '../lib/demo.js';

const STORE = 'brookgl-puzzles';
const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;

/** What this browser keeps: the student's kernels, the puzzles solved, the hints shown. */
function load() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE) ?? '{}');
    return { sources: s.sources ?? {}, solved: s.solved ?? {}, hints: s.hints ?? {} };
  } catch {
    return { sources: {}, solved: {}, hints: {} };
  }
}
let state = load();
const save = () => localStorage.setItem(STORE, JSON.stringify(state));

const el = (tag, props = {}, ...children) => {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
};

/** A figure of a puzzle stream: its pixels (wrong records red when `wrong` is given) and a caption. */
function figure(d, data, caption, wrong) {
  const px = puzzlePixels(d, data, wrong);
  const canvas = el('canvas', { width: px.width, height: px.height });
  canvas.getContext('2d').putImageData(new ImageData(px.rgba, px.width, px.height), 0, 0);
  const range = px.ranges.map(({ label, lo, hi }) => (lo > hi ? '' : lo === hi ? `${label} = ${short(lo)}` : `${label} ${short(lo)} … ${short(hi)}`)).filter(Boolean).join(', ');
  return el('figure', {}, canvas, el('figcaption', {}, `${caption} [${d.shape.join(' × ')}]${range ? `: ${range}` : ''}`));
}
const short = (v) => (Number.isInteger(v) ? String(v) : Number(v.toPrecision(4)).toString());

function updateProgress() {
  const solved = PUZZLES.filter((p) => state.solved[p.id]).length;
  $('progress').textContent = `Solved ${solved} of ${PUZZLES.length}.`;
  for (const p of PUZZLES) {
    $(`mark-${p.n}`).textContent = state.solved[p.id] ? ' ✓ solved' : '';
    $(`toc-${p.n}`).textContent = `${p.title}${state.solved[p.id] ? ' ✓' : ''}`;
  }
}

function showHints(p) {
  const k = state.hints[p.id] ?? 0;
  $(`hints-${p.n}`).replaceChildren(...p.hints.slice(0, k).map((h) => el('li', {}, h)));
  const left = p.hints.length - k;
  $(`hint-${p.n}`).textContent = left > 0 ? `Hint (${left} left)` : 'No more hints';
  $(`hint-${p.n}`).disabled = left === 0;
}

function section(p) {
  const shown = puzzleCase(p, p.shown);
  const streams = el('div', { className: 'streams', id: `streams-${p.n}` }, el('h4', {}, `The streams for ${shown.label} (seed ${1 + p.shown}): inputs, and the output your kernel must give`));
  for (const [name, d] of Object.entries(shown.inputs)) streams.append(figure(d, d.data, `${name} (input)`));
  streams.append(figure(shown.expected, shown.expected.data, 'expected output'));
  const uniforms = Object.entries(shown.uniforms);
  if (uniforms.length) streams.append(el('p', {}, `Uniforms: ${uniforms.map(([k, v]) => `${k} = ${v}`).join(', ')}.`));

  const source = el('textarea', { id: `src-${p.n}`, rows: Math.max(6, p.solution.split('\n').length + 2), spellcheck: false, value: state.sources[p.id] ?? p.starter });
  source.addEventListener('input', () => {
    state.sources[p.id] = source.value;
    save();
  });
  source.addEventListener('change', () => {
    state.sources[p.id] = source.value;
    save();
  });
  const work = el(
    'div',
    { className: 'work' },
    el('div', {}, el('h4', {}, 'Your kernel (Brook)'), source),
    el('div', {}, el('h4', {}, 'The host script (fixed)'), el('pre', { className: 'code' }, p.host)),
  );
  const check = el('button', { id: `check-${p.n}` }, 'Check');
  const hint = el('button', { id: `hint-${p.n}` }, 'Hint');
  const solution = el('button', { id: `solution-${p.n}` }, 'Show the solution');
  const starter = el('button', { id: `starter-${p.n}`, title: 'put the starter kernel back in the editor' }, 'Starter again');
  const use = el('button', { id: `use-${p.n}` }, 'Put it in the editor');
  const solbox = el(
    'div',
    { className: 'solution', id: `solbox-${p.n}`, hidden: true },
    el('pre', { className: 'code' }, p.solution),
    el('p', {}, p.solutionNote),
    el('p', {}, `From: ${p.source}.`),
    use,
  );
  check.onclick = () => runCheck(p);
  hint.onclick = () => {
    state.hints[p.id] = Math.min(p.hints.length, (state.hints[p.id] ?? 0) + 1);
    save();
    showHints(p);
  };
  solution.onclick = () => {
    solbox.hidden = !solbox.hidden;
    solution.textContent = solbox.hidden ? 'Show the solution' : 'Hide the solution';
  };
  starter.onclick = () => {
    source.value = p.starter;
    delete state.sources[p.id];
    save();
  };
  use.onclick = () => {
    source.value = p.solution;
    state.sources[p.id] = p.solution;
    save();
  };
  return el(
    'section',
    { className: 'puzzle', id: `p-${p.n}` },
    el('h2', {}, `${p.n}. ${p.title}`, el('span', { className: 'solved', id: `mark-${p.n}` })),
    el('p', { className: 'task' }, p.task),
    el('p', {}, el('i', {}, `Teaches: ${p.idea}.`)),
    el('aside', { className: 'paper' }, el('p', {}, `From ${p.source}.`)),
    streams,
    work,
    el('p', { className: 'buttons' }, check, hint, solution, starter),
    el('ol', { className: 'hints', id: `hints-${p.n}` }),
    solbox,
    el('div', { className: 'compile-error', id: `compile-${p.n}` }),
    el('div', { className: 'result', id: `result-${p.n}` }),
  );
}

/** Check: the library's checker on this page's context; the verdict, each case, and on failure the diagnosis. */
async function runCheck(p) {
  window.__demoBusy++;
  const button = $(`check-${p.n}`);
  button.disabled = true;
  button.textContent = 'Checking…';
  const source = $(`src-${p.n}`).value;
  const box = $(`result-${p.n}`);
  const compile = $(`compile-${p.n}`);
  try {
    const r = await checkPuzzle(ctx, p.n, source);
    compile.replaceChildren();
    if (r.error) showCompileError(p, r.error, source);
    if (r.pass) {
      state.solved[p.id] = true;
      save();
      updateProgress();
    }
    box.replaceChildren(...resultNodes(p, r));
  } catch (e) {
    showError(e);
  } finally {
    button.disabled = false;
    button.textContent = 'Check';
    window.__demoBusy--;
  }
}

/** A compile or run error: the message, the student's line it names (highlighted), and that line selected in the editor. */
function showCompileError(p, error, source) {
  const box = $(`compile-${p.n}`);
  const lines = source.split('\n');
  const nodes = [el('div', {}, error.message)];
  if (error.line !== null && error.line >= 1 && error.line <= lines.length) {
    for (let k = Math.max(1, error.line - 1); k <= Math.min(lines.length, error.line + 1); k++) {
      nodes.push(el('span', { className: k === error.line ? 'line' : '' }, `${k === error.line ? '>' : ' '} ${String(k).padStart(3)} | ${lines[k - 1]}`));
    }
    const area = $(`src-${p.n}`);
    const start = lines.slice(0, error.line - 1).reduce((a, l) => a + l.length + 1, 0);
    area.setSelectionRange(start, start + lines[error.line - 1].length);
  }
  box.replaceChildren(...nodes);
}

function resultNodes(p, r) {
  const right = r.cases.filter((c) => c.pass).length;
  const nodes = [
    el('p', { className: `verdict ${r.pass ? 'pass' : 'fail'}` }, r.pass ? `Pass: all ${r.cases.length} cases right.` : `Fail: ${right} of ${p.sizes.length} cases right${r.error ? ' (the run stopped at an error, above)' : ''}.`),
    el(
      'ul',
      {},
      ...r.cases.map((c) => el('li', {}, `${c.pass ? '✓' : '✗'} ${c.label} (seed ${c.seed}): ${c.pass ? `all ${c.records} records right` : c.actual ? `${c.wrong} of ${c.records} records wrong` : 'did not run'}${c.note ? `; ${c.note}` : ''}`)),
    ),
  ];
  const bad = r.diagnosis;
  if (bad && bad.actual) {
    const f = bad.first;
    const e = bad.case.expected;
    const table = el(
      'table',
      { className: 'record' },
      el('tr', {}, el('th', {}, 'first wrong record'), el('td', {}, f.position)),
      ...f.inputs.map(({ name, value }) => el('tr', {}, el('th', {}, name), el('td', {}, value))),
      el('tr', {}, el('th', {}, 'expected'), el('td', {}, f.expected)),
      el('tr', {}, el('th', {}, 'your kernel gave'), el('td', {}, f.actual)),
    );
    nodes.push(
      el(
        'div',
        { className: 'diagnosis', id: `diagnosis-${p.n}` },
        figure(e, bad.actual, `your output, ${bad.label}: ${bad.wrong} wrong records in red`, bad.wrongMask),
        figure(e, e.data, 'expected'),
        table,
      ),
    );
    const trace = el('details', { open: true }, el('summary', {}, `The ${bad.passes.length} passes of that run`));
    trace.insertAdjacentHTML('beforeend', traceTable(bad.passes));
    nodes.push(trace);
  }
  return nodes;
}

try {
  $('toc').replaceChildren(...PUZZLES.map((p) => el('li', {}, el('a', { href: `#p-${p.n}`, id: `toc-${p.n}` }, p.title))));
  $('book').replaceChildren(...PUZZLES.map(section));
  PUZZLES.forEach(showHints);
  updateProgress();
  $('reset').onclick = () => {
    localStorage.removeItem(STORE);
    state = load();
    for (const p of PUZZLES) {
      $(`src-${p.n}`).value = p.starter;
      $(`result-${p.n}`).replaceChildren();
      $(`compile-${p.n}`).replaceChildren();
      showHints(p);
    }
    updateProgress();
  };
} catch (e) {
  showError(e);
} finally {
  window.__demoReady = true;
}
