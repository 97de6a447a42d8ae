// The Jupyter check of scripts/test-package.mjs: installs python/ (pip, offline, no
// dependencies fetched) into a temporary folder, starts a real Jupyter Notebook server (the
// classic Notebook 6 that Debian packages; JupyterLab and anywidget are not installable where
// this was written, since PyPI was out of reach), opens each notebook of notebooks/jupyter in
// the test's Chromium, runs its cells one by one through the page's own Jupyter API, and reads
// its check cell's output: numpy results that came back from the browser through a comm,
// compared with numpy on the CPU. Skipped, with the reason, when no Python with `notebook`,
// `ipykernel` and `numpy` is found.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';

const PYTHONS = [process.env.BROOKGL_PYTHON, '/usr/bin/python3', 'python3'].filter(Boolean);

/** The first Python that can run a notebook server and a kernel, or null with the reason. */
export function findJupyterPython() {
  const reasons = [];
  for (const py of PYTHONS) {
    try {
      execFileSync(py, ['-c', 'import notebook, ipykernel, numpy, setuptools'], { stdio: 'pipe' });
      return { python: py };
    } catch (e) {
      reasons.push(`${py}: ${String(e.stderr ?? e.message).trim().split('\n').at(-1)}`);
    }
  }
  return { python: null, reason: `no Python with notebook, ipykernel, numpy and setuptools (${reasons.join('; ')}); on Debian: apt-get install jupyter-notebook python3-ipykernel python3-numpy python3-setuptools` };
}

/**
 * Starts a notebook server over a copy of notebooks/jupyter (and bench-results, which the worked
 * notebooks read), then for each notebook calls `check(name, run)` where `run()` executes it in
 * `page` and resolves with the lines its check cell printed (throwing with what went wrong).
 */
export async function withJupyter({ page, root, tmp, python }, visit) {
  const site = path.join(tmp, 'site');
  const home = path.join(tmp, 'jupyter-home');
  // pip install from the repository, offline (numpy comes from the system)
  execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--no-deps', '--no-index', '--no-build-isolation', '--target', site, path.join(root, 'python')], {
    stdio: 'pipe',
    env: { ...process.env, PIP_NO_INPUT: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' },
  });
  if (!fs.existsSync(path.join(site, 'brookgl/static/widget.iife.js'))) throw new Error('the installed package has no static/widget.iife.js (was python/ built? npm run build)');
  fs.mkdirSync(path.join(home, 'notebooks/jupyter'), { recursive: true });
  fs.mkdirSync(path.join(home, 'bench-results'), { recursive: true });
  for (const f of fs.readdirSync(path.join(root, 'notebooks/jupyter')).filter((f) => f.endsWith('.ipynb'))) fs.copyFileSync(path.join(root, 'notebooks/jupyter', f), path.join(home, 'notebooks/jupyter', f));
  for (const f of fs.readdirSync(path.join(root, 'bench-results')).filter((f) => f.endsWith('.json'))) fs.copyFileSync(path.join(root, 'bench-results', f), path.join(home, 'bench-results', f));
  const env = {
    ...process.env,
    PYTHONPATH: site,
    JUPYTER_CONFIG_DIR: path.join(home, '.config'),
    JUPYTER_DATA_DIR: path.join(home, '.data'),
    JUPYTER_RUNTIME_DIR: path.join(home, '.runtime'),
    IPYTHONDIR: path.join(home, '.ipython'),
    HOME: home,
  };
  const port = 18000 + Math.floor(Math.random() * 2000);
  const server = spawn(python, ['-m', 'notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=50',
    '--NotebookApp.token=', '--NotebookApp.password=', `--notebook-dir=${home}`, '--NotebookApp.disable_check_xsrf=True',
    ...(process.getuid?.() === 0 ? ['--allow-root'] : [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the notebook server did not start in 60 s:\n${log}`)), 60_000);
      const onData = (d) => {
        log += d;
        const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(log);
        if (m) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${m[1]}`);
        }
      };
      server.stdout.on('data', onData);
      server.stderr.on('data', onData);
      server.on('exit', (code) => reject(new Error(`the notebook server exited (${code}):\n${log}`)));
    });
    const version = execFileSync(python, ['-c', 'import notebook; print(notebook.__version__)'], { encoding: 'utf8' }).trim();
    const accept = (dialog) => dialog.accept().catch(() => {});
    page.on('dialog', accept);
    try {
      await visit({ version, run: (name) => runNotebook(page, url, `notebooks/jupyter/${name}`) });
    } finally {
      page.off('dialog', accept);
    }
  } finally {
    server.kill('SIGTERM');
  }
}

