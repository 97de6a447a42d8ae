// Tests the static site (scripts/build-site.mjs) as a static host would serve it: site/ alone,
// through a server that knows nothing but files and MIME types. Every link and every src of
// every page must name a file of the site (and a heading, for #anchors into the docs pages);
// every page but the API reference's (their links are checked; a few of them are loaded) is
// loaded in headless Chromium, the gallery pages with ?test=1, failing on any console error,
// page error, failed request or HTTP error. Also checks what `npm start` serves
// (scripts/serve.mjs): / leads to the gallery, JPGs are image/jpeg, a notebook opened as a page
// reaches its runner.
// Usage: node scripts/test-site.mjs [--site site] [--gpu]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { launch } from './browser.mjs';
import { serve as serveRepository, root } from './serve.mjs';

const siteAt = process.argv.indexOf('--site');
const site = path.resolve(root, siteAt > 0 ? process.argv[siteAt + 1] : 'site');
const started = Date.now();
let passed = 0;
let failed = 0;
const check = (ok, what, detail = '') => {
  if (ok) passed++;
  else failed++;
  if (!ok) console.log(`✗ ${what}${detail ? `\n    ${detail}` : ''}`);
};

if (!fs.existsSync(path.join(site, 'index.html'))) {
  console.error(`test-site: ${path.relative(root, site)}/index.html is missing; run \`npm run build:site\` first`);
  process.exit(1);
}

// 1. What `npm start` serves.
{
  const { server, url } = await serveRepository(root, 0);
  try {
    const get = (p, headers = {}) => fetch(url + p, { redirect: 'manual', headers });
    const home = await get('/');
    check(home.status === 302 && home.headers.get('location') === '/demos/', 'npm start: / redirects to the gallery', `${home.status} ${home.headers.get('location')}`);
    const jpg = await get('/demos/img/filter.jpg');
    check(jpg.status === 200 && jpg.headers.get('content-type') === 'image/jpeg', 'npm start: a JPG is served as image/jpeg', `${jpg.status} ${jpg.headers.get('content-type')}`);
    const nb = await get('/notebooks/observable/brookgl.html', { 'sec-fetch-dest': 'document' });
    check(nb.status === 302 && nb.headers.get('location') === '/notebooks/observable/?notebook=brookgl.html', 'npm start: a notebook opened as a page redirects to its runner', `${nb.status} ${nb.headers.get('location')}`);
    const raw = await get('/notebooks/observable/brookgl.html', { 'sec-fetch-dest': 'empty' });
    check(raw.status === 200 && /<notebook\b/.test(await raw.text()), 'npm start: the runner still fetches the notebook file');
  } finally {
    server.close();
  }
}

