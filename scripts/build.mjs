// Builds dist/brookgl.js (ESM), dist/brookgl.iife.js (global `brookgl`), its minified twin
// dist/brookgl.iife.min.js (what CDNs serve), dist/cli/brookgl.mjs (`npx brookgl`, for Node),
// dist/types and the Jupyter widget's ES module and the puzzle book's list
// (python/brookgl/static/); with --tests also the browser test bundle dist/test/specs.js. GLSL
// files load as text.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const common = {
  absWorkingDir: root,
  bundle: true,
  loader: { '.glsl': 'text', '.brook': 'text', '.br': 'text' },
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
};

const started = Date.now();
await Promise.all([
  esbuild.build({ ...common, entryPoints: ['src/index.ts'], format: 'esm', outfile: 'dist/brookgl.js' }),
  esbuild.build({ ...common, entryPoints: ['src/index.ts'], format: 'iife', globalName: 'brookgl', outfile: 'dist/brookgl.iife.js' }),
  esbuild.build({ ...common, entryPoints: ['src/index.ts'], format: 'iife', globalName: 'brookgl', outfile: 'dist/brookgl.iife.min.js', minify: true }),
  // `npx brookgl` (package.json "bin"): the Brook compiler and the command line, for Node
  esbuild.build({
    ...common,
    entryPoints: ['scripts/brookgl-bin.mjs'],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: 'dist/cli/brookgl.mjs',
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
  }).then(() => fs.chmodSync(path.join(root, 'dist/cli/brookgl.mjs'), 0o755)),
  // the Jupyter package's widget (python/): an anywidget ES module, brookgl inlined
  esbuild.build({ ...common, entryPoints: ['python/js/widget.ts'], format: 'esm', outfile: 'python/brookgl/static/widget.js', minify: true, sourcemap: false }),
  args.has('--tests')
    ? // the specs are imported for their side effects, which package.json's sideEffects denies
      esbuild.build({ ...common, entryPoints: ['test/all.ts'], format: 'iife', outfile: 'dist/test/specs.js', ignoreAnnotations: true })
    : null,
]);
// beside the widget, the puzzle book's numbers and titles as the library holds them
// (src/view/puzzles/book.ts): brookgl.check_puzzle takes its range from this file, so Python
// keeps no count of its own
const { PUZZLES } = await import(pathToFileURL(path.join(root, 'dist/brookgl.js')).href);
fs.writeFileSync(path.join(root, 'python/brookgl/static/puzzles.json'), `${JSON.stringify({ puzzles: PUZZLES.map((p) => ({ n: p.n, title: p.title })) }, null, 1)}\n`);
if (fs.existsSync(path.join(root, 'node_modules/@tensorflow/tfjs-backend-webgl'))) {
  // TensorFlow.js (devDependencies) for the `peers` benchmark page only: never part of brookgl.
  await esbuild.build({ ...common, sourcemap: false, minify: true, entryPoints: ['demos/bench/tfjs-entry.js'], format: 'esm', outfile: 'dist/vendor/tfjs.js' });
}
if (fs.existsSync(path.join(root, 'node_modules/three'))) {
  // three.js (devDependencies) for the `mixed` benchmark page only: never part of brookgl.
  await esbuild.build({ ...common, sourcemap: false, minify: true, entryPoints: ['demos/bench/three-entry.js'], format: 'esm', outfile: 'dist/vendor/three.js' });
}
if (args.has('--tests')) {
  // mocha's browser build, served next to the specs so a run needs dist/ but not node_modules
  for (const f of ['mocha.js', 'mocha.css']) fs.copyFileSync(path.join(root, 'node_modules/mocha', f), path.join(root, 'dist/test', f));
}
if (args.has('--driver')) {
  // The node-side drivers as single files (puppeteer-core included), to carry to a machine
  // that has a browser and Node but no node_modules: node dist/node/test.mjs, dist/node/bench.mjs,
  // dist/node/bench-cpu.mjs (with the CPU backend benchmark's work, dist/bench/, built here; its
  // driver imports the builder only when run from scripts/)
  const { buildCpuWork } = await import('./bench-cpu-build.mjs');
  await buildCpuWork(root);
  await Promise.all(
    ['test', 'bench', 'bench-cpu'].map((name) =>
      esbuild.build({
        absWorkingDir: root,
        entryPoints: [`scripts/${name}.mjs`],
        outfile: `dist/node/${name}.mjs`,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'error',
        external: ['./bench-cpu-build.mjs'],
        banner: { js: "import { createRequire as __brookRequire } from 'node:module'; const require = __brookRequire(import.meta.url);" },
      }),
    ),
  );
}
if (!args.has('--no-types')) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.types.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  addDeclarationExtensions(path.join(root, 'dist/types'));
}
console.log(`built dist/ in ${Date.now() - started} ms`);

/**
 * tsc writes the sources' extensionless relative specifiers into the declarations; under
 * `"moduleResolution": "node16"/"nodenext"` a consumer then sees no exports (TS2834). Rewrite
 * each to the file it names: `./x` -> `./x.js`, a folder `./x` -> `./x/index.js` (imports,
 * `import('…')` types, and module augmentations: context.ts's `declare module './stream'`).
 */
function addDeclarationExtensions(dir) {
  for (const name of fs.readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, String(name));
    if (!file.endsWith('.d.ts')) continue;
    const text = fs.readFileSync(file, 'utf8');
    const fixed = text.replace(/((?:from|import|declare module)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g, (whole, lead, quote, spec) => {
      if (/\.(js|mjs|cjs|json)$/.test(spec)) return whole;
      const target = path.resolve(path.dirname(file), spec);
      if (fs.existsSync(`${target}.d.ts`)) return `${lead}${quote}${spec}.js${quote}`;
      if (fs.existsSync(path.join(target, 'index.d.ts'))) return `${lead}${quote}${spec}/index.js${quote}`;
      throw new Error(`(brookgl build) ${file}: cannot resolve the declaration import ${spec}`);
    });
    if (fixed !== text) fs.writeFileSync(file, fixed);
  }
}