async function runNotebook(page, url, notebook) {
  await page.goto(`${url}/notebooks/${notebook}`, { waitUntil: 'domcontentloaded', timeout: 90_000 });
  await page.waitForFunction(() => window.Jupyter?.notebook?.kernel?.is_connected?.() && window.Jupyter.notebook._fully_loaded, { timeout: 90_000 });
  await page.evaluate(() => Jupyter.notebook.set_autosave_interval(0));
  const count = await page.evaluate(() => Jupyter.notebook.get_cells().length);
  const printed = [];
  for (let i = 0; i < count; i++) {
    const type = await page.evaluate((i) => Jupyter.notebook.get_cell(i).cell_type, i);
    if (type !== 'code') continue;
    const isCheck = await page.evaluate((i) => Jupyter.notebook.get_cell(i).get_text().includes('brookgl check'), i);
    // a check cell reads results that arrive asynchronously: run it until they are there
    for (let attempt = 0; ; attempt++) {
      await page.evaluate((i) => {
        window.__cellDone = false;
        const cell = Jupyter.notebook.get_cell(i);
        cell.clear_output();
        cell.execute();
        Jupyter.notebook.kernel.events.one('kernel_idle.Kernel', () => (window.__cellDone = true));
      }, i);
      await page.waitForFunction((i) => window.__cellDone && Jupyter.notebook.get_cell(i).input_prompt_number !== '*', { timeout: 120_000 }, i);
      const out = await page.evaluate((i) => {
        const cell = Jupyter.notebook.get_cell(i);
        return { text: cell.output_area.element[0].innerText, error: cell.output_area.outputs.some((o) => o.output_type === 'error') };
      }, i);
      if (out.error && !(isCheck && /LookupError/.test(out.text) && attempt < 120)) throw new Error(`${notebook}: cell ${i} failed:\n${out.text}`);
      if (!isCheck) {
        // wait for the cell's brookgl outputs, if any, to finish in the page
        await page.waitForFunction((i) => [...Jupyter.notebook.get_cell(i).output_area.element[0].querySelectorAll('[data-brookgl-run]')].every((r) => r.dataset.status), { timeout: 120_000 }, i);
        break;
      }
      if (!out.error) {
        printed.push(out.text.trim());
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const statuses = await page.evaluate(() => [...document.querySelectorAll('[data-brookgl-run]')].map((e) => e.dataset.status));
  if (statuses.some((s) => s !== 'done' && s !== 'ready')) throw new Error(`${notebook}: brookgl outputs ended as ${statuses.join(', ')}: ${await page.evaluate(() => [...document.querySelectorAll('[data-brookgl-run]')].map((e) => e.outerHTML.slice(0, 300)).join('\n'))}`);
  const text = printed.join('\n');
  if (!/brookgl check: ok/.test(text)) throw new Error(`${notebook}: the check cell printed:\n${text}`);
  // leave no kernel behind, and no "leave this page?" prompt to block the next navigation
  await page.evaluate(() => {
    Jupyter.notebook.set_dirty(false);
    window.onbeforeunload = null;
    Jupyter.notebook.session.delete();
  });
  return text.split('\n');
}
