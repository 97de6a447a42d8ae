// The Jupyter check of scripts/test-package.mjs: installs python/ (pip, offline, no
// dependencies fetched) into a temporary folder, starts a real Jupyter server, opens each notebook
// of notebooks/jupyter in the test's Chromium, runs its cells one by one through the page's own
// application object, and reads its check cell's output: numpy results that came back from the
// browser through a comm, compared with numpy on the CPU. Three front ends, each where a Python
// can run it: the classic Notebook 6 (Debian's package), JupyterLab 4 and Notebook 7 (from a
// virtual environment; .ci/run makes one from the machine's local wheels). anywidget itself is
// not tested here: no wheel of it could be installed offline. A front end is skipped, with the
// reason, when no Python has what it needs.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const PYTHONS = [process.env.BROOKGL_PYTHON, path.join(ROOT, '.jupyter-venv/bin/python'), '/usr/bin/python3', 'python3'].filter(Boolean);

/** What each front end needs importable, and how its version must read. */
const FRONT_ENDS = {
  classic: { check: 'import notebook, ipykernel, numpy, setuptools; assert notebook.__version__.split(".")[0] == "6"', needs: 'the classic Notebook 6, ipykernel, numpy, setuptools', install: 'apt-get install jupyter-notebook python3-ipykernel python3-numpy python3-setuptools' },
  lab: { check: 'import jupyterlab, ipykernel, numpy, setuptools, wheel', needs: 'jupyterlab 4, ipykernel, numpy, setuptools, wheel', install: 'python3 -m venv .jupyter-venv && .jupyter-venv/bin/pip install jupyterlab notebook ipykernel numpy setuptools wheel' },
  notebook7: { check: 'import notebook, ipykernel, numpy, setuptools, wheel; assert int(notebook.__version__.split(".")[0]) >= 7', needs: 'Notebook 7, ipykernel, numpy, setuptools, wheel', install: 'python3 -m venv .jupyter-venv && .jupyter-venv/bin/pip install jupyterlab notebook ipykernel numpy setuptools wheel' },
};

/** The first Python that can run `frontEnd`'s server and a kernel, or null with the reason. */
export function findJupyterPython(frontEnd = 'classic') {
  const { check, needs, install } = FRONT_ENDS[frontEnd];
  const reasons = [];
  for (const py of PYTHONS) {
    try {
      execFileSync(py, ['-c', check], { stdio: 'pipe' });
      return { python: py };
    } catch (e) {
      reasons.push(`${py}: ${String(e.stderr ?? e.message).trim().split('\n').at(-1) || 'version'}`);
    }
  }
  return { python: null, reason: `no Python with ${needs} (${reasons.join('; ')}); e.g. ${install}` };
}

/**
 * Starts a notebook server over a copy of notebooks/jupyter (and bench-results, which the worked
 * notebooks read), then for each notebook calls `check(name, run)` where `run()` executes it in
 * `page` and resolves with the lines its check cell printed (throwing with what went wrong).
 */
export async function withJupyter({ page, root, tmp, python, frontEnd = 'classic' }, visit) {
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
  const notebookDir = `--notebook-dir=${home}`;
  const common = ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=50', ...(process.getuid?.() === 0 ? ['--allow-root'] : [])];
  // JupyterLab and Notebook 7 expose their application object (window.jupyterapp) to the page
  // only when asked; the test drives the notebook through it, as Galata does.
  const modern = ['--IdentityProvider.token=', '--ServerApp.password=', '--ServerApp.disable_check_xsrf=True', `--ServerApp.root_dir=${home}`];
  const args = {
    classic: ['-m', 'notebook', ...common, '--NotebookApp.token=', '--NotebookApp.password=', notebookDir, '--NotebookApp.disable_check_xsrf=True'],
    lab: ['-m', 'jupyterlab', ...common, ...modern, '--LabApp.expose_app_in_browser=True'],
    notebook7: ['-m', 'notebook', ...common, ...modern, '--JupyterNotebookApp.expose_app_in_browser=True'],
  }[frontEnd];
  const server = spawn(python, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    const module = frontEnd === 'lab' ? 'jupyterlab' : 'notebook';
    const version = execFileSync(python, ['-c', `import ${module}; print(${module}.__version__)`], { encoding: 'utf8' }).trim();
    const accept = (dialog) => dialog.accept().catch(() => {});
    page.on('dialog', accept);
    try {
      const runner = frontEnd === 'classic' ? runClassic : (name) => runModern(page, url, frontEnd, name);
      await visit({ version, run: (name) => (frontEnd === 'classic' ? runner(page, url, `notebooks/jupyter/${name}`) : runner(`notebooks/jupyter/${name}`)) });
    } finally {
      page.off('dialog', accept);
    }
  } finally {
    server.kill('SIGTERM');
  }
}

