// A small static file server for the repository root on 127.0.0.1 (demos/, dist/, test/).
// Usage: node scripts/serve.mjs [--port 8080]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this script holding package.json (also when bundled into dist/node). */
export const root = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.ipynb': 'application/x-ipynb+json',
  '.py': 'text/plain; charset=utf-8',
  '.brook': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.glsl': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/**
 * Starts serving `dir` on 127.0.0.1:`port` (0 picks a free port); resolves with the server and its URL.
 * A folder without index.html answers `/` with a redirect to its gallery (demos/) where it has one.
 * A notebook of notebooks/observable/ opened as a page (not fetched by the runner) is redirected to
 * the runner, which shows it: the file alone is Notebook Kit's format, not a page a browser runs.
 */
export function serve(dir = root, port = 0) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let file = path.normalize(path.join(dir, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
      if (!url.pathname.endsWith('/')) {
        res.writeHead(301, { Location: url.pathname + '/' }).end();
        return;
      }
      if (url.pathname === '/' && !fs.existsSync(path.join(file, 'index.html')) && fs.existsSync(path.join(dir, 'demos', 'index.html'))) {
        res.writeHead(302, { Location: '/demos/' }).end();
        return;
      }
      file = path.join(file, 'index.html');
    }
    const notebook = /^\/notebooks\/observable\/([^/]+\.html)$/.exec(url.pathname);
    if (notebook && notebook[1] !== 'index.html' && req.headers['sec-fetch-dest'] === 'document') {
      res.writeHead(302, { Location: `/notebooks/observable/?notebook=${encodeURIComponent(notebook[1])}` }).end();
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${url.pathname}`);
        return;
      }
      res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://127.0.0.1:${actual}` });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && path.basename(process.argv[1]) === 'serve.mjs') {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : Number(process.env.PORT ?? 8080);
  const { url } = await serve(root, port);
  console.log(`brookgl: the gallery is at ${url}/demos/ (the repository is served from ${url}/; Ctrl+C to stop)`);
}
