// Conformance: Brook's stream domains, `a.domain(start, end)` — as a kernel input, output and
// gather, and for host reads and writes — from Brook source, against src/reference/shapes.ts.
// The first four follow BrookGPU's own tests (prog/tests/domain_read, domain_write,
// domain_gather, domain_streamreadwrite) with their data and shapes.
import { expect } from 'chai';
import { BrookContext, brook, reference, streamRead, streamWrite, type Stream } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext } from '../helpers';

const { domainRead, domainWrite, indexofReference, gatherClamped, positionOf } = reference;

describe('brook/domain: stream domains', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());
  const { copy } = brook`kernel void copy(float input<>, out float output<>) { output = input; }`;

  it('as an input: copy(a1.domain(30, 80), b1) and copy(a2.domain(int2(5, 90), int2(12, 94)), b2) (domain_read)', () => {
    const v1 = Float32Array.from({ length: 100 }, (_, i) => i);
    const v2 = Float32Array.from({ length: 10000 }, (_, i) => i);
    const a1 = ctx.stream('float', 100, v1);
    const a2 = ctx.stream('float', [100, 100], v2);
    const b1 = ctx.stream('float', 50);
    const b2 = ctx.stream('float', [4, 7]);
    const d2 = a2.domain([5, 90], [12, 94]);
    expect(d2.shape).to.deep.equal([4, 7]);
    ctx.run(copy!, { input: a1.domain(30, 80), output: b1 });
    ctx.run(copy!, { input: d2, output: b2 });
    expectArrayEqual(b1.readSync(), domainRead(v1, 1, [100], [30], [80]), 'b1');
    expectArrayEqual(b2.readSync(), domainRead(v2, 1, [100, 100], [5, 90], [12, 94]), 'b2');
    expect(Array.from(b2.readSync().slice(0, 3))).to.deep.equal([9005, 9006, 9007]); // BrookGPU's gold output
    [a1, a2, b1, b2].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('as an output: only the domain is written, the rest keeps its values (domain_write)', () => {
    const v = Float32Array.from({ length: 100 }, (_, i) => i);
    const minus = new Float32Array(100).fill(-1);
    const a1 = ctx.stream('float', 100, v);
    const b1 = ctx.stream('float', 100, minus);
    const a2 = ctx.stream('float', [10, 10], v);
    const b2 = ctx.stream('float', [10, 10], minus);
    ctx.run(copy!, { input: a1.domain(30, 80), output: b1.domain(20, 70) });
    ctx.run(copy!, { input: a2.domain([3, 5], [9, 10]), output: b2.domain([0, 2], [6, 7]) });
    expectArrayEqual(b1.readSync(), domainWrite(minus, 1, [100], [20], [70], domainRead(v, 1, [100], [30], [80])), 'b1');
    const got = b2.readSync();
    expectArrayEqual(got, domainWrite(minus, 1, [10, 10], [0, 2], [6, 7], domainRead(v, 1, [10, 10], [3, 5], [9, 10])), 'b2');
    expect(Array.from(got.slice(20, 27))).to.deep.equal([53, 54, 55, 56, 57, 58, -1]); // BrookGPU's gold output
    [a1, b1, a2, b2].forEach((s) => s.dispose());
  });

  it('as a gather: g[index] reads from the domain\'s start, clamped to the domain\'s edge outside it (domain_gather)', () => {
    const { gatherFetch } = brook`kernel void gatherFetch(float2 index<>, float2 g[][], out float2 result<>) { result = g[index]; }`;
    const index = Float32Array.from({ length: 200 }, (_, k) => (k % 2 === 0 ? (k / 2) % 10 : Math.floor(k / 2 / 10)));
    index[198] = 10; // one index beyond the domain's 10 columns (inside its stream's 20): clamps to the domain's column 9
    const gv = new Float32Array(800);
    for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) gv.set([i, j], (i * 20 + j) * 2);
    const indexStream = ctx.stream('float2', 100, index);
    const gatherStream = ctx.stream('float2', [20, 20], gv);
    const resultStream = ctx.stream('float2', 100);
    ctx.run(gatherFetch!, { index: indexStream, g: gatherStream.domain([0, 7], [10, 17]), result: resultStream });
    const dom = domainRead(gv, 2, [20, 20], [0, 7], [10, 17]);
    const want = new Float32Array(200);
    for (let k = 0; k < 100; k++) want.set(gatherClamped(dom, 2, [10, 10], [index[2 * k]!, index[2 * k + 1]!]), 2 * k);
    const got = resultStream.readSync();
    expectArrayEqual(got, want, 'gathered');
    expect(Array.from(got.slice(0, 4))).to.deep.equal([7, 0, 7, 1]); // BrookGPU's gold: <7 0> then <7 1> down the first column
    expect(Array.from(got.slice(198))).to.deep.equal([16, 9]); // the domain's (9, 9): its stream's row 16, column 9 (column 10 would give 10)
    [indexStream, gatherStream, resultStream].forEach((s) => s.dispose());
  });

  it('host I/O: streamRead / streamWrite of a domain (d.write, d.readSync, d.read) (domain_streamreadwrite)', async () => {
    const v = Float32Array.from({ length: 100 }, (_, i) => i);
    const a1 = ctx.stream('float', 100, v);
    const a2 = ctx.stream('float', [10, 10], v);
    const b1 = Float32Array.from({ length: 7 }, (_, i) => i);
    const b2 = Float32Array.from({ length: 21 }, (_, k) => Math.floor(k / 7) * 10 + (k % 7));
    streamRead(a1.domain(19, 26), b1); // Brook: streamRead(a1.domain(19, 19+7), input_b1)
    a2.domain([1, 5], [8, 8]).write(b2);
    const w1 = domainWrite(v, 1, [100], [19], [26], b1);
    const w2 = domainWrite(v, 1, [10, 10], [1, 5], [8, 8], b2);
    expectArrayEqual(a1.readSync(), w1, 'a1 after the domain write');
    expectArrayEqual(a2.readSync(), w2, 'a2 after the domain write');
    const out1 = new Float32Array(7);
    streamWrite(a1.domain(15, 22), out1); // Brook: streamWrite(a1.domain(15, 15+7), input_b1)
    expectArrayEqual(out1, domainRead(w1, 1, [100], [15], [22]), 'a1 domain read');
    expectArrayEqual(a1.domain(15, 22).readSync(), out1, 'a1 domain readSync');
    expectArrayEqual(await a2.domain([2, 4], [9, 7]).read(), domainRead(w2, 1, [10, 10], [2, 4], [9, 7]), 'a2 domain read');
    [a1, a2].forEach((s) => s.dispose());
  });

  it('3D and 4D domains as input, output and gather; indexof counts from the domain\'s start', () => {
    const { mix } = brook`
      kernel void mix(float a<>, float g[][][], out float4 o<>) {
        float4 p = indexof(o);
        o = float4(a, g[p.z][p.y][p.x], p.x + p.y * 10.0 + p.z * 100.0, 7.0);
      }`;
    const shape = [4, 5, 6];
    const n = 120;
    const v = Float32Array.from({ length: n }, (_, i) => i);
    const old = Float32Array.from({ length: n * 4 }, (_, i) => -i);
    const a = ctx.stream('float', shape, v);
    const g = ctx.stream('float', [3, 3, 3], Float32Array.from({ length: 27 }, (_, i) => 1000 + i));
    const o = ctx.stream('float4', shape, old);
    const [ia, ea] = [[2, 1, 0], [5, 4, 2]]; // a [2, 3, 3] box of a
    const [io, eo] = [[0, 2, 1], [3, 5, 3]]; // the same extents in o
    const [ig, eg] = [[1, 0, 1], [3, 3, 3]]; // [2, 3, 2] of g: reads beyond x = 1 clamp to x = 1 of the domain
    ctx.run(mix!, { a: a.domain(ia, ea), g: g.domain(ig, eg), o: o.domain(io, eo) });
    const ins = domainRead(v, 1, shape, ia, ea);
    const gdom = domainRead(Float32Array.from({ length: 27 }, (_, i) => 1000 + i), 1, [3, 3, 3], ig, eg);
    const dshape = [2, 3, 3];
    const pos = indexofReference(dshape);
    const written = new Float32Array(18 * 4);
    for (let i = 0; i < 18; i++) {
      const p = positionOf(i, dshape);
      written.set([ins[i]!, gatherClamped(gdom, 1, [2, 3, 2], p)[0]!, pos[i * 4]! + pos[i * 4 + 1]! * 10 + pos[i * 4 + 2]! * 100, 7], i * 4);
    }
    expectArrayEqual(o.readSync(), domainWrite(old, 4, shape, io, eo, written), '3D domains');
    const four = ctx.stream('float', [2, 3, 4, 5], Float32Array.from({ length: 120 }, (_, i) => i));
    const out = ctx.stream('float', [2, 2, 2, 3]);
    ctx.run(copy!, { input: four.domain([1, 1, 1, 0], [4, 3, 3, 2]), output: out });
    expectArrayEqual(out.readSync(), domainRead(Float32Array.from({ length: 120 }, (_, i) => i), 1, [2, 3, 4, 5], [1, 1, 1, 0], [4, 3, 3, 2]), '4D domain');
    [a, g, o, four, out].forEach((s) => s.dispose());
  });

  it('a kernel may read a stream and write a domain of it (ping-pong keeps the rest)', () => {
    const { shift } = brook`kernel void shift(float a[], out float o<>) { float4 p = indexof(o); o = a[p.x] * 2.0; }`;
    const v = Float32Array.from({ length: 40 }, (_, i) => i + 1);
    const s = ctx.stream('float', 40, v);
    ctx.run(shift!, { a: s, o: s.domain(10, 25) });
    const want = Float32Array.from(v);
    for (let i = 0; i < 15; i++) want[10 + i] = v[i]! * 2;
    expectArrayEqual(s.readSync(), want, 'in place through a domain');
    s.dispose();
  });

  it('a domain of a domain, and domains of replicated inputs', () => {
    const v = Float32Array.from({ length: 64 }, (_, i) => i);
    const a = ctx.stream('float', [8, 8], v);
    const inner = a.domain([1, 1], [7, 7]).domain([1, 2], [4, 5]); // columns 2..4, rows 3..5
    expect(inner.shape).to.deep.equal([3, 3]);
    expectArrayEqual(inner.readSync(), domainRead(v, 1, [8, 8], [2, 3], [5, 6]), 'nested domain');
    const o = ctx.stream('float', [6, 6]);
    ctx.run(copy!, { input: inner, output: o }); // [3, 3] replicated over [6, 6]
    const want = new Float32Array(36);
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) want[r * 6 + c] = v[(3 + (r >> 1)) * 8 + 2 + (c >> 1)]!;
    expectArrayEqual(o.readSync(), want, 'replicated domain');
    const { lin } = brook`kernel void lin(float g[], out float o<>) { float4 p = indexof(o); o = g[p.x]; }`;
    const o2 = ctx.stream('float', 10);
    ctx.run(lin!, { g: inner, o: o2 }); // a 1D index reads the domain's records in row-major order, its last past its end
    const dom = domainRead(v, 1, [8, 8], [2, 3], [5, 6]);
    expectArrayEqual(o2.readSync(), [...dom, dom[8]!], 'a 2D domain gathered by index');
    [a, o, o2].forEach((s) => s.dispose());
  });

  it('owns nothing; refuses bad bounds, empty domains, mismatched dimensions and disposed streams, naming the argument', async () => {
    const a = ctx.stream('float', [4, 6]);
    const b = ctx.stream('float', 10);
    const before = ctx.stats();
    const d = a.domain([1, 1], [3, 3]);
    expect(ctx.stats()).to.deep.equal(before);
    expectBrookError(() => a.domain([0, 0], [7, 2]), /end x = 7 is beyond the extent 6/);
    expectBrookError(() => a.domain([-1, 0], [2, 2]), /start x = -1 is outside \[0, 6\)/);
    expectBrookError(() => a.domain([2, 1], [2, 3]), /empty along x/);
    expectBrookError(() => a.domain([1, 1, 0], [2, 2, 1]), /start must be an array of 2 integers.*2 dimensions/);
    expectBrookError(() => a.domain(1, 3), /start must be an array of 2 integers/);
    expectBrookError(() => b.domain(3, 3), /empty along x/);
    expectBrookError(() => b.domain(0, 11), /beyond the extent 10/);
    expectBrookError(() => b.domain(0.5, 3), /start must be an integer, got number 0.5/);
    expectBrookError(() => a.domain([0, 0.5], [2, 2]), /start\[1\] must be an integer/);
    const { two } = brook`kernel void two(out float p<>, out float q<>) { p = 1.0; q = 2.0; }`;
    const b2 = ctx.stream('float', 10);
    const c = ctx.stream('float', [4, 6]);
    const o = ctx.stream('float', [2, 2]);
    const dead = c.domain([0, 0], [2, 2]);
    c.dispose();
    const stats = ctx.stats();
    expectBrookError(() => ctx.run(two!, { p: b.domain(0, 5), q: b2.domain(1, 6) }), /argument 'q': outputs written through domains must all cover the same records/);
    expectBrookError(() => ctx.run(two!, { p: b.domain(0, 5), q: b2 }), /argument 'q': outputs written through domains/);
    expectBrookError(() => d.write(new Float32Array(3)), /needs 4/);
    expectBrookError(() => ctx.run(copy!, { input: dead, output: o }), /argument 'input': the stream of the domain was disposed/);
    expectBrookError(() => ctx.run(copy!, { input: o, output: dead }), /argument 'output': the stream of the domain was disposed/);
    expectBrookError(() => dead.readSync(), /its stream was disposed/);
    expectBrookError(() => dead.write([1, 2, 3, 4]), /its stream was disposed/);
    expectBrookError(() => dead.domain([0, 0], [1, 1]), /its stream was disposed/);
    expectBrookError(() => c.domain([0, 0], [1, 1]), /disposed/);
    let rejected = false;
    await dead.read().catch(() => (rejected = true));
    expect(rejected).to.equal(true);
    const st = ctx.stats();
    expect({ ...st, pooledTextures: 0, textures: st.textures - st.pooledTextures, textureBytes: 0 }).to.deep.equal({ ...stats, pooledTextures: 0, textures: stats.textures - stats.pooledTextures, textureBytes: 0 });
    [b2, o].forEach((s) => s.dispose());
    [a, b, o].forEach((s) => s.dispose());
    expectNoGLError(ctx);
  });

  it('stats stay flat over repeated domain runs and host I/O', async () => {
    const a = ctx.stream('float', [6, 6], new Float32Array(36));
    const d = a.domain([1, 1], [5, 5]);
    const o = ctx.stream('float', [4, 4]);
    const step = async () => {
      d.write(new Float32Array(16).fill(2));
      ctx.run(copy!, { input: d, output: o });
      ctx.run(copy!, { input: o, output: d });
      await d.read();
    };
    await step();
    const before = ctx.stats();
    for (let i = 0; i < 10; i++) await step();
    expect(ctx.stats()).to.deep.equal(before);
    [a, o].forEach((s: Stream) => s.dispose());
  });
});
