// Values that used to turn silently into NaN, 0, 1 or a wrapped integer on the GPU.
import { expect } from 'chai';
import { BrookContext, Iter, KernelSpec, iter } from '../../src/index';
import { expectArrayEqual, newContext } from '../helpers';
import { caught, expectBrookErrorValue, refuses } from './util';

describe('reliability/values', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('write() refuses strings, objects, sparse arrays, undefined, null, booleans, BigInts and DataViews', async () => {
    const s = ctx.stream('float', 4, [1, 2, 3, 4]);
    const cases: Array<[unknown, RegExp]> = [
      ['abcd', /data must be a Float32Array or an array of numbers .* got string 'abcd'/],
      [{ length: 4 }, /data must be .* got an object/],
      [undefined, /got undefined/],
      [null, /got null/],
      [true, /got boolean true/],
      [7, /got number 7/],
      [new BigInt64Array(4), /BigInt64Array holds BigInts; pass a Float32Array/],
      [new DataView(new ArrayBuffer(16)), /got a DataView/],
      [[1, 2, 'x', 4], /element 2 is string 'x', not a number/],
      [[1, 2, true, 4], /element 2 is boolean true/],
      [[1, {}, 3, 4], /element 1 is an object/],
      [[1, null, 3, 4], /element 1 is null/],
      [[1, undefined, 3, 4], /element 1 is undefined/],
      // eslint-disable-next-line no-sparse-arrays
      [[1, , 3, 4], /element 1 is a hole \(sparse array\)/],
    ];
    for (const [data, pattern] of cases) await refuses(ctx, () => s.write(data as never), pattern, `write(${String(data)})`);
    expectArrayEqual(s.readSync(), new Float32Array([1, 2, 3, 4]), 'the stream after refused writes');
    // NaN and the infinities are float values (the filter's sentinel form uses +inf): kept
    s.write([NaN, Infinity, -Infinity, -0]);
    expectArrayEqual(s.readSync(), new Float32Array([NaN, Infinity, -Infinity, -0]), 'IEEE specials');
    const u = ctx.stream('uint', 2);
    await refuses(ctx, () => u.write(new Float64Array([1, 2 ** 32])), /element 1 is 4294967296, not a valid uint/);
    await refuses(ctx, () => u.write([1, NaN]), /element 1 is NaN, not a valid uint/);
    s.dispose();
    u.dispose();
  });

  it('ctx.stream with refused data leaves no texture behind', async () => {
    await refuses(ctx, () => ctx.stream('float', 4, [1, 2, 3]), /got 3 numbers/);
    await refuses(ctx, () => ctx.stream('int', 2, [1, 2.5]), /element 1 is 2.5, not a valid int/);
    await refuses(ctx, () => ctx.stream('float', 2, null as never), /got null/);
    await refuses(ctx, () => ctx.stream('float', '4' as never), /a stream shape is a length n or a 2D \[height, width\], got string '4'/);
    await refuses(ctx, () => ctx.stream('float', NaN), /positive integer, got NaN/);
    await refuses(ctx, () => ctx.stream('float', Infinity), /positive integer, got Infinity/);
    await refuses(ctx, () => ctx.stream('float', -3), /positive integer, got -3/);
  });

  const echo: KernelSpec = { name: 'echo', uniforms: { i: 'int', u: 'uint', v: 'int2' }, outputs: { oi: 'int', ou: 'uint' }, body: 'oi = i + v.x - v.y; ou = u;' };

  it('int and uint uniforms are range-checked instead of wrapping', async () => {
    const oi = ctx.stream('int', 1);
    const ou = ctx.stream('uint', 1);
    const run = (i: unknown, u: unknown, v: unknown = [0, 0]) => ctx.run(echo, { i: i as number, u: u as number, v: v as number[], oi, ou });
    await refuses(ctx, () => run(2 ** 31, 0), /argument 'i': a int takes integers in \[-2147483648, 2147483647\], got 2147483648/);
    await refuses(ctx, () => run(2 ** 40, 0), /argument 'i'.*got 1099511627776/);
    await refuses(ctx, () => run(-(2 ** 31) - 1, 0), /argument 'i'.*got -2147483649/);
    await refuses(ctx, () => run(0, -1), /argument 'u': a uint takes integers in \[0, 4294967295\], got -1/);
    await refuses(ctx, () => run(0, 2 ** 32), /argument 'u'.*got 4294967296/);
    await refuses(ctx, () => run(NaN, 0), /argument 'i'.*got NaN/);
    await refuses(ctx, () => run(Infinity, 0), /argument 'i'.*got Infinity/);
    await refuses(ctx, () => run(0, 0, [0, 2 ** 31]), /argument 'v'.*got 2147483648 at \[1\]/);
    await refuses(ctx, () => run('3', 0), /argument 'i': expected a number for a int, got string '3'/);
    await refuses(ctx, () => run(0, 0, [1, '2']), /argument 'v': a int2 takes numbers, got string '2' at \[1\]/);
    // the ends of the ranges are exact
    run(-(2 ** 31), 2 ** 32 - 1, [2 ** 31 - 1, 2 ** 31 - 1]);
    expect(oi.readSync()[0]).to.equal(-(2 ** 31));
    expect(ou.readSync()[0]).to.equal(2 ** 32 - 1);
    oi.dispose();
    ou.dispose();
  });

  it('iter() refuses NaN, infinite and non-number ends', async () => {
    const bad: Array<[unknown, unknown, RegExp]> = [
      [NaN, 4, /start must be a finite number .* got number NaN/],
      [0, Infinity, /end must be a finite number .* got number Infinity/],
      [0, -Infinity, /end .* got number -Infinity/],
      ['0', 4, /start .* got string '0'/],
      [0, undefined, /end .* got undefined/],
      [null, 1, /start .* got null/],
      [[0, NaN], [1, 1], /start .* got an array of 2/],
      [[0, 0, 0, 0, 0], [1, 1], /start .* got an array of 5/],
      [[0, 0, 0], [1, 1], /must both be numbers or both arrays of the same length/],
      [0, [1, 1], /must both be numbers or both arrays of the same length/],
    ];
    for (const [a, b, pattern] of bad) {
      await refuses(ctx, () => iter(a as number, b as number), pattern, `iter(${String(a)}, ${String(b)})`);
      expectBrookErrorValue(await caught(() => new Iter(a as number, b as number)), pattern);
    }
    const k: KernelSpec = { name: 'it', iters: { t: 'float' }, outputs: { o: 'float' }, body: 'o = t;' };
    const o = ctx.stream('float', 4);
    ctx.run(k, { t: iter(0, 4), o });
    expectArrayEqual(o.readSync(), new Float32Array([0, 1, 2, 3]), 'iter(0, 4)');
    o.dispose();
  });
});
