// `npm test`: build (with the test bundle), type-check, the import graph (scripts/imports.mjs), build the API reference (TypeDoc, typedoc.json:
// a warning fails it), run the Node specs on the CPU backend (scripts/test-node.mjs: no browser),
// then every spec and demo page in headless
// Chromium (scripts/test.mjs), then the package and notebook checks (scripts/test-package.mjs), then
// the static site: built (scripts/build-site.mjs), served alone, every page loaded (scripts/test-site.mjs).
// Each step runs only if the one before passed; the exit status is the first failure's. The two
// runners each end with "N passed, N failed" (CI reads the last line).
// Options (after `npm test --`): --grep <pattern> runs only the matching specs and demo pages and
// skips the package checks (they test the packed library as a whole, not a spec) and the site
// (unless the pattern is "site"); --gpu
// (hardware renderer) and --pictures go to the runners that take them; --keep to the package checks.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const grepAt = args.indexOf('--grep');
if (grepAt >= 0 && !args[grepAt + 1]) {
  console.error('npm test: --grep needs a pattern, e.g. npm test -- --grep reduce');
  process.exit(2);
}
const known = new Set(['--grep', '--gpu', '--pictures', '--keep']);
const unknown = args.filter((a, i) => a.startsWith('--') && !known.has(a) && args[i - 1] !== '--grep');
if (unknown.length) {
  console.error(`npm test: unknown option ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  process.exit(2);
}
const pass = (...names) => args.filter((a, i) => names.includes(a) || (names.includes('--grep') && args[i - 1] === '--grep'));
const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const typedoc = path.join(path.dirname(createRequire(import.meta.url).resolve('typedoc/package.json')), 'bin', 'typedoc');

const steps = [
  ['build', ['scripts/build.mjs', '--tests']],
  ['type-check', [tsc, '--noEmit', '-p', 'tsconfig.json']],
  // src's import graph: no circle of more than 3 files in core, none across wings (< 1 s)
  ['import graph', ['scripts/imports.mjs']],
  // `npx brookgl` in Node over .br files, from the build (a few seconds)
  ['command line (npx brookgl)', ['scripts/test-cli.mjs']],
  ['API reference (TypeDoc, warnings as errors)', [typedoc]],
  // the specs that need no browser, in Node on the CPU backend (BrookGPU's prog/tests against their golds, ~7 s)
  ['Node specs (CPU backend)', ['scripts/test-node.mjs', ...pass('--grep')]],
  ['specs and demos', ['scripts/test.mjs', ...pass('--grep', '--gpu', '--pictures')]],
];
if (grepAt < 0) steps.push(['package and notebook checks', ['scripts/test-package.mjs', ...pass('--gpu', '--keep')]]);
// the static site (npm run build:site), served alone and every page loaded: ~30 s
if (grepAt < 0 || ['site', 'static site'].includes(args[grepAt + 1])) steps.push(['static site build', ['scripts/build-site.mjs']], ['static site', ['scripts/test-site.mjs', ...pass('--gpu')]]);
else console.log(`npm test: only specs and demo pages matching ${JSON.stringify(args[grepAt + 1])}; the package checks are skipped`);

for (const [name, argv] of steps) {
  const r = spawnSync(process.execPath, argv, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`npm test: ${name} failed (${r.signal ?? `exit ${r.status}`})`);
    process.exit(r.status || 1);
  }
}
