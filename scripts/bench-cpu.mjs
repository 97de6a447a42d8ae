// The CPU backend's speed (test/cpu/bench-work.ts): saxpy over 2^20 records, a 5-point stencil over
// 1024x1024 (edges clamped) and a sum reduce over 2^20, each as a Brook kernel on the CPU
// backend in Node, as a hand-written JavaScript loop in Node, as the CPU backend in a page, and on
// the WebGL2 context of a headless Chromium (SwiftShader unless --gpu), timed two ways: a run and
// the read of its result (the time until the answer is on the CPU), and back to back, runs issued
// one after another with one read at the end, per run (a GPU call returns before its work is
// done; its cost shows when calls queue up). Medians of 15 runs after a warm-up (back to back:
// of 7 batches of 15), with min and max; the table (and the renderer string) goes to stdout and the
// numbers to bench-results/cpu-backend.json (or --out DIR; --label L: cpu-backend-L.json). In Node
// each also by the process's CPU time (its ratio column), which other work on a shared machine
// moves less than the wall clock.
// Options: --gpu, --no-browser, --out DIR, --label L.
//
// From the source tree it bundles the work with esbuild (dist/bench/). On a machine with no
// node_modules, carry dist/, demos/, scripts/ and package.json after
// `node scripts/build.mjs --tests --driver --no-types` and run the bundled driver:
//   node dist/node/bench-cpu.mjs --gpu --out DIR
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve, root } from './serve.mjs';
import { launch, checkRenderer } from './browser.mjs';

const args = process.argv.slice(2);
const valueOf = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const outDir = path.resolve(root, valueOf('--out') ?? 'bench-results');
const label = valueOf('--label');
const REPS = 15;
const nodeFile = path.join(root, 'dist', 'bench', 'cpu-work.node.mjs');
const pageFile = path.join(root, 'dist', 'bench', 'cpu-work.page.js');

// the bundled driver (dist/node/bench-cpu.mjs) finds the work prebuilt; from scripts/ it builds it
const bundled = path.basename(path.dirname(fileURLToPath(import.meta.url))) === 'node';
if (bundled) {
  for (const f of [nodeFile, pageFile]) {
    if (!fs.existsSync(f)) {
      console.error(`(brookgl) ${path.relative(root, f)} is missing: build it with node scripts/build.mjs --tests --driver --no-types, and carry dist/ with the driver`);
      process.exit(2);
    }
  }
} else {
  const { buildCpuWork } = await import('./bench-cpu-build.mjs');
  await buildCpuWork(root);
}

/** The process's CPU time of `run` (ms, user + system): median, min and max of `reps` after a warm-up; less moved by other processes on a shared machine than the wall clock. */
function cpuTime(run, reps) {
  run();
  const t = [];
  for (let i = 0; i < reps; i++) {
    const t0 = process.cpuUsage();
    run();
    const d = process.cpuUsage(t0);
    t.push((d.user + d.system) / 1000);
  }
  t.sort((a, b) => a - b);
  return { median: t[reps >> 1], min: t[0], max: t[reps - 1], runs: reps };
}

const lib = await import(pathToFileURL(nodeFile).href);
const rows = [];
const cpuCtx = lib.createContext({ backend: 'cpu' });
for (const w of lib.WORK) {
  const s = w.setup(cpuCtx);
  const hand = w.hand();
  const cpu = lib.time(s.run, REPS);
  const handLoop = lib.time(hand.run, REPS);
  const cpuBackendCpuTime = cpuTime(s.run, REPS);
  const handLoopCpuTime = cpuTime(hand.run, REPS);
  s.dispose();
  rows.push({ work: w.name, cpuBackend: cpu, handLoop, ratio: cpu.median / handLoop.median, cpuBackendCpuTime, handLoopCpuTime, ratioCpuTime: cpuBackendCpuTime.median / handLoopCpuTime.median });
}
cpuCtx.dispose();

let renderer = 'not run (--no-browser)';
let browserVersion;
if (!args.includes('--no-browser')) {
  const { server, url } = await serve(root, 0);
  const { browser, page, close, gpu } = await launch({ origin: url });
  try {
    browserVersion = await browser.version();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    // a page of this server (the work is imported from it); a GPU run has settled on it already
    if (!page.url().startsWith(url)) await page.goto(`${url}/package.json`);
    const got = await page.evaluate(async (src, reps) => {
      const lib = await import(src);
      const ctx = lib.createContext();
      const settled = [];
      const queued = [];
      for (const w of lib.WORK) {
        const s = w.setup(ctx);
        // settled: the run and the read of its result (the sum reads its one record itself)
        settled.push(lib.time(() => { s.run(); s.read(); }, reps));
        // back to back: `reps` runs issued, then one read; per run
        queued.push(lib.perRun(() => { for (let i = 0; i < reps; i++) s.run(); s.read(); }, reps, 7));
        s.dispose();
      }
      const cpu = lib.createContext({ backend: 'cpu' });
      const inPage = [];
      for (const w of lib.WORK) {
        const s = w.setup(cpu);
        inPage.push(lib.time(s.run, reps));
        s.dispose();
      }
      const renderer = ctx.caps.renderer;
      ctx.dispose();
      cpu.dispose();
      return { settled, queued, inPage, renderer };
    }, `${url}/dist/bench/cpu-work.page.js`, REPS);
    renderer = got.renderer;
    checkRenderer(renderer, gpu);
    got.settled.forEach((t, k) => (rows[k].webgl2 = t));
    got.queued.forEach((t, k) => (rows[k].webgl2BackToBack = t));
    got.inPage.forEach((t, k) => (rows[k].cpuBackendInPage = t));
  } finally {
    await close();
    server.close();
  }
}

const fmt = (s) => (s ? `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : '—');
const cpuModel = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`CPU backend speed, ms: median (min–max) of ${REPS} runs (back to back: of 7 batches of ${REPS} runs, per run); Node ${process.version} on ${cpuModel} (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})`);
console.log(`WebGL2 renderer: ${renderer}${browserVersion ? ` (${browserVersion})` : ''}`);
console.log('| work | CPU backend (Node) | hand-written loop (Node) | ratio | ratio of CPU times | CPU backend (page) | WebGL2, run + read | WebGL2, back to back, per run |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.work} | ${fmt(r.cpuBackend)} | ${fmt(r.handLoop)} | ${r.ratio.toFixed(2)}x | ${r.ratioCpuTime.toFixed(2)}x | ${fmt(r.cpuBackendInPage)} | ${fmt(r.webgl2)} | ${fmt(r.webgl2BackToBack)} |`);
fs.mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, `cpu-backend${label ? `-${label}` : ''}.json`);
fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu: cpuModel, cores: os.cpus().length, loadAverage: os.loadavg()[0], renderer, browser: browserVersion, rows }, null, 1) + '\n');
console.log(`wrote ${path.relative(process.cwd(), file) || file}`);
