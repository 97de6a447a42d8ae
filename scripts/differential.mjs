// The differential run of the two backends at scale: the spec test/cpu/differential.test.ts with
// ?diff=<count>&from=<seed> in headless Chromium (after `node scripts/build.mjs --tests`), each
// generated kernel on the page's WebGL2 context and on the CPU backend. Prints the tally
// (kernels, records, differing, explained by operation, unexplained, errors) with the renderer
// and writes it to bench-results/differential.json (or --out NAME.json). Options: --count N (10000), --from SEED (0), --gpu.
import fs from 'node:fs';
import path from 'node:path';
import { serve, root } from './serve.mjs';
import { launch, checkRenderer } from './browser.mjs';

const arg = (name, d) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : d;
};
const count = arg('--count', 10000);
const from = arg('--from', 0);
const outAt = process.argv.indexOf('--out');
const outName = outAt > 0 ? path.basename(process.argv[outAt + 1]) : 'differential.json';
const started = Date.now();
const { server, url } = await serve(root, 0);
const { page, close, gpu } = await launch({ origin: url });
let code = 1;
try {
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  let failure = '';
  const done = new Promise((resolve) => {
    page.exposeFunction('__brookReport', (e) => {
      if (e.type === 'fail') failure += `${e.title}\n${e.error}\n`;
      if (e.type === 'end') resolve();
    });
  });
  await page.goto(`${url}/test/index.html?grep=${encodeURIComponent('cpu/differential')}&diff=${count}&from=${from}`, { timeout: 120000 });
  const renderer = await page.evaluate(() => window.__brookRenderer ?? 'unknown');
  checkRenderer(renderer, gpu);
  console.log(`renderer: ${renderer}; ${count} kernels from seed ${from}`);
  const timer = setInterval(async () => {
    const p = await page.evaluate(() => window.__brookDiffProgress && { kernels: window.__brookDiffProgress.kernels, differing: window.__brookDiffProgress.differing }).catch(() => null);
    if (p) console.log(`  ${p.kernels} kernels, ${p.differing} differing (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }, 30000);
  await done;
  clearInterval(timer);
  const t = await page.evaluate(() => window.__brookDiff);
  if (!t) throw new Error(`no tally came back:\n${failure}`);
  const unexplained = t.unexplained.length;
  const tally = { renderer, from, count, seconds: Math.round((Date.now() - started) / 1000), kernels: t.kernels, records: t.records, differing: t.differing, explainedBy: t.explained, unexplained, refusedAlike: t.refusedAlike, errors: t.errors.length, firstUnexplained: t.unexplained.slice(0, 5), firstErrors: t.errors.slice(0, 5) };
  fs.mkdirSync(path.join(root, 'bench-results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench-results', outName), JSON.stringify(tally, null, 1) + '\n');
  console.log(`kernels ${t.kernels}, records ${t.records}, differing ${t.differing} (explained by: ${Object.entries(t.explained).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}), unexplained ${unexplained}, errors ${t.errors.length}`);
  if (failure) console.log(failure);
  code = unexplained || t.errors.length ? 1 : 0;
} finally {
  await close();
  server.close();
}
process.exit(code);
