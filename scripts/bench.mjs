// Runs a benchmark suite headless: opens demos/bench/?suite=NAME&auto=1 in Chromium, prints
// its tables, and writes bench-results/NAME.json (renderer, browser, date included) and one
// SVG plot per figure. Usage: npm run bench -- <suite> [--quick] [--gpu] [--out DIR] [--max-k K]
// (--max-k: largest filter or sort size in thousands of records, default 4096; --label L: write
// NAME-L.json, e.g. --label h100 for results recorded on that GPU; --scenes A,B: only the scenes
// whose names start with A or B, in suites that have scenes, e.g. ccd; --trace FILE: record a
// Chrome trace of the run, every process, for scripts/trace-summary.mjs; --cpu-profile DIR: a
// V8 CPU profile of each span a suite wraps in console.profile(), e.g. every ccd frame, written
// to DIR as NAME.cpuprofile for scripts/cpuprofile-summary.mjs; --no-warm: the ccd suite times
// its frames without first playing them once untimed, for a before/after). It also rewrites
// bench-results/index.json, the list of recordings the benchmark page shows.
import fs from 'node:fs';
import path from 'node:path';
import { serve, root } from './serve.mjs';
import { launch, checkRenderer } from './browser.mjs';
import { textTable } from '../demos/lib/table.js';

const SUITES = ['core', 'filter', 'nbody', 'branch', 'binning', 'horn-apps', 'ccd', 'peers', 'sort', 'memory', 'readback', 'mixed'];
const args = process.argv.slice(2);
const valued = ['--out', '--max-k', '--label', '--scenes', '--trace', '--cpu-profile'];
const suite = args.find((a, i) => !a.startsWith('--') && !valued.includes(args[i - 1]));
if (!suite || !SUITES.includes(suite)) {
  console.error(`usage: npm run bench -- <suite> [--quick] [--gpu] [--out DIR]; suites: ${SUITES.join(', ')}`);
  process.exit(2);
}
const quick = args.includes('--quick');
const maxKAt = args.indexOf('--max-k');
const maxK = maxKAt >= 0 ? `&maxK=${Number(args[maxKAt + 1])}` : '';
const scenesAt = args.indexOf('--scenes');
const noWarm = args.includes('--no-warm') ? '&warm=0' : '';
const scenes = scenesAt >= 0 ? `&scenes=${encodeURIComponent(args[scenesAt + 1])}` : '';
const outAt = args.indexOf('--out');
const outDir = path.resolve(root, outAt >= 0 ? args[outAt + 1] : 'bench-results');
const labelAt = args.indexOf('--label');
const traceAt = args.indexOf('--trace');
const trace = traceAt >= 0 ? path.resolve(args[traceAt + 1]) : null;
const profileAt = args.indexOf('--cpu-profile');
const profiles = profileAt >= 0 ? path.resolve(args[profileAt + 1]) : null;
const name = labelAt >= 0 ? `${suite}-${args[labelAt + 1]}` : suite;

const { server, url } = await serve(root, 0);
const { browser, page, close, gpu } = await launch({ origin: url });
let code = 0;
try {
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  page.on('error', (e) => console.error(`page crashed: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && console.error(`[browser] ${m.text()}`));
  const t0 = Date.now();
  await page.exposeFunction('__benchProgress', (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${m}`));
  // host threads' tasks (toplevel), the GPU process's command decoding (gpu), V8's garbage
  // collections (disabled-by-default-v8.gc) and the suites'
  // performance.measure spans (blink.user_timing), which delimit what they time
  if (profiles) {
    // console.profile()/profileEnd() in the page record only while the Profiler domain is on
    fs.mkdirSync(profiles, { recursive: true });
    const cdp = await page.createCDPSession();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    cdp.on('Profiler.consoleProfileFinished', ({ title, profile }) => fs.writeFileSync(path.join(profiles, `${String(title).replace(/[^\w.-]+/g, '_')}.cpuprofile`), JSON.stringify(profile)));
  }
  if (trace) await page.tracing.start({ path: trace, categories: ['toplevel', 'gpu', 'gpu.angle', 'blink.user_timing', 'v8.execute', 'disabled-by-default-v8.gc', '__metadata'] });
  await page.goto(`${url}/demos/bench/index.html?suite=${suite}&auto=1${quick ? '&quick=1' : ''}${maxK}${scenes}${noWarm}${profiles ? '&cpuProfile=1' : ''}`);
  await page.waitForFunction(() => window.__benchResult !== undefined, { timeout: 0, polling: 500 });
  const result = await page.evaluate(() => window.__benchResult);
  if (trace) await page.tracing.stop(), console.log(`wrote the trace to ${trace}`);
  if (result.error) throw new Error(result.error);
  checkRenderer(result.renderer, gpu);
  result.browser = await browser.version();
  console.log(`suite ${suite} — renderer: ${result.renderer}\nbrowser: ${result.browser}, ${result.date}\n`);
  for (const t of result.tables) console.log(textTable(t) + '\n');
  fs.mkdirSync(outDir, { recursive: true });
  const { svgs, ...json } = result;
  fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(json, null, 2) + '\n');
  svgs.forEach((svg, i) => fs.writeFileSync(path.join(outDir, `${name}${svgs.length > 1 ? `-${i + 1}` : ''}.svg`), svg));
  writeIndex(outDir);
  console.log(`wrote ${path.relative(root, outDir)}/${name}.json and ${svgs.length} plot(s)`);
} catch (e) {
  console.error(String(e?.stack ?? e));
  code = 1;
} finally {
  await close();
  server.close();
}
process.exit(code);

/** index.json: every recording in the folder, so the benchmark page fetches only what exists. */
function writeIndex(dir) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json').sort();
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify(files, null, 2) + '\n');
}
