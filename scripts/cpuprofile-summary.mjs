// The functions that took most of a V8 CPU profile's time (npm run bench -- <suite>
// --cpu-profile DIR): self time by function and place, and the whole time of the profile.
// Usage: node scripts/cpuprofile-summary.mjs FILE.cpuprofile [--top N]
import fs from 'node:fs';

const file = process.argv[2];
const topAt = process.argv.indexOf('--top');
const top = topAt >= 0 ? Number(process.argv[topAt + 1]) : 15;
if (!file) {
  console.error('usage: node scripts/cpuprofile-summary.mjs FILE.cpuprofile [--top N]');
  process.exit(2);
}
const { nodes, samples, timeDeltas, startTime, endTime } = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(nodes.map((n) => [n.id, n]));
const self = new Map();
// each sample's time is the delta to the next one
for (let i = 0; i < samples.length; i++) {
  const n = byId.get(samples[i]);
  const dt = (timeDeltas[i + 1] ?? 0) / 1000;
  const f = n.callFrame;
  const where = f.url ? `${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + dt);
}
const total = (endTime - startTime) / 1000;
console.log(`${file}: ${total.toFixed(1)} ms, ${samples.length} samples`);
for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${k}`);
