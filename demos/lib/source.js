// The "View source" page: ?files=a,b,... (paths under demos/) fetched and listed with line
// numbers, each followed by the relative modules it imports (../lib/demo.js, ...) as links that
// open here too. ?page= is the page the files come from, for the back link.
const params = new URLSearchParams(location.search);
const files = (params.get('files') ?? '').split(',').filter(Boolean);
const page = params.get('page');
const $ = (id) => document.getElementById(id);

/** A path under demos/ that stays there (no scheme, no way above the repository root). */
const safe = (f) => /^[\w./-]+$/.test(f) && !f.startsWith('/') && !f.split('/').slice(0, 2).every((p) => p === '..');

/** Resolves an import specifier of `file` (both relative to demos/) to a demos/-relative path. */
function resolve(file, spec) {
  const parts = file.split('/').slice(0, -1);
  for (const p of spec.split('/')) {
    if (p === '..') parts.length ? parts.pop() : parts.push('..');
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

const viewerLink = (list, text) => Object.assign(document.createElement('a'), { href: `?files=${list.join(',')}${page ? `&page=${encodeURIComponent(page)}` : ''}`, textContent: text });

async function show() {
  if (page) {
    $('back').href = `../${page}`;
    $('back').textContent = `← back to the page (${page})`;
    $('title').textContent = `Source of ${page}`;
  }
  if (!files.length) throw new Error('source: no files given (?files=filter/index.html,filter/filter.js)');
  const bad = files.filter((f) => !safe(f));
  if (bad.length) throw new Error(`source: refusing ${bad.join(', ')} (only files of this repository, by relative path)`);
  $('files').replaceChildren(...files.map((f) => Object.assign(document.createElement('a'), { href: `#${f}`, textContent: f })));
  for (const f of files) {
    const res = await fetch(`../${f}`);
    if (!res.ok) throw new Error(`source: ../${f}: ${res.status} ${res.statusText}`);
    const text = await res.text();
    const h = Object.assign(document.createElement('h2'), { id: f, textContent: f });
    const raw = Object.assign(document.createElement('a'), { href: `../${f}`, textContent: 'raw' });
    raw.style.fontSize = '0.6em';
    h.append(' ', raw);
    const pre = document.createElement('pre');
    pre.className = 'listing';
    pre.append(...text.replace(/\n$/, '').split('\n').map((line) => Object.assign(document.createElement('span'), { textContent: line })));
    const imports = f.endsWith('.js') ? [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => resolve(f, m[1])) : [];
    const uses = document.createElement('p');
    if (imports.length) uses.append('Imports: ', ...imports.flatMap((i, k) => [k ? ', ' : '', i.startsWith('../dist/') ? i : viewerLink([i], i)]));
    $('listings').append(h, pre, uses);
  }
  window.__sourceReady = true;
}

show().catch((e) => {
  $('error').textContent = e.message;
  window.__sourceReady = true;
});
