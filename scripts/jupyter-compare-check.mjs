// A check of scripts/jupyter.mjs's committed-output comparison (test-package.mjs runs it; also
// `node scripts/jupyter-compare-check.mjs`): made-up outputs of each kind, changed where a run may
// change them (timings, the renderer) and where it must not (results, table cells that are not
// timings, image sizes, a widget's text form).
import path from 'node:path';
import { compareOutputs } from './jupyter.mjs';

/** The first bytes of a PNG of w x h pixels (its signature and IHDR), base64 as nbformat keeps it. */
const png = (w, h) => {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return `${b.toString('base64')}\n`;
};

const table = ({ ms = '12.5', kept = '2016', steps = '22', size = '0.285' } = {}) =>
  `<h4>Live run (wall ms)</h4><table><thead><tr><th>method</th><th>ms</th><th>kept</th><th class="brookgl-varies">steps so far</th></tr></thead>` +
  `<tbody><tr><td>scan</td><td>${ms}</td><td>${kept}</td><td>${steps}</td></tr></tbody></table>` +
  `<p><b>filter.json</b> · R · D</p><h4>Table 36-1: time per record, µs</h4><table><thead><tr><th>method</th><th>64k</th><th>N</th></tr></thead>` +
  `<tbody><tr><td>pyramid</td><td>${size}</td><td>65536</td></tr></tbody></table>`;

/** One notebook's code cells: the committed form, and a fresh run's (the cells jupyter.mjs reads). */
function outputs(v = {}) {
  return [
    [{ output_type: 'stream', name: 'stdout', text: [`renderer: ${v.renderer ?? 'ANGLE (SwiftShader)'}\n`, `result: float32 (4096,) [${v.result ?? '1. 3. 5.'}]\n`, `took ${v.took ?? '3.2'} ms\n`] }],
    [{ output_type: 'execute_result', execution_count: 2, metadata: {}, data: { 'application/vnd.jupyter.widget-view+json': { model_id: v.model ?? 'a1', version_major: 2, version_minor: 1 }, 'text/plain': [`<brookgl.Run kernel saxpy -> result (${v.n ?? 4096},): computed by the browser that shows it>`] } }],
    [{ output_type: 'execute_result', execution_count: 3, metadata: {}, data: { 'image/png': png(256, v.height ?? 192), 'text/plain': [`<brookgl.image result 256x${v.height ?? 192}>`] } }],
    [{ output_type: 'execute_result', execution_count: 4, metadata: {}, data: { 'text/html': [table(v.table)], 'text/plain': ['method | ms | kept\nscan | 1 | 2'] } }],
  ];
}
const committed = (v) => ({ cells: outputs(v).map((o) => ({ cell_type: 'code', outputs: o })) });
const fresh = (v) => outputs(v).map((o) => ({ type: 'code', outputs: o }));

export function checkOutputComparison() {
  const failures = [];
  const same = [
    ['timings and the renderer changed', { renderer: 'NVIDIA H100', took: '0.4', table: { ms: '1.1', size: '0.0302', steps: '97' }, model: 'b2' }],
  ];
  const differ = [
    ['a printed result', { result: '1. 3. 6.' }],
    ['a table cell that is not a timing', { table: { kept: '2017' } }],
    ['an image size', { height: 256 }],
    ["a widget's text form", { n: 2048 }],
  ];
  for (const [what, v] of same) {
    const d = compareOutputs(committed({}), fresh(v));
    if (d.length) failures.push(`${what}: reported as different:\n${d.join('\n')}`);
  }
  for (const [what, v] of differ) {
    const d = compareOutputs(committed({}), fresh(v));
    if (!d.length) failures.push(`${what} changed: not reported`);
  }
  if (failures.length) throw new Error(failures.join('\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  checkOutputComparison();
  console.log('committed-output comparison: ok');
}
