// The specs that need no browser, in Node on the CPU backend (test/node/all.ts, bundled by
// esbuild for Node and run by mocha): BrookGPU's prog/tests against their gold files, and the
// spec files of test/brook/, on createContext({ backend: 'cpu' }). Ends with "N passed, N failed" (and the skips with their
// reasons before it) like scripts/test.mjs. Options: --grep <pattern>.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const grepAt = args.indexOf('--grep');
const out = path.join(root, 'dist', 'test', 'node-specs.cjs');
fs.mkdirSync(path.dirname(out), { recursive: true });
await esbuild.build({
  entryPoints: [path.join(root, 'test/node/all.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: out,
  loader: { '.glsl': 'text', '.brook': 'text', '.br': 'text' }, logLevel: 'error', external: ['mocha', 'chai'], ignoreAnnotations: true,
});
// the library alone, for test/node/csp.test.ts's child Nodes (started with flags of their own)
const lib = path.join(root, 'dist', 'test', 'node-lib.cjs');
await esbuild.build({
  entryPoints: [path.join(root, 'src/index.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: lib,
  loader: { '.glsl': 'text', '.brook': 'text' }, logLevel: 'error',
});
globalThis.__brookNodeLib = lib;
const Mocha = createRequire(import.meta.url)('mocha');
globalThis.__brookBackend = 'cpu';
const mocha = new Mocha({ reporter: 'dot', timeout: 60000, ...(grepAt >= 0 ? { grep: args[grepAt + 1] } : {}) });
mocha.addFile(out);
await mocha.loadFilesAsync();
const runner = mocha.run(() => {
  const { passes = 0, failures = 0, pending = 0 } = runner.stats ?? {};
  for (const s of globalThis.__skips ?? []) console.log(`skipped (needs a GPU context): ${s}`);
  console.log(`node (CPU backend, ${process.version}): ${pending} skipped, each with its reason above`);
  console.log(`${passes} passed, ${failures} failed`);
  process.exitCode = failures ? 1 : 0;
});
