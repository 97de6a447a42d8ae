// `npm run build:site`: one self-contained folder, site/ (git-ignored), that any static web host
// can serve: README as the home page, docs/*.md as HTML, the API reference (dist/api, from
// `npm run docs:api`), the gallery and paper pages (demos/), the benchmark page with its
// recordings (bench-results/), the notebooks (the .ipynb files to download and the Observable-style
// runner) and what the pages fetch: the library (dist/), the models (data/), and the sources the
// paper pages show beside their listings (src/, glsl/).
// Usage: node scripts/build-site.mjs [--out site]   (run after the build and docs:api)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outAt = process.argv.indexOf('--out');
const out = path.resolve(root, outAt > 0 ? process.argv[outAt + 1] : 'site');

/** The docs pages, in the order the navigation lists them: [file in docs/, title]. */
const DOCS = [
  ['guide.md', 'Guide'],
  ['brook.md', 'Brook language'],
  ['architecture.md', 'Architecture'],
  ['errors-and-limits.md', 'Errors and limits'],
  ['gpu.md', 'On your own GPU'],
  ['benchmarks.md', 'Benchmarks'],
  ['gallery.md', 'Gallery'],
  ['puzzles.md', 'Puzzles (for teachers)'],
  ['notebooks.md', 'Notebooks'],
  ['maintainers.md', 'For maintainers'],
];

/** Folders and files copied as they are (relative to the repository root). */
const COPY = ['demos', 'bench-results', 'data', 'src', 'glsl', 'notebooks/observable', 'docs/img', 'LICENSE'];
/** What of dist/ the pages load (the test bundles and declarations stay behind). */
const DIST = ['brookgl.js', 'brookgl.js.map', 'brookgl.iife.js', 'brookgl.iife.min.js', 'vendor'];

