// The puzzle book's failure diagnosis as pictures: opens demos/puzzles/, puts Horn's Scan step
// as printed (`here > twotoi`, puzzle 7's off-by-one) in the editor, clicks Check, and saves
// the puzzle's section as docs/img/puzzles-failure.png and a 480 × 320 crop of the diagnosis as
// the gallery's thumbnail, demos/img/puzzles.jpg. Needs a build (node scripts/build.mjs).
// Usage: node scripts/puzzles-shot.mjs [--gpu]
import fs from 'node:fs';
import path from 'node:path';
import { serve, root } from './serve.mjs';
import { launch } from './browser.mjs';

const { server, url } = await serve(root, 0);
const { page, close } = await launch({ origin: url });
try {
  await page.setViewport({ width: 1100, height: 900 });
  await page.goto(`${url}/demos/puzzles/?test=1`);
  await page.waitForFunction(() => window.__demoReady === true, { timeout: 120_000 });
  await page.evaluate(async () => {
    document.getElementById('reset').click();
    document.querySelector('a.view-source')?.remove(); // the floating link would cover the trace in the picture
    const { PUZZLES } = await import('../../dist/brookgl.js');
    const area = document.getElementById('src-7');
    area.value = PUZZLES[6].wrong[0].source;
    document.getElementById('check-7').click();
  });
  await page.waitForFunction(() => !window.__demoBusy && document.querySelector('#result-7 .verdict'), { timeout: 120_000 });
  const section = await page.$('#p-7');
  await section.screenshot({ path: path.join(root, 'docs/img/puzzles-failure.png') });
  const png = await (await page.$('#result-7')).screenshot({ encoding: 'base64' });
  const jpeg = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [480, 320];
    const srcW = Math.min(img.width, 720);
    c.getContext('2d').drawImage(img, 0, 0, srcW, (srcW * 2) / 3, 0, 0, 480, 320);
    return c.toDataURL('image/jpeg', 0.85).split(',')[1];
  }, png);
  fs.writeFileSync(path.join(root, 'demos/img/puzzles.jpg'), Buffer.from(jpeg, 'base64'));
  await page.evaluate(() => document.getElementById('reset').click());
  console.log('wrote docs/img/puzzles-failure.png and demos/img/puzzles.jpg');
} finally {
  await close();
  server.close();
}
