// A paper's page: title, authors and link; each listing as printed beside the code that runs it
// (the .brook / .glsl file itself, fetched) with a run checked against the CPU; each table or
// figure reproduced in one click by a benchmark suite (demos/bench/suites/), drawn beside the
// paper's own numbers and the results recorded on SwiftShader and an NVIDIA H100
// (bench-results/); and a "what WebGL2 changed" box.
//
// The demo test run (scripts/test.mjs, ?test=1) presses every Reproduce button at reduced size:
// each run's tables are checked here (window.__paperProblems lists what failed: a table missing,
// the wrong number of rows, a number that is not finite and positive).
import { createContext } from '../../dist/brookgl.js';
import { htmlTable } from '../lib/table.js';
import { linePlot } from '../lib/plot.js';
import { $, busyRunner, showError, testMode } from '../lib/demo.js';
import { PAPERS } from './papers.js';

window.__paperProblems = [];
window.__reproduced = 0;

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

/** An expected row count for quick (reduced-size) runs only: full runs vary with the device. */
export const quickRows = (rows) => (opts) => (opts.quick ? rows : undefined);

/**
 * The page's frame below its links: #head (title, authors, renderer), #error, #busy and #content.
 * A paper's index.html holds only its links and its script; a page that writes the frame itself
 * keeps it.
 */
function frame() {
  if ($('content')) return;
  document.body.append(
    el('div', { id: 'head' }),
    el('div', { id: 'error', className: 'error' }),
    el('p', {}, el('span', { id: 'busy' })),
    el('div', { id: 'content' }),
  );
}
frame();

/**
 * Builds the page into #content. `listings`: { title, printed, code: [[label, url, text?]] (the file
 * at url, or the given text of it), run(ctx) →
 * summary text (throws when the GPU differs from the CPU) }. `reproductions`: { title, suite,
 * paper (HTML: the paper's numbers), options(ctx, { quick, test }) → suite options, expect: [{ title (prefix of a
 * table title), rows (number or function of the options) }] }. `webgl2`: HTML.
 */
export async function paperPage({ paper, intro, listings = [], reproductions = [], webgl2 }) {
  const p = PAPERS[paper];
  document.title = `brookgl — ${p.title}`;
  const ctx = createContext();
  $('head').append(
    el('h1', { textContent: p.title }),
    el('p', { className: 'authors', textContent: p.authors }),
    el('p', {}, el('a', { href: p.href, textContent: p.cite })),
    el('p', { className: 'renderer', textContent: `Your WebGL2 renderer: ${ctx.caps.renderer}` }),
  );
  if (intro) $('head').append(el('p', { innerHTML: intro }));
  const content = $('content');
  if (webgl2) content.append(el('aside', { className: 'webgl2', innerHTML: `<h3>What WebGL2 changed</h3>${webgl2}` }));

  if (listings.length) content.append(el('h2', { textContent: 'Listings' }));
  for (const l of listings) {
    const result = el('p', { className: 'result' });
    const codes = el('div');
    const section = el(
      'section',
      { className: 'listing' },
      el('h3', { textContent: l.title }),
      el('div', { className: 'pair' }, el('div', {}, el('h4', { textContent: 'As printed' }), el('pre', { className: 'code', textContent: l.printed })), codes),
      el('p', {}, el('button', { textContent: 'Run it', onclick: () => runListing(l, result) }), ' ', result),
    );
    content.append(section);
    for (const [label, url, given] of l.code) {
      const text = given ?? (await fetch(url).then((r) => (r.ok ? r.text() : `(${url}: HTTP ${r.status})`)));
      codes.append(el('h4', {}, 'What runs: ', el('a', { href: url, textContent: label })), el('pre', { className: 'code', textContent: text }));
    }
  }

  async function runListing(l, out) {
    out.textContent = 'running…';
    out.className = 'result';
    try {
      out.textContent = await l.run(ctx);
    } catch (e) {
      out.textContent = '';
      showError(e);
    }
  }
  for (const l of listings) await runListing(l, content.querySelectorAll('.listing .result')[listings.indexOf(l)]);

  if (reproductions.length) content.append(el('h2', { textContent: 'Tables and figures, reproduced' }));
  const busy = busyRunner({ cancellable: true });
  for (const [i, r] of reproductions.entries()) {
    const mine = el('div', { className: 'mine' }, el('p', { className: 'hint', textContent: 'Press the button to measure on your GPU.' }));
    const recorded = el('div', { className: 'recorded' });
    const status = el('span', { className: 'status' });
    const button = el('button', { id: `repro-${i}`, className: 'repro', textContent: `Reproduce ${r.title}` });
    const quick = el('input', { type: 'checkbox', checked: testMode });
    button.onclick = () =>
      busy(`measuring ${r.title}`, async ({ progress }) => {
        button.disabled = true;
        try {
          const opts = { ...r.options(ctx, { quick: quick.checked || testMode, test: testMode }), log: progress };
          const t0 = performance.now();
          const res = await (await import(`../bench/suites/${r.suite}.js`)).run(ctx, opts);
          const problems = check(r, res, opts);
          mine.replaceChildren(
            el('p', { className: 'meta', textContent: `${ctx.caps.renderer} — ${((performance.now() - t0) / 1000).toFixed(1)} s${testMode ? ' (reduced sizes: test run)' : opts.quick ? ' (quick: fewer sizes)' : ''}` }),
            scalable(el('div', { innerHTML: res.plots.map(linePlot).join('') })),
            el('div', { innerHTML: res.tables.map(htmlTable).join('') }),
          );
          status.textContent = problems.length ? '' : `numbers checked: every expected table present with its rows, all finite and non-negative.`;
          if (problems.length) {
            window.__paperProblems.push(...problems.map((m) => `${r.title}: ${m}`));
            showError(new Error(`${r.title}: ${problems.join('; ')}`));
          }
          window.__reproduced++;
        } finally {
          button.disabled = false;
        }
      }).catch((e) => (e.name === 'Cancelled' ? (status.textContent = 'Cancelled.') : showError(e)));
    content.append(
      el('section', { className: 'repro' },
        el('h3', { textContent: r.title }),
        el('div', { className: 'paperNumbers', innerHTML: `<h4>The paper</h4>${r.paper}` }),
        el('p', {}, button, ' ', el('label', {}, quick, ' quick (fewer sizes)'), ' ', status),
        el('div', { className: 'pair' }, el('div', {}, el('h4', { textContent: 'Yours' }), mine), el('div', {}, el('h4', { textContent: 'Recorded' }), recorded)),
      ),
    );
    showRecorded(r.suite, recorded);
  }
  window.__demoReady = true;
}

