// Compares benchmark recordings of two builds (scripts/bench-ab.sh run): for every table of every
// suite, the new/old ratio of each timing cell's median over the rounds, then per table the
// cells compared, the median ratio and its min–max, and the rounds' own spread on each side
// (how much a cell moves between runs of the same build: the noise to judge a ratio against).
//
//   node scripts/bench-compare.mjs OUT [--top K] [--json FILE] [--explain]
//
// OUT holds r<k>/old/<name>.json and r<k>/new/<name>.json (bench.mjs's recordings). Tables match
// by title; rows by their label cells (strings such as 'BART64', '64k', 'p=16 u=4', and the
// numeric parameters n, N, p, points, particles, records, triangles), never by position alone
// (a measured second cell would split a row from itself). Only timing columns are compared (ms,
// µs, wall, GPU, time, and columns of a table whose title gives its unit as ms or µs); counts,
// rates (GB/s, G interactions/s), ratios, spreads and the papers' figures are not. A cell
// "11.1 (10.8–11.6)" counts as its median 11.1. Per suite: the median of its tables' medians
// (a table of 300 per-kernel rows weighs as one) and of all its cells; '[work differs: passes]'
// marks a table where the builds' counts of passes, iterations or round trips differ (not the
// same work: a changed algorithm, not a slowdown). --top K lists the K largest ratios per suite
// (default 3); --json writes every compared cell; --explain names each table's label and timing
// columns.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const valued = ['--top', '--json'];
const dir = args.find((a, i) => !a.startsWith('--') && !valued.includes(args[i - 1]));
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: node scripts/bench-compare.mjs OUT [--top K] [--json FILE] [--explain]   (OUT from scripts/bench-ab.sh run)');
  process.exit(2);
}
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const TOP = Number(opt('--top', 3));
const JSON_OUT = opt('--json', null);
const EXPLAIN = args.includes('--explain');

// ---- what a column is -------------------------------------------------------------------------
// not a timing whatever the title says: counts, sizes, rates, ratios, the papers' figures
const NOT_TIME = / \/ |^rate$|passes|pass(es)? drawn|\/\s*s\b|\/s\b|GB|GFLOP|FMA|flops|interactions|ratio|speed-?up|fraction|levels|utili[sz]ation|paper|book|claim|MiB|records(?! ?\/)|records written|fragments|iterations|evaluations|capacity|load|reductions|doublings|round trips|nodes|candidates|pairs|orphan|triangles|frames|moved|stolen|steal|reruns|count|budget|chunks|^method$|^scene$|^kernel$|^variant$|^shape$|^type$|^stage$|^work$|^when$|^grid$|^n$|^N$|^p$|^particles$|^points$|min–max|min-max|spread/i;
const TIME_IN_HEADER = /(^|[^A-Za-z])(ms|µs|us|ns)([^A-Za-z]|$)|\bwall\b|\bGPU\b|\btime\b|latency|seconds/i;
const TIME_IN_TITLE = /(^|[^A-Za-z])(ms|µs)([^A-Za-z]|$)|time per|wall clock|latency/i;
const TITLE_NOT_TIME = /ratio|^spread|^passes per|counters/i;
const EXPLICIT_TIME = /(^|[^A-Za-z])(ms|µs)([^A-Za-z]|$)/;

// the numeric parameters a row is labelled by
const PARAM = /^(n|N|p|q|u|b|k|records|points|particles|triangles|triangles each|bodies|size|side|grid|depth|degrees|epsilon|rounds|level)$/;
// rows that are a paper's figures, not measurements
const QUOTED_ROW = /^(book|paper)\b|book claim/i;
// counts that say whether both builds did the same work
const WORK = /passes|iterations|round trips|reductions/i;

function isTimingColumn(title, header) {
  const h = String(header).trim();
  if (PARAM.test(h)) return false;
  if (NOT_TIME.test(h) && !EXPLICIT_TIME.test(h)) return false;
  if (/(^|[^A-Za-z])(ms|µs|us)([^A-Za-z]|$)|latency/.test(h)) return true;
  if (TITLE_NOT_TIME.test(title)) return false;
  if (/GB\/s|\/s\b/.test(title) && !TIME_IN_TITLE.test(title)) return false; // a table of rates
  if (TIME_IN_HEADER.test(h)) return true;
  return TIME_IN_TITLE.test(title);
}

