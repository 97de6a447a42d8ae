// Draws the plots of every recorded benchmark (bench-results/NAME.json) again with the current
// plot code (src/view/plot.ts, through dist/), so the committed SVGs match what the pages draw:
// colours by method name, every decade labelled. Usage: node scripts/build.mjs && node scripts/replot.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { linePlot } = await import(path.join(root, 'dist/brookgl.js'));
const dir = path.join(root, 'bench-results');
let n = 0;
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json')) {
  const rec = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const plots = rec.plots ?? [];
  const name = file.replace(/\.json$/, '');
  if (!fs.existsSync(path.join(dir, `${name}${plots.length > 1 ? '-1' : ''}.svg`))) continue; // only the plots bench.mjs wrote
  plots.forEach((p, i) => {
    fs.writeFileSync(path.join(dir, `${name}${plots.length > 1 ? `-${i + 1}` : ''}.svg`), linePlot(p));
    n++;
  });
}
console.log(`redrew ${n} plots in ${path.relative(process.cwd(), dir) || '.'}`);
