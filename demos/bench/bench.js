// The benchmark page: runs a suite in this browser; the headless driver (scripts/bench.mjs)
// opens it with ?suite=NAME&auto=1 and collects window.__benchResult.
import { createContext } from '../../dist/brookgl.js';
import { htmlTable } from '../lib/table.js';
import { linePlot } from '../lib/plot.js';
import { busyRunner, showError } from '../lib/demo.js';
import { progressMeter } from '../lib/progress.js';

export const SUITES = {
  core: () => import('./suites/core.js'),
  filter: () => import('./suites/filter.js'),
  nbody: () => import('./suites/nbody.js'),
  branch: () => import('./suites/branch.js'),
  binning: () => import('./suites/binning.js'),
  'horn-apps': () => import('./suites/horn-apps.js'),
  ccd: () => import('./suites/ccd.js'),
  peers: () => import('./suites/peers.js'),
  sort: () => import('./suites/sort.js'),
  memory: () => import('./suites/memory.js'),
  readback: () => import('./suites/readback.js'),
  mixed: () => import('./suites/mixed.js'),
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.get('suite')) $('suite').value = params.get('suite');
if (params.get('quick') === '1') $('quick').checked = true;

const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;
// A person on a software renderer starts on sizes it finishes in a minute or two (filter up to
// 256k records, quick); a GPU on the full ones. The headless driver (?auto=1) keeps the URL's.
if (ctx.caps.software && params.get('auto') !== '1') {
  if (!params.get('maxK')) $('maxK').value = '256';
  if (!params.get('quick')) $('quick').checked = true;
}

/**
 * Runs a suite; `progress` (from busyRunner) shows "k of N measured, about T left" and the last
 * measurement, and throws once cancelled, unless the suite stops by itself (`stoppable`): then
 * it returns what it measured and the page shows that.
 */
async function runSuite(name, progress = () => {}, cancelled = () => false) {
  const suite = await SUITES[name]();
  $('out').innerHTML = '';
  $('status').textContent = '';
  const started = performance.now();
  const maxK = Number(params.get('maxK') || $('maxK')?.value || 0) || undefined;
  const meter = progressMeter(progress, suite.stoppable === true);
  const log = (m) => {
    window.__benchProgress?.(m); // the headless driver prints it
    meter.log(m);
  };
  // ?scenes=A,B: only the scenes whose names start with A or B (suites with scenes, e.g. ccd)
  const scenes = params.get('scenes') ? params.get('scenes').split(',').map((x) => x.trim()).filter(Boolean) : undefined;
  const { tables, plots, results } = await suite.run(ctx, { quick: $('quick').checked, maxK, scenes, log, plan: meter.plan, stopped: cancelled });
  const svgs = plots.map(linePlot);
  $('out').innerHTML = tables.map(htmlTable).join('') + svgs.join('');
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  $('status').textContent = cancelled() ? `cancelled after ${meter.done()} of ${meter.total()} measurements (${secs} s): the tables hold what was measured` : `done in ${secs} s`;
  return {
    suite: name,
    renderer: ctx.caps.renderer,
    software: ctx.caps.software,
    timerQuery: ctx.caps.timerQuery,
    userAgent: navigator.userAgent,
    date: new Date().toISOString(),
    tables,
    plots,
    svgs,
    results,
  };
}

// Results committed in bench-results/: NAME.json from SwiftShader (the CI machine), NAME-h100.json
// from an NVIDIA H100 and NAME-h200.json from an H200 (docs/maintainers.md), so a reader can
// compare with their own.
const RECORDED = [
  ['', 'SwiftShader (software, 2 CPU cores)'],
  ['-h100', 'NVIDIA H100 through ANGLE/Vulkan'],
  ['-h200', 'NVIDIA H200 through ANGLE/Vulkan (never in one ratio with the H100)'],
];

async function showRecorded(name) {
  const parts = [];
  const index = await fetch('../../bench-results/index.json', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : []), () => []);
  for (const [suffix, label] of RECORDED) {
    if (!index.includes(`${name}${suffix}.json`)) continue;
    try {
      const res = await fetch(`../../bench-results/${name}${suffix}.json`, { cache: 'no-store' });
      if (!res.ok) continue;
      const rec = await res.json();
      // the plots bench.mjs wrote beside the JSON: NAME[-label].svg, or NAME[-label]-i.svg when several
      const count = rec.plots?.length ?? 0;
      const imgs = Array.from({ length: count }, (_, i) => `../../bench-results/${name}${suffix}${count > 1 ? `-${i + 1}` : ''}.svg`)
        .map((src) => `<a href="${src}"><img class="plot" src="${src}" alt="plot: ${src.split('/').pop()}" loading="lazy"></a>`)
        .join('');
      parts.push(`<h3>${label}</h3><p class="meta">${rec.renderer}<br>${rec.browser ?? rec.userAgent} — ${rec.date}</p>` + `<div class="plots">${imgs}</div>` + rec.tables.map(htmlTable).join(''));
    } catch {
      // no recording of this kind
    }
  }
  $('recorded').innerHTML = parts.length ? parts.join('') : `No recorded results for '${name}' yet.`;
}

const busy = busyRunner({ disable: ['run', 'suite', 'quick', 'maxK'], cancellable: true });
$('run').onclick = () =>
  busy(`running ${$('suite').value}`, ({ progress, cancelled }) => runSuite($('suite').value, progress, cancelled)).catch((e) =>
    e.name === 'Cancelled' ? ($('status').textContent = 'Cancelled.') : showError(e),
  );
$('suite').onchange = () => {
  window.__demoBusy++;
  showRecorded($('suite').value).finally(() => window.__demoBusy--);
};
await showRecorded($('suite').value);

if (params.get('auto') === '1') {
  try {
    window.__benchResult = await runSuite($('suite').value);
  } catch (e) {
    window.__benchResult = { error: String(e && e.stack ? e.stack : e) };
  }
}
window.__demoReady = true;