const started = Date.now();
for (const f of ['dist/brookgl.js', 'dist/api/index.html']) {
  if (!fs.existsSync(path.join(root, f))) {
    console.error(`build:site: ${f} is missing; run \`npm run build\` and \`npm run docs:api\` first (npm run build:site does both)`);
    process.exit(1);
  }
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const copy = (from, to = from) => fs.cpSync(path.join(root, from), path.join(out, to), { recursive: true, filter: (f) => !/(^|\/)(__pycache__|\.DS_Store)$/.test(f) && !f.endsWith('.tmp') });
for (const p of COPY) copy(p);
for (const p of DIST) copy(path.join('dist', p));
copy('dist/api', 'api');
for (const f of fs.readdirSync(path.join(root, 'notebooks/jupyter')).filter((f) => f.endsWith('.ipynb'))) copy(path.join('notebooks/jupyter', f));

// A notebook file opened as a page is Notebook Kit's format, not a page a browser runs: send the
// reader to the runner (a script outside <notebook>, which the runner and Notebook Kit skip).
const observable = path.join(out, 'notebooks/observable');
for (const f of fs.readdirSync(observable).filter((f) => f.endsWith('.html') && f !== 'index.html')) {
  const file = path.join(observable, f);
  const text = fs.readFileSync(file, 'utf8');
  const redirect = `<script>location.replace('./?notebook=' + encodeURIComponent(${JSON.stringify(f)}));</script>\n`;
  fs.writeFileSync(file, text.replace(/<notebook\b/, (m) => redirect + m));
}

// Markdown: GitHub-style heading ids, and links to .md files made links to the pages built here.
const slug = (text) => text.toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function markdownPage(source, { title, depth, from }) {
  const seen = new Map();
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading({ tokens, depth: level }) {
        const html = this.parser.parseInline(tokens);
        let id = slug(html.replace(/&[a-z#0-9]+;/g, ''));
        const n = seen.get(id) ?? 0;
        seen.set(id, n + 1);
        if (n) id += `-${n}`;
        return `<h${level} id="${id}">${html}</h${level}>\n`;
      },
    },
    walkTokens(token) {
      if ((token.type === 'link' || token.type === 'image') && !/^[a-z]+:|^#|\?/i.test(token.href)) token.href = siteHref(token.href, from);
    },
  });
  const body = marked.parse(source)
    // raw HTML in the Markdown (README's pictures) keeps its repository-relative addresses: they are the site's too
    .replace(/(<(?:img|a)\b[^>]*\b(?:src|href)=")([^"#:]+\.md)(#[^"]*)?"/g, (_, a, p, h) => `${a}${siteHref(p, from)}${h ?? ''}"`);
  return page({ title, depth, body });
}

/** A repository-relative link in the Markdown file `from` as an address in the site. */
function siteHref(href, from) {
  const [p, hash] = href.split('#');
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), p));
  let mapped = target;
  if (target === 'README.md') mapped = 'index.html';
  else if (target.endsWith('.md')) mapped = target.replace(/\.md$/, '.html');
  else if (target === 'dist/api' || target.startsWith('dist/api/')) mapped = target.replace(/^dist\/api/, 'api');
  const rel = path.posix.relative(path.posix.dirname(from), mapped) || '.';
  const withSlash = p.endsWith('/') && !rel.endsWith('/') ? rel + '/' : rel;
  return withSlash + (hash !== undefined ? `#${hash}` : '');
}

function page({ title, depth, body }) {
  const up = '../'.repeat(depth);
  const nav = [
    ['index.html', 'brookgl'],
    ['demos/', 'Gallery'],
    ['demos/papers/horn-36/', 'Papers'],
    ['demos/bench/', 'Benchmarks'],
    ['docs/', 'Docs'],
    ['api/', 'API'],
    ['notebooks/', 'Notebooks'],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${up}demos/img/favicon.svg" type="image/svg+xml">
<title>${escape(title)}</title>
<style>
body { font: 16px/1.55 system-ui, sans-serif; margin: 0 auto; max-width: 980px; padding: 0 1em 3em; color: #222; }
nav { border-bottom: 1px solid #ddd; padding: 0.7em 0; margin-bottom: 1em; }
nav a { margin-right: 1.1em; text-decoration: none; }
nav a:first-child { font-weight: 600; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; background: #f3f4f6; padding: 0 0.2em; }
pre { background: #f6f8fa; border: 1px solid #ddd; padding: 0.7em; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; font-size: 0.9em; display: block; overflow-x: auto; }
td, th { border: 1px solid #ddd; padding: 3px 8px; vertical-align: top; }
img { max-width: 100%; }
</style>
</head>
<body>
<nav>${nav.map(([href, text]) => `<a href="${up}${href}">${text}</a>`).join('')}</nav>
<main>
${body}
</main>
</body>
</html>
`;
}

const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');
fs.writeFileSync(path.join(out, 'index.html'), markdownPage(read('README.md'), { title: 'brookgl', depth: 0, from: 'README.md' }));
fs.mkdirSync(path.join(out, 'docs'), { recursive: true });
for (const [file, title] of DOCS) {
  fs.writeFileSync(path.join(out, 'docs', file.replace(/\.md$/, '.html')), markdownPage(read(path.join('docs', file)), { title: `${title} — brookgl`, depth: 1, from: `docs/${file}` }));
}
const unlisted = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md') && !DOCS.some(([d]) => d === f));
for (const file of unlisted) {
  const title = /^#\s+(.*)$/m.exec(read(path.join('docs', file)))?.[1] ?? file;
  DOCS.push([file, title]);
  fs.writeFileSync(path.join(out, 'docs', file.replace(/\.md$/, '.html')), markdownPage(read(path.join('docs', file)), { title: `${title} — brookgl`, depth: 1, from: `docs/${file}` }));
}
// The Markdown files stay beside their pages (a script may fetch or link one); the gallery's and
// the notebooks' own HTML links to them are pointed at the pages.
for (const [file] of DOCS) copy(path.join('docs', file));
copy('README.md');
const pointAtPages = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) pointAtPages(file);
    else if (e.name.endsWith('.html')) {
      const from = path.relative(out, file).split(path.sep).join('/');
      const text = fs.readFileSync(file, 'utf8');
      const next = text.replace(/(\shref=")([^"#:?]+\.md)((?:#[^"]*)?")/g, (m, a, p, rest) => {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), p));
        return target === 'README.md' || /^docs\/[^/]+\.md$/.test(target) ? a + siteHref(p, from) + rest : m;
      });
      if (next !== text) fs.writeFileSync(file, next);
    }
  }
};
pointAtPages(path.join(out, 'demos'));
pointAtPages(path.join(out, 'notebooks/observable'));
const docsIndex = `# Documentation\n\n${DOCS.map(([f, t]) => `- [${t}](${f})`).join('\n')}\n- [API reference](../api/index.html), generated from the TSDoc comments\n`;
fs.writeFileSync(path.join(out, 'docs/index.html'), markdownPage(docsIndex, { title: 'Documentation — brookgl', depth: 1, from: 'docs/index.md' }));

// The notebooks' page: the runner's notebooks to open, the Jupyter notebooks to download.
const ipynb = fs.readdirSync(path.join(out, 'notebooks/jupyter')).sort();
const kit = fs.readdirSync(observable).filter((f) => f.endsWith('.html') && f !== 'index.html').sort();
const notebooksMd = `# Notebooks

brookgl runs in the browser that shows the notebook; see [the notebooks guide](../docs/notebooks.html)
for Jupyter and Observable.

## In this browser

${kit.map((f) => `- [${f}](observable/?notebook=${encodeURIComponent(f)}): run it here, cell by cell (Observable Notebook Kit's format; <a href="observable/${f}" download>download the file</a>)`).join('\n')}

## Jupyter

Download a notebook, then \`pip install ./python\` from a checkout of the repository and open it in
Jupyter (\`jupyter notebook\`, JupyterLab or VS Code).

${ipynb.map((f) => `- <a href="jupyter/${f}" download>${f}</a>`).join('\n')}
`;
fs.writeFileSync(path.join(out, 'notebooks/index.html'), markdownPage(notebooksMd, { title: 'Notebooks — brookgl', depth: 1, from: 'notebooks/index.md' }));

let files = 0;
let bytes = 0;
const walk = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    if (e.isDirectory()) walk(path.join(d, e.name));
    else {
      files++;
      bytes += fs.statSync(path.join(d, e.name)).size;
    }
  }
};
walk(out);
console.log(`build:site: ${path.relative(root, out) || out}/ holds ${files} files, ${(bytes / 2 ** 20).toFixed(1)} MiB (${Date.now() - started} ms); serve it with any static server, e.g. python3 -m http.server --directory ${path.relative(root, out)} 8080`);
