// The CPU backend benchmark's work (test/cpu/bench-work.ts with brookgl's createContext) bundled
// for Node (dist/bench/cpu-work.node.mjs) and for a page (dist/bench/cpu-work.page.js), which
// scripts/bench-cpu.mjs runs; scripts/build.mjs --driver builds them too, so that the bundled
// driver dist/node/bench-cpu.mjs runs where esbuild is not installed.
import path from 'node:path';
import * as esbuild from 'esbuild';

export async function buildCpuWork(root) {
  const common = { absWorkingDir: root, bundle: true, loader: { '.glsl': 'text', '.brook': 'text' }, ignoreAnnotations: true, logLevel: 'error', target: 'es2022' };
  const stdin = { contents: "export * from './test/cpu/bench-work.ts'; export { createContext } from './src/index.ts';", resolveDir: root, loader: 'ts' };
  await Promise.all([
    esbuild.build({ ...common, platform: 'node', format: 'esm', outfile: path.join(root, 'dist', 'bench', 'cpu-work.node.mjs'), stdin }),
    esbuild.build({ ...common, platform: 'browser', format: 'esm', outfile: path.join(root, 'dist', 'bench', 'cpu-work.page.js'), stdin }),
  ]);
}
