// The import graph of src/: every module's imports (type-only ones and `import('…')` types
// included), its strongly connected components (circles), and the house's rules on them. Part of
// `npm test` (well under a second); alone: `node scripts/imports.mjs [--all]` (--all lists every
// module's imports).
// Rules (exit 1 when one is broken):
//  - no circle in src/core of more than MAX_CORE files;
//  - no circle crosses wings (a wing is src/<dir>, or src/index.ts alone);
//  - no circle at all among the files of a folder in NO_CIRCLES (the CCD pipeline's stages take
//    one seam, apps/ccd/host.ts, and never import each other in a circle);
//  - src/core imports nothing from src/brook or src/brt (the runtime knows no Brook syntax);
//  - src/brook imports nothing from src/brt (the compiler is a pure function from text to
//    kernels; Brook's runtime installs its lowering itself);
//  - nothing outside src/cli imports src/cli (the command line, for Node, is no part of the library);
//  - src/apps and src/view import nothing from src/reference (what an app or a view runs lives in
//    src/geometry, src/idioms or beside the view: the filter embed's host filter in
//    src/idioms/hostfilter.ts, the puzzle book's answers in src/view/puzzles/answers.ts; the
//    references are for tests, benchmarks and reading);
//  - src/geometry reaches (imports, and what they import) only src/geometry and GEOMETRY_MAY_USE:
//    CPU geometry, nothing GPU;
//  - library code (src/core, src/idioms, src/apps, src/view) runs its passes with ctx.runInternal,
//    never ctx.run: a bound Brook write mask applies to the user's ctx.run (src/brt/lower.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_CORE = 3;
/** Folders where no file may be in a circle (of any size). */
const NO_CIRCLES = ['apps/ccd/'];
/** Core modules with no GL in them or below them that geometry may use (BrookError, value checks). */
const GEOMETRY_MAY_USE = new Set(['core/errors.ts', 'core/checks.ts']);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const listAll = process.argv.includes('--all');

const files = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
  }
})(src);

const rel = (f) => path.relative(src, f).split(path.sep).join('/');
const wing = (name) => (name.includes('/') ? name.slice(0, name.indexOf('/')) : name);

function resolve(from, spec) {
  if (!spec.startsWith('.')) return null; // a package
  if (/\.(?!m?js$|tsx?$)[a-z0-9]+$/i.test(spec)) return null; // a text file (.glsl, .brook…) the build loads
  const base = path.resolve(path.dirname(from), spec.replace(/\.(m?js|ts)$/, ''));
  for (const c of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (fs.existsSync(c)) return c;
  throw new Error(`${rel(from)}: cannot resolve import '${spec}'`);
}

// preProcessFile finds import/export … from, import('…') (type positions too) and require.
const graph = new Map();
for (const f of files) {
  const info = ts.preProcessFile(fs.readFileSync(f, 'utf8'), true, true);
  const deps = new Set();
  for (const { fileName } of info.importedFiles) {
    const to = resolve(f, fileName);
    if (to && to !== f) deps.add(rel(to));
  }
  graph.set(rel(f), [...deps].sort());
}

// Tarjan's strongly connected components.
const index = new Map(), low = new Map(), onStack = new Set(), stack = [], sccs = [];
let next = 0;
function visit(v) {
  index.set(v, next); low.set(v, next); next++;
  stack.push(v); onStack.add(v);
  for (const w of graph.get(v)) {
    if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const c = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); c.push(w); } while (w !== v);
    if (c.length > 1) sccs.push(c.sort());
  }
}
for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
sccs.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));

const problems = [];
for (const c of sccs) {
  const wings = new Set(c.map(wing));
  if (wings.size > 1) problems.push(`a circle crosses wings (${[...wings].join(', ')}): ${c.join(' ')}`);
  for (const dir of NO_CIRCLES) {
    const inDir = c.filter((f) => f.startsWith(dir));
    if (inDir.length > 0) problems.push(`a circle through ${dir} (no circle is allowed there): ${c.join(' ')}`);
  }
  if (wings.has('core') && c.length > MAX_CORE) problems.push(`a circle of ${c.length} files in core (at most ${MAX_CORE}): ${c.join(' ')}`);
}
for (const [from, deps] of graph) {
  for (const to of deps) {
    if (wing(from) === 'core' && (wing(to) === 'brook' || wing(to) === 'brt')) problems.push(`${from} imports ${to}: core imports nothing from src/${wing(to)}`);
    if (wing(from) !== 'cli' && wing(to) === 'cli') problems.push(`${from} imports ${to}: src/cli (npx brookgl) is no part of the library; nothing outside it imports it`);
    if (wing(from) === 'brook' && wing(to) === 'brt') problems.push(`${from} imports ${to}: the compiler (src/brook) imports nothing from Brook's runtime (src/brt)`);
    if (wing(from) === 'apps' && wing(to) === 'reference') problems.push(`${from} imports ${to}: apps import nothing from src/reference (move what they run to src/geometry)`);
    if (wing(from) === 'view' && wing(to) === 'reference') problems.push(`${from} imports ${to}: views import nothing from src/reference (move what they run beside them or to src/idioms or src/geometry)`);
  }
}
for (const from of graph.keys()) {
  if (wing(from) !== 'geometry') continue;
  const seen = new Set([from]), todo = [from];
  while (todo.length) {
    for (const to of graph.get(todo.pop())) {
      if (seen.has(to)) continue;
      seen.add(to);
      if (wing(to) !== 'geometry' && !GEOMETRY_MAY_USE.has(to)) problems.push(`${from} reaches ${to}: geometry uses only geometry and ${[...GEOMETRY_MAY_USE].join(', ')}`);
      else todo.push(to);
    }
  }
}

const LIBRARY_WINGS = new Set(['core', 'idioms', 'apps', 'view']);
for (const f of files) {
  const text = fs.readFileSync(f, 'utf8');
  if (!LIBRARY_WINGS.has(wing(rel(f))) || !text.includes('.run(')) continue;
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  (function walk(node) {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'run' && /(^|\.)ctx$/.test(node.expression.expression.getText(sf))) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      problems.push(`${rel(f)}:${line + 1}: ${node.expression.getText(sf)}(...) in library code: use ctx.runInternal (a user's write mask must not apply to it)`);
    }
    ts.forEachChild(node, walk);
  })(sf);
}

if (listAll) for (const [from, deps] of [...graph].sort()) console.log(`${from}: ${deps.join(' ')}`);
const edges = [...graph.values()].reduce((n, d) => n + d.length, 0);
console.log(`imports: ${graph.size} modules, ${edges} imports (type-only included), ${sccs.length} circle(s)` +
  (sccs.length ? `, largest ${sccs[0].length} files` : ''));
for (const c of sccs) console.log(`  circle of ${c.length}: ${c.join(' ')}`);
for (const p of problems) console.error(`imports: ${p}`);
process.exit(problems.length ? 1 : 0);
