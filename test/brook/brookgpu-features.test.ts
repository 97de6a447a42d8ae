// Conformance: the BrookGPU 0.5 language features its regression programs use (prog/tests), each
// run through the `brook` tag and compared with src/reference: Cg brace initialisers (struct_gather),
// iterators passed for stream parameters (convert_iter_to_stream, iterator, rayBug), domains of
// struct streams (read_write_domain), vout kernels over 2D inputs (vout) and write masks (writeQuery).
import { expect } from 'chai';
import { BrookContext, StructStream, brook, iter, structStream, reference, scan, scatterReduce, sortStream, streamDecl, streamGatherOp, streamRead, streamWrite, voutRun, writeMask, writeQuery } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext, rng } from '../helpers';

describe('brook/BrookGPU 0.5 features against src/reference', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('Cg brace initialisers become GLSL constructors (vectors, arrays, arrays of vectors); a matrix one is refused', () => {
    const { braces } = brook`
      kernel void braces(float a<>, out float4 o<>) {
        float2 ind = {2, 0};
        float3 w[2] = {{1, 2, 3}, {4, 5, 6}};
        const float k[3] = { 0.5, 1.5, 2.5 };
        o = float4(ind * a, w[1].y + k[2] * a, w[0].z * k[0]);
      }`;
    const r = rng(3);
    const av = Float32Array.from({ length: 37 }, () => Math.floor(r() * 64) - 32);
    const a = ctx.stream('float', 37, av);
    const o = ctx.stream('float4', 37);
    ctx.run(braces!, { a, o });
    expectArrayEqual(o.readSync(), reference.brookBracesReference(av), 'o');
    expectBrookError(() => brook`kernel void m(float a<>, out float o<>) { float2x2 x = {1, 2, 3, 4}; o = a; }`, /fills rows in Cg and columns in GLSL/);
    [a, o].forEach((s) => s.dispose());
  });

  it('an iterator passed for a float..float4 stream parameter is the stream Brook converts it to (1D and 2D); for an int stream, a BrookError', () => {
    const { scale, ints } = brook`
      kernel void scale(float input<>, float2 p<>, out float2 o<>) { o = p * input; }
      kernel void ints(int k<>, out float o<>) { o = k; }`;
    const [H, W] = [6, 8];
    const o = ctx.stream('float2', [H, W]);
    const pv = Float32Array.from({ length: H * W * 2 }, (_, k) => (k % 7) - 3);
    const p = ctx.stream('float2', [H, W], pv);
    ctx.run(scale!, { input: iter(0, 12), p, o }); // a float iterator over a 2D domain walks it row-major
    const it = reference.brookIteratorReference([0], [12], [H * W]);
    expectArrayEqual(o.readSync(), Array.from(pv, (x, k) => Math.fround(x * it[k >> 1]!)), 'p * iter(0, 12)');
    const ones = ctx.stream('float', [H, W], new Float32Array(H * W).fill(1));
    ctx.run(scale!, { input: ones, p: iter([1, -2], [5, 4]), o }); // float2 over 2D: x by column, y by row
    expectArrayEqual(o.readSync(), reference.brookIteratorReference([1, -2], [5, 4], [H, W]), 'iter((1,-2), (5,4)) over [6, 8]');
    const before = JSON.stringify(ctx.stats());
    expectBrookError(() => ctx.run(ints!, { k: iter(0, 4), o: ones }), /argument 'k': an iterator can stand for a float\.\.float4 stream, not a int one/);
    expect(JSON.stringify(ctx.stats())).to.equal(before);
    [o, p, ones].forEach((s) => s.dispose());
  });

  it('struct streams have domain(): host reads and writes of a domain, and a domain as a kernel input', () => {
    const { sumPair } = brook`
      typedef struct Pair_t { float first; float2 second; } Pair;
      kernel void sumPair(Pair p<>, out float s<>) { s = p.first + p.second.x * p.second.y; }`;
    const [H, W] = [7, 9];
    const s = streamDecl(ctx, `Pair s<${H}, ${W}>`, sumPair!.structs!) as StructStream;
    const whole = Float32Array.from({ length: H * W * 3 }, (_, k) => -k);
    streamRead(s, whole);
    const d = s.domain([2, 1], [6, 5]); // columns 2..5, rows 1..4: a [4, 4] domain
    expect(d.shape).to.deep.equal([4, 4]);
    const part = Float32Array.from({ length: 16 * 3 }, (_, k) => k + 0.5);
    streamRead(d, part);
    const expected = Float32Array.from(whole);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) for (let k = 0; k < 3; k++) expected[((r + 1) * W + c + 2) * 3 + k] = part[(r * 4 + c) * 3 + k]!;
    const back = new Float32Array(H * W * 3);
    streamWrite(s, back);
    expectArrayEqual(back, expected, 'the whole stream after writing the domain');
    const dback = new Float32Array(16 * 3);
    streamWrite(d, dback);
    expectArrayEqual(dback, part, 'the domain read back');
    const out = ctx.stream('float', [4, 4]);
    ctx.run(sumPair!, { p: d, s: out });
    expectArrayEqual(out.readSync(), Array.from({ length: 16 }, (_, i) => Math.fround(part[3 * i]! + Math.fround(part[3 * i + 1]! * part[3 * i + 2]!))), 'sumPair over the domain');
    expectBrookError(() => streamRead(d, new Float32Array(5)), /needs 48/);
    [s, out].forEach((x) => x.dispose());
    expectNoGLError(ctx);
  });

  it('vout kernels over 2D inputs push in the inputs row-major order (BrookGPU vout_brook foo over 10x10 and 6x9)', async () => {
    const { foo } = brook`
      kernel void foo (float a<>, float b<>, float4 c,
      		 float d[10][10], vout [4]float e<>) {
        e = a+b;
        push(e);
        if (round(fmod( (indexof a).x,2))!=1) {
          e = 2;
          push (e);
        }
        if (round(fmod((indexof a).y,3))!=1) {
           e=3;
           push (e);
           e=-3;
           push (e);
        }
      }`;
    for (const [rows, columns] of [[10, 10], [6, 9]] as const) {
      const n = rows * columns;
      const av = Float32Array.from({ length: n }, (_, i) => Math.floor(i / columns));
      const bv = Float32Array.from({ length: n }, (_, i) => Math.fround((i % columns) / 10));
      const a = ctx.stream('float', [rows, columns], av);
      const b = ctx.stream('float', [rows, columns], bv);
      const d = ctx.stream('float', [10, 10]);
      const { stream, count } = await voutRun(ctx, foo!, { a, b, c: [1, 0, 3.2, 5], d });
      const want = reference.brookVoutReference(av, bv, rows, columns);
      expect(count).to.equal(want.length);
      // BrookGPU's vout output: the input's width a row, rows grown to hold the records, null (+inf) after them
      const grown = Math.ceil(want.length / columns);
      expect(stream!.shape).to.deep.equal([grown, columns]);
      expectArrayEqual(stream!.readSync(), [...want, ...new Array<number>(grown * columns - want.length).fill(Infinity)], `pushed over [${rows}, ${columns}]`);
      [a, b, d, stream!].forEach((s) => s.dispose());
    }
    const a1 = ctx.stream('float', [2, 3]);
    const b1 = ctx.stream('float', 6);
    const d1 = ctx.stream('float', [10, 10]);
    await voutRun(ctx, foo!, { a: a1, b: b1, c: [0, 0, 0, 0], d: d1 }).then(
      () => expect.fail('inputs of two shapes'),
      (e: Error) => expect(e.message).to.match(/the inputs of a vout kernel have one shape/),
    );
    [a1, b1, d1].forEach((s) => s.dispose());
  });

  it('write masks: clear, set while writing, test to skip what is set; counted by write queries; masked records keep their values', () => {
    const { copyKill, copyAdd } = brook`
      kernel void copyKill(float s<>, float t, float add, out float o<>) {
        if (s >= t) discard;
        o = s + add;
      }
      kernel void copyAdd(float s<>, float add, out float o<>) { o = s + add; }`;
    const [H, W] = [33, 47];
    const r = rng(9);
    const sv = Float32Array.from({ length: H * W }, () => Math.floor(r() * 1000));
    const init = Float32Array.from({ length: H * W }, (_, i) => -i);
    const s = ctx.stream('float', [H, W], sv);
    const o = ctx.stream('float', [H, W], init);
    const m = writeMask(ctx, H, W);
    const q = writeQuery(ctx);
    const passes = [
      { kill: 300, add: 1, test: true, set: true }, //   set the records below 300
      { kill: 600, add: 2, test: true, set: true }, //   then those in [300, 600)
      { add: 3, test: true, set: false }, //             the rest
      { add: 4, test: false, set: false }, //            mask off: every record (the mask is not consulted)
    ];
    m.bind();
    const counts = passes.map((p) => {
      if (p.test) m.enableTest(); else m.disableTest();
      if (p.set) m.enableSet(); else m.disableSet();
      q.begin();
      if (p.kill !== undefined) ctx.run(copyKill!, { s, t: p.kill, add: p.add, o });
      else ctx.run(copyAdd!, { s, add: p.add, o });
      q.end();
      return q.countSync();
    });
    m.unbind();
    const want = reference.brookWriteMaskReference(sv, init, passes);
    expect(counts).to.deep.equal(want.counts);
    expectArrayEqual(o.readSync(), want.output, 'o');
    const three = reference.brookWriteMaskReference(sv, init, passes.slice(0, 3));
    expect(three.counts.reduce((x, y) => x + y, 0)).to.equal(H * W); // each record written once by the first three
    // a user kernel whose output has another size than the bound mask is refused; a read (its packing pass) is not
    const small = ctx.stream('float', 5, [1, 2, 3, 4, 5]);
    m.bind();
    m.enableTest();
    expectBrookError(() => ctx.run(copyAdd!, { s: small, add: 1, o: small }), /kernel copyAdd: a write mask of 33x47 \(rows x columns\) is bound with its test enabled, but output 'o' \(.*\) has a \d+x\d+ texture; create the mask with the output's size, or unbind it/);
    expectArrayEqual(small.readSync({ method: 'pack' }), [1, 2, 3, 4, 5], 'untouched');
    m.unbind();
    ctx.run(copyAdd!, { s: small, add: 1, o: small });
    expectArrayEqual(small.readSync(), [2, 3, 4, 5, 6], 'run of another size with the mask unbound');
    m.dispose();
    expectBrookError(() => m.bind(), /write mask was disposed/);
    [s, o, small].forEach((x) => x.dispose());
    q.dispose();
    expectNoGLError(ctx);
  });

  it('write masks apply to a kernel whose output is a struct stream (its fields have the mask\'s size), and refuse one of another size', () => {
    const { setLow, both } = brook`
      typedef struct Pair_t { float first; float2 second; } Pair;
      kernel void setLow(float s<>, float t, out float o<>) { if (s >= t) discard; o = s; }
      kernel void both(float s<>, out Pair p<>) { p.first = s + 1.0; p.second = float2(s, 2.0); }`;
    const [H, W] = [9, 13];
    const sv = Float32Array.from({ length: H * W }, (_, i) => (i * 37) % 100);
    const s = ctx.stream('float', [H, W], sv);
    const o = ctx.stream('float', [H, W]);
    const Pair = both!.structParams!.p!.struct;
    const p = structStream(ctx, Pair, [H, W]);
    const m = writeMask(ctx, H, W);
    m.bind();
    try {
      m.enableSet();
      ctx.run(setLow!, { s, t: 50, o }); // sets the records below 50
      m.disableSet();
      m.enableTest();
      ctx.run(both!, { s, p });
      expectArrayEqual(p.fields.first!.readSync(), sv.map((x) => (x < 50 ? 0 : x + 1)), 'first: the set records are not written');
      expectArrayEqual(p.fields.second!.readSync(), Array.from(sv).flatMap((x) => (x < 50 ? [0, 0] : [x, 2])), 'second');
      const small = structStream(ctx, Pair, 5);
      const s5 = ctx.stream('float', 5, [1, 2, 3, 4, 5]);
      expectBrookError(() => ctx.run(both!, { s: s5, p: small }), /kernel both: a write mask of 9x13 \(rows x columns\) is bound with its test enabled, but output 'p' .* has a \d+x\d+ texture/);
      [small, s5].forEach((x) => x.dispose());
    } finally {
      m.dispose();
    }
    [s, o, p].forEach((x) => x.dispose());
    expectNoGLError(ctx);
  });

  it('write masks leave library calls alone (sortStream, scatterReduce, streamGatherOp, scan, packed reads) whose passes have the mask\'s size', async () => {
    const { addOne, sum, myinc } = brook`
      kernel void addOne(float s<>, out float o<>) { o = s + 1; }
      reduce void sum(float a<>, reduce float r<>) { r += a; }
      reduce void myinc(float a<>, reduce float b<>) { b = a + 1; }`;
    const n = 4096;
    const r = rng(17);
    const kv = Float32Array.from({ length: n }, () => Math.floor(r() * 500) - 250);
    const iv = Float32Array.from({ length: n }, () => Math.floor(r() * n));
    const keys = ctx.stream('float', n, kv);
    const index = ctx.stream('float', n, iv);
    const { width, height } = keys.layout;
    const m = writeMask(ctx, height, width);
    m.bind();
    m.enableTest();
    m.enableSet(); // every masked pass would set what it wrote, and later tested passes skip it
    try {
      const sorted = sortStream(ctx, keys);
      expectArrayEqual(sorted.order.readSync({ method: 'pack' }), reference.sortOrderReference(kv), 'sortStream order');
      [sorted.keys, sorted.order].forEach((x) => x.dispose());
      const tv = Float32Array.from({ length: n }, (_, i) => i);
      const t = ctx.stream('float', n, tv);
      scatterReduce(ctx, keys, index, t, sum!);
      expectArrayEqual(t.readSync(), reference.scatterReduceReference(kv, iv, tv, 1, (x, acc) => [acc[0]! + x[0]!]), 'scatterReduce');
      const s = ctx.stream('float', n, kv);
      t.write(tv);
      streamGatherOp(ctx, t, index, s, myinc!);
      const want = reference.brookGatherOpReference(tv, iv, kv, { comps: 1, indexComps: 1, extents: [n] }, (x) => [x[0]! + 1]);
      expectArrayEqual(t.readSync(), want.t, 'streamGatherOp t');
      expectArrayEqual(s.readSync(), want.s, 'streamGatherOp s');
      const total = scan(ctx, keys);
      expectArrayEqual(total.readSync(), reference.scanReference(kv, 1), 'scan');
      total.dispose();
      // the mask is still clear: the user's kernel writes every record, and sets them
      const o = ctx.stream('float', n, new Float32Array(n));
      ctx.run(addOne!, { s: keys, o });
      expectArrayEqual(o.readSync(), kv.map((x) => x + 1), 'the user kernel under the mask');
      ctx.run(addOne!, { s: o, o: s });
      expectArrayEqual(s.readSync(), want.s, 'a second user run, tested: every record set, none written');
      [t, s, o].forEach((x) => x.dispose());
    } finally {
      m.dispose();
    }
    [keys, index].forEach((x) => x.dispose());
    expectNoGLError(ctx);
  });

  it('indexof of an input resampled to another shape is its own record position (1D, 2D, 3D; and the same length in another shape)', () => {
    const { where, whereOut } = brook`
      kernel void where(float a<>, out float4 o<>) { o = indexof(a); }
      kernel void whereOut(float a<>, out float4 o<>) { o = indexof(o); }`;
    for (const [inShape, outShape] of [[[7], [20]], [[20], [7]], [[6, 10], [24, 50]], [[48, 5], [24, 50]], [[3, 4, 5], [6, 2, 10]], [[100], [10, 10]]] as const) {
      const a = ctx.stream('float', inShape.length === 1 ? inShape[0]! : [...inShape]);
      const o = ctx.stream('float4', outShape.length === 1 ? outShape[0]! : [...outShape]);
      ctx.run(where!, { a, o });
      expectArrayEqual(o.readSync(), reference.brookIndexofInputReference(inShape, outShape), `indexof(a) of [${inShape}] over [${outShape}]`);
      [a, o].forEach((s) => s.dispose());
    }
    const a = ctx.stream('float', 5);
    const o = ctx.stream('float4', [4, 6]);
    ctx.run(whereOut!, { a, o });
    expectArrayEqual(o.readSync(), reference.brookIndexofInputReference([4, 6], [4, 6]), 'indexof(o): the output record');
    [a, o].forEach((s) => s.dispose());
  });
});
