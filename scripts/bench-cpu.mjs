// The CPU backend's speed (test/cpu/bench-work.ts): saxpy over 2^20 records, a 5-point stencil over
// 1024x1024 (edges clamped) and a sum reduce over 2^20, each as a Brook kernel on the CPU
// backend in Node, as a hand-written JavaScript loop in Node, and on the WebGL2 context of a
// headless Chromium (SwiftShader unless --gpu; each run followed by the read of its result, the
// time until the answer is on the CPU). Medians of 7
// runs after a warm-up, with min and max; the table goes to stdout and the numbers to
// bench-results/cpu-backend.json (or --out DIR). Options: --gpu, --no-browser, --out DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { serve, root } from './serve.mjs';
import { launch } from './browser.mjs';

const outAt = process.argv.indexOf('--out');
const outDir = outAt > 0 ? process.argv[outAt + 1] : path.join(root, 'bench-results');
const common = { bundle: true, loader: { '.glsl': 'text', '.brook': 'text' }, ignoreAnnotations: true, logLevel: 'error' };
const nodeFile = path.join(root, 'dist', 'bench', 'cpu-work.node.mjs');
const pageFile = path.join(root, 'dist', 'bench', 'cpu-work.page.js');
await esbuild.build({ ...common, platform: 'node', format: 'esm', outfile: nodeFile, stdin: { contents: "export * from './test/cpu/bench-work.ts'; export { createContext } from './src/index.ts';", resolveDir: root, loader: 'ts' } });
await esbuild.build({ ...common, platform: 'browser', format: 'esm', outfile: pageFile, stdin: { contents: "export * from './test/cpu/bench-work.ts'; export { createContext } from './src/index.ts';", resolveDir: root, loader: 'ts' } });

const lib = await import(pathToFileURL(nodeFile).href);
const rows = [];
const cpuCtx = lib.createContext({ backend: 'cpu' });
for (const w of lib.WORK) {
  const s = w.setup(cpuCtx);
  const cpu = lib.time(s.run);
  s.dispose();
  const hand = lib.time(w.hand().run);
  rows.push({ work: w.name, cpuBackend: cpu, handLoop: hand, ratio: cpu.median / hand.median });
}
cpuCtx.dispose();

let renderer = 'not run (--no-browser)';
if (!process.argv.includes('--no-browser')) {
  const { server, url } = await serve(root, 0);
  const { page, close } = await launch({ origin: url });
  try {
    await page.goto(`${url}/test/index.html?grep=${encodeURIComponent('no spec has this name')}`);
    const got = await page.evaluate(async (src) => {
      const lib = await import(src);
      const ctx = lib.createContext();
      const out = [];
      for (const w of lib.WORK) {
        const s = w.setup(ctx);
        // settled: the run and the read of its result (the sum reads its one record itself)
        out.push(lib.time(() => { s.run(); s.read(); }));
        s.dispose();
      }
      const cpu = lib.createContext({ backend: 'cpu' });
      const inPage = [];
      for (const w of lib.WORK) {
        const s = w.setup(cpu);
        inPage.push(lib.time(s.run));
        s.dispose();
      }
      const renderer = ctx.caps.renderer;
      ctx.dispose();
      return { out, inPage, renderer };
    }, `${url}/dist/bench/cpu-work.page.js`);
    renderer = got.renderer;
    got.out.forEach((t, k) => (rows[k].webgl2 = t));
    got.inPage.forEach((t, k) => (rows[k].cpuBackendInPage = t));
  } finally {
    await close();
    server.close();
  }
}

const fmt = (s) => (s ? `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : '—');
console.log(`CPU backend speed, ms: median (min–max) of 7 runs; Node ${process.version} on ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} cores); WebGL2: ${renderer}`);
console.log('| work | CPU backend (Node) | hand-written loop (Node) | ratio | CPU backend (page) | WebGL2, run + read |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.work} | ${fmt(r.cpuBackend)} | ${fmt(r.handLoop)} | ${r.ratio.toFixed(2)}x | ${fmt(r.cpuBackendInPage)} | ${fmt(r.webgl2)} |`);
fs.mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, 'cpu-backend.json');
fs.writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model, renderer, rows }, null, 1) + '\n');
console.log(`wrote ${path.relative(root, file)}`);
