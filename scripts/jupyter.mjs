// The notebook check of scripts/test-package.mjs (and `node scripts/jupyter.mjs`, which can also
// save the executed notebooks with their outputs). Real servers, headless, in the test's Chromium:
//
//  - JupyterLab 4 and Notebook 7 (from .jupyter-venv, which .ci/run makes from PyPI): each
//    notebook of notebooks/jupyter opened, "Run All" (the app's own notebook:run-all-cells), then
//    every code cell must have run without an error, every widget must be in the DOM with its
//    model answered (the model read from the page: status, request answered, results), and every
//    check cell must print "brookgl check: ok". The outputs are compared with the committed ones
//    up to timings (outputSignature): the same outputs in the same cells, their text (a widget's
//    and an image's too) with numbers followed by a time unit and the renderer string masked,
//    tables cell by cell with only their timing columns masked, images by pixel size.
//  - marimo (`marimo run`): notebooks/marimo/*.py, the widgets through mo.ui.anywidget, until
//    every check output says "brookgl check: ok".
//
// The package comes from the checkout (PYTHONPATH=python; `npm run build` wrote its widget).
// A front end no Python can run (BROOKGL_PYTHON, else .jupyter-venv, else python3) is skipped,
// loudly, with the reason; under CI (CI=true) it fails the run instead (a CI that tested nothing
// must not pass).
//
//   node scripts/jupyter.mjs [--save] [--front lab|notebook7|marimo] [notebook names...]
//     (see USAGE below; --help prints it)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// BROOKGL_PYTHON, when set, is the only Python tried (a choice made on purpose is not replaced)
const PYTHONS = process.env.BROOKGL_PYTHON ? [process.env.BROOKGL_PYTHON] : [path.join(ROOT, '.jupyter-venv/bin/python'), 'python3'];
const INSTALL = 'bash .ci/run --install-only makes it (.jupyter-venv from PyPI: pip install -r python/requirements-dev.txt)';
const USAGE = `node scripts/jupyter.mjs [--save] [--front lab|notebook7|marimo] [notebook names...]
  Runs the notebooks headless in real front ends (Chromium, SwiftShader) and checks them: Run All,
  no cell in error, every widget answered, every check cell "brookgl check: ok"; without --save,
  JupyterLab's and Notebook 7's outputs compared with the committed ones.
  --front F   one front end: lab (JupyterLab 4), notebook7 (Notebook 7), marimo; default all three
  --save      write the executed notebooks, with their outputs, back into notebooks/jupyter
              (the committed outputs); runs JupyterLab unless --front notebook7 is given
  names       notebooks/jupyter/*.ipynb or notebooks/marimo/*.py file names; default all
  Python: BROOKGL_PYTHON if set (only it), else .jupyter-venv/bin/python, else python3.
  A front end no Python can run is skipped with a loud message; under CI (CI=true) it fails the run.
  BROOKGL_JUPYTER_LOG=1 prints the page's console and the server's log on failure.`;

/** What each front end needs importable, and its version. */
const FRONT_ENDS = {
  lab: { check: 'import jupyterlab, anywidget, ipykernel, numpy; print(jupyterlab.__version__)', name: 'JupyterLab' },
  notebook7: { check: 'import notebook, anywidget, ipykernel, numpy; assert int(notebook.__version__.split(".")[0]) >= 7; print(notebook.__version__)', name: 'Notebook' },
  marimo: { check: 'import marimo, anywidget, numpy; print(marimo.__version__)', name: 'marimo' },
};
export const frontEndName = (f) => FRONT_ENDS[f].name;

/** Under CI (CI=true, as .ci/run and hosted CIs set it) a check that cannot run fails the run. */
export const skipsFail = () => /^(1|true|yes)$/i.test(process.env.CI ?? '');

/** The loud line for a check that cannot run here (a failure under CI, see skipsFail). */
export const skipLine = (what, reason) =>
  skipsFail() ? `${what} cannot run, and CI=true makes that a failure: ${reason}` : `!!! ${what} SKIPPED, NOT TESTED: ${reason}`;

