// A few hundred generated kernels (kernelgen.ts) on both backends (differential.ts): no
// difference without an inexact operation to explain it, no error on either. The 10,000-kernel
// run is scripts/differential.mjs (this spec with ?diff=<count>&from=<seed> on the test page).
import { expect } from 'chai';
import { BrookContext } from '../../src/index';
import { newContext } from '../helpers';
import { runDifferential } from './differential';
import { generateKernel } from './kernelgen';

describe('cpu/differential: generated Brook kernels agree on the GPU and the CPU', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('the generator is seeded and covers its kinds (map, struct, reduce kernels)', () => {
    expect(generateKernel(5).source).to.equal(generateKernel(5).source);
    const kinds = new Set(Array.from({ length: 20 }, (_, s) => generateKernel(s).kind));
    expect([...kinds].sort()).to.deep.equal(['map', 'reduce', 'struct']);
    const all = Array.from({ length: 200 }, (_, s) => generateKernel(s).source).join('\n');
    for (const feature of ['discard', 'break', 'continue', 'g[', 'h[', '.wz', 'int(clamp', ' % ', '<<', '2654435761u', 'reduce void', 'struct S', 'float3x3', 'float4x4(', 'transpose(', 'determinant(', 'matrixCompMult(', 'mu']) expect(all, feature).to.include(feature);
  });

  it('300 kernels: 0 errors, 0 unexplained differences', async function () {
    const q = new URLSearchParams(typeof location === 'undefined' ? '' : location.search);
    const count = Number(q.get('diff') ?? 300);
    const from = Number(q.get('from') ?? 0);
    this.timeout(Math.max(120000, count * 500)); // scripts/differential.mjs: 10,000 kernels
    const t = await runDifferential(ctx, from, count, (p) => ((globalThis as { __brookDiffProgress?: unknown }).__brookDiffProgress = p));
    (globalThis as { __brookDiff?: unknown }).__brookDiff = t;
    expect(t.kernels).to.equal(count);
    expect(t.errors, JSON.stringify(t.errors.slice(0, 3), null, 1)).to.deep.equal([]);
    expect(t.unexplained, JSON.stringify(t.unexplained.slice(0, 3), null, 1)).to.deep.equal([]);
    this.test!.title += ` (${t.kernels} kernels, ${t.records} records, ${t.differing} differing, explained ${JSON.stringify(t.explained)})`;
  });
});
