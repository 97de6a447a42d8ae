// The `brookgl` command (package.json "bin"), bundled by scripts/build.mjs with the Brook compiler
// into dist/cli/brookgl.mjs: Node's files and streams given to src/cli/cli.ts's runBrookgl.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBrookgl } from '../src/cli/cli.ts';

// dist/cli/brookgl.mjs -> the package's package.json, two folders up (in a clone and in node_modules)
const here = path.dirname(fileURLToPath(import.meta.url));
let version = 'unknown';
try {
  version = JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'package.json'), 'utf8')).version;
} catch {
  // a copy of the bundle outside the package: the version is unknown, nothing else changes
}
process.exitCode = runBrookgl(process.argv.slice(2), {
  readFile: (file) => fs.readFileSync(file, 'utf8'),
  writeFile: (file, text) => fs.writeFileSync(file, text),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  version,
});
