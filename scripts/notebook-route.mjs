// docs/notebooks.md's route from a clean Python to a running notebook, run as a student runs it:
// the sh block after the `<!-- notebook-route -->` marker, its lines as they are, in one bash (so
// `. .venv/bin/activate` holds for the lines after it), in a temporary folder laid out like the
// checkout (python/ with the widget that `npm run build` wrote, notebooks/jupyter/), with a fresh
// venv and packages from PyPI. The block's first line (`npm install && npm run build`) is the one
// not run: the checkout is already built (the copy needs python/brookgl/static/widget.js); any
// other line that is not run is an error, so the doc cannot drift from what is tested.
// The last line must start JupyterLab; it runs with a server config (a free port, a token, no
// browser, root allowed) given through JUPYTER_CONFIG_DIR, not through extra arguments, and passes
// when the server answers: /api/status, the notebooks listed by /api/contents, /lab serving the
// app, a python3 kernel spec; and the venv imports brookgl from the wheel (not the checkout).
// Then the server is stopped. Bounded: the installs 8 minutes, the server's start 2 minutes.
//
//   node scripts/notebook-route.mjs [--keep]    (also called by scripts/test-package.mjs)
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DOC = 'docs/notebooks.md';
const MARKER = '<!-- notebook-route:';
/** The one line of the block that is not run, and why (the checkout is built before this check). */
const NOT_RUN = 'npm install && npm run build';
const INSTALL_MS = 8 * 60_000;
const SERVE_MS = 2 * 60_000;

/** The shell lines of the doc's route: the first ```sh block after the marker, comments dropped. */
export function routeLines(markdown) {
  const at = markdown.indexOf(MARKER);
  if (at < 0) throw new Error(`${DOC} has no ${MARKER} …--> marker before the route's sh block`);
  const block = /```sh\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!block) throw new Error(`${DOC}: no \`\`\`sh block after the notebook-route marker`);
  return block[1]
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

