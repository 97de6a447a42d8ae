// The benchmark page: runs a suite in this browser; the headless driver (scripts/bench.mjs)
// opens it with ?suite=NAME&auto=1 and collects window.__benchResult.
import { createContext } from '../../dist/brookgl.js';
import { htmlTable } from '../lib/table.js';
import { linePlot } from '../lib/plot.js';

export const SUITES = {
  core: () => import('./suites/core.js'),
  filter: () => import('./suites/filter.js'),
  nbody: () => import('./suites/nbody.js'),
  branch: () => import('./suites/branch.js'),
  binning: () => import('./suites/binning.js'),
  'horn-apps': () => import('./suites/horn-apps.js'),
  ccd: () => import('./suites/ccd.js'),
  peers: () => import('./suites/peers.js'),
};

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.get('suite')) $('suite').value = params.get('suite');
if (params.get('quick') === '1') $('quick').checked = true;

const ctx = createContext();
$('renderer').textContent = `WebGL2 renderer: ${ctx.caps.renderer}`;

async function runSuite(name) {
  const suite = await SUITES[name]();
  $('out').innerHTML = '';
  $('status').textContent = 'running…';
  const started = performance.now();
  const maxK = Number(params.get('maxK') || $('maxK')?.value || 0) || undefined;
  const { tables, plots, results } = await suite.run(ctx, { quick: $('quick').checked, maxK, log: (m) => ($('status').textContent = m) });
  const svgs = plots.map(linePlot);
  $('out').innerHTML = tables.map(htmlTable).join('') + svgs.join('');
  $('status').textContent = `done in ${((performance.now() - started) / 1000).toFixed(1)} s`;
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
// from an NVIDIA H100 (see ../shared/gpu or README), so a reader can compare with their own.
const RECORDED = [
  ['', 'SwiftShader (software, 2 CPU cores)'],
  ['-h100', 'NVIDIA H100 through ANGLE/Vulkan'],
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
      parts.push(`<h3>${label}</h3><p class="meta">${rec.renderer}<br>${rec.browser ?? rec.userAgent} — ${rec.date}</p>` + rec.tables.map(htmlTable).join(''));
    } catch {
      // no recording of this kind
    }
  }
  $('recorded').innerHTML = parts.length ? parts.join('') : `No recorded results for '${name}' yet.`;
}

$('run').onclick = () => runSuite($('suite').value).catch((e) => ($('status').textContent = e.message));
$('suite').onchange = () => showRecorded($('suite').value);
await showRecorded($('suite').value);

if (params.get('auto') === '1') {
  try {
    window.__benchResult = await runSuite($('suite').value);
  } catch (e) {
    window.__benchResult = { error: String(e && e.stack ? e.stack : e) };
  }
}
window.__demoReady = true;
