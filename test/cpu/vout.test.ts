// vout kernels on the CPU backend (src/cpu/vout.ts): voutRun's records against plain loops here,
// in Node (scripts/test-node.mjs) and in the browser, where the same runs on the WebGL2 context
// must give the same records, count and shape exactly (the GPU's slots and filter, idioms/vout.ts).
import { expect } from 'chai';
import { BrookContext, Stream, brook, brookWith, reference, voutRun } from '../../src/index';
import { cpuAndGpu, expectArrayEqual, expectBrookRejection, newContext, randomFloats } from '../helpers';


describe('cpu/vout kernels on the CPU backend', () => {
  const pair = cpuAndGpu(newContext);
  const { cpu } = pair;

  /** voutRun on the CPU, checked against `want` (records, then the shape), and on the GPU where there is one: the same exactly. */
  async function both(kernel: Parameters<typeof voutRun>[1], make: (ctx: BrookContext) => Record<string, unknown>, want: { records: number[]; shape: number[] } | null, what: string) {
    const check = async (ctx: BrookContext, where: string) => {
      const args = make(ctx);
      try {
        const { stream, count } = await voutRun(ctx, kernel, args as never);
        if (want === null) {
          expect(stream, `${what} (${where})`).to.equal(null);
          expect(count, `${what} (${where})`).to.equal(0);
          return;
        }
        expect(stream, `${what} (${where})`).to.not.equal(null);
        expect(stream!.shape, `${what} (${where}): shape`).to.deep.equal(want.shape);
        expectArrayEqual(await stream!.read(), want.records, `${what} (${where})`);
        const comps = want.records.length / want.shape.reduce((a, b) => a * b, 1);
        expect(count, `${what} (${where}): count`).to.equal(want.records.filter((x, i) => i % comps === 0 && x !== Infinity).length);
        stream!.dispose();
      } finally {
        for (const v of Object.values(args)) if (v instanceof Stream) v.dispose();
      }
    };
    await check(cpu, 'CPU');
    const gpu = pair.gpu;
    if (gpu) await check(gpu, gpu.caps.renderer);
  }

  const K = brook`
    kernel void dup(float a<>, float limit, vout[3] float o<>) {
      if (a < 0) return;
      o = a; push(o);
      if (a > limit) { o = -a; push(o); }
      if (a > 2 * limit) { o = 1000 + a; push(o); }
      if (a > 3 * limit) { o = 2000 + a; push(o); }      // a fourth push: past vout[3], not kept
    }
    kernel void pairs(float2 p<>, float t[], vout[2] float3 q<>) {
      q = float3(p, t[indexof(p).x + 1.0]); push(q);
      if (p.x > 0) { q = float3(p.yx, indexof(p).y); push(q); }
    }
    kernel void nulls(float a<>, vout[2] float o<>) {
      o = a > 0 ? a : uintBitsToFloat(0x7f800000u); push(o);   // +inf: a null record, dropped
      o = 2 * a; push(o);
    }
    kernel void grow(float a<>, vout [] float o<>) {
      float i;
      for (i = 0; i < a; i += 1) { o = a * 10 + i; push(o); }
    }
    kernel void endless(float a<>, vout [] float o<>) {
      float i;
      for (i = 0; i < 2000; i += 1) { o = i; push(o); }
    }`;

  it('vout[3]: 0 to 3 records per input in order, a fourth push dropped; nothing pushed gives null', async () => {
    const xs = Array.from(randomFloats(257, 7, -10, 40));
    const want = xs.flatMap((x) => (x < 0 ? [] : [x, ...(x > 8 ? [-x] : []), ...(x > 16 ? [Math.fround(1000 + x)] : [])]));
    await both(K.dup!, (ctx) => ({ a: ctx.stream('float', xs.length, xs), limit: 8 }), { records: want, shape: [want.length] }, 'dup');
    await both(K.dup!, (ctx) => ({ a: ctx.stream('float', 5, [-1, -2, -3, -4, -5]), limit: 8 }), null, 'dup of negatives');
  });

  it('vectors over a 2D input, with gathers and indexof (the input record\'s position): the input\'s width a row, +inf after the last', async () => {
    const [h, w] = [5, 7];
    const p = Array.from(randomFloats(2 * h * w, 8, -4, 4));
    const t = Array.from(randomFloats(9, 9, 0, 100));
    const recs: number[] = [];
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const [a, b] = [p[2 * (y * w + x)]!, p[2 * (y * w + x) + 1]!];
        recs.push(a, b, t[Math.min(x + 1, 8)]!);
        if (a > 0) recs.push(b, a, y);
      }
    }
    const count = recs.length / 3;
    const rows = Math.ceil(count / w);
    const want = [...recs, ...new Array<number>(3 * (rows * w - count)).fill(Infinity)];
    await both(K.pairs!, (ctx) => ({ p: ctx.stream('float2', [h, w], p), t: ctx.stream('float', 9, t) }), { records: want, shape: [rows, w] }, 'pairs');
  });

  it('a pushed +inf is a null record, dropped; its slot still counts', async () => {
    const xs = [3, -1, 0, 5, -2.5];
    const want = xs.flatMap((x) => (x > 0 ? [x, 2 * x] : [2 * x]));
    await both(K.nulls!, (ctx) => ({ a: ctx.stream('float', xs.length, xs) }), { records: want, shape: [want.length] }, 'nulls');
  });

  it('vout []: the slots double until no more records are kept (0 to 40 a record); past 1024 a BrookError', async () => {
    const xs = [3, 0, 13, 1, -2, 9, 5, 0, 40, 2, 17];
    const want = reference.brookVoutGrowReference(xs);
    await both(K.grow!, (ctx) => ({ a: ctx.stream('float', xs.length, xs) }), { records: want, shape: [want.length] }, 'grow');
    const few = cpu.stream('float', 2, [1, 2]);
    await expectBrookRejection(voutRun(cpu, K.endless!, { a: few }), /pushes more than 512 records for one input record, and an unbounded vout's slots double only up to 1024 .*give it a bound/);
    few.dispose();
  });

  it('past the loop bound a record gives NaN in every slot, as the GPU\'s outputs of a record that overran', async () => {
    const { spin } = brookWith({ maxIterations: 10 })`kernel void spin(float a<>, vout[2] float o<>) {
      o = a; push(o);
      while (a > 0.0) { o += 1.0; }
    }`;
    const xs = [-1, 2, 0, -3.5, 7];
    const want = xs.flatMap((x) => (x > 0 ? [NaN, NaN] : [x]));
    await both(spin!, (ctx) => ({ a: ctx.stream('float', xs.length, xs) }), { records: want, shape: [want.length] }, 'spin');
  });

  it('a plain run with the output given writes the slots as a GPU pass: record r is push r % N of its input record, +inf where none', () => {
    const xs = [3, -1, 12, 30, 7, 0];
    const a = cpu.stream('float', xs.length, xs);
    // vout []: one slot a record, the first push
    const firsts = cpu.stream('float', xs.length);
    cpu.run(K.grow!, { a, o: firsts });
    expectArrayEqual(firsts.readSync(), xs.map((x) => (x > 0 ? Math.fround(x * 10) : Infinity)), 'first pushes');
    // vout[3] over 3 slots a record: the input resampled, record r reads a[floor(r / 3)], slot r % 3
    const slots = cpu.stream('float', 3 * xs.length);
    cpu.run(K.dup!, { a, limit: 8, o: slots });
    const want = xs.flatMap((x) => {
      const pushed = x < 0 ? [] : [x, ...(x > 8 ? [-x] : []), ...(x > 16 ? [Math.fround(1000 + x)] : [])];
      return [0, 1, 2].map((k) => pushed[k] ?? Infinity);
    });
    expectArrayEqual(slots.readSync(), want, 'slots');
    [a, firsts, slots].forEach((s) => s.dispose());
  });
});
