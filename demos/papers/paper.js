// A paper's page: title, authors and link; each listing as printed beside the code that runs it
// (the .brook / .glsl file itself, fetched) with a run checked against the CPU; each table or
// figure reproduced in one click by a benchmark suite (demos/bench/suites/), drawn beside the
// paper's own numbers and the results recorded on SwiftShader and an NVIDIA H100
// (bench-results/); and a "what WebGL2 changed" box.
//
// A reproduction starts on the setting that suits the renderer: light on a software renderer, the
// paper's full sizes on a GPU. The demo test run (scripts/test.mjs, ?test=1) presses every
// Reproduce button on the light setting (the default on SwiftShader, where it runs), checks the
// page's boxes (window.__layoutProblems: nothing overlaps or reaches past its section), and
// each run's tables are checked here (window.__paperProblems lists what failed: a table missing,
// the wrong number of rows, a number that is not finite and positive).
import { createContext } from '../../dist/brookgl.js';
import { htmlTable } from '../lib/table.js';
import { linePlot } from '../lib/plot.js';
import { $, busyRunner, showError, testMode } from '../lib/demo.js';
import { progressMeter } from '../lib/progress.js';
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
 * Builds the page into #content. `listings`: { title, printed, printedNote (HTML under the printed text:
 * what a reader should know about it, such as a conversion's leftovers), code: [[label, url, text?]] (the file
 * at url, or the given text of it), run(ctx) →
 * summary text (throws when the GPU differs from the CPU) }. `reproductions`: { title, suite,
 * paper (HTML: the paper's numbers), options(ctx, { quick, test }) → suite options (the setting chosen:
 * light = quick + test, quick, full = neither), expect: [{ title (prefix of a table title), rows (number
 * or function of the options) }], compare(results, renderer) → a table of the paper's numbers beside
 * ours (from a suite's `results`, measured here or recorded), paperSeries(plot) → series of the paper's
 * values to draw (dashed) in that plot }. `webgl2`: HTML.
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
      el('div', { className: 'pair' }, el('div', {}, el('h4', { textContent: 'As printed' }), el('pre', { className: 'code', textContent: l.printed }), ...(l.printedNote ? [el('p', { className: 'printedNote', innerHTML: l.printedNote })] : [])), codes),
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
  // a software renderer starts on the light setting, a GPU on the paper's; the test run takes the light one
  const initial = testMode || ctx.caps.software ? 'light' : 'full';
  for (const [i, r] of reproductions.entries()) {
    const mine = el('div', { className: 'mine' }, el('p', { className: 'hint', textContent: 'Press the button to measure on your GPU.' }));
    const recorded = el('div', { className: 'recorded' });
    const status = el('span', { className: 'status' });
    const button = el('button', { id: `repro-${i}`, className: 'repro', textContent: `Reproduce ${r.title}` });
    const setting = el('select', { id: `setting-${i}` }, ...Object.entries(SETTINGS).map(([value, s]) => el('option', { value, textContent: s.label, selected: value === initial })));
    button.onclick = () =>
      busy(`measuring ${r.title}`, async ({ progress, cancelled }) => {
        button.disabled = setting.disabled = true;
        const suite = await import(`../bench/suites/${r.suite}.js`);
        const chosen = SETTINGS[setting.value];
        const meter = progressMeter(progress, suite.stoppable === true);
        const t0 = performance.now();
        const took = () => `${ctx.caps.renderer} — ${((performance.now() - t0) / 1000).toFixed(1)} s, setting: ${chosen.label}`;
        try {
          const opts = { ...r.options(ctx, { quick: chosen.quick, test: chosen.test }), log: meter.log, plan: meter.plan, stopped: cancelled };
          const res = await suite.run(ctx, opts);
          const partial = cancelled() && suite.stoppable === true;
          const problems = partial ? [] : check(r, res, opts);
          mine.replaceChildren(
            el('p', { className: 'meta', textContent: took() + (partial ? ` — cancelled after ${meter.done()} of ${meter.total()} measurements: what was measured so far` : '') }),
            ...(r.compare ? [el('div', { className: 'tables', innerHTML: htmlTable(r.compare(res.results, ctx.caps.renderer)) })] : []),
            plotBox(res.plots, r.paperSeries),
            el('div', { className: 'tables', innerHTML: res.tables.map(htmlTable).join('') }),
          );
          status.textContent = partial ? 'Cancelled: the tables hold what was measured before.' : problems.length ? '' : 'numbers checked: every expected table present with its rows, all finite and non-negative.';
          if (problems.length) {
            window.__paperProblems.push(...problems.map((m) => `${r.title}: ${m}`));
            showError(new Error(`${r.title}: ${problems.join('; ')}`));
          }
          window.__reproduced++;
        } catch (e) {
          if (e.name !== 'Cancelled') throw e;
          // a suite that cannot stop between measurements: keep the measurements it reported
          mine.replaceChildren(
            el('p', { className: 'meta', textContent: `${took()} — cancelled after ${meter.done()} of ${meter.total()} measurements; measured so far:` }),
            el('ul', {}, ...meter.lines().map((m) => el('li', { textContent: m }))),
          );
          status.textContent = 'Cancelled.';
        } finally {
          button.disabled = setting.disabled = false;
        }
      }).catch(showError);
    content.append(
      el('section', { className: 'repro' },
        el('h3', { textContent: r.title }),
        el('div', { className: 'paperNumbers', innerHTML: `<h4>The paper</h4>${r.paper}` }),
        el('p', {}, button, ' ', el('label', {}, 'setting ', setting), ' ', status),
        el('h4', { textContent: 'Yours' }), mine,
        el('h4', { textContent: 'Recorded' }), recorded,
      ),
    );
    window.__demoBusy++;
    showRecorded(r, recorded).finally(() => window.__demoBusy--);
  }
  window.__layoutProblems = layoutProblems;
  window.__demoReady = true;
}

