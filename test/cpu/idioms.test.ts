// The idioms on the CPU backend (Node: scripts/test-node.mjs): filter, scan and sortStream through
// src/reference, reduce through reduceReference and a reduce kernel, each against a plain loop
// here; the GPU-only parts say so with a BrookError.
import { expect } from 'chai';
import { BrookError, brook, createContext, filter, scan, sortStream } from '../../src/index';
import { expectArrayEqual, randomFloats } from '../helpers';

describe('cpu/idioms on the CPU backend', () => {
  const ctx = createContext({ backend: 'cpu' });
  after(() => ctx.dispose());
  const n = 1000;
  const data = randomFloats(n, 41, -10, 10);

  it('filter with a Brook predicate of x and i, with indices; and the sentinel form', async () => {
    const s = ctx.stream('float', n, data);
    const r = await filter(ctx as never, s, { keep: 'x > 0.0 && i % 3 != 1', indices: true });
    const want = Array.from(data.keys()).filter((i) => data[i]! > 0 && i % 3 !== 1);
    expect(r.count).to.equal(want.length);
    expectArrayEqual(r.stream!.readSync(), Float32Array.from(want, (i) => data[i]!), 'kept');
    expectArrayEqual(r.indices!.readSync(), Uint32Array.from(want), 'indices');
    const withNulls = Float32Array.from(data, (x) => (x < 0 ? Infinity : x));
    const t = ctx.stream('float', n, withNulls);
    const q = await filter(ctx as never, t, { sentinel: true });
    expectArrayEqual(q.stream!.readSync(), withNulls.filter((x) => x !== Infinity), 'sentinel');
    const none = await filter(ctx as never, s, { keep: 'x > 100.0' });
    expect(none.count).to.equal(0);
    expect(none.stream).to.equal(null);
    [s, t, r.stream!, r.indices!, q.stream!].forEach((x) => x.dispose());
  });

  it('scan, inclusive and exclusive (double-precision running sums stored as float32)', () => {
    const s = ctx.stream('float', n, data);
    const inc = scan(ctx as never, s).readSync();
    const exc = scan(ctx as never, s, { exclusive: true }).readSync();
    let acc = 0;
    for (let i = 0; i < n; i++) {
      expect(exc[i]).to.equal(Math.fround(acc));
      acc += data[i]!;
      expect(inc[i]).to.equal(Math.fround(acc));
    }
  });

  it('sortStream: stable ascending with a payload and the order', () => {
    const keys = Float32Array.from(data, (x) => Math.round(x) + 0); // repeated keys: stability shows (+ 0: no -0, which sorts before +0)
    const k = ctx.stream('float', n, keys);
    const p = ctx.stream('int', n, Int32Array.from({ length: n }, (_, i) => i));
    const r = sortStream(ctx as never, k, { payload: p });
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
    expectArrayEqual(r.order.readSync(), Uint32Array.from(order), 'order');
    expectArrayEqual(r.keys.readSync(), Float32Array.from(order, (i) => keys[i]!), 'keys');
    expectArrayEqual(r.payload!.readSync(), Int32Array.from(order), 'payload');
  });

  it('ctx.reduce and a reduce kernel', async () => {
    const s = ctx.stream('float4', n / 4, data);
    const [a, b, c, d] = await ctx.reduce(s, 'max');
    const max = (k: number) => Math.max(...Array.from({ length: n / 4 }, (_, i) => data[i * 4 + k]!));
    expect([a, b, c, d]).to.deep.equal([max(0), max(1), max(2), max(3)]);
    const { mn } = brook`reduce void mn(float4 a<>, reduce float4 r<>) { r = min(r, a); }`;
    const r = ctx.stream('float4', 1);
    ctx.run(mn!, { a: s, r });
    const min = (k: number) => Math.min(...Array.from({ length: n / 4 }, (_, i) => data[i * 4 + k]!));
    expect(Array.from(r.readSync())).to.deep.equal([min(0), min(1), min(2), min(3)]);
  });

  it('what needs a GPU says so: a GLSL description, an app\'s GL', async () => {
    const s = ctx.stream('float', 4);
    expect(() => ctx.run({ name: 'glsl', outputs: { o: 'float' }, body: 'o = 1.0;' }, { o: s })).to.throw(BrookError, /written in Brook/);
    expect(() => (ctx as unknown as { gl: unknown }).gl).to.throw(BrookError, /GPU context/);
  });
});
