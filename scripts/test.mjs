// Runs the mocha specs inside headless Chromium: serves the repository on 127.0.0.1, opens
// test/index.html, streams each result here, and ends with "N passed, N failed".
// Options: --grep <pattern>, --gpu (hardware renderer instead of SwiftShader).
import fs from 'node:fs';
import path from 'node:path';
import { serve, root } from './serve.mjs';
import { launch, checkRenderer } from './browser.mjs';

const grepAt = process.argv.indexOf('--grep');
const grep = grepAt > 0 ? process.argv[grepAt + 1] : '';
const started = Date.now();
const { server, url } = await serve(root, 0);
const { page, close, gpu } = await launch({ origin: url });
let passed = 0;
let failed = 0;
let pending = 0;
let exitCode = 1;
try {
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  page.on('error', (e) => console.error(`page crashed: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') console.error(`[browser ${m.type()}] ${m.text()}`);
  });
  const done = new Promise((resolve) => {
    page.exposeFunction('__brookReport', (e) => {
      if (e.type === 'suite') console.log(`${'  '.repeat(e.depth)}${e.title}`);
      else if (e.type === 'pass') {
        passed++;
        console.log(`${'  '.repeat(e.depth)}✓ ${e.title} (${e.duration} ms)`);
      } else if (e.type === 'fail') {
        failed++;
        console.log(`${'  '.repeat(e.depth)}✗ ${e.title}\n${indent(e.error, e.depth + 2)}`);
      } else if (e.type === 'pending') {
        pending++;
        console.log(`${'  '.repeat(e.depth)}- ${e.title} (skipped${e.reason ? `: ${e.reason}` : ''})`);
      } else if (e.type === 'info') {
        console.log(e.text);
      } else if (e.type === 'end') resolve();
    });
  });
  await page.goto(`${url}/test/index.html?grep=${encodeURIComponent(grep)}`);
  const renderer = await page.evaluate(() => window.__brookRenderer ?? 'unknown');
  console.log(`renderer: ${renderer}`);
  checkRenderer(renderer, gpu);
  await done;
  if (!grep || 'demos'.includes(grep)) await loadDemos(page, url);
  exitCode = failed > 0 ? 1 : 0;
} catch (e) {
  console.error(String(e?.stack ?? e));
  failed++;
} finally {
  await close();
  server.close();
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\n${pending} skipped, ${secs} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);

/**
 * Opens every page of the gallery in the test page (one page for the whole run: see
 * browser.mjs); a page passes when it sets window.__demoReady without errors.
 */
async function loadDemos(page, url) {
  console.log('demos (every page in demos/ loads and runs)');
  const pages = fs
    .readdirSync(path.join(root, 'demos'), { recursive: true })
    .filter((f) => f.endsWith('index.html'))
    .sort();
  for (const file of pages) {
    const errors = [];
    const onError = (e) => errors.push(e.message);
    const onConsole = (m) => m.type() === 'error' && errors.push(m.text());
    page.on('pageerror', onError);
    page.on('console', onConsole);
    const t0 = Date.now();
    try {
      await page.goto(`${url}/demos/${file}`);
      await page.waitForFunction(() => window.__demoReady === true, { timeout: 120_000 });
      const shown = await page.evaluate(() => document.querySelector('.error')?.textContent ?? '');
      if (shown) errors.push(shown);
    } catch (e) {
      errors.push(String(e.message ?? e));
    }
    page.off('pageerror', onError);
    page.off('console', onConsole);
    if (errors.length) {
      failed++;
      console.log(`  ✗ demos/${file}\n${indent(errors.join('\n'), 3)}`);
    } else {
      passed++;
      console.log(`  ✓ demos/${file} (${Date.now() - t0} ms)`);
    }
  }
}

function indent(text, depth) {
  return String(text)
    .split('\n')
    .map((l) => '  '.repeat(depth) + l)
    .join('\n');
}