/** The first Python that can run `frontEnd`, with its version, or null with the reason. */
export function findJupyterPython(frontEnd) {
  const reasons = [];
  for (const py of PYTHONS) {
    try {
      const version = execFileSync(py, ['-c', FRONT_ENDS[frontEnd].check], { stdio: 'pipe', encoding: 'utf8' }).trim();
      return { python: py, version };
    } catch (e) {
      reasons.push(`${py}: ${String(e.stderr ?? e.message).trim().split('\n').at(-1) || 'version'}`);
    }
  }
  return { python: null, reason: `no Python with ${FRONT_ENDS[frontEnd].name}, anywidget, ipykernel, numpy (${reasons.join('; ')}); ${INSTALL}` };
}

function serverEnv(home) {
  return {
    ...process.env,
    PYTHONPATH: path.join(ROOT, 'python'),
    JUPYTER_CONFIG_DIR: path.join(home, '.config'),
    JUPYTER_RUNTIME_DIR: path.join(home, '.runtime'),
    IPYTHONDIR: path.join(home, '.ipython'),
    MARIMO_SKIP_UPDATE_CHECK: '1',
    HOME: home,
  };
}

/** Spawns a server and resolves with its base address, found in what it prints. */
function startServer(python, args, env, pattern = /http:\/\/127\.0\.0\.1:(\d+)\//) {
  const server = spawn(python, args, { env, cwd: env.HOME, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 90 s:\n${log}`)), 90_000);
    const onData = (d) => {
      log += d;
      const m = pattern.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
  });
  return { server, url, log: () => log };
}

/**
 * Starts JupyterLab or Notebook 7 over a copy of notebooks/jupyter (and bench-results and
 * demos/papers, which the notebooks read), then calls `visit({ run })`: `run(name, { save })`
 * runs one notebook with Run All and resolves with its check lines (throwing with what went
 * wrong); with `save` it also returns the executed notebook's JSON.
 */
export async function withJupyter({ page, tmp, python, frontEnd }, visit) {
  const home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, 'notebooks/jupyter'), { recursive: true });
  for (const dir of ['notebooks/jupyter', 'bench-results', 'data/models', 'glsl/idioms']) {
    fs.cpSync(path.join(ROOT, dir), path.join(home, dir), { recursive: true, filter: (f) => !/\.ipynb_checkpoints|__pycache__/.test(f) });
  }
  const common = ['--no-browser', '--ip=127.0.0.1', `--port=${18000 + Math.floor(Math.random() * 2000)}`, '--port-retries=50', ...(process.getuid?.() === 0 ? ['--allow-root'] : [])];
  // the page's application object (window.jupyterapp) is exposed only when asked: the test
  // drives the notebook through it, as Galata does
  const modern = ['--IdentityProvider.token=', '--ServerApp.password=', '--ServerApp.disable_check_xsrf=True', `--ServerApp.root_dir=${home}`];
  const args = frontEnd === 'lab'
    ? ['-m', 'jupyterlab', ...common, ...modern, '--LabApp.expose_app_in_browser=True', '--LabApp.news_url=', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate']
    : ['-m', 'notebook', ...common, ...modern, '--JupyterNotebookApp.expose_app_in_browser=True'];
  const { server, url, log } = startServer(python, args, serverEnv(home));
  const accept = (dialog) => dialog.accept().catch(() => {});
  page.on('dialog', accept);
  try {
    const base = await url;
    await visit({
      run: (name, options = {}) =>
        runModern(page, base, frontEnd, `notebooks/jupyter/${name}`, path.join(home, 'notebooks/jupyter', name), options).catch((e) => {
          if (process.env.BROOKGL_JUPYTER_LOG) e.message += `\nserver log:\n${log().slice(-6000)}`;
          throw e;
        }),
    });
  } finally {
    page.off('dialog', accept);
    server.kill('SIGTERM');
  }
}

/** Opens `address`, again while the server that printed it does not answer yet. */
async function open(page, address) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.goto(address, { waitUntil: 'domcontentloaded', timeout: 90_000 });
    } catch (e) {
      if (!/ERR_CONNECTION_REFUSED/.test(e.message) || attempt > 40) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** JupyterLab 4 or Notebook 7: Run All through the exposed application, then the checks. */
async function runModern(page, url, frontEnd, notebook, file, { save = false, timeout = 240_000 } = {}) {
  // ?reset: JupyterLab starts from an empty workspace instead of reopening the last notebook
  const address = `${url}/${frontEnd === 'lab' ? 'lab/tree' : 'notebooks'}/${notebook}${frontEnd === 'lab' ? '?reset' : ''}`;
  await open(page, address);
  await page.waitForFunction((notebook) => {
    const panel = window.jupyterapp && [...jupyterapp.shell.widgets('main')].find((w) => w.context?.path === notebook);
    window.__panel = panel;
    const kernel = panel?.sessionContext?.session?.kernel;
    return panel?.content?.widgets?.length > 0 && kernel?.connectionStatus === 'connected' && kernel.status === 'idle';
  }, { timeout: 120_000, polling: 250 }, notebook);
  const started = Date.now();
  await page.evaluate(async () => {
    const panel = __panel;
    for (const cell of panel.content.widgets) if (cell.model.type === 'code') cell.model.sharedModel.execution_count = null;
    panel.content.activeCellIndex = 0;
    await jupyterapp.commands.execute('notebook:run-all-cells');
  });
  // Run All has sent every cell; wait until the last one has its answer and the kernel is idle
  try {
    await page.waitForFunction(() => {
      const panel = __panel;
      const code = panel.content.widgets.filter((c) => c.model.type === 'code');
      const failed = code.some((c) => c.model.outputs.toJSON().some((o) => o.output_type === 'error'));
      const kernel = panel.sessionContext.session?.kernel;
      return failed || (kernel?.status === 'idle' && code.every((c) => c.model.executionCount !== null && !c.node.classList.contains('jp-mod-pending')));
    }, { timeout, polling: 500 });
  } catch (e) {
    const where = await page.evaluate(() => __panel.content.widgets.map((c, i) => `${i}:${c.model.type}:${c.model.executionCount}`).join(' '));
    throw new Error(`${notebook}: Run All did not finish in ${timeout / 1000} s (cells: ${where})`);
  }
  const seconds = (Date.now() - started) / 1000;
  const cells = await page.evaluate(() =>
    __panel.content.widgets.map((c) => ({
      type: c.model.type,
      source: c.model.sharedModel.getSource(),
      outputs: c.model.type === 'code' ? c.model.outputs.toJSON() : [],
      // what the outputs say (the model's, not the DOM's: JupyterLab leaves cells out of view unrendered)
      text: c.model.type === 'code' ? c.model.outputs.toJSON().map((o) => [].concat(o.text ?? o.data?.['text/plain'] ?? []).join('')).join('\n') : '',
    })),
  );
  const errors = cells.flatMap((c, i) => c.outputs.filter((o) => o.output_type === 'error').map((o) => `cell ${i}: ${o.ename}: ${o.evalue}`));
  if (errors.length) throw new Error(`${notebook}: ${errors.join('\n')}`);
  const checks = cells.filter((c) => c.source.includes('brookgl check'));
  const lines = checks.map((c) => c.text.trim().split('\n').filter((l) => /brookgl check/.test(l)).join(' ') || '(nothing printed)');
  if (!checks.length || lines.some((l) => !/brookgl check: ok/.test(l))) throw new Error(`${notebook}: the check cells printed:\n${lines.join('\n')}`);
  // the widgets: in the DOM, and their models (read from the page) answered
  const readWidgets = () => page.evaluate(() =>
    [...__panel.node.querySelectorAll('.brookgl-widget')].map((el) => {
      const m = el.brookglModel;
      return {
        kind: el.dataset.kind,
        dom: el.dataset.status,
        drawn: el.dataset.request,
        status: m?.get('status'),
        error: m?.get('error') ?? '',
        answered: m?.get('answered'),
        request: m?.get('request'),
        results: Object.keys(m?.get('results') ?? {}),
        state: Object.keys(m?.get('state') ?? {}).length,
        renderer: m?.get('renderer') ?? '',
      };
    }),
  );
  // a widget may end in an error only where the notebook shows that error (a cell caught and printed it)
  const shown = cells.map((c) => c.text).join('\n');
  const expected = (w) => w.status === 'error' && w.error && shown.includes(w.error.slice(0, 60));
  // answered: the model holds the answer to its latest request, and the widget's root says what
  // its model says and shows that request (the widget sets them together, and sends the answer to
  // Python, in one step: finishRun in python/js/widget.ts); a root that says done while its model
  // reads running after the re-reads below is a failure.
  const answered = (w) => w.status === 'done' && w.answered === w.request && w.results.length && w.drawn === String(w.answered);
  const badOf = (widgets) => widgets.filter((w) => !expected(w) && (w.dom !== w.status || (w.kind === 'embed' ? !(w.status === 'ready' && w.state) : !answered(w))));
  // a model's last state update may still be on its way when Run All's cells are done: read again,
  // for up to 15 s, until every widget holds; then the same conditions must hold
  let widgets = await readWidgets();
  for (const until = Date.now() + 15000; badOf(widgets).length && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 500));
    widgets = await readWidgets();
  }
  const bad = badOf(widgets);
  const wanted = cells.filter((c) => c.outputs.some((o) => o.data?.['application/vnd.jupyter.widget-view+json'])).length;
  if (!widgets.length || widgets.length < wanted || bad.length) throw new Error(`${notebook}: ${widgets.length} widgets in the DOM for ${wanted} widget outputs; not answered: ${JSON.stringify(bad)}`);
  let saved = null;
  if (save) {
    await page.evaluate(() => jupyterapp.commands.execute('docmanager:save'));
    await page.waitForFunction(() => !__panel.context.model.dirty, { timeout: 30_000 });
    saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  }
  await page.evaluate(async () => {
    const panel = __panel;
    panel.context.model.dirty = false;
    await panel.sessionContext.shutdown();
    panel.dispose();
    window.onbeforeunload = null;
  });
  const count = (k) => widgets.filter((w) => w.kind === k).length;
  return {
    lines: [...lines, `${count('run')} Run, ${count('app')} App and ${count('embed')} Embed widgets answered · Run All ${seconds.toFixed(1)} s`],
    cells,
    saved,
  };
}

// ---------------------------------------------------------------------------------------------
// Committed outputs

/** Words of a column header (or a table's title) that say its numbers are measured times or rates. */
const TIMING = /µs|\b(?:ms|us|ns|s|sec|seconds|time|wall|GPU|fps|speedup|peak|FLOP\/s)\b|\/s\b|per second/i;
/** A header that is a size (64k, 1024): under a title that names a time unit, its cells are times. */
const SIZE = /^\s*\d[\d.,]*\s*[kKMG]?\s*$/;
const NUMBER = /-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g;

/** Text up to timings: a number followed by a time or rate unit masked, the renderer string too. */
function maskTimings(s) {
  return String(s)
    .replace(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ms|µs|us|s|ns|M\/s|G\/s|K\/s|GFLOP\/s|fps)\b/g, '#t')
    .replace(/Run All [\d.]+ s/g, '')
    // the renderer is printed for the reader, not compared (another Chromium, another GPU)
    .replace(/renderer: .*/g, 'renderer: #')
    .trim();
}

/**
 * The tables of an HTML output (brookgl.table's and brookgl.bench_table's markup): title,
 * headers and cells, the numbers masked in the columns that hold timings — a header that names
 * a time or rate (ms, µs, wall, GPU, /s, speedup...), a size header (64k) under a title that
 * names one, or a header brookgl.table(..., varies=[...]) marked (class brookgl-varies: values
 * that change between runs, such as a live demo's step count). Every other cell is compared as
 * written.
 */
export function tableSignature(html) {
  const strip = (s) => s.replace(/<[^>]*>/g, '').trim();
  return [...String(html).matchAll(/(?:<h4>([\s\S]*?)<\/h4>\s*)?<table[^>]*>([\s\S]*?)<\/table>/g)].map((m) => {
    const title = strip(m[1] ?? '');
    const heads = [...m[2].matchAll(/<th([^>]*)>([\s\S]*?)<\/th>/g)].map((h) => ({ text: strip(h[2]), marked: /\bbrookgl-varies\b/.test(h[1]) }));
    const timing = heads.map((h) => h.marked || TIMING.test(h.text) || (TIMING.test(title) && SIZE.test(h.text)));
    const rows = [...m[2].matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
      .map((r) => [...r[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c, k) => (timing[k] ? strip(c[1]).replace(NUMBER, '#') : strip(c[1]))))
      .filter((r) => r.length);
    return { title: maskTimings(title), columns: heads.map((h, k) => (timing[k] ? `${h.text} (timing)` : h.text)), rows };
  });
}

/** Width x height of a base64 PNG (its IHDR chunk), or null. */
export function pngSize(base64) {
  const bytes = Buffer.from([].concat(base64).join('').replace(/\s/g, '').slice(0, 44), 'base64');
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/**
 * A cell's outputs reduced to what must stay the same between runs: text up to timings and the
 * renderer (stream text, a widget's or an image's text form), tables cell by cell except their
 * timings (tableSignature), an image's pixel size (its pixels may differ between GPUs), which
 * output kinds there are, and an error's name.
 */
export function outputSignature(outputs) {
  return outputs.map((o) => {
    if (o.output_type === 'stream') return { stream: maskTimings([].concat(o.text).join('')) };
    if (o.output_type === 'error') return { error: o.ename };
    const data = o.data ?? {};
    const kinds = Object.keys(data).sort();
    const text = (k) => [].concat(data[k] ?? []).join('');
    const sig = { kinds };
    if (data['text/html'] !== undefined) {
      // a table's text form repeats its cells: the HTML's cells are compared instead
      sig.tables = tableSignature(text('text/html'));
      // a recorded table's source (brookgl.bench_table: <p><b>file.json</b> · renderer · date</p>)
      sig.sources = [...text('text/html').matchAll(/<p><b>([^<]*)<\/b>/g)].map((m) => m[1]);
      if (!sig.tables.length) sig.html = maskTimings(text('text/html').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' '));
    } else if (data['text/plain'] !== undefined) sig.plain = maskTimings(text('text/plain'));
    if (data['image/png'] !== undefined) sig.png = pngSize(data['image/png']);
    return sig;
  });
}

/** Differences between the committed notebook's code-cell outputs and a fresh run's. */
export function compareOutputs(committed, cells) {
  const code = committed.cells.filter((c) => c.cell_type === 'code');
  const fresh = cells.filter((c) => c.type === 'code');
  const diffs = [];
  if (code.length !== fresh.length) return [`${code.length} code cells committed, ${fresh.length} run`];
  code.forEach((c, i) => {
    if (!c.outputs?.length && fresh[i].outputs.length) diffs.push(`code cell ${i}: no outputs committed (run node scripts/jupyter.mjs --save)`);
    const a = JSON.stringify(outputSignature(c.outputs ?? []));
    const b = JSON.stringify(outputSignature(fresh[i].outputs));
    if (a !== b) {
      // where they part, with some context (tables are long)
      let k = 0;
      while (a[k] === b[k]) k++;
      const from = Math.max(0, k - 160);
      const part = (s) => `${from ? '…' : ''}${s.slice(from, k + 240)}${s.length > k + 240 ? '…' : ''}`;
      diffs.push(`code cell ${i}: committed ${part(a)}\n   now ${part(b)}`);
    }
  });
  return diffs;
}

// ---------------------------------------------------------------------------------------------
// marimo

/**
 * `marimo run` of each notebooks/marimo/*.py (read-only app mode: every cell runs), the page
 * watched until every check output says "brookgl check: ok" and the widgets are in the DOM.
 */
export async function runMarimo({ page, tmp, python, file, timeout = 180_000 }) {
  const home = path.join(tmp, 'marimo-home');
  fs.mkdirSync(home, { recursive: true });
  const { server, url } = startServer(
    python,
    ['-m', 'marimo', 'run', file, '--headless', '--host', '127.0.0.1', '--port', String(20000 + Math.floor(Math.random() * 2000)), '--no-token'],
    serverEnv(home),
    /http:\/\/(?:127\.0\.0\.1|localhost):(\d+)/,
  );
  try {
    const base = await url;
    const started = Date.now();
    await open(page, base);
    const read = () =>
      page.evaluate(() => {
        // marimo renders widgets and outputs in shadow roots: walk them
        const all = [];
        const walk = (root) => {
          for (const el of root.querySelectorAll('*')) {
            all.push(el);
            if (el.shadowRoot) walk(el.shadowRoot);
          }
        };
        walk(document);
        const widgets = all.filter((el) => el.classList?.contains('brookgl-widget')).map((el) => ({ kind: el.dataset.kind, status: el.brookglModel?.get('status'), dom: el.dataset.status }));
        const text = all.filter((el) => el.shadowRoot).map((el) => el.shadowRoot.textContent).join('\n') + '\n' + document.body.innerText;
        const checks = [...text.matchAll(/brookgl check: (\w+)/g)].map((m) => m[1]);
        return { widgets, checks, errors: /Traceback|BrookError|An internal error occurred/.test(text) ? text.slice(0, 2000) : '' };
      });
    let state;
    try {
      await page.waitForFunction(
        () => {
          const all = [];
          const walk = (root) => {
            for (const el of root.querySelectorAll('*')) {
              all.push(el);
              if (el.shadowRoot) walk(el.shadowRoot);
            }
          };
          walk(document);
          const text = all.filter((el) => el.shadowRoot).map((el) => el.shadowRoot.textContent).join('\n') + '\n' + document.body.innerText;
          const checks = [...text.matchAll(/brookgl check: (\w+)/g)];
          return /Traceback/.test(text) || (checks.length > 0 && checks.every((m) => m[1] === 'ok'));
        },
        { timeout, polling: 500 },
      );
    } finally {
      state = await read();
    }
    if (state.errors) throw new Error(`${file}: ${state.errors}`);
    if (!state.checks.length || state.checks.some((c) => c !== 'ok')) throw new Error(`${file}: checks ${state.checks.join(', ') || 'none'}`);
    const bad = state.widgets.filter((w) => !['done', 'ready'].includes(w.status));
    if (!state.widgets.length || bad.length) throw new Error(`${file}: widgets ${JSON.stringify(state.widgets)}`);
    return [`checks: ${state.checks.join(', ')} · ${state.widgets.length} widgets answered · ${((Date.now() - started) / 1000).toFixed(1)} s`];
  } finally {
    server.kill('SIGTERM');
  }
}

// ---------------------------------------------------------------------------------------------
// node scripts/jupyter.mjs [--save] [--front lab|notebook7|marimo] [names...]

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  const save = argv.includes('--save');
  const fi = argv.indexOf('--front');
  const fronts = fi >= 0 ? [argv[fi + 1]] : save ? ['lab'] : ['lab', 'notebook7', 'marimo'];
  const names = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--front');
  const usage = (message) => {
    console.error(`${message}\n\n${USAGE}`);
    process.exit(2);
  };
  const unknown = argv.filter((a) => a.startsWith('-') && !['--save', '--front'].includes(a));
  if (unknown.length) usage(`unknown option ${unknown.join(', ')}`);
  if (fronts.some((f) => !FRONT_ENDS[f])) usage(`--front takes ${Object.keys(FRONT_ENDS).join(', ')} (got ${fronts[0] ?? 'nothing'})`);
  if (save && fronts.some((f) => f === 'marimo')) usage('--save writes notebooks/jupyter/*.ipynb: use it with --front lab or notebook7');
  const files = {
    jupyter: fs.readdirSync(path.join(ROOT, 'notebooks/jupyter')).filter((f) => f.endsWith('.ipynb')).sort(),
    marimo: fs.readdirSync(path.join(ROOT, 'notebooks/marimo')).filter((f) => f.endsWith('.py')).sort(),
  };
  const listed = (f) => (f === 'marimo' ? files.marimo : files.jupyter);
  const stray = names.filter((n) => !fronts.some((f) => listed(f).includes(n)));
  if (stray.length) usage(`no notebook ${stray.join(', ')} for ${fronts.join(', ')} (notebooks/jupyter: ${files.jupyter.join(', ')}; notebooks/marimo: ${files.marimo.join(', ')})`);
  // the Pythons first: a front end that cannot run is reported before a browser is started
  const plans = fronts.map((frontEnd) => ({ frontEnd, ...findJupyterPython(frontEnd), notebooks: listed(frontEnd).filter((f) => !names.length || names.includes(f)) }));
  let failed = 0;
  let ran = 0;
  for (const { frontEnd, python, reason } of plans) {
    if (python) continue;
    console.log(`${skipsFail() ? '✗ ' : ''}${skipLine(FRONT_ENDS[frontEnd].name, reason)}`);
    if (skipsFail()) failed++;
  }
  const runnable = plans.filter((p) => p.python && p.notebooks.length);
  if (runnable.length) {
    const { launch } = await import('./browser.mjs');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'brookgl-jupyter-'));
    const { page, close } = await launch({});
    if (process.env.BROOKGL_JUPYTER_LOG) page.on('console', (m) => console.log(`  [page ${m.type()}] ${m.text().slice(0, 500)}`)).on('pageerror', (e) => console.log(`  [page error] ${e.message}`));
    try {
      for (const { frontEnd, python, version, notebooks } of runnable) {
        console.log(`${FRONT_ENDS[frontEnd].name} ${version}`);
        if (frontEnd === 'marimo') {
          for (const f of notebooks) {
            ran++;
            try {
              console.log(`  ✓ ${f}: ${(await runMarimo({ page, tmp, python, file: path.join(ROOT, 'notebooks/marimo', f) })).join(' · ')}`);
            } catch (e) {
              failed++;
              console.log(`  ✗ ${f}: ${e.message}`);
            }
          }
          continue;
        }
        await withJupyter({ page, tmp: path.join(tmp, frontEnd), python, frontEnd }, async ({ run }) => {
          for (const name of notebooks) {
            ran++;
            try {
              const { lines, saved, cells } = await run(name, { save });
              if (saved) {
                // the renderer and versions the outputs were made with, for the reader
                saved.metadata.brookgl = { executed: `${FRONT_ENDS[frontEnd].name} ${version}, headless Chromium`, date: new Date().toISOString().slice(0, 10) };
                fs.writeFileSync(path.join(ROOT, 'notebooks/jupyter', name), `${JSON.stringify(saved, null, 1)}\n`);
              } else {
                const diffs = compareOutputs(JSON.parse(fs.readFileSync(path.join(ROOT, 'notebooks/jupyter', name), 'utf8')), cells);
                if (diffs.length) throw new Error(`outputs differ from the committed ones:\n${diffs.join('\n')}`);
              }
              console.log(`  ✓ ${name}: ${lines.join(' · ')}${saved ? ' (saved)' : ''}`);
            } catch (e) {
              failed++;
              console.log(`  ✗ ${name}: ${e.message}`);
            }
          }
        });
      }
    } finally {
      await close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (!ran && !failed) console.log(`!!! NOTHING WAS TESTED: no front end could run (${INSTALL})`);
  console.log(`${ran} notebook runs, ${failed} failed${plans.some((p) => !p.python) ? `, ${plans.filter((p) => !p.python).length} front end(s) ${skipsFail() ? 'failed (CI=true)' : 'skipped'}` : ''}`);
  process.exit(failed ? 1 : 0);
}