// "11.1", 11.1, "11.1 (10.8–11.6)", "29.4 (23)", "3.00 (2.90–3.23) [4.20]", "5.60×" -> a number;
// "64k", "2^20", "4096²", "BART64", "p=16 u=4" -> null (labels); "8.9–20.4" -> null (a range)
const MEASURED = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(?=$|[(\[×%]|G |[A-Za-z]+\/s)/;
function measured(v) {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  if (/^\s*[-+]?[\d.e+-]+\s*[–-]\s*[\d.]/.test(v) && !/\(/.test(v)) return null; // "a–b"
  const m = MEASURED.exec(v);
  return m ? Number(m[1]) : null;
}
const isLabel = (v) => v === null || v === undefined || (typeof v === 'string' && measured(v) === null && !/^\s*[-+]?[\d.e+-]+\s*[–-]\s*[\d.]/.test(v));

// ---- reading the recordings --------------------------------------------------------------------
const runs = { old: new Map(), new: new Map() }; // side -> name -> [{ round, json }]
for (const r of fs.readdirSync(dir).filter((d) => /^r\d+$/.test(d)).sort((a, b) => a.slice(1) - b.slice(1))) {
  for (const side of ['old', 'new']) {
    const d = path.join(dir, r, side);
    if (!fs.existsSync(d)) continue;
    for (const f of fs.readdirSync(d).filter((f) => f.endsWith('.json') && f !== 'index.json')) {
      const json = JSON.parse(fs.readFileSync(path.join(d, f), 'utf8'));
      const name = f.replace(/\.json$/, '');
      if (!runs[side].has(name)) runs[side].set(name, []);
      runs[side].get(name).push({ round: r, json });
    }
  }
}

const median = (xs) => {
  const t = [...xs].sort((a, b) => a - b);
  const m = t.length >> 1;
  return t.length % 2 ? t[m] : (t[m - 1] + t[m]) / 2;
};
const fmt = (x) => (x === null || !Number.isFinite(x) ? '-' : x.toFixed(2));
const pct = (x) => (x === null || !Number.isFinite(x) ? '-' : `${(100 * x).toFixed(0)} %`);
const short = (s, n = 110) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** Tables of a recording by title; a repeated title gets '#2', '#3'. */
function tablesOf(json) {
  const seen = new Map();
  const out = new Map();
  for (const t of json.tables ?? []) {
    const k = seen.get(t.title) ?? 0;
    seen.set(t.title, k + 1);
    out.set(k ? `${t.title} #${k + 1}` : t.title, t);
  }
  return out;
}

/**
 * The label columns of a table: none that names a time unit or a paper's figures; then the
 * first column, a numeric parameter, or one whose every value is a label.
 */
function keyColumns(title, tables) {
  const cols = tables[0].columns;
  const keys = [];
  cols.forEach((c, j) => {
    if (EXPLICIT_TIME.test(String(c)) || /paper|book/i.test(String(c))) return;
    if (j === 0) return void keys.push(j);
    const values = tables.flatMap((t) => t.rows.map((r) => r[j]));
    if (values.every(isLabel) || (PARAM.test(String(c).trim()) && values.every((v) => typeof v === 'number' || isLabel(v)))) keys.push(j);
  });
  return keys;
}

/** Rows by key: the label cells joined; a repeated key gets '#2', '#3' (rows in their order). */
function rowsByKey(table, keys) {
  const seen = new Map();
  const out = new Map();
  table.rows.forEach((row, i) => {
    let k = keys.length ? keys.map((j) => String(row[j] ?? '')).join(' | ') : `row ${i + 1}`;
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    if (n) k += ` #${n + 1}`;
    out.set(k, row);
  });
  return out;
}

const all = [];
const summary = [];
const names = [...new Set([...runs.old.keys(), ...runs.new.keys()])].sort();
for (const name of names) {
  const olds = runs.old.get(name) ?? [];
  const news = runs.new.get(name) ?? [];
  console.log(`\n=== ${name}: ${olds.length} old run(s), ${news.length} new run(s)`);
  if (!olds.length || !news.length) {
    console.log('   (nothing to compare: one side has no recording)');
    continue;
  }
  const renderers = [...new Set([...olds, ...news].map((r) => r.json.renderer))];
  console.log(`   renderer: ${renderers.join(' / ')}${renderers.length > 1 ? '   (DIFFERENT RENDERERS)' : ''}`);
  const oldTables = olds.map((r) => tablesOf(r.json));
  const newTables = news.map((r) => tablesOf(r.json));
  const titles = [...newTables[0].keys()];
  const suiteCells = [];
  const tableMedians = [];
  const onlyOne = [...oldTables[0].keys()].filter((t) => !newTables[0].has(t)).length + titles.filter((t) => !oldTables[0].has(t)).length;
  for (const title of titles) {
    const os = oldTables.map((m) => m.get(title)).filter(Boolean);
    const ns = newTables.map((m) => m.get(title)).filter(Boolean);
    if (!os.length || !ns.length) continue;
    const columns = ns[0].columns;
    if (os.some((t) => JSON.stringify(t.columns) !== JSON.stringify(columns))) {
      console.log(`   [columns differ] ${short(title)}`);
      continue;
    }
    const timing = columns.map((c) => isTimingColumn(title, c));
    const keys = keyColumns(title, [...os, ...ns]);
    if (EXPLAIN) {
      console.log(`   · ${short(title, 90)}\n       rows by: ${keys.map((j) => `'${columns[j]}'`).join(', ') || 'position'}; timings: ${columns.filter((c, j) => timing[j] && !keys.includes(j)).map((c) => `'${c}'`).join(', ') || 'none'}`);
    }
    if (!timing.some(Boolean)) continue;
    const oRows = os.map((t) => rowsByKey(t, keys));
    const nRows = ns.map((t) => rowsByKey(t, keys));
    const rowKeys = [...new Set(nRows.flatMap((m) => [...m.keys()]))];
    let unmatched = 0;
    const cells = [];
    const workDiffers = new Set();
    for (const rk of rowKeys) {
      if (QUOTED_ROW.test(rk)) continue;
      const o = oRows.map((m) => m.get(rk)).filter(Boolean);
      const n = nRows.map((m) => m.get(rk)).filter(Boolean);
      if (!o.length || !n.length) {
        unmatched++;
        continue;
      }
      columns.forEach((c, j) => {
        if (timing[j] || keys.includes(j) || !WORK.test(String(c))) return;
        const ov = o.map((r) => measured(r[j])).filter((v) => v !== null);
        const nv = n.map((r) => measured(r[j])).filter((v) => v !== null);
        if (ov.length && nv.length && median(ov) !== median(nv)) workDiffers.add(String(c));
      });
      columns.forEach((c, j) => {
        if (!timing[j] || keys.includes(j)) return;
        const ov = o.map((r) => measured(r[j])).filter((v) => v !== null);
        const nv = n.map((r) => measured(r[j])).filter((v) => v !== null);
        if (!ov.length || !nv.length) return;
        const om = median(ov);
        const nm = median(nv);
        if (!(om > 0) || !(nm >= 0)) return;
        const spread = (vs, m) => (vs.length > 1 && m > 0 ? (Math.max(...vs) - Math.min(...vs)) / m : null);
        const cell = { suite: name, table: title, row: rk, column: String(c), old: ov, new: nv, oldMedian: om, newMedian: nm, ratio: nm / om, oldSpread: spread(ov, om), newSpread: spread(nv, nm) };
        cells.push(cell);
        all.push(cell);
        suiteCells.push(cell);
      });
    }
    if (!cells.length) continue;
    const ratios = cells.map((c) => c.ratio);
    tableMedians.push(median(ratios));
    const spreads = (k) => {
      const s = cells.map((c) => c[k]).filter((x) => x !== null);
      return s.length ? median(s) : null;
    };
    console.log(
      `   ${String(cells.length).padStart(4)} cells  new/old ${fmt(median(ratios))} (${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))})` +
        `  spread old ${pct(spreads('oldSpread'))} new ${pct(spreads('newSpread'))}${unmatched ? `  [${unmatched} row(s) in one build only]` : ''}` +
        `${workDiffers.size ? `  [work differs: ${[...workDiffers].join(', ')}]` : ''}  ${short(title)}`,
    );
  }
  if (onlyOne) console.log(`   (${onlyOne} table(s) in one build only)`);
  if (!suiteCells.length) continue;
  const r = suiteCells.map((c) => c.ratio);
  const geo = Math.exp(r.reduce((a, x) => a + Math.log(x || 1e-9), 0) / r.length);
  console.log(
    `   suite: ${tableMedians.length} tables, median of their medians ${fmt(median(tableMedians))}; ${suiteCells.length} cells, median ${fmt(median(r))}, geometric mean ${fmt(geo)}, ${r.filter((x) => x > 1.1).length} cells > 1.10, ${r.filter((x) => x < 1 / 1.1).length} < 0.91`,
  );
  for (const c of [...suiteCells].sort((a, b) => b.ratio - a.ratio).slice(0, TOP)) {
    console.log(`     slowest: ${fmt(c.ratio)}  ${c.oldMedian.toPrecision(3)} -> ${c.newMedian.toPrecision(3)}  [${short(c.row, 50)}] '${c.column}' in ${short(c.table, 60)}`);
  }
  summary.push([name, tableMedians.length, median(tableMedians), suiteCells.length, median(r), geo, Math.min(...r), Math.max(...r)]);
}

if (summary.length) {
  console.log('\nnew/old per suite: the median of its tables\' medians, then over all its timing cells');
  console.log('suite                  tables  median of tables  cells  median  geo mean  (min–max)');
  for (const [n, t, tm, k, m, g, lo, hi] of summary) {
    console.log(`${n.padEnd(22)} ${String(t).padStart(6)}  ${fmt(tm).padStart(16)}  ${String(k).padStart(5)}  ${fmt(m).padStart(6)}  ${fmt(g).padStart(8)}  (${fmt(lo)}–${fmt(hi)})`);
  }
}
if (JSON_OUT) {
  fs.writeFileSync(JSON_OUT, JSON.stringify(all, null, 1) + '\n');
  console.log(`\nwrote ${all.length} cells to ${JSON_OUT}`);
}
