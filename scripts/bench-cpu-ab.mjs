// A before/after of the CPU backend's speed in one Node process: the benchmark work
// (test/cpu/bench-work.ts) of two builds, each bundled by scripts/bench-cpu-build.mjs into its
// tree's dist/bench/cpu-work.node.mjs, run alternately (old, new, hand loop; then new, old, hand
// loop) for ROUNDS rounds of REPS runs, so that drift of a shared machine falls on both alike.
// The hand-written loops are the new build's. Prints wall-clock and CPU-time tables: median
// (10th–90th percentile) of all runs, ratios of medians.
// Usage: node scripts/bench-cpu-ab.mjs OLD.mjs NEW.mjs [ROUNDS=6] [REPS=5]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [oldFile, newFile, roundsArg, repsArg] = process.argv.slice(2);
if (!oldFile || !newFile) {
  console.error('usage: node scripts/bench-cpu-ab.mjs OLD.mjs NEW.mjs [ROUNDS] [REPS]');
  process.exit(2);
}
const libs = { old: await import(pathToFileURL(path.resolve(oldFile)).href), new: await import(pathToFileURL(path.resolve(newFile)).href) };
const rounds = Number(roundsArg ?? 6);
const reps = Number(repsArg ?? 5);
const names = libs.new.WORK.map((w) => w.name);
const wall = {};
const cpu = {};
const setups = {};
for (const [k, lib] of Object.entries(libs)) {
  const ctx = lib.createContext({ backend: 'cpu' });
  setups[k] = lib.WORK.map((w) => w.setup(ctx));
}
const hands = libs.new.WORK.map((w) => w.hand());
for (let r = 0; r < rounds; r++) {
  for (let w = 0; w < names.length; w++) {
    for (const k of r % 2 ? ['new', 'old', 'hand'] : ['old', 'new', 'hand']) {
      const run = k === 'hand' ? hands[w].run : setups[k][w].run;
      run();
      for (let i = 0; i < reps; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        run();
        const t1 = performance.now();
        const d = process.cpuUsage(c0);
        (wall[`${w}/${k}`] ??= []).push(t1 - t0);
        (cpu[`${w}/${k}`] ??= []).push((d.user + d.system) / 1000);
      }
    }
  }
}
const stat = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return { med: s[s.length >> 1], lo: s[Math.floor(s.length * 0.1)], hi: s[Math.ceil(s.length * 0.9) - 1] };
};
const fmt = (x) => `${x.med.toFixed(2)} (${x.lo.toFixed(2)}–${x.hi.toFixed(2)})`;
for (const [label, T] of [['wall clock', wall], ['CPU time', cpu]]) {
  console.log(`\n${label}, ms: median (10th–90th percentile) of ${rounds * reps} runs`);
  console.log('| work | before | after | hand loop | before / hand | after / hand | after / before |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (let w = 0; w < names.length; w++) {
    const o = stat(T[`${w}/old`]);
    const n = stat(T[`${w}/new`]);
    const h = stat(T[`${w}/hand`]);
    console.log(`| ${names[w]} | ${fmt(o)} | ${fmt(n)} | ${fmt(h)} | ${(o.med / h.med).toFixed(2)}x | ${(n.med / h.med).toFixed(2)}x | ${(n.med / o.med).toFixed(2)} |`);
  }
}
