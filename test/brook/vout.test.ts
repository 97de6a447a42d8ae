// Conformance: vout[N] outputs with push (Brook's variable output, by Horn's filter).
import { expect } from 'chai';
import { BrookContext, brook, reference, voutRun } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectBrookRejection, newContext } from '../helpers';

describe('brook/vout and push', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const { dup, pairs } = brook`
    kernel void dup(float a<>, float limit, vout[3] float o<>) {
      if (a < 0) return;          // pushes nothing
      o = a; push(o);
      if (a > limit) { o = -a; push(o); }
      if (a > 2 * limit) { o = 1000 + a; push(o); }
    }
    kernel void pairs(float2 p<>, vout[2] float2 q<>) {
      q = p; push(q);
      q = p.yx; push(q);
    }`;

  it('pushes 0 to 3 records per input, in order', async () => {
    const xs = [3, -1, 7, 12, 0, -5, 9, 25];
    const a = ctx.stream('float', xs.length, xs);
    const { stream, count } = await voutRun(ctx, dup!, { a, limit: 8 });
    const expected = xs.flatMap((x) => (x < 0 ? [] : [x, ...(x > 8 ? [-x] : []), ...(x > 16 ? [1000 + x] : [])]));
    expect(count).to.equal(expected.length);
    expectArrayEqual(await stream!.read(), expected, 'pushed');
    stream!.dispose();
    a.dispose();
  });

  it('pushes vectors, and returns null when nothing is pushed', async () => {
    const p = ctx.stream('float2', 4, [1, 2, 3, 4, 5, 6, 7, 8]);
    const { stream, count } = await voutRun(ctx, pairs!, { p });
    expect(count).to.equal(8);
    expectArrayEqual(await stream!.read(), [1, 2, 2, 1, 3, 4, 4, 3, 5, 6, 6, 5, 7, 8, 8, 7], 'pairs');
    stream!.dispose();
    const neg = ctx.stream('float', 5, [-1, -2, -3, -4, -5]);
    const none = await voutRun(ctx, dup!, { a: neg, limit: 1 });
    expect(none.count).to.equal(0);
    expect(none.stream).to.equal(null);
    [p, neg].forEach((s) => s.dispose());
  });


  it('over a 2D input, the records come back as BrookGPU kept them: the input\'s width a row, rows grown, null (+inf) after the last', async () => {
    const { twice } = brook`kernel void twice(float2 p<>, vout[2] float2 o<>) {
      o = p; push(o);
      if (p.x > 2) { o = p.yx; push(o); }
    }`;
    const [rows, columns] = [3, 4];
    const data = Float32Array.from({ length: 2 * rows * columns }, (_, k) => (k % 2 === 0 ? k / 2 : -k));
    const p = ctx.stream('float2', [rows, columns], data);
    const { stream, count } = await voutRun(ctx, twice!, { p });
    const pushed: number[] = [];
    for (let i = 0; i < rows * columns; i++) {
      const [x, y] = [data[2 * i]!, data[2 * i + 1]!];
      pushed.push(x, y);
      if (x > 2) pushed.push(y, x);
    }
    expect(count).to.equal(pushed.length / 2); // 21 records: 12 + 9
    expect(stream!.shape).to.deep.equal([Math.ceil(count / columns), columns]); // [6, 4]: 3 null records at the end
    expectArrayEqual(await stream!.read(), [...pushed, ...new Array<number>(2 * (6 * columns - count)).fill(Infinity)], 'rows');
    p.dispose();
    stream!.dispose();
  });
  it('vout [] (no bound, as BrookGPU ran it pass after pass): 0 to 13 records per input, in order; more than 512 is a BrookError (the slots double up to 1024)', async () => {
    const { grow, endless } = brook`
      kernel void grow(float a<>, vout [] float o<>) {
        float i;
        for (i = 0; i < a; i += 1) {
          o = a * 10 + i;
          push(o);
        }
      }
      kernel void endless(float a<>, vout [] float o<>) {
        float i;
        for (i = 0; i < 2000; i += 1) {
          o = i;
          push(o);
        }
      }`;
    expect(grow!.brook!.vout!.most).to.equal(0);
    const xs = [3, 0, 13, 1, -2, 9, 5, 0, 12, 2];
    const a = ctx.stream('float', xs.length, xs);
    const { stream, count } = await voutRun(ctx, grow!, { a });
    const expected = reference.brookVoutGrowReference(xs);
    expect(count).to.equal(expected.length);
    expectArrayEqual(await stream!.read(), expected, 'pushed');
    stream!.dispose();
    // a plain run with the output given: one slot per record, the first push (BrookGPU's first pass); +inf where none
    const firsts = ctx.stream('float', xs.length);
    ctx.run(grow!, { a, o: firsts });
    expectArrayEqual(firsts.readSync(), xs.map((x) => (x > 0 ? reference.brookVoutGrowReference([x])[0]! : Infinity)), 'first pushes');
    firsts.dispose();
    const few = ctx.stream('float', 2, [1, 2]);
    const small = await voutRun(ctx, grow!, { a: few }); // fits the first 4 slots
    expectArrayEqual(await small.stream!.read(), reference.brookVoutGrowReference([1, 2]), 'pushed');
    small.stream!.dispose();
    // nothing kept when it fails (the slots tried go back to the texture pool)
    const held = () => {
      const st = ctx.stats();
      return { textures: st.textures - st.pooledTextures, buffers: st.buffers, syncs: st.syncs, queries: st.queries };
    };
    const before = held();
    await expectBrookRejection(voutRun(ctx, endless!, { a: few }), /pushes more than 512 records for one input record, and an unbounded vout's slots double only up to 1024 .*give it a bound/);
    expect(held()).to.deep.equal(before);
    [a, few].forEach((s) => s.dispose());
  });

  it('refuses a vout bound past 64, push without vout', () => {
    expectBrookError(() => brook`kernel void k(float a<>, vout[65] float o<>) { o = a; push(o); }`, /vout\[4\].*or vout \[\] for no bound/);
    expectBrookError(() => brook`kernel void k(float a<>, out float o<>) { o = a; push(o); }`, /push\(\) needs a vout/);
  });
});
