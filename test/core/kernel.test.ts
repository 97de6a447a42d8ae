import { expect } from 'chai';
import { BrookContext, KernelSpec, Stream, iter, reference } from '../../src/index';
import { expectArrayEqual, expectNoGLError, newContext, randomFloats } from '../helpers';

const f32 = Math.fround;

describe('core/kernel', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  const saxpy: KernelSpec = {
    name: 'saxpy',
    inputs: { x: 'float', y: 'float' },
    uniforms: { alpha: 'float' },
    outputs: { result: 'float' },
    body: 'result = alpha * x + y;',
  };

  it('runs an elementwise kernel with a uniform (saxpy) on non-power-of-two lengths', () => {
    for (const n of [1, 7, 1000, 4097]) {
      const xs = randomFloats(n, 1);
      const ys = randomFloats(n, 2);
      const x = ctx.stream('float', n, xs);
      const y = ctx.stream('float', n, ys);
      const result = ctx.stream('float', n);
      ctx.run(saxpy, { x, y, alpha: 2.5, result });
      // a GPU may fuse alpha * x + y into one fma (one rounding instead of two): allow either,
      // i.e. half a float32 ulp for each of the two roundings
      const got = result.readSync();
      xs.forEach((v, i) => {
        const exact = 2.5 * v + ys[i]!;
        const ulp = 2 ** -23 * (Math.abs(2.5 * v) + Math.abs(exact));
        expect(Math.abs(got[i]! - exact), `saxpy n=${n} [${i}]`).to.be.at.most(ulp);
      });
      [x, y, result].forEach((s) => s.dispose());
    }
    expectNoGLError(ctx);
  });

  it('gathers by record index anywhere in a stream, reads zero outside it', () => {
    const n = 1000;
    const values = randomFloats(n * 4, 3);
    const v = ctx.stream('float4', n, values);
    const out = ctx.stream('float4', n);
    // each record gathers the one `shift` places to its right, reversed-index too
    ctx.run(
      { name: 'shifted', gathers: { v: 'float4' }, uniforms: { shift: 'int' }, outputs: { res: 'float4' }, body: 'res = v(brook_index + shift);' },
      { v, shift: 3, res: out },
    );
    const got = out.readSync();
    const expected = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) for (let k = 0; k < 4; k++) expected[i * 4 + k] = i + 3 < n ? values[(i + 3) * 4 + k]! : 0;
    expectArrayEqual(got, expected, 'gather');
    v.dispose();
    out.dispose();
  });

  it('gathers from a stream of another length and layout (integer and float indices)', () => {
    const table = ctx.stream('float', 4097, Float32Array.from({ length: 4097 }, (_, i) => i * 2));
    const idx = ctx.stream('float', 300, Float32Array.from({ length: 300 }, (_, i) => (i * 13.7) % 4100));
    const out = ctx.stream('float', 300);
    ctx.run(
      { name: 'lookup', inputs: { idx: 'float' }, gathers: { table: 'float' }, outputs: { res: 'float' }, body: 'res = table(idx);' },
      { idx, table, res: out },
    );
    const expected = Array.from({ length: 300 }, (_, i) => {
      const j = Math.floor(f32((i * 13.7) % 4100));
      return j < 4097 ? j * 2 : 0;
    });
    expectArrayEqual(out.readSync(), expected, 'lookup');
    [table, idx, out].forEach((s) => s.dispose());
  });

  it('gives iterators start + i * (end - start) / n', () => {
    const n = 4097;
    const out = ctx.stream('float', n);
    ctx.run({ name: 'iota', iters: { here: 'float' }, outputs: { res: 'float' }, body: 'res = here;' }, { here: iter(-1, n - 1), res: out });
    expectArrayEqual(out.readSync(), Array.from({ length: n }, (_, i) => i - 1), 'iter(-1, n-1)');
    out.dispose();
  });

  it('runs float2 iterators over a 2D domain and exposes brook_pos', () => {
    const out = ctx.stream('float4', [3, 5]);
    ctx.run(
      { name: 'coords', iters: { uv: 'float2' }, outputs: { res: 'float4' }, body: 'res = vec4(uv, vec2(brook_pos));' },
      { uv: iter([0, 0], [10, 6]), res: out },
    );
    const expected: number[] = [];
    for (let y = 0; y < 3; y++) for (let x = 0; x < 5; x++) expected.push(2 * x, 2 * y, x, y);
    expectArrayEqual(out.readSync(), expected, '2D iter');
    out.dispose();
  });

  it('writes two outputs of different types in one pass (multiple render targets)', () => {
    const n = 777;
    const xs = randomFloats(n, 4);
    const x = ctx.stream('float', n, xs);
    const sq = ctx.stream('float', n);
    const sign = ctx.stream('int2', n);
    ctx.run(
      {
        name: 'two',
        inputs: { x: 'float' },
        outputs: { sq: 'float', sign: 'int2' },
        body: 'sq = x * x;\nsign = ivec2(x < 0.0 ? -1 : 1, brook_index);',
      },
      { x, sq, sign },
    );
    expectArrayEqual(sq.readSync(), xs.map((v) => f32(v * v)), 'sq');
    expectArrayEqual(sign.readSync(), Array.from(xs).flatMap((v, i) => [v < 0 ? -1 : 1, i]), 'sign');
    [x, sq, sign].forEach((s) => s.dispose());
  });

  it('ping-pongs when an output is also an input (a += 1 run 10 times)', () => {
    const n = 4097;
    const a = ctx.stream('float', n, new Float32Array(n));
    const inc = { name: 'inc', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a + 1.0;' } satisfies KernelSpec;
    for (let i = 0; i < 10; i++) ctx.run(inc, { a, b: a });
    expectArrayEqual(a.readSync(), new Float32Array(n).fill(10), 'a');
    a.dispose();
  });

  it('a kernel that discards, run in place, keeps the discarded records\' values (not the pooled texture\'s old contents)', () => {
    const n = 3000;
    const values = randomFloats(n, 31, -100, 100);
    const halve: KernelSpec = { name: 'doubleUnlessBelow', inputs: { a: 'float' }, uniforms: { lo: 'float' }, outputs: { o: 'float', seen: 'float' }, body: 'if (a < lo) discard;\no = a * 2.0;\nseen = 1.0;' };
    const a = ctx.stream('float', n, values);
    const seen = ctx.stream('float', n, new Float32Array(n).fill(-1));
    // the first passes leave a's older textures in the pool, holding older values
    const los = [-Infinity, -Infinity, 0, 50, -20];
    for (const lo of los) ctx.run(halve, { a, lo, o: a, seen });
    expectArrayEqual(a.readSync(), reference.brookDiscardInPlaceReference(values, los), 'a after the passes');
    expectArrayEqual(seen.readSync(), new Float32Array(n).fill(1), 'seen (not read: written in place)');
    [a, seen].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('ping-pongs when an output is gathered from (a shift that would race in place)', () => {
    const n = 1000;
    const a = ctx.stream('float', n, Float32Array.from({ length: n }, (_, i) => i));
    ctx.run(
      { name: 'shiftLeft', gathers: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a(brook_index + 1);' },
      { a, b: a },
    );
    expectArrayEqual(a.readSync(), Array.from({ length: n }, (_, i) => (i + 1 < n ? i + 1 : 0)), 'shifted');
    a.dispose();
  });

  it('reads elementwise inputs whose layout differs from the output (1D and 2D of equal length)', () => {
    const data = randomFloats(12, 8);
    const flat = ctx.stream('float', 12, data);
    const grid = ctx.stream('float', [3, 4]);
    ctx.run({ name: 'copy', inputs: { a: 'float' }, outputs: { b: 'float' }, body: 'b = a;' }, { a: flat, b: grid });
    expectArrayEqual(grid.readSync(), data, '1D -> 2D');
    flat.dispose();
    grid.dispose();
  });

  it('computes with int and uint streams exactly beyond 2^24', () => {
    const n = 100;
    const base = 2 ** 24;
    const a = ctx.stream('uint', n, Uint32Array.from({ length: n }, (_, i) => base + i));
    const b = ctx.stream('uint', n);
    ctx.run({ name: 'plusIndex', inputs: { a: 'uint' }, outputs: { b: 'uint' }, body: 'b = a + uint(brook_index) * 3u;' }, { a, b });
    expectArrayEqual(b.readSync(), Array.from({ length: n }, (_, i) => base + 4 * i), 'uint');
    a.dispose();
    b.dispose();
  });

  it('compiles a kernel once: the same spec and an equal spec share a program', () => {
    const before = ctx.stats().programs;
    const x = ctx.stream('float', 4, [1, 2, 3, 4]);
    const y = ctx.stream('float', 4, [0, 0, 0, 0]);
    const r = ctx.stream('float', 4);
    ctx.run(saxpy, { x, y, alpha: 1, result: r });
    ctx.run({ ...saxpy }, { x, y, alpha: 1, result: r });
    expect(ctx.stats().programs).to.equal(before);
    [x, y, r].forEach((s) => s.dispose());
  });

  it('lets gathers be named like the accessors\' own parameters (p, i, row, col)', () => {
    const p = ctx.stream('float', 10, Float32Array.from({ length: 10 }, (_, k) => k * 3));
    const i = ctx.stream('float', 10, new Float32Array(10).fill(1));
    const out = ctx.stream('float', 10);
    ctx.run({ name: 'Names', gathers: { p: 'float', i: 'float' }, outputs: { row: 'float' }, body: 'row = p(brook_index) + i(brook_index) + p_texel(ivec2(1, 0));' }, { p, i, row: out });
    expectArrayEqual(out.readSync(), Array.from({ length: 10 }, (_, k) => k * 3 + 1 + 3), 'p + i + p[1]');
    [p, i, out].forEach((s) => s.dispose());
  });
});

describe('core/kernel: more outputs than draw buffers', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('runs a kernel with 12 float4 outputs as several passes, equal to the CPU reference (one output is also the input)', async () => {
    const outputs = 12;
    const n = 300;
    const names = Array.from({ length: outputs }, (_, k) => `o${k}`);
    const spec: KernelSpec = {
      name: 'twelve',
      inputs: { x: 'float4' },
      outputs: Object.fromEntries(names.map((o) => [o, 'float4'])),
      body: names.map((o, k) => `${o} = vec4(x.x * ${k + 1}.0, x.y + ${k}.0, x.z - x.w, float(brook_index * ${outputs} + ${k}));`).join('\n'),
    };
    const data = randomFloats(n * 4, 12, -100, 100);
    const streams = names.map((_, k) => ctx.stream('float4', n, k === 0 ? data : undefined));
    const args = Object.fromEntries(names.map((o, k) => [o, streams[k]!]));
    ctx.trace.start();
    ctx.run(spec, { x: streams[0]!, ...args }); // o0 is also x: every pass must read the old x
    const passes = await ctx.trace.stop();
    expect(passes.length).to.equal(Math.ceil(outputs / ctx.caps.maxDrawBuffers));
    expect(passes.every((p) => p.kind === 'kernel' && p.records === n)).to.equal(true);
    const expected = reference.manyOutputs(data, outputs);
    for (let k = 0; k < outputs; k++) expectArrayEqual(await streams[k]!.read(), expected[k]!, `output o${k}`);
    streams.forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });
});

describe('core/kernel: outputs whose textures differ in height', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  // 1056 records lay out as 17 rows of 64; a scratch (pooled) 1D stream's texture is made as tall
  // as the height class above, 20 rows, while a user stream's is exactly 17: one pass drawing
  // into both must still have attachments of one size (WebGL2 refuses others as incomplete).
  const n = 1056;
  const twoOut: KernelSpec = { name: 'plusAndTimes', inputs: { a: 'float' }, outputs: { p: 'float', q: 'float' }, body: 'p = a + 1.0;\nq = a * 2.0 + float(brook_index);' };
  const cases: [string, (a: Stream) => { p: Stream; q: Stream; a: Stream }][] = [
    ['a user stream read and written in place beside a scratch output', (a) => ({ a, p: a, q: ctx.scratch('float', n) })],
    ['a scratch stream read and written in place beside another scratch output', (a) => ({ a, p: a, q: ctx.scratch('float', n) })],
    ['a user stream output beside a scratch output (nothing in place)', (a) => ({ a, p: ctx.stream('float', n), q: ctx.scratch('float', n) })],
    ['a scratch output beside a user stream read and written in place', (a) => ({ a, p: ctx.scratch('float', n), q: a })],
  ];
  cases.forEach(([what, make], c) => {
    it(`draws ${what} (${n} records: 17 rows, pooled 20) and equals a plain loop, leaking nothing`, () => {
      ctx.trimPool();
      const before = ctx.stats();
      const values = randomFloats(n, 40 + c, -100, 100);
      const a = c === 1 ? ctx.scratch('float', n).write(values) : ctx.stream('float', n, values);
      const args = make(a);
      const rounds = 3;
      let want = Float32Array.from(values);
      let wantP = want;
      let wantQ = want;
      for (let r = 0; r < rounds; r++) {
        ctx.run(twoOut, args);
        wantP = want.map((v) => f32(v + 1));
        wantQ = want.map((v, i) => f32(f32(v * 2) + i));
        want = args.p === a ? wantP : args.q === a ? wantQ : want;
      }
      expectArrayEqual(args.p.readSync(), wantP, 'p');
      expectArrayEqual(args.q.readSync(), wantQ, 'q');
      new Set([a, args.p, args.q]).forEach((s) => s.dispose());
      ctx.trimPool();
      const after = ctx.stats();
      expect(after.textures, 'textures').to.equal(before.textures);
      expect(after.framebuffers, 'framebuffers').to.equal(before.framebuffers);
      expectNoGLError(ctx);
    });
  });

  it(`builds a z mask (${n} records: 17 rows, like the layout) and runs through it into a scratch stream (pooled 20), equal to a plain loop`, () => {
    ctx.trimPool();
    const before = ctx.stats();
    const values = randomFloats(n, 45, -100, 100);
    const init = randomFloats(n, 46, -100, 100);
    const a = ctx.stream('float', n, values);
    const out = ctx.scratch('float', n).write(init);
    const mask = ctx.zmask(out);
    // records the builder discards (a > 0) are the ones later runs write; its output is bound but not written
    ctx.buildMask(mask, { name: 'positives', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'if (a > 0.0) discard;\no = -1.0;' }, { a, o: out });
    expectArrayEqual(out.readSync(), init, 'after the build (its output is not written)');
    const triple: KernelSpec = { name: 'triple', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'o = a * 3.0;' };
    ctx.run(triple, { a, o: out }, { mask });
    ctx.run(triple, { a: out, o: out }, { mask }); // in place
    expectArrayEqual(out.readSync(), values.map((v, i) => (v > 0 ? f32(f32(v * 3) * 3) : init[i]!)), 'after two masked runs');
    [a, out].forEach((s) => s.dispose());
    mask.dispose();
    ctx.trimPool();
    const after = ctx.stats();
    expect([after.textures, after.renderbuffers, after.framebuffers], 'textures, renderbuffers, framebuffers').to.deep.equal([before.textures, before.renderbuffers, before.framebuffers]);
    expectNoGLError(ctx);
  });
});
