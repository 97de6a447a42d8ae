// A small runner for notebooks in Observable Notebook Kit's file format (an HTML file whose
// <notebook> holds <script> cells: type="text/markdown", "text/html" and "module"), so the
// repository's notebooks open from `npm start` with no build step. It follows the format's
// surface, not Observable's reactive runtime: cells run once, top to bottom; a JavaScript cell's
// top-level declarations are visible to later cells; display(value) shows a value under the
// cell (a DOM node as is, anything else as text); `import ... from "url"` lines become dynamic
// imports resolved against the notebook's URL. Notebook Kit itself (`npx notebooks preview`)
// opens the same files reactively.
//
// For the test driver it sets window.__notebookResults = { done, cells }, where cells is the
// notebook's top-level `checks` array ({ name, ok, detail }) when it defines one.

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;

/** Loads the notebook at `url` (relative to this page) into `target` and runs it. */
export async function runNotebook(url, target) {
  const base = new URL(url, location.href);
  const text = await (await fetch(base)).text();
  const doc = new DOMParser().parseFromString(text, 'text/html');
  const notebook = doc.querySelector('notebook');
  if (!notebook) throw new Error(`${url} has no <notebook> element`);
  document.title = notebook.querySelector('title')?.textContent ?? document.title;
  const scope = {};
  for (const script of notebook.querySelectorAll('script')) {
    const cell = document.createElement('section');
    cell.className = 'cell';
    target.append(cell);
    const source = dedent(script.textContent.replace(/<\\\/script>/g, '</script>'));
    const type = script.getAttribute('type') ?? 'module';
    if (type === 'text/markdown') cell.innerHTML = markdown(source);
    else if (type === 'text/html') cell.innerHTML = source;
    else if (type === 'module') {
      if (script.hasAttribute('pinned')) {
        const pre = document.createElement('pre');
        pre.className = 'source';
        pre.textContent = source;
        cell.append(pre);
      }
      const out = document.createElement('div');
      out.className = 'output';
      cell.append(out);
      try {
        await runCell(source, scope, out, base);
      } catch (e) {
        const err = document.createElement('pre');
        err.className = 'error';
        err.textContent = String(e?.stack ?? e);
        out.append(err);
        throw e;
      }
    }
  }
  return scope;
}

async function runCell(source, scope, out, base) {
  const display = (value) => {
    if (value instanceof Node) out.append(value);
    else if (typeof value === 'string' && /^\s*<svg[\s>]/.test(value)) out.insertAdjacentHTML('beforeend', value);
    else out.append(Object.assign(document.createElement('pre'), { textContent: typeof value === 'string' ? value : JSON.stringify(value, null, 1) }));
    return value;
  };
  // static imports -> dynamic ones, resolved against the notebook's own URL
  const body = source.replace(/^import\s+(.+?)\s+from\s+(['"])(.+?)\2;?\s*$/gm, (_, what, q, spec) => {
    const url = /^(\.|\/)/.test(spec) ? new URL(spec, base).href : spec;
    const star = /^\*\s+as\s+(\w+)$/.exec(what.trim());
    return star ? `const ${star[1]} = await import(${JSON.stringify(url)});` : `const ${what.replace(/\s+as\s+/g, ': ')} = await import(${JSON.stringify(url)});`;
  });
  const names = topLevelNames(body);
  const known = Object.keys(scope);
  const fn = new AsyncFunction('display', ...known, `${body}\nreturn { ${names.join(', ')} };`);
  Object.assign(scope, await fn(display, ...known.map((k) => scope[k])));
}

/** Names declared at the cell's top level (lines without indentation). */
function topLevelNames(body) {
  const names = new Set();
  for (const line of body.split('\n')) {
    let m = /^(?:const|let|var)\s+(?:\{([^}]*)\}|\[([^\]]*)\])\s*=/.exec(line);
    if (m) for (const part of (m[1] ?? m[2]).split(',')) { const n = part.split(':').pop().trim().split('=')[0].replace('...', '').trim(); if (n) names.add(n); }
    else if ((m = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)/.exec(line))) names.add(m[1]);
    else if ((m = /^(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)/.exec(line))) names.add(m[1]);
    else if ((m = /^class\s+([A-Za-z_$][\w$]*)/.exec(line))) names.add(m[1]);
  }
  return [...names];
}

function dedent(text) {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** Enough Markdown for prose: headings, paragraphs, lists, `code`, **bold**, *italic*, [links](…), fenced code. */
function markdown(text) {
  const esc = (s) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  const inline = (s) =>
    esc(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
      .replace(/\*([^*]+)\*/g, '<i>$1</i>')
      .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>');
  const out = [];
  const blocks = text.split(/\n```/);
  blocks.forEach((block, i) => {
    if (i % 2 === 1) {
      const [, ...code] = block.split('\n');
      out.push(`<pre>${esc(code.join('\n'))}</pre>`);
      return;
    }
    for (const para of block.split(/\n\s*\n/)) {
      const p = para.trim();
      if (!p) continue;
      const h = /^(#{1,4})\s+(.*)$/s.exec(p);
      if (h) out.push(`<h${h[1].length}>${inline(h[2])}</h${h[1].length}>`);
      else if (/^[-*]\s/.test(p)) out.push(`<ul>${p.split(/\n[-*]\s/).map((li) => `<li>${inline(li.replace(/^[-*]\s/, ''))}</li>`).join('')}</ul>`);
      else if (/^\d+\.\s/.test(p)) out.push(`<ol>${p.split(/\n\d+\.\s/).map((li) => `<li>${inline(li.replace(/^\d+\.\s/, ''))}</li>`).join('')}</ol>`);
      else out.push(`<p>${inline(p)}</p>`);
    }
  });
  return out.join('\n');
}