/** The classic Notebook 6, driven through its global `Jupyter.notebook`. */
async function runClassic(page, url, notebook) {
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
      // results and an embed's numbers arrive when the page sends them: a check that still
      // fails is run again for a while, as a person would once the outputs have appeared
      if (!out.error && !(/brookgl check: FAILED/.test(out.text) && attempt < 60)) {
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

/**
 * JupyterLab 4 or Notebook 7, driven through the exposed application: the notebook panel's cells
 * run one by one with the app's own run-cell command, outputs read from the cells' models.
 */
async function runModern(page, url, frontEnd, notebook) {
  // ?reset: JupyterLab starts from an empty workspace instead of reopening the last notebook
  await page.goto(`${url}/${frontEnd === 'lab' ? 'lab/tree' : 'notebooks'}/${notebook}${frontEnd === 'lab' ? '?reset' : ''}`, { waitUntil: 'domcontentloaded', timeout: 90_000 });
  // the panel of this notebook (window.__panel), found by its path among the open documents
  await page.waitForFunction((notebook) => {
    const panel = window.jupyterapp && [...jupyterapp.shell.widgets('main')].find((w) => w.context?.path === notebook);
    window.__panel = panel;
    const kernel = panel?.sessionContext?.session?.kernel;
    return panel?.content?.widgets?.length > 0 && kernel?.connectionStatus === 'connected' && kernel.status === 'idle';
  }, { timeout: 120_000, polling: 250 }, notebook);
  const count = await page.evaluate(() => __panel.content.widgets.length);
  const printed = [];
  for (let i = 0; i < count; i++) {
    const { type, isCheck } = await page.evaluate((i) => {
      const cell = __panel.content.widgets[i];
      return { type: cell.model.type, isCheck: cell.model.sharedModel.getSource().includes('brookgl check') };
    }, i);
    if (type !== 'code') continue;
    // a check cell reads results that arrive asynchronously: run it until they are there
    for (let attempt = 0; ; attempt++) {
      await page.evaluate((i) => {
        const panel = __panel;
        panel.content.widgets[i].model.outputs.clear();
        panel.content.activeCellIndex = i;
        panel.content.deselectAll();
        // the command resolves when the kernel has answered the cell
        window.__cellDone = false;
        jupyterapp.commands.execute('notebook:run-cell').finally(() => (window.__cellDone = true));
      }, i);
      await page.waitForFunction(() => window.__cellDone, { timeout: 300_000, polling: 250 });
      const out = await page.evaluate((i) => {
        const cell = __panel.content.widgets[i];
        const outputs = cell.model.outputs.toJSON();
        return { text: cell.outputArea.node.innerText, error: outputs.some((o) => o.output_type === 'error'), evalue: outputs.filter((o) => o.output_type === 'error').map((o) => `${o.ename}: ${o.evalue}`).join('\n') };
      }, i);
      if (out.error && !(isCheck && /LookupError/.test(out.evalue) && attempt < 120)) throw new Error(`${notebook}: cell ${i} failed:\n${out.evalue}\n${out.text}`);
      if (!isCheck) {
        await page.waitForFunction((i) => [...__panel.content.widgets[i].node.querySelectorAll('[data-brookgl-run]')].every((r) => r.dataset.status), { timeout: 120_000 }, i);
        break;
      }
      // results and an embed's numbers arrive when the page sends them: a check that still
      // fails is run again for a while, as a person would once the outputs have appeared
      if (!out.error && !(/brookgl check: FAILED/.test(out.text) && attempt < 60)) {
        printed.push(out.text.trim());
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const runs = await page.evaluate(() => [...document.querySelectorAll('[data-brookgl-run]')].map((e) => ({ status: e.dataset.status, sent: e.dataset.sent ?? '', html: e.outerHTML.slice(0, 300) })));
  if (runs.some((r) => r.status !== 'done' && r.status !== 'ready')) throw new Error(`${notebook}: brookgl outputs ended as ${runs.map((r) => r.status).join(', ')}: ${runs.map((r) => r.html).join('\n')}`);
  const text = printed.join('\n');
  if (!/brookgl check: ok/.test(text)) throw new Error(`${notebook}: the check cell printed:\n${text}`);
  const channels = runs.filter((r) => r.sent === 'channel').length;
  await page.evaluate(async () => {
    const panel = __panel;
    panel.context.model.dirty = false;
    await panel.sessionContext.shutdown();
    panel.dispose();
    window.onbeforeunload = null;
  });
  return [...text.split('\n'), `(${channels} of ${runs.length} outputs answered over the kernel channel)`];
}
