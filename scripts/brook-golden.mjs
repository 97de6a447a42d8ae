// Rewrites test/brook/golden/<name>.glsl from test/brook/golden/kernels.ts: the GLSL the Brook
// front end generates for a representative set of kernels. Run after a deliberate change in
// generation and review the diff; test/brook/golden.test.ts fails until the files match.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'brook-golden-'));
const out = join(dir, 'golden.mjs');
await build({ entryPoints: ['test/brook/golden/kernels.ts'], bundle: true, format: 'esm', platform: 'node', outfile: out, loader: { '.glsl': 'text' }, logLevel: 'error' });
const { GOLDEN_KERNELS, goldenText } = await import(pathToFileURL(out).href);
for (const name of Object.keys(GOLDEN_KERNELS)) {
  writeFileSync(`test/brook/golden/${name}.glsl`, goldenText(name));
  console.log(`test/brook/golden/${name}.glsl`);
}
rmSync(dir, { recursive: true });