/** True when PyPI answers (the route installs from it). */
export async function pypiReachable() {
  try {
    const r = await fetch('https://pypi.org/simple/pip/', { method: 'HEAD', signal: AbortSignal.timeout(15_000) });
    return r.ok;
  } catch {
    return false;
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Copies the parts of the checkout the route's lines use (no build leftovers, no venvs). */
function layOut(work) {
  const widget = path.join(ROOT, 'python/brookgl/static/widget.js');
  if (!fs.existsSync(widget)) throw new Error(`${widget} is missing: run npm run build first (the route's first line)`);
  const skip = (src) => /(^|\/)(dist|build|__pycache__|[^/]*\.egg-info|\.pytest_cache)$/.test(src);
  fs.cpSync(path.join(ROOT, 'python'), path.join(work, 'python'), { recursive: true, filter: (src) => !skip(src) });
  fs.cpSync(path.join(ROOT, 'notebooks/jupyter'), path.join(work, 'notebooks/jupyter'), { recursive: true });
}

/**
 * Runs the route; resolves with lines to print, rejects with what failed (the route's log tail).
 * `tmp`: a folder it may fill (removed by the caller).
 */
export async function checkNotebookRoute({ tmp, log = () => {} }) {
  const lines = routeLines(fs.readFileSync(path.join(ROOT, DOC), 'utf8'));
  if (lines[0] !== NOT_RUN) throw new Error(`${DOC}'s route should begin with \`${NOT_RUN}\` (the only line this check does not run); it begins with \`${lines[0]}\``);
  const run = lines.slice(1);
  const serve = run.at(-1);
  if (!/^jupyter lab\b/.test(serve)) throw new Error(`${DOC}'s route should end by starting JupyterLab (\`jupyter lab …\`); it ends with \`${serve}\``);
  if (run.some((l) => l.startsWith('npm '))) throw new Error(`${DOC}'s route has another npm line: ${run.filter((l) => l.startsWith('npm ')).join('; ')}`);

  const work = path.join(tmp, 'checkout');
  layOut(work);
  const port = await freePort();
  const token = `route${Math.random().toString(36).slice(2)}`;
  const home = path.join(tmp, 'jupyter');
  fs.mkdirSync(path.join(home, 'config'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'config/jupyter_server_config.json'),
    JSON.stringify({ ServerApp: { ip: '127.0.0.1', port, port_retries: 0, open_browser: false, allow_root: true, token } }),
  );
  const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? home, LANG: process.env.LANG ?? 'C.UTF-8', TMPDIR: os.tmpdir() };
  Object.assign(env, {
    JUPYTER_CONFIG_DIR: path.join(home, 'config'),
    JUPYTER_DATA_DIR: path.join(home, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(home, 'runtime'),
    IPYTHONDIR: path.join(home, 'ipython'),
    PIP_NO_INPUT: '1',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_PROGRESS_BAR: 'off',
  });
  // A pyenv shim chooses its Python from PYENV_VERSION or a .python-version file: keep the first.
  if (process.env.PYENV_VERSION) env.PYENV_VERSION = process.env.PYENV_VERSION;
  if (process.env.PYENV_ROOT) env.PYENV_ROOT = process.env.PYENV_ROOT;
  // Each line echoed with a mark before it runs, so the log says which step was reached.
  const script = ['set -e', ...run.slice(0, -1).flatMap((l) => [`echo ${JSON.stringify(`@@ ${l}`)}`, l]), `echo ${JSON.stringify(`@@ ${serve}`)}`, `exec ${serve}`].join('\n');
  fs.writeFileSync(path.join(tmp, 'route.sh'), script);
  const logFile = path.join(tmp, 'route.log');
  const out = fs.openSync(logFile, 'w');
  const began = Date.now();
  const child = spawn('bash', ['--noprofile', '--norc', path.join(tmp, 'route.sh')], { cwd: work, env, detached: true, stdio: ['ignore', out, out] });
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
  const reached = () => (fs.readFileSync(logFile, 'utf8').match(/^@@ .*$/gm) ?? []).at(-1)?.slice(3) ?? '(none)';
  const stop = async () => {
    if (exited) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  };
  const ask = async (p) => {
    const r = await fetch(`http://127.0.0.1:${port}${p}${p.includes('?') ? '&' : '?'}token=${token}`, { signal: AbortSignal.timeout(10_000) });
    if (!r.ok) throw new Error(`GET ${p}: HTTP ${r.status}`);
    return r;
  };
  const steps = [];
  try {
    // The installs, then the server: poll until it answers, the script dies, or time runs out.
    let serving = null;
    let serveStart = null;
    while (!serving) {
      if (exited) throw new Error(`the route stopped at \`${reached()}\` (exit ${exited.code ?? exited.signal}):\n${tail()}`);
      const now = Date.now();
      if (reached() === serve) serveStart ??= now;
      if (!serveStart && now - began > INSTALL_MS) throw new Error(`the route's installs took over ${INSTALL_MS / 60_000} min (at \`${reached()}\`):\n${tail()}`);
      if (serveStart && now - serveStart > SERVE_MS) throw new Error(`\`${serve}\` did not answer on port ${port} within ${SERVE_MS / 1000} s:\n${tail()}`);
      if (serveStart) serving = await ask('/api/status').then((r) => r.json(), () => null);
      if (!serving) await new Promise((r) => setTimeout(r, 1000));
    }
    const installed = ((serveStart - began) / 1000).toFixed(0);
    steps.push(`${run.length} lines of ${DOC} ran in a fresh venv (installs ${installed} s); \`${serve}\` answered in ${((Date.now() - serveStart) / 1000).toFixed(1)} s`);
    const listed = (await (await ask('/api/contents')).json()).content.map((c) => c.name);
    if (!listed.includes('quickstart.ipynb')) throw new Error(`the server does not list notebooks/jupyter (quickstart.ipynb); it lists: ${listed.join(', ')}`);
    const lab = await (await ask('/lab')).text();
    if (!/JupyterLab/.test(lab)) throw new Error('/lab did not serve the JupyterLab app');
    const specs = (await (await ask('/api/kernelspecs')).json()).kernelspecs;
    if (!specs.python3) throw new Error(`no python3 kernel spec: ${Object.keys(specs).join(', ')}`);
    const py = path.join(work, '.venv/bin/python');
    const where = execFileSync(py, ['-c', 'import brookgl, anywidget, ipykernel, jupyterlab; print(brookgl.__file__, ipykernel.__version__, jupyterlab.__version__)'], {
      cwd: tmp,
      env,
      encoding: 'utf8',
    }).trim();
    const [file, ipykernel, jupyterlab] = where.split(' ');
    if (!file.includes(`${path.sep}site-packages${path.sep}`)) throw new Error(`the venv's brookgl is not the installed wheel: ${file}`);
    // docs/notebooks.md's "Why await": result_async needs ipykernel 7's comm dispatch.
    if (Number(ipykernel.split('.')[0]) < 7) throw new Error(`the route installed ipykernel ${ipykernel}; awaiting a widget's answer needs ipykernel 7`);
    steps.push(`JupyterLab ${jupyterlab} (ipykernel ${ipykernel}) served /lab and listed notebooks/jupyter (${listed.length} files), has the python3 kernel; the venv imports brookgl from the wheel`);
    log(steps);
    return steps;
  } finally {
    await stop();
    fs.closeSync(out);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'brookgl-route-'));
  try {
    if (!(await pypiReachable())) throw new Error('PyPI does not answer: the route installs from it');
    const lines = await checkNotebookRoute({ tmp });
    console.log(lines.join('\n'));
  } catch (e) {
    console.error(String(e?.stack ?? e));
    process.exitCode = 1;
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}
