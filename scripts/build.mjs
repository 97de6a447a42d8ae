// Builds dist/brookgl.js (ESM), dist/brookgl.iife.js (global `brookgl`) and dist/types;
// with --tests also the browser test bundle dist/test/specs.js. GLSL files load as text.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const common = {
  absWorkingDir: root,
  bundle: true,
  loader: { '.glsl': 'text', '.brook': 'text' },
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
};

const started = Date.now();
await Promise.all([
  esbuild.build({ ...common, entryPoints: ['src/index.ts'], format: 'esm', outfile: 'dist/brookgl.js' }),
  esbuild.build({ ...common, entryPoints: ['src/index.ts'], format: 'iife', globalName: 'brookgl', outfile: 'dist/brookgl.iife.js' }),
  args.has('--tests')
    ? esbuild.build({ ...common, entryPoints: ['test/all.ts'], format: 'iife', outfile: 'dist/test/specs.js' })
    : null,
]);
if (fs.existsSync(path.join(root, 'node_modules/@tensorflow/tfjs-backend-webgl'))) {
  // TensorFlow.js (devDependencies) for the `peers` benchmark page only: never part of brookgl.
  await esbuild.build({ ...common, sourcemap: false, minify: true, entryPoints: ['demos/bench/tfjs-entry.js'], format: 'esm', outfile: 'dist/vendor/tfjs.js' });
}
if (args.has('--tests')) {
  // mocha's browser build, served next to the specs so a run needs dist/ but not node_modules
  for (const f of ['mocha.js', 'mocha.css']) fs.copyFileSync(path.join(root, 'node_modules/mocha', f), path.join(root, 'dist/test', f));
}
if (args.has('--driver')) {
  // The node-side drivers as single files (puppeteer-core included), to carry to a machine
  // that has a browser and Node but no node_modules: node dist/node/test.mjs, dist/node/bench.mjs
  await Promise.all(
    ['test', 'bench'].map((name) =>
      esbuild.build({
        absWorkingDir: root,
        entryPoints: [`scripts/${name}.mjs`],
        outfile: `dist/node/${name}.mjs`,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'error',
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
}
console.log(`built dist/ in ${Date.now() - started} ms`);
