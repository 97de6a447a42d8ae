import { expect } from 'chai';
import { BrookContext, KernelSpec } from '../../src/index';
import { expectArrayEqual, newContext } from '../helpers';

describe('core/queries and trace', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const keepAbove: KernelSpec = {
    name: 'keepAbove',
    inputs: { a: 'float' },
    uniforms: { limit: 'float' },
    outputs: { b: 'float' },
    body: 'if (a <= limit) discard;\nb = a;',
  };

  it('occlusion queries say whether any record of a pass was written', async () => {
    const a = ctx.stream('float', 1000, Float32Array.from({ length: 1000 }, (_, i) => i));
    const b = ctx.stream('float', 1000);
    const some = await ctx.queries.occlusion(() => ctx.run(keepAbove, { a, b, limit: 998 }));
    const none = await ctx.queries.occlusion(() => ctx.run(keepAbove, { a, b, limit: 1e9 }));
    expect(some).to.equal(true);
    expect(none).to.equal(false);
    a.dispose();
    b.dispose();
  });

  it('fences resolve after the GPU has passed them', async () => {
    const a = ctx.stream('float', 16, new Float32Array(16).fill(2));
    const b = ctx.stream('float', 16);
    ctx.run(keepAbove, { a, b, limit: 0 });
    await ctx.queries.fence();
    expectArrayEqual(b.readSync(), new Float32Array(16).fill(2));
    a.dispose();
    b.dispose();
  });

  it('times a pass on the GPU where EXT_disjoint_timer_query_webgl2 exists, else resolves null', async function () {
    const a = ctx.stream('float', 1 << 16);
    const b = ctx.stream('float', 1 << 16);
    const ms = await ctx.queries.time(() => ctx.run(keepAbove, { a, b, limit: -1 }));
    if (ctx.caps.timerQuery) {
      if (ms !== null) expect(ms).to.be.a('number').and.at.least(0);
    } else {
      expect(ms).to.equal(null);
    }
    a.dispose();
    b.dispose();
  });

  it('traces every pass: kernel, domain, inputs, outputs, GPU time', async () => {
    const a = ctx.stream('float', 4097, new Float32Array(4097).fill(1));
    const b = ctx.stream('float', 4097);
    ctx.trace.start();
    ctx.run(keepAbove, { a, b, limit: 0 });
    await ctx.reduce(a, 'sum');
    const passes = await ctx.trace.stop();
    // keepAbove, then ceil(log16 4097) = 4 reduction passes
    expect(passes.map((p) => p.kernel)).to.deep.equal(['keepAbove', 'sum<float>', 'sum<float>', 'sum<float>', 'sum<float>']);
    expect(passes[0]).to.include({ records: 4097, width: 128, height: 33 });
    expect(passes[0]!.inputs).to.deep.equal(['a: float stream of 4097 records']);
    expect(passes.map((p) => p.records)).to.deep.equal([4097, 257, 17, 2, 1]);
    for (const p of passes) expect(p.gpuMs === null || p.gpuMs >= 0).to.equal(true);
    a.dispose();
    b.dispose();
  });
});