// 2. Every page's links and sources name files of the site.
const pages = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.html')) pages.push(path.relative(site, p).split(path.sep).join('/'));
  }
};
walk(site);
const idsOf = new Map();
const ids = (file) => {
  if (!idsOf.has(file)) idsOf.set(file, new Set([...fs.readFileSync(path.join(site, file), 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
  return idsOf.get(file);
};
const resolveFile = (p) => {
  const full = path.join(site, p);
  if (fs.existsSync(full) && fs.statSync(full).isDirectory()) return fs.existsSync(path.join(full, 'index.html')) ? path.posix.join(p, 'index.html') : null;
  return fs.existsSync(full) ? p : null;
};
let links = 0;
const broken = [];
for (const page of pages) {
  const html = fs.readFileSync(path.join(site, page), 'utf8').replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, (s) => (/\ssrc=/.test(s.slice(0, s.indexOf('>'))) ? s.slice(0, s.indexOf('>') + 1) : ''));
  for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const ref = m[1].replace(/&amp;/g, '&');
    if (!ref || /^(?:[a-z][a-z0-9+.-]*:|\/\/|#$)/i.test(ref)) continue;
    links++;
    const [beforeHash, hash] = ref.split('#');
    const target = beforeHash.split('?')[0];
    const file = target ? resolveFile(path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(target)))) : page;
    if (!file || file.startsWith('..')) broken.push(`${page}: ${ref}`);
    else if (hash && !page.startsWith('api/') && file.endsWith('.html') && !ids(file).has(decodeURIComponent(hash))) broken.push(`${page}: ${ref} (no such heading)`);
  }
}
check(broken.length === 0, `${links} links and sources in ${pages.length} pages name files of the site`, broken.slice(0, 20).join('\n    '));

// The home page's pictures (README's hero row) have one size, and every page but the API
// reference's (TypeDoc's own) and the notebook files (which send the reader to their runner) names
// the site's icon.
{
  const sizes = [...fs.readFileSync(path.join(site, 'index.html'), 'utf8').matchAll(/<img\b[^>]*\ssrc="([^"]+\.jpg)"/g)].map((m) => `${m[1]} ${jpegSize(fs.readFileSync(path.join(site, m[1])))}`);
  check(sizes.length >= 2 && new Set(sizes.map((s) => s.split(' ')[1])).size === 1, "the home page's pictures have one size", sizes.join(', '));
  const iconless = pages.filter((p) => !p.startsWith('api/') && !/^notebooks\/observable\/(?!index\.html$)/.test(p) && !/<link rel="icon" href="[^"]*favicon\.svg"/.test(fs.readFileSync(path.join(site, p), 'utf8')));
  check(iconless.length === 0 && fs.existsSync(path.join(site, 'demos/img/favicon.svg')), 'every page names the favicon (demos/img/favicon.svg)', iconless.slice(0, 10).join(', '));
}

// 3. site/ alone, served as a static host would, every page loaded in Chromium.
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.map': 'application/json', '.svg': 'image/svg+xml', '.jpg': 'image/jpeg', '.png': 'image/png', '.ipynb': 'application/x-ipynb+json' };
const server = http.createServer((req, res) => {
  let file = path.join(site, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (!file.startsWith(site)) return res.writeHead(403).end();
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  fs.readFile(file, (err, data) => (err ? res.writeHead(404).end('not found') : res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream' }).end(data)));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const apiSample = new Set(['api/index.html', 'api/hierarchy.html']);
for (const dir of ['classes', 'functions', 'interfaces', 'types', 'variables', 'modules']) {
  const first = pages.find((p) => p.startsWith(`api/${dir}/`));
  if (first) apiSample.add(first);
}
// the runner's own page runs the notebook that notebooks/observable/brookgl.html redirects to
const toLoad = pages.filter((p) => (!p.startsWith('api/') || apiSample.has(p)) && p !== 'notebooks/observable/index.html').sort();
const { browser, page: first, close } = await launch({ origin });
// a stuck page (a renderer busy in a long draw) fails the run instead of hanging it
const limit = setTimeout(() => {
  console.error('test-site: pages still loading after 10 minutes; giving up');
  close().finally(() => process.exit(1));
}, 600_000);
try {
  await first.close();
  for (const p of toLoad) {
    const page = await browser.newPage(); // a tab per page: closing it stops whatever the page still does
    const problems = [];
    // the browser's own favicon probe is not the page's request (TypeDoc's pages name no icon)
    const own = (u) => !/\/favicon\.ico$/.test(u);
    const onConsole = (m) => m.type() === 'error' && own(m.location()?.url ?? '') && problems.push(`console: ${m.text()} ${m.location()?.url ?? ''}`);
    const onError = (e) => problems.push(`page error: ${e.message}`);
    const onFailed = (r) => !/^data:/.test(r.url()) && problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
    const onResponse = (r) => r.status() >= 400 && own(r.url()) && problems.push(`HTTP ${r.status()}: ${r.url()}`);
    page.on('console', onConsole).on('pageerror', onError).on('requestfailed', onFailed).on('response', onResponse);
    const t0 = Date.now();
    const address = `${origin}/${p.replace(/index\.html$/, '')}${p.startsWith('demos/') ? '?test=1' : ''}`;
    try {
      await page.goto(address, { waitUntil: 'load', timeout: 120_000 });
      // the gallery and notebook pages fetch what they show after loading; the others are static
      if (/^(demos|notebooks)\//.test(p)) await page.waitForNetworkIdle({ idleTime: 250, timeout: 120_000 });
      if (p.startsWith('notebooks/observable/')) {
        await page.waitForFunction(() => window.__notebookResults?.done, { timeout: 240_000 });
        const cells = await page.evaluate(() => window.__notebookResults.cells);
        for (const c of cells.filter((c) => !c.ok)) problems.push(`notebook cell ${c.name}: ${c.detail}`);
        if (!p.endsWith('/index.html')) check(page.url().includes('?notebook='), `${p} opened as a page reaches the runner`, page.url());
      }
    } catch (e) {
      problems.push(String(e.message ?? e));
    }
    page.off('console', onConsole).off('pageerror', onError).off('requestfailed', onFailed).off('response', onResponse);
    await page.close();
    check(problems.length === 0, `${p} loads without errors`, problems.slice(0, 8).join('\n    '));
    if (!problems.length) console.log(`✓ ${p} (${Date.now() - t0} ms)`);
  }
} finally {
  clearTimeout(limit);
  await close();
  server.close();
}
console.log(`\nsite: ${toLoad.length} of ${pages.length} pages loaded, ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

/** A JPEG's "WIDTHxHEIGHT", from its first start-of-frame marker. */
function jpegSize(b) {
  for (let i = 2; i + 9 < b.length; ) {
    if (b[i] !== 0xff) return '?';
    const marker = b[i + 1];
    const length = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return `${b.readUInt16BE(i + 7)}x${b.readUInt16BE(i + 5)}`;
    i += 2 + length;
  }
  return '?';
}
