// Checks brookgl the way a user meets it, offline, after the specs (npm test calls it):
//  - package: `npm pack` (the tarball npm would publish) holds the bundles, the minified IIFE, the
//    declarations and LICENSE, and no tests; unpacked into a fresh folder's node_modules (its
//    dependencies linked from this checkout, so no network is needed), Node resolves every
//    export, importing touches no DOM, and createContext() throws a BrookError; `npx brookgl`
//    runs from the package's bin (linked as npm links it) over .br files (scripts/test-cli.mjs
//    with the packed bin, and a module it writes imported beside 'brookgl'); a TypeScript
//    consumer type-checks under module node16, nodenext and bundler; a page runs a kernel
//    through the ESM and through the IIFE, from node_modules and from CDN addresses (answered
//    from the tarball, as jsDelivr and unpkg map them), and checks the records against the CPU.
//  - notebook pages (see NOTEBOOK_PAGES): opened in Chromium, their cells' results checked
//    against CPU computations by the page itself (window.__notebookResults).
//  - python/: pytest (python/tests: arguments, dtypes, shapes, bad input; the wheel built and
//    installed into a fresh venv with no Node on PATH).
//  - notebooks (scripts/jupyter.mjs): real JupyterLab 4, Notebook 7 and marimo servers from
//    .jupyter-venv, each notebook run with Run All in Chromium, its widgets and check cells read.
//  - docs/notebooks.md's route (scripts/notebook-route.mjs): its lines, copied as a student would,
//    in a fresh venv from PyPI, up to a JupyterLab that serves the notebooks (about 2 minutes).
// Ends with "N passed, N failed". Options: --keep (leave the temporary folder), --gpu, --node-only
// (the package's Node checks only: no browser, Python or notebooks).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { serve, root } from './serve.mjs';
import { launch } from './browser.mjs';
import { findJupyterPython, withJupyter, compareOutputs, runMarimo, frontEndName, skipsFail, skipLine } from './jupyter.mjs';
import { checkOutputComparison } from './jupyter-compare-check.mjs';
import { checkNotebookRoute, pypiReachable } from './notebook-route.mjs';

const keep = process.argv.includes('--keep');
const nodeOnly = process.argv.includes('--node-only');
/** The notebooks Notebook 7 runs too (JupyterLab runs them all; the same widgets, another shell). */
const NOTEBOOK7 = ['quickstart.ipynb', 'horn-36.ipynb'];
const started = Date.now();
const results = [];
const record = (name, error) => {
  results.push({ name, error });
  console.log(error ? `  ✗ ${name}\n${String(error).replace(/^/gm, '      ')}` : `  ✓ ${name}`);
};
/** A check that cannot run here: a failure under CI (CI=true), a loud skip elsewhere. */
const skip = (what, reason) => (skipsFail() ? record(what, skipLine(what, reason)) : console.log(`  ${skipLine(what, reason)}`));
const step = async (name, fn) => {
  try {
    await fn();
    record(name);
  } catch (e) {
    record(name, e?.stderr?.toString() || e?.stdout?.toString() || e?.stack || e);
  }
};

/**
 * Notebook pages checked in the browser: every Notebook Kit file in notebooks/observable/, opened
 * through that folder's runner page (index.html?notebook=FILE).
 */
const OBSERVABLE = path.join(root, 'notebooks/observable');
const NOTEBOOK_PAGES = fs.existsSync(OBSERVABLE)
  ? fs
      .readdirSync(OBSERVABLE)
      .filter((f) => f.endsWith('.html') && f !== 'index.html')
      .sort()
      .map((f) => `notebooks/observable/index.html?notebook=${f}`)
  : [];

/** CDN addresses a page may use, mapped onto the unpacked tarball the way the CDNs map them. */
const CDN = [
  // https://cdn.jsdelivr.net/npm/brookgl[@version][/path]; no path: the "jsdelivr" field
  { pattern: /^https:\/\/cdn\.jsdelivr\.net\/npm\/brookgl(?:@[^/]+)?(\/.*)?$/, field: 'jsdelivr' },
  // https://unpkg.com/brookgl[@version][/path]; no path: the "unpkg" field
  { pattern: /^https:\/\/unpkg\.com\/brookgl(?:@[^/]+)?(\/.*)?$/, field: 'unpkg' },
];

