// Conformance: 8-bit char streams (BrookGPU's char/uchar and fixed types: a byte per component,
// a float in [0, 1] = b / 255 in kernels), host bytes in and out, against reference.charToFloat
// and reference.floatToChar.
import { expect } from 'chai';
import { BrookContext, READ_BANDS, READ_BAND_BYTES, Stream, brook, streamDecl, streamRead, streamWrite } from '../../src/index';
import { charToFloat, floatToChar } from '../../src/reference';
import { expectArrayEqual, expectBrookError, gpuOnly, newContext, onCpu, rng } from '../helpers';

function bytes(count: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length: count }, () => Math.floor(r() * 256));
}

describe('brook/char streams: 8-bit normalized, as BrookGPU defined them', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('read() sizes its readback buffers by the bytes of the texels (a byte a channel), banded from READ_BAND_BYTES up', async function () {
    gpuOnly(this, ctx, 'watches gl.bufferData for the readback buffers a GPU read makes; a CPU stream is read from its array');
    const gl = ctx.gl;
    const real = gl.bufferData;
    const sizes: number[] = [];
    gl.bufferData = function (this: WebGL2RenderingContext, ...args: unknown[]) {
      if (args[0] === gl.PIXEL_PACK_BUFFER && typeof args[1] === 'number') sizes.push(args[1]);
      return (real as (...a: unknown[]) => void).apply(this, args);
    } as typeof gl.bufferData;
    try {
      // char4: its own RGBA8 texels; 2 MiB in one buffer, 8 MiB (READ_BAND_BYTES) in READ_BANDS row bands
      for (const [shape, buffers] of [[[512, 1024], 1], [[READ_BAND_BYTES / 4 / 2048, 2048], READ_BANDS]] as const) {
        const data = bytes(shape[0] * shape[1] * 4, shape[0]);
        const s = ctx.stream('char4', [...shape], data);
        sizes.length = 0;
        expectArrayEqual(await s.read(), data, `char4 [${shape}]`);
        expect(sizes.length, `char4 [${shape}]: readback buffers`).to.equal(buffers);
        expect(sizes.reduce((a, b) => a + b, 0), `char4 [${shape}]: readback bytes`).to.equal(data.length);
        s.dispose();
      }
      // char: RGBA8 texels read whole (4 bytes a record), then the first byte taken
      const data = bytes(1 << 16, 4);
      const s = ctx.stream('char', data.length, data);
      sizes.length = 0;
      expectArrayEqual(await s.read(), data, 'char');
      expect(sizes).to.deep.equal([data.length * 4]);
      s.dispose();
    } finally {
      gl.bufferData = real;
    }
  });

  it('reads bytes as b / 255, writes floats clamped and rounded to bytes (char..char4, uchar, unsigned char, fixed)', () => {
    const { invert, widen, narrow, pick } = brook`
      kernel void invert(char4 c<>, out char4 o<>) { o = 1 - c; }
      kernel void widen(unsigned char a<>, uchar2 b<>, fixed3 d<>, out float4 f<>) { f = float4(a, b.y, d.xz); }
      kernel void narrow(float x<>, out char n<>, out char2 twice<>) {
        n = x;
        twice = float2(x * 2, -x);
      }
      kernel void pick(char3 img[], float i<>, out char3 o<>) { o = img[i]; }`;
    const [h, w] = [5, 9];
    const n = h * w;
    const c4 = bytes(n * 4, 1);
    const c = ctx.stream('char4', [h, w], c4);
    const o = ctx.stream('char4', [h, w]);
    ctx.run(invert!, { c, o });
    const inverted = o.readSync();
    expect(inverted).to.be.instanceOf(Uint8Array);
    expectArrayEqual(inverted, c4.map((b) => floatToChar(1 - charToFloat(b))), 'o = 1 - c');
    expectArrayEqual(inverted, c4.map((b) => 255 - b), '255 - b');

    const a1 = bytes(n, 2);
    const b2 = bytes(n * 2, 3);
    const d3 = bytes(n * 3, 4);
    const a = ctx.stream('char', [h, w], a1);
    const b = ctx.stream('char2', [h, w], b2);
    const d = ctx.stream('char3', [h, w], d3);
    const f = ctx.stream('float4', [h, w]);
    ctx.run(widen!, { a, b, d, f });
    const got = f.readSync();
    const want = Array.from({ length: n }, (_, r) => [a1[r]!, b2[r * 2 + 1]!, d3[r * 3]!, d3[r * 3 + 2]!].map(charToFloat)).flat();
    for (let k = 0; k < want.length; k++) expect(Math.abs(got[k]! - want[k]!), `widen ${k}`).to.be.at.most(2 ** -23);

    // floats 0.2 or 0.7 of a step past a byte (never a tie, doubled or not), and out of range: clamped, nearest byte
    const r = rng(5);
    const xs = Float32Array.from({ length: n }, (_, k) => (k % 7 === 0 ? -3 : k % 11 === 0 ? 7 : (Math.floor(r() * 255) + (k % 2 ? 0.2 : 0.7)) / 255));
    const x = ctx.stream('float', [h, w], xs);
    const nn = ctx.stream('char', [h, w]);
    const tw = ctx.stream('char2', [h, w]);
    ctx.run(narrow!, { x, n: nn, twice: tw });
    // a CPU context stores as BrookGPU's CPU backend did: char wraps modulo 256 where a texture saturates (docs/brook.md, CPU backend)
    const toChar = onCpu(ctx) ? (v: number) => Math.round(v * 255) & 255 : floatToChar;
    expectArrayEqual(nn.readSync(), Array.from(xs, toChar), 'n = x');
    expectArrayEqual(tw.readSync(), Array.from(xs, (v) => [toChar(Math.fround(v * 2)), toChar(-v)]).flat(), 'twice = (2x, -x)');

    // a char3 gather read by record index
    const img = ctx.stream('char3', 20, bytes(60, 6));
    const picked = ctx.stream('char3', 7);
    const idx = [19, 0, 3, 3, 12, 7, 1];
    ctx.run(pick!, { img, i: ctx.stream('float', 7, idx), o: picked });
    const src = img.readSync();
    expectArrayEqual(picked.readSync(), idx.flatMap((k) => [src[k * 3]!, src[k * 3 + 1]!, src[k * 3 + 2]!]), 'img[i]');
    [c, o, a, b, d, f, x, nn, tw, img, picked].forEach((s) => s.dispose());
  });

  it('counts a byte a channel in stats (char3 in RGBA8), reads async, and takes Brook declarations', async () => {
    // a GPU context counts texture bytes (char3 in RGBA8: 4 a record); a CPU context its arrays' bytes (3 a char3 record)
    const held = () => (onCpu(ctx) ? (ctx.stats() as unknown as { bytes: number }).bytes : ctx.stats().textureBytes);
    const before = held();
    const s1 = ctx.stream('char', [4, 8]);
    const s3 = ctx.stream('char3', [4, 8]);
    expect(held() - before).to.equal(4 * 8 * 1 + 4 * 8 * (onCpu(ctx) ? 3 : 4));
    const data = bytes(32 * 3, 7);
    s3.write(data);
    expectArrayEqual(await s3.read(), data, 'char3 read');
    const decl = streamDecl(ctx, 'unsigned char img<3, 5>') as Stream;
    expect(decl.type).to.equal('char');
    streamRead(decl, bytes(15, 8));
    const back = new Uint8Array(15);
    streamWrite(decl, back);
    expectArrayEqual(back, bytes(15, 8), 'streamWrite');
    const u = streamDecl(ctx, 'unsigned int u<4>') as Stream;
    expect(u.type).to.equal('uint');
    [s1, s3, decl, u].forEach((s) => s.dispose());
    expect(held()).to.equal(before);
  });

  it('refuses bytes out of range, char constants and char struct fields with BrookErrors', () => {
    const s = ctx.stream('char2', 3);
    expectBrookError(() => s.write([0, 1, 2, 3, 4, 256]), /element 5 is 256, not a valid byte/);
    expectBrookError(() => s.write(new Float32Array(6)), /pass a Uint8Array/);
    s.write([0, 1, 2, 3, 4, 255]);
    expectBrookError(() => brook`kernel void k(char t, float a<>, out float o<>) { o = a * t; }`, /constant 't' is char/);
    expectBrookError(() => brook`typedef struct { char a; } P; kernel void k(P p<>, out float o<>) { o = p.a; }`, /struct fields must be float/);
    s.dispose();
  });
});
