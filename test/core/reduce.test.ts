import { BrookContext, ElementType, REDUCE_FACTOR, reference, typeInfo } from '../../src/index';
import { SUM_RELATIVE_TOLERANCE, expectArrayEqual, expectClose, newContext, randomFloats, rng } from '../helpers';

describe('core/reduce', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const lengths = [1, 2, 7, REDUCE_FACTOR, REDUCE_FACTOR + 1, 1000, 4097, 1 << 20];

  for (const op of ['min', 'max'] as const) {
    it(`${op} of float streams equals the reference exactly`, async () => {
      for (const n of lengths) {
        const data = randomFloats(n, n + 11);
        const s = ctx.stream('float', n, data);
        expectArrayEqual(await ctx.reduce(s, op), reference.reduceReference(data, 1, op), `${op} n=${n}`);
        s.dispose();
      }
    });
  }

  it('sum of float streams is within the stated tolerance of a float64 sum', async () => {
    for (const n of lengths) {
      const data = randomFloats(n, n + 3, 0, 1);
      const s = ctx.stream('float', n, data);
      const [got] = await ctx.reduce(s, 'sum');
      expectClose(got!, reference.reduceReference(data, 1, 'sum')[0]!, SUM_RELATIVE_TOLERANCE, `sum n=${n}`);
      s.dispose();
    }
  });

  it('sum of int and uint streams is exact beyond 2^24', () => {
    const n = 4097;
    const r = rng(1);
    const u = Uint32Array.from({ length: n }, () => Math.floor(r() * 1e6));
    const i = Int32Array.from({ length: n }, () => Math.floor((r() - 0.5) * 1e6));
    const us = ctx.stream('uint', n, u);
    const is = ctx.stream('int', n, i);
    expectArrayEqual(ctx.reduceSync(us, 'sum'), reference.reduceReference(u, 1, 'sum'), 'uint sum');
    expectArrayEqual(ctx.reduceSync(is, 'sum'), reference.reduceReference(i, 1, 'sum'), 'int sum');
    expectArrayEqual(ctx.reduceSync(is, 'min'), reference.reduceReference(i, 1, 'min'), 'int min');
    us.dispose();
    is.dispose();
  });

  it('reduces vector streams componentwise', () => {
    for (const type of ['float2', 'float3', 'float4', 'int3'] as ElementType[]) {
      const c = typeInfo(type).components;
      const n = 1000;
      const data = type.startsWith('int') ? Int32Array.from(randomFloats(n * c, 5), Math.round) : randomFloats(n * c, 5);
      const s = ctx.stream(type, n, data);
      expectArrayEqual(ctx.reduceSync(s, 'max'), reference.reduceReference(data, c, 'max'), `${type} max`);
      s.dispose();
    }
  });

  it('reduces with a user-supplied associative operator', () => {
    const n = 4097;
    const data = randomFloats(n * 2, 9);
    const s = ctx.stream('float2', n, data);
    // the point farthest from the origin (ties: the earlier one)
    const op = 'dot(b, b) > dot(a, a) ? b : a';
    const len2 = (p: number[]) => Math.fround(Math.fround(p[0]! * p[0]!) + Math.fround(p[1]! * p[1]!));
    const expected = reference.reduceReference(data, 2, (a, b) => (len2(b) > len2(a) ? b : a));
    expectArrayEqual(ctx.reduceSync(s, { name: 'farthest', op }), expected, 'farthest');
    s.dispose();
  });
});
