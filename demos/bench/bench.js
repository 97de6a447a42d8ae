// The benchmark page: runs a suite in this browser; the headless driver (scripts/bench.mjs)
// opens it with ?suite=NAME&auto=1 and collects window.__benchResult.
import { createContext } from '../../dist/brookgl.js';
import { htmlTable } from '../lib/table.js';
import { linePlot } from '../lib/plot.js';

export const SUITES = { core: () => import('./suites/core.js'), filter: () => import('./suites/filter.js') };

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

async function showRecorded(name) {
  try {
    const res = await fetch(`../../bench-results/${name}.json`, { cache: 'no-store' });
    if (!res.ok) throw new Error('none');
    const rec = await res.json();
    $('recorded').innerHTML = `<p>${rec.renderer} — ${rec.date}</p>` + rec.tables.map(htmlTable).join('');
  } catch {
    $('recorded').textContent = `No recorded results for '${name}' yet.`;
  }
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