async function main() {
  if (!fs.existsSync(path.join(root, 'dist/brookgl.iife.min.js'))) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'brookgl-package-'));
  const consumer = path.join(tmp, 'consumer');
  const installed = path.join(consumer, 'node_modules/brookgl');
  const run = (cmd, args, cwd = consumer) => execFileSync(cmd, args, { cwd, stdio: 'pipe', encoding: 'utf8' });
  let files = [];

  console.log('package (npm pack, unpacked into a fresh folder)');
  await step('npm pack ships the bundles, declarations and LICENSE, and no tests', () => {
    // dist/ was just built (npm test builds first); --ignore-scripts skips prepack's second build.
    const out = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], root));
    files = out[0].files.map((f) => f.path);
    const must = ['package.json', 'LICENSE', 'README.md', 'dist/brookgl.js', 'dist/brookgl.iife.js', 'dist/brookgl.iife.min.js', 'dist/types/index.d.ts', 'dist/cli/brookgl.mjs'];
    const missing = must.filter((f) => !files.includes(f));
    const extra = files.filter((f) => /^(dist\/test|dist\/node|test|scripts|bench-results)\//.test(f));
    if (missing.length || extra.length) throw new Error(`missing: ${missing.join(', ') || '-'}; should not ship: ${extra.join(', ') || '-'}`);
    fs.mkdirSync(installed, { recursive: true });
    run('tar', ['-xzf', path.join(tmp, out[0].filename), '-C', installed, '--strip-components=1']);
    // The dependencies (and TypeScript for the consumer) from this checkout: nothing is fetched.
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    for (const dep of [...Object.keys(manifest.dependencies ?? {}), 'typescript']) {
      fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules', dep)), path.join(consumer, 'node_modules', dep), 'dir');
    }
    writeConsumer(consumer);
  });

  await step('Node resolves ".", "./iife", "./package.json"; import has no DOM side effects; createContext() says it needs a browser', () => {
    const out = run(process.execPath, ['--input-type=module', '-e', NODE_CHECK]);
    if (!out.includes('node check ok')) throw new Error(out);
  });

  await step('npx brookgl from the packed package: the bin npm links runs, compiles a .br file, and its module runs on brookgl\'s CPU backend in Node', () => {
    // npm install links each "bin" into node_modules/.bin; the tarball was unpacked by hand, so link it the same way
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    const binDir = path.join(consumer, 'node_modules/.bin');
    fs.mkdirSync(binDir, { recursive: true });
    for (const [name, target] of Object.entries(manifest.bin ?? {})) fs.symlinkSync(path.join('..', 'brookgl', target), path.join(binDir, name));
    const version = run('npx', ['--no', '--', 'brookgl', '--version']).trim();
    if (version !== `brookgl ${manifest.version}`) throw new Error(`npx brookgl --version: ${version}`);
    fs.copyFileSync(path.join(root, 'test/brook/br/reduce.br'), path.join(consumer, 'reduce.br'));
    const r = spawnSync('npx', ['--no', '--', 'brookgl', '-q', 'reduce.br'], { cwd: consumer, encoding: 'utf8' });
    if (r.status !== 0 || !/reduce\.br:29:1: note: host code skipped: function main/.test(r.stderr)) throw new Error(`npx brookgl reduce.br: exit ${r.status}\n${r.stderr}`);
    const out = run(process.execPath, ['--input-type=module', '-e', `
      import { createContext, reduceValue } from 'brookgl';
      import kernels from './reduce.js';
      const names = Object.keys(kernels).join(',');
      if (names !== 'foo,matrix_mult') throw new Error('module exports ' + names);
      if (kernels.foo.brook.reduce.result !== 'e' || !kernels.matrix_mult.body.replace(/ /g, '').includes('a.x*b.x')) throw new Error('not the kernels of reduce.br');
      // the module's reduce kernel on a CPU context (no GPU in Node): 2x2 matrices of small integers folded in order, every product exact
      const ctx = createContext({ backend: 'cpu' });
      const m = Float32Array.from({ length: 4 * 9 }, (_, i) => [1, 0, -1, 2, 1, 1][(i * 7 + (i >> 2)) % 6]);
      let acc = Array.from(m.subarray(0, 4));
      for (let k = 1; k < 9; k++) {
        const [p, q, r, s] = m.subarray(4 * k, 4 * k + 4);
        acc = [acc[0] * p + acc[1] * r, acc[0] * q + acc[1] * s, acc[2] * p + acc[3] * r, acc[2] * q + acc[3] * s];
      }
      const got = await reduceValue(ctx, kernels.matrix_mult, { b: ctx.stream('float4', 9, m) });
      if (JSON.stringify(got) !== JSON.stringify(acc)) throw new Error('matrix_mult on the CPU: ' + got + ', want ' + acc);
      ctx.dispose();
      console.log('module ok');`]);
    if (!out.includes('module ok')) throw new Error(out);
  });

  await step('scripts/test-cli.mjs with the packed bin (every check of the command line)', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/test-cli.mjs'), '--bin', path.join(installed, 'dist/cli/brookgl.mjs')], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stdout + r.stderr);
    console.log(r.stdout.trim().split('\n').slice(-1).map((l) => `      ${l}`).join('\n'));
  });

  for (const mode of ['node16', 'nodenext', 'bundler']) {
    await step(`TypeScript consumer type-checks under ${mode}`, () => {
      run(process.execPath, [path.join(consumer, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${mode}.json`]);
    });
  }

  if (nodeOnly) {
    if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
    const failed = results.filter((r) => r.error).length;
    console.log(`\n--node-only: no browser, Python or notebook checks\n${results.length - failed} passed, ${failed} failed`);
    return failed;
  }
  const { server, url } = await serve(tmp, 0);
  const { server: repoServer, url: repoUrl } = await serve(root, 0);
  const { page, close } = await launch({ origin: url });
  try {
    // No network: CDN requests are answered from the unpacked tarball (and fail loudly otherwise).
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      const cdn = CDN.map((c) => ({ c, m: c.pattern.exec(req.url()) })).find((x) => x.m);
      if (!cdn) return req.url().startsWith('http://127.0.0.1') || req.url().startsWith('data:') ? req.continue() : req.abort('internetdisconnected');
      const rel = cdn.m[1] ? cdn.m[1].slice(1) : manifest[cdn.c.field].replace(/^\.\//, '');
      const file = path.join(installed, rel);
      if (!file.startsWith(installed) || !fs.existsSync(file)) return req.respond({ status: 404, body: `not in the package: ${rel}` });
      req.respond({ status: 200, contentType: 'text/javascript', headers: { 'Access-Control-Allow-Origin': '*' }, body: fs.readFileSync(file) });
    });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await step('a page runs a kernel through the ESM and the IIFE, from node_modules and from CDN addresses (jsDelivr, unpkg), checked against the CPU', async () => {
      await page.goto(`${url}/consumer/index.html`);
      await page.waitForFunction(() => window.__packageResult !== undefined, { timeout: 120_000 });
      const result = await page.evaluate(() => window.__packageResult);
      if (errors.length) throw new Error(errors.join('\n'));
      if (!result.ok) throw new Error(JSON.stringify(result));
    });
    if (NOTEBOOK_PAGES.length) console.log('notebook pages (cells checked against the CPU)');
    for (const file of NOTEBOOK_PAGES) {
      errors.length = 0;
      await step(file, async () => {
        await page.goto(`${repoUrl}/${file}`);
        await page.waitForFunction(() => window.__notebookResults?.done === true, { timeout: 180_000 });
        const { cells } = await page.evaluate(() => window.__notebookResults);
        const bad = cells.filter((c) => !c.ok);
        if (!cells.length) throw new Error('the page reported no checked cells');
        if (bad.length || errors.length) throw new Error([...bad.map((c) => `cell ${c.name}: ${c.detail}`), ...errors].join('\n'));
        console.log(cells.map((c) => `      ${c.name}: ${c.detail}`).join('\n'));
      });
    }
    console.log('python package (python/: pytest; the wheel installed into a fresh venv without Node)');
    const py = findJupyterPython('lab');
    if (!py.python) skip('pytest python/tests', py.reason);
    else {
      await step('pytest python/tests (argument conversion, dtype rules, shapes, bad input, the wheel)', () => {
        const out = execFileSync(py.python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', path.join(root, 'python/tests')], {
          cwd: root,
          encoding: 'utf8',
          stdio: 'pipe',
          env: { ...process.env, PYTHONPATH: path.join(root, 'python'), BROOKGL_WHEEL_TMP: tmp },
        });
        console.log(out.trim().split('\n').slice(-1).map((l) => `      ${l}`).join('\n'));
      });
    }
    // The notebooks, Run All in real servers. JupyterLab runs all six (outputs compared with the
    // committed ones); Notebook 7 and marimo the subsets below, to keep npm test short on 2 cores.
    console.log('notebooks (real JupyterLab, Notebook 7 and marimo servers, headless, Run All)');
    await step('committed-output comparison: a changed number in text, a table cell that is not a timing, an image size or a widget fails; timings and the renderer do not', checkOutputComparison);
    await step('scripts/jupyter.mjs: a front end no Python can run fails the run under CI=true, and is a loud skip (exit 0) elsewhere', () => {
      const script = path.join(root, 'scripts/jupyter.mjs');
      const ask = (ci) => {
        const env = { ...process.env, BROOKGL_PYTHON: path.join(tmp, 'no-python-here') };
        delete env.CI;
        if (ci) env.CI = 'true';
        const r = spawnSync(process.execPath, [script, '--front', 'marimo'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
        return { status: r.status, out: `${r.stdout}${r.stderr}` };
      };
      const ci = ask(true);
      if (ci.status !== 1 || !/marimo cannot run, and CI=true makes that a failure/.test(ci.out)) throw new Error(`under CI=true: exit ${ci.status}\n${ci.out}`);
      const local = ask(false);
      if (local.status !== 0 || !/!!! marimo SKIPPED, NOT TESTED/.test(local.out) || !/NOTHING WAS TESTED/.test(local.out)) throw new Error(`without CI: exit ${local.status}\n${local.out}`);
    });
    if (!(await pypiReachable())) skip("docs/notebooks.md's route in a fresh venv", 'PyPI does not answer (https://pypi.org/simple/pip/): the route installs from it');
    else {
      await step("docs/notebooks.md's route, its lines as written, from a fresh venv (PyPI) to a JupyterLab that serves the notebooks", async () => {
        const lines = await checkNotebookRoute({ tmp: fs.mkdtempSync(path.join(tmp, 'route-')) });
        console.log(lines.map((l) => `      ${l}`).join('\n'));
      });
    }
    const notebooks = fs.readdirSync(path.join(root, 'notebooks/jupyter')).filter((f) => f.endsWith('.ipynb')).sort();
    const SUBSETS = { lab: notebooks, notebook7: notebooks.filter((n) => NOTEBOOK7.includes(n)) };
    for (const frontEnd of ['lab', 'notebook7']) {
      const { python, version, reason } = findJupyterPython(frontEnd);
      const name = frontEndName(frontEnd);
      if (!python) {
        skip(`${name} notebooks`, reason);
        continue;
      }
      const began = Date.now();
      await step(`${name} ${version} server started (${python})`, () =>
        withJupyter({ page, tmp: path.join(tmp, frontEnd), python, frontEnd }, async ({ run }) => {
          for (const nb of SUBSETS[frontEnd]) {
            errors.length = 0;
            await step(`${name}: notebooks/jupyter/${nb}: Run All, widgets answered, checks ok${frontEnd === 'lab' ? ', outputs as committed' : ''}`, async () => {
              const { lines, cells } = await run(nb);
              if (frontEnd === 'lab') {
                const diffs = compareOutputs(JSON.parse(fs.readFileSync(path.join(root, 'notebooks/jupyter', nb), 'utf8')), cells);
                if (diffs.length) throw new Error(`outputs differ from the committed ones (node scripts/jupyter.mjs --save ${nb} makes them again):\n${diffs.join('\n')}`);
              }
              console.log(lines.map((l) => `      ${l}`).join('\n'));
            });
          }
        }),
      );
      console.log(`      ${name}: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
    const mo = findJupyterPython('marimo');
    if (!mo.python) skip('marimo notebooks', mo.reason);
    else {
      const dir = path.join(root, 'notebooks/marimo');
      const began = Date.now();
      for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.py')).sort() : []) {
        await step(`marimo ${mo.version}: notebooks/marimo/${f}: every cell ran, widgets answered (mo.ui.anywidget), checks ok`, async () => {
          const lines = await runMarimo({ page, tmp: path.join(tmp, 'marimo'), python: mo.python, file: path.join(dir, f) });
          console.log(lines.map((l) => `      ${l}`).join('\n'));
        });
      }
      console.log(`      marimo: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
  } finally {
    await close();
    server.close();
    repoServer.close();
    if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
    else console.log(`kept ${tmp}`);
  }

  const failed = results.filter((r) => r.error).length;
  console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed;
}

/** The consumer project: package.json, a TypeScript file per resolution mode, and a page. */
function writeConsumer(consumer) {
  const w = (name, text) => fs.writeFileSync(path.join(consumer, name), text);
  w('package.json', JSON.stringify({ name: 'brookgl-consumer', private: true, type: 'module' }, null, 2));
  w('main.ts', CONSUMER_TS);
  for (const [mode, module] of [['node16', 'node16'], ['nodenext', 'nodenext'], ['bundler', 'esnext']]) {
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module,
      moduleResolution: mode,
      lib: ['ES2022', 'DOM'],
      types: [],
      skipLibCheck: false,
    };
    w(`tsconfig.${mode}.json`, JSON.stringify({ compilerOptions, files: ['main.ts'] }, null, 2));
  }
  w('index.html', CONSUMER_PAGE);
}

// What a TypeScript user writes first: the quick start, typed.
const CONSUMER_TS = `import { createContext, brook, BrookError, type Stream, type BrookContext, type KernelSpec } from 'brookgl';
import * as brookgl from 'brookgl';

export async function saxpy(n: number): Promise<number> {
  const ctx: BrookContext = createContext();
  const x: Stream = ctx.stream('float', n, Float32Array.from({ length: n }, (_, i) => i));
  const y = ctx.stream('float', n, new Float32Array(n).fill(1));
  const result = ctx.stream('float', n);
  const kernels: Record<string, KernelSpec> = brook\`
    kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) { result = alpha * x + y; }\`;
  ctx.run(kernels.saxpy, { alpha: 2, x, y, result });
  const values: Float32Array | Int32Array | Uint32Array | Uint8Array = await result.read(); // (Uint8Array: char streams)
  const [total] = await ctx.reduce(result, 'sum');
  const owner: BrookContext = x.ctx; // a stream's ctx is the whole context (context.ts's declare module)
  owner.stats();
  ctx.dispose();
  return values.length + total;
}
export const isBrookError = (e: unknown): e is BrookError => e instanceof brookgl.BrookError;
`;

// Node: every export resolves; import is side-effect free; createContext() explains itself.
const NODE_CHECK = `
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const b = await import('brookgl');
if (typeof document !== 'undefined' || typeof window !== 'undefined') throw new Error('import defined a DOM global');
for (const name of ['createContext', 'brook', 'BrookError', 'filter', 'scan', 'reference']) if (!(name in b)) throw new Error('missing export ' + name);
const pkg = await import('brookgl/package.json', { with: { type: 'json' } });
if (pkg.default.name !== 'brookgl') throw new Error('brookgl/package.json');
for (const spec of ['brookgl/iife', 'brookgl/iife.min', 'brookgl/dist/brookgl.iife.js']) require.resolve(spec);
try { b.createContext(); throw new Error('createContext() did not throw in Node'); }
catch (e) {
  if (!(e instanceof b.BrookError) || !/needs a browser with WebGL2/.test(e.message)) throw new Error('wrong error: ' + e);
}
console.log('node check ok');
`;

const CONSUMER_PAGE = `<!doctype html>
<meta charset="utf-8"><link rel="icon" href="data:,">
<title>brookgl from the packed tarball</title>
<script src="node_modules/brookgl/dist/brookgl.iife.min.js"></script>
<script src="https://cdn.jsdelivr.net/npm/brookgl" onload="window.__cdnIife = window.brookgl"></script>
<script type="module">
  import { createContext, brook } from './node_modules/brookgl/dist/brookgl.js';
  import * as fromCdn from 'https://cdn.jsdelivr.net/npm/brookgl@0.1.0/dist/brookgl.js';
  import * as fromUnpkg from 'https://unpkg.com/brookgl/dist/brookgl.js';
  async function saxpySum(lib, n) {
    const ctx = lib.createContext();
    try {
      const x = ctx.stream('float', n, Float32Array.from({ length: n }, (_, i) => i % 97));
      const y = ctx.stream('float', n, Float32Array.from({ length: n }, (_, i) => (i * 7) % 13));
      const result = ctx.stream('float', n);
      const { saxpy } = lib.brook\`kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) { result = alpha * x + y; }\`;
      ctx.run(saxpy, { alpha: 3, x, y, result });
      const values = await result.read();
      let bad = 0;
      for (let i = 0; i < n; i++) if (values[i] !== 3 * (i % 97) + ((i * 7) % 13)) bad++;
      return { bad, renderer: ctx.caps.renderer };
    } finally { ctx.dispose(); }
  }
  const n = 5000;
  try {
    const esm = await saxpySum({ createContext, brook }, n);
    const iife = await saxpySum(window.brookgl, n);
    const cdnEsm = await saxpySum(fromCdn, 100);
    const unpkgEsm = await saxpySum(fromUnpkg, 100);
    const cdnIife = await saxpySum(window.__cdnIife, 100);
    const all = [esm, iife, cdnEsm, unpkgEsm, cdnIife];
    window.__packageResult = { ok: all.every((r) => r.bad === 0) && typeof window.brookgl.filter === 'function', esm, iife, cdnEsm, unpkgEsm, cdnIife };
  } catch (e) {
    window.__packageResult = { ok: false, error: String(e && e.stack || e) };
  }
</script>`;

process.exit((await main()) ? 1 : 0);