/** Problems with a suite's result: expected tables, their row counts and a positive measurement per row; every number finite and >= 0 (null: not measured, e.g. no GPU timer). */
function check(r, res, opts) {
  const problems = [];
  for (const want of r.expect ?? []) {
    const t = res.tables.find((x) => x.title.startsWith(want.title));
    if (!t) {
      problems.push(`no table '${want.title}…'`);
      continue;
    }
    const rows = typeof want.rows === 'function' ? want.rows(opts) : want.rows;
    if (rows !== undefined && t.rows.length !== rows) problems.push(`'${t.title}' has ${t.rows.length} rows, expected ${rows}`);
    // the measured tables: every row holds a positive measurement
    for (const row of t.rows) if (!row.some((v) => typeof v === 'number' && v > 0)) problems.push(`'${t.title}': no positive number in row ${row[0]}`);
  }
  for (const t of res.tables) {
    if (!t.rows.length) problems.push(`'${t.title}' is empty`);
    for (const row of t.rows) {
      if (row.length !== t.columns.length) problems.push(`'${t.title}': a row of ${row.length} cells under ${t.columns.length} columns`);
      for (const v of row) if (typeof v === 'number' && !(Number.isFinite(v) && v >= 0)) problems.push(`'${t.title}': ${v} in row ${row[0]}`);
    }
  }
  return problems;
}

/** Gives the plots' SVGs a viewBox, so they scale to their column instead of being cut off. */
function scalable(box) {
  for (const svg of box.querySelectorAll('svg')) svg.setAttribute('viewBox', `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`);
  return box;
}

const RECORDED = [
  ['', 'SwiftShader (software, 2 CPU cores)'],
  ['-h100', 'NVIDIA H100 through ANGLE/Vulkan'],
];

async function showRecorded(name, box) {
  const index = await fetch('../../../bench-results/index.json', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : []), () => []);
  const parts = [];
  for (const [suffix, label] of RECORDED) {
    if (!index.includes(`${name}${suffix}.json`)) continue;
    const rec = await fetch(`../../../bench-results/${name}${suffix}.json`).then((r) => (r.ok ? r.json() : null), () => null);
    if (!rec) continue;
    const count = rec.plots?.length ?? 0;
    const imgs = Array.from({ length: count }, (_, i) => `../../../bench-results/${name}${suffix}${count > 1 ? `-${i + 1}` : ''}.svg`)
      .map((src) => `<a href="${src}"><img class="plot" src="${src}" alt="${src.split('/').pop()}" loading="lazy"></a>`)
      .join('');
    parts.push(`<details open><summary><b>${label}</b> — ${rec.renderer}, ${rec.date?.slice(0, 10) ?? ''}</summary>${imgs}${rec.tables.map(htmlTable).join('')}</details>`);
  }
  box.innerHTML = parts.length ? parts.join('') : `<p>No recording of '${name}' in bench-results/ yet.</p>`;
}
