// Where a benchmark's wall time goes, from a Chrome trace (npm run bench -- <suite> --trace F):
// for each performance.measure span whose name matches PATTERN, each host thread's busy time
// (the union of its top-level tasks inside the span) and the events with the most self time.
// Usage: node scripts/trace-summary.mjs TRACE.json [PATTERN] [--top N]
import fs from 'node:fs';
import readline from 'node:readline';

const [file, pattern = '.'] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--top');
const topAt = process.argv.indexOf('--top');
const top = topAt >= 0 ? Number(process.argv[topAt + 1]) : 8;
if (!file) {
  console.error('usage: node scripts/trace-summary.mjs TRACE.json [PATTERN] [--top N]');
  process.exit(2);
}
// one event a line (as Chrome writes a trace): read twice, so that a trace of any size fits
async function* lines() {
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) {
    const t = line.trim().replace(/,$/, '');
    if (t.startsWith('{"') && !t.startsWith('{"traceEvents"')) {
      try {
        yield JSON.parse(t);
      } catch {
        // the last line may carry the closing brackets
        try {
          yield JSON.parse(t.replace(/\]\s*,?\s*("metadata".*)?\}?$/, ''));
        } catch {}
      }
    }
  }
}

const names = new Map(); // "pid:tid" -> thread name
const procs = new Map();
const open = new Map();
const spans = []; // the measure spans: nestable async begin/end pairs of blink.user_timing
for await (const e of lines()) {
  if (e.ph === 'M' && e.name === 'process_name') procs.set(e.pid, e.args.name);
  if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  if (!String(e.cat).includes('blink.user_timing')) continue;
  const k = `${e.id ?? e.id2?.local}:${e.name}`;
  if (e.ph === 'b') open.set(k, e.ts);
  else if (e.ph === 'e') {
    if (open.has(k) && new RegExp(pattern).test(e.name)) spans.push({ name: e.name, t0: open.get(k), t1: e.ts });
    open.delete(k);
  }
}
spans.sort((a, b) => a.t0 - b.t0);
const threadName = (key) => `${procs.get(Number(key.split(':')[0])) ?? '?'}/${names.get(key) ?? key}`;

// complete events that overlap a span, by thread, sorted by start (outer before inner)
const byThread = new Map();
for await (const e of lines()) {
  if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
  if (!spans.some((s) => e.ts < s.t1 && e.ts + e.dur > s.t0)) continue;
  const k = `${e.pid}:${e.tid}`;
  if (!byThread.has(k)) byThread.set(k, []);
  byThread.get(k).push(e);
}
for (const list of byThread.values()) list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);

const ms = (us) => (us / 1000).toFixed(1);
for (const s of spans) {
  const wall = s.t1 - s.t0;
  console.log(`\n${s.name}: ${ms(wall)} ms`);
  const rows = [];
  for (const [k, list] of byThread) {
    // busy: the union of the outermost events, clipped to the span; self: an event's time
    // less its children's (the events that start inside it on the same thread)
    let busy = 0, end = -Infinity;
    const self = new Map();
    const stack = [];
    for (const e of list) {
      const a = Math.max(e.ts, s.t0), b = Math.min(e.ts + e.dur, s.t1);
      if (b <= a) continue;
      if (a >= end) busy += b - a, end = b;
      else if (b > end) busy += b - end, end = b;
      while (stack.length && stack[stack.length - 1].b <= a) stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - (Math.min(b, parent.b) - a));
      self.set(e.name, (self.get(e.name) ?? 0) + (b - a));
      stack.push({ name: e.name, b });
    }
    const incl = self;
    if (busy > 0.02 * wall) rows.push({ k, busy, incl });
  }
  rows.sort((a, b) => b.busy - a.busy);
  for (const r of rows) {
    const tops = [...r.incl].sort((a, b) => b[1] - a[1]).slice(0, top).map(([n, t]) => `${n} ${ms(t)}`);
    console.log(`  ${threadName(r.k).padEnd(44)} busy ${ms(r.busy).padStart(7)} ms (${((100 * r.busy) / wall).toFixed(0)} %)`);
    console.log(`      ${tops.join(' · ')}`);
  }
}
if (spans.length === 0) console.log(`no performance.measure span matches /${pattern}/`);
