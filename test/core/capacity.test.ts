import { expect } from 'chai';
import { BrookContext, KernelSpec } from '../../src/index';
import { expectArrayEqual, newContext } from '../helpers';

// Streams at the device's capacity, and record indices past 2^24 (where float32 stops counting
// by ones): the address translation and brook_index must stay exact.
describe('core/capacity', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const indexOf: KernelSpec = { name: 'indexOf', outputs: { i: 'uint' }, body: 'i = uint(brook_index);' };
  const pick: KernelSpec = {
    name: 'pick',
    inputs: { at: 'uint' },
    gathers: { src: 'uint' },
    outputs: { v: 'uint' },
    body: 'v = src(at);',
  };

  it('addresses records beyond 2^24 exactly (write, gather, reduce)', () => {
    const n = 2 ** 24 + 5;
    const ids = ctx.stream('uint', n);
    ctx.run(indexOf, { i: ids });
    const probes = Uint32Array.from([0, 1, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, 2 ** 24 + 3, 2 ** 24 + 4]);
    const at = ctx.stream('uint', probes.length, probes);
    const v = ctx.stream('uint', probes.length);
    ctx.run(pick, { at, src: ids, v });
    expectArrayEqual(v.readSync(), probes, 'gathered indices');
    expectArrayEqual(ctx.reduceSync(ids, 'max'), [n - 1], 'max index');
    [ids, at, v].forEach((s) => s.dispose());
  });

  it('runs a kernel over a stream of the device capacity (MAX_TEXTURE_SIZE squared records)', function () {
    const n = ctx.caps.maxRecords;
    if (n > 2 ** 26) this.skip(); // bigger than 256 MB per uint stream: too slow for a software renderer
    const ids = ctx.stream('uint', n);
    expect(ids.layout).to.include({ width: ctx.caps.maxTextureSize, height: ctx.caps.maxTextureSize });
    ctx.run(indexOf, { i: ids });
    expectArrayEqual(ctx.reduceSync(ids, 'max'), [n - 1], 'max index');
    expectArrayEqual(ctx.reduceSync(ids, 'min'), [0], 'min index');
    ids.dispose();
  });
});