/** The reproduction settings: the options each page's `options` receives. */
const SETTINGS = {
  light: { label: 'light (smallest sizes)', quick: true, test: true },
  quick: { label: 'quick (fewer sizes)', quick: true, test: false },
  full: { label: 'full (the paper’s sizes)', quick: false, test: false },
};

/** The suite's plots (with the paper's values drawn under them, dashed, where the page has some) side by side. */
function plotBox(plots = [], paperSeries) {
  const withPaper = (p) => ({ ...p, series: [...p.series, ...(paperSeries?.(p) ?? [])] });
  return el('div', { className: 'plots', innerHTML: plots.map((p) => linePlot(withPaper(p))).join('') });
}

/**
 * What a reader could not read on the page after a reproduction: two of its boxes (headings,
 * tables, plots, paragraphs) overlapping, or one reaching past its section or the window.
 */
function layoutProblems() {
  const problems = [];
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1;
  for (const section of document.querySelectorAll('section.repro')) {
    const frame = section.getBoundingClientRect();
    const boxes = [...section.querySelectorAll('h3, h4, p, li, table, svg, img.plot, summary')]
      .filter((e) => !e.closest('svg') || e.tagName === 'svg')
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0);
    const name = (e) => `${e.tagName.toLowerCase()} "${(e.textContent || e.getAttribute('alt') || '').trim().slice(0, 40)}"`;
    for (const { e, r } of boxes) {
      if (!inside(r, frame) || r.right > window.innerWidth + 1) problems.push(`${name(e)} reaches past its section (${r.left.toFixed(0)}–${r.right.toFixed(0)} px of ${frame.left.toFixed(0)}–${frame.right.toFixed(0)})`);
      const scroller = e.closest('.tables');
      if (e.tagName === 'TABLE' && scroller && scroller.scrollWidth > scroller.clientWidth + 1) problems.push(`${name(e)} is cut off (${scroller.scrollWidth} px in ${scroller.clientWidth})`);
    }
    for (let a = 0; a < boxes.length; a++)
      for (let b = a + 1; b < boxes.length; b++) {
        const [A, B] = [boxes[a], boxes[b]];
        if (A.e.contains(B.e) || B.e.contains(A.e)) continue;
        const w = Math.min(A.r.right, B.r.right) - Math.max(A.r.left, B.r.left);
        const h = Math.min(A.r.bottom, B.r.bottom) - Math.max(A.r.top, B.r.top);
        if (w > 1 && h > 1) problems.push(`${name(A.e)} and ${name(B.e)} overlap (${w.toFixed(0)} × ${h.toFixed(0)} px)`);
      }
  }
  return problems;
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

const RECORDED = [
  ['', 'SwiftShader (software, 2 CPU cores)'],
  ['-h100', 'NVIDIA H100 through ANGLE/Vulkan'],
];

/** The recorded results of the reproduction's suite (bench-results/), their plots drawn again from the JSON so colours and the paper's values match ours. */
async function showRecorded(r, box) {
  const name = r.suite;
  const index = await fetch('../../../bench-results/index.json', { cache: 'no-store' }).then((x) => (x.ok ? x.json() : []), () => []);
  const parts = [];
  for (const [suffix, label] of RECORDED) {
    if (!index.includes(`${name}${suffix}.json`)) continue;
    const rec = await fetch(`../../../bench-results/${name}${suffix}.json`).then((x) => (x.ok ? x.json() : null), () => null);
    if (!rec) continue;
    const compare = r.compare && rec.results ? htmlTable(r.compare(rec.results, rec.renderer)) : '';
    const details = el('details', { open: true }, el('summary', { innerHTML: `<b>${label}</b> — ${rec.renderer}, ${rec.date?.slice(0, 10) ?? ''} (<a href="../../../bench-results/${name}${suffix}.json">JSON</a>)` }));
    details.append(el('div', { className: 'tables', innerHTML: compare }), plotBox(rec.plots ?? [], r.paperSeries), el('div', { className: 'tables', innerHTML: rec.tables.map(htmlTable).join('') }));
    parts.push(details);
  }
  if (parts.length) box.replaceChildren(...parts);
  else box.textContent = `No recording of '${name}' in bench-results/ yet.`;
}
