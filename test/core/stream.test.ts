import { expect } from 'chai';
import { BrookContext, BrookError, ELEMENT_TYPES, ElementType, READ_BAND_BYTES, READ_BANDS, brookStructs, filter, structStream, typeInfo } from '../../src/index';
import { expectArrayEqual, expectNoGLError, newContext, rng } from '../helpers';

function dataFor(type: ElementType, records: number, seed: number): ArrayLike<number> {
  const info = typeInfo(type);
  const r = rng(seed);
  const count = records * info.components;
  if (info.host === 'char') {
    const a = new Uint8Array(count);
    for (let i = 0; i < count; i++) a[i] = Math.floor(r() * 256);
    return a;
  }
  if (info.kind === 'float') {
    const a = new Float32Array(count);
    for (let i = 0; i < count; i++) a[i] = (r() - 0.5) * 1e6;
    return a;
  }
  if (info.kind === 'int') {
    const a = new Int32Array(count);
    for (let i = 0; i < count; i++) a[i] = Math.floor((r() - 0.5) * 2 ** 32);
    return a;
  }
  const a = new Uint32Array(count);
  for (let i = 0; i < count; i++) a[i] = Math.floor(r() * 2 ** 32);
  return a;
}

describe('core/stream', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  for (const type of ELEMENT_TYPES) {
    it(`round-trips ${type} at lengths 1, 7, 1000, 4097 (sync and async)`, async () => {
      for (const n of [1, 7, 1000, 4097]) {
        const data = dataFor(type, n, n);
        const s = ctx.stream(type, n, data);
        expectArrayEqual(s.readSync(), data, `${type}[${n}] readSync`);
        expectArrayEqual(await s.read(), data, `${type}[${n}] read`);
        s.dispose();
      }
      expectNoGLError(ctx);
    });
  }

  for (const type of ['float', 'float3', 'float4', 'int', 'uint2'] as ElementType[]) {
    it(`round-trips 2^20 records of ${type}`, async () => {
      const n = 1 << 20;
      const data = dataFor(type, n, 99);
      const s = ctx.stream(type, n, data);
      expectArrayEqual(await s.read(), data, `${type}[2^20]`);
      s.dispose();
    });
  }

  /** Counts the bytes every readPixels call on ctx.gl asks for while `fn` runs. */
  async function bytesRead(fn: () => unknown): Promise<number> {
    const gl = ctx.gl;
    const original = gl.readPixels;
    let bytes = 0;
    const channels: Record<number, number> = { [gl.RED]: 1, [gl.RG]: 2, [gl.RGBA]: 4, [gl.RED_INTEGER]: 1, [gl.RG_INTEGER]: 2, [gl.RGBA_INTEGER]: 4 };
    (gl as unknown as { readPixels: unknown }).readPixels = function (this: unknown, x: number, y: number, w: number, h: number, format: number, ...rest: unknown[]) {
      expect(channels[format], `readPixels format 0x${format.toString(16)}`).to.be.a('number');
      bytes += w * h * channels[format]! * (rest[0] === gl.UNSIGNED_BYTE ? 1 : 4); // 32 bits a channel, char streams 8
      return (original as (...a: unknown[]) => void).call(gl, x, y, w, h, format, ...rest);
    };
    try {
      await fn();
    } finally {
      delete (gl as unknown as { readPixels?: unknown }).readPixels;
    }
    return bytes;
  }

  for (const type of ELEMENT_TYPES) {
    it(`read() and readSync() of ${type} move only 4 bytes a scalar (rounded up to a texel)`, async () => {
      const c = typeInfo(type).components;
      for (const n of [1, 3, 1000, 4097]) {
        const data = dataFor(type, n, 7 * n);
        const s = ctx.stream(type, n, data);
        const limit = Math.max(16, Math.ceil((n * c) / 4) * 16);
        let back: ArrayLike<number> = [];
        expect(await bytesRead(async () => (back = await s.read())), `${type}[${n}] read`).to.be.at.most(limit);
        expectArrayEqual(back, data, `${type}[${n}] read`);
        expect(await bytesRead(() => (back = s.readSync())), `${type}[${n}] readSync`).to.be.at.most(limit);
        expectArrayEqual(back, data, `${type}[${n}] readSync`);
        for (const method of ['pack', 'native'] as const) {
          expect(await bytesRead(async () => (back = await s.read({ method }))), `${type}[${n}] ${method}`).to.be.at.most(limit);
          expectArrayEqual(back, data, `${type}[${n}] ${method}`);
          expect(await bytesRead(() => (back = s.readSync({ method }))), `${type}[${n}] ${method} sync`).to.be.at.most(limit);
          expectArrayEqual(back, data, `${type}[${n}] ${method} sync`);
        }
        s.dispose();
      }
      expectNoGLError(ctx);
    });
  }

  it("a stream's, a domain's and a struct stream's ctx is the BrookContext that made them, typed so (run, reduce, filter(s.ctx, ...))", async () => {
    const s = ctx.stream('float', 4, [1, 2, 3, 4]);
    const owner: BrookContext = s.ctx; // compile error while stream.ctx was typed StreamHost
    const viaDomain: BrookContext = s.domain(1, 3).ctx;
    const [Pair] = Object.values(brookStructs`typedef struct { float a; float2 b; } Pair;`);
    const p = structStream(ctx, Pair!, 2);
    const viaStruct: BrookContext = p.ctx;
    expect(owner).to.equal(ctx);
    expect(viaDomain).to.equal(ctx);
    expect(viaStruct).to.equal(ctx);
    expect(await owner.reduce(s, 'sum')).to.deep.equal([10]);
    const kept = await filter(s.ctx, s, { keep: 'x > 2.5' });
    expectArrayEqual(kept.stream!.readSync(), [3, 4], 'filter(s.ctx, s)');
    kept.stream!.dispose();
    p.dispose();
    s.dispose();
  });

  it('reads float bit patterns back exactly, packed or not (NaN payloads, denormals, -0)', async () => {
    const bits = Uint32Array.from([0x7fc00001, 0xffc12345, 0x00000001, 0x807fffff, 0x80000000, 0x7f800000, 0xff800000, 0x3f800000, 0x00800000]);
    const data = new Float32Array(bits.buffer);
    for (const type of ['float', 'float2', 'float3'] as ElementType[]) {
      const c = typeInfo(type).components;
      const n = 3 * 64;
      const all = new Float32Array(n * c);
      for (let i = 0; i < all.length; i++) all[i] = data[i % data.length]!;
      const s = ctx.stream(type, n, all);
      for (const method of ['pack', 'native'] as const) {
        const back = await s.read({ method });
        expectArrayEqual(new Uint32Array(back.buffer, back.byteOffset, back.length), new Uint32Array(all.buffer), `${type} bits (${method})`);
      }
      s.dispose();
    }
  });

  it('reads large streams (READ_BAND_BYTES and up) in row bands, a buffer and a fence each, each byte where it belongs', async () => {
    // float4: whole RGBA texels; float: RED where offered, else packed; uint packed: every path
    const cases: [ElementType, number, 'native' | 'pack'][] = [['float4', 1 << 19, 'native'], ['float', 1 << 21, 'native'], ['float', 1 << 21, 'pack'], ['uint2', 1 << 20, 'native']];
    for (const [type, n, method] of cases) {
      const c = typeInfo(type).components;
      const bytes = n * c * 4;
      expect(bytes).to.be.at.least(READ_BAND_BYTES);
      const data = type.startsWith('uint') ? Uint32Array.from({ length: n * c }, (_, i) => (i * 2654435761) >>> 0) : Float32Array.from({ length: n * c }, (_, i) => i * 0.25 - 7);
      const s = ctx.stream(type, n, data);
      const before = ctx.stats();
      const pending = s.read({ method });
      // every band's buffer and fence issued before the first wait
      const during = ctx.stats();
      expect([during.buffers - before.buffers, during.syncs - before.syncs], `${type} bands in flight`).to.deep.equal([READ_BANDS, READ_BANDS]);
      expectArrayEqual(await pending, data, `${type} x ${n} (${method})`);
      const after = ctx.stats();
      expect([after.buffers, after.syncs], `${type} buffers, syncs after`).to.deep.equal([before.buffers, before.syncs]);
      s.dispose();
    }
  });

  it('releases a banded read\'s buffers and fences when its context is disposed while it waits', async () => {
    const own = newContext();
    const s = own.stream('float4', 1 << 19, new Float32Array(4 << 19));
    const pending = s.read();
    expect(own.stats().syncs).to.equal(READ_BANDS);
    own.dispose();
    let error: unknown = null;
    await pending.catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(BrookError);
    const after = own.stats();
    expect([after.buffers, after.syncs]).to.deep.equal([0, 0]);
  });

  it('reads into the caller\'s array (options.into), banded or not, and refuses one of the wrong type or length', async () => {
    // banded and packed, into a view that does not start at its buffer's first byte
    const n = 1 << 21;
    const data = Float32Array.from({ length: n }, (_, i) => i * 0.5 - 3);
    const big = ctx.stream('float', n, data);
    const host = new Float32Array(n + 4);
    const into = host.subarray(4);
    for (const method of ['pack', 'native'] as const) {
      into.fill(0);
      expect(await big.read({ method, into })).to.equal(into);
      expectArrayEqual(into, data, `float x ${n} into (${method})`);
    }
    big.dispose();
    const small = ctx.stream('int3', 1000, dataFor('int3', 1000, 9));
    const want = small.readSync();
    const mine = new Int32Array(3000);
    expect(await small.read({ into: mine })).to.equal(mine);
    expectArrayEqual(mine, want, 'int3 into');
    mine.fill(0);
    expect(small.readSync({ into: mine })).to.equal(mine);
    expectArrayEqual(mine, want, 'int3 readSync into');
    const before = ctx.stats();
    for (const bad of [new Float32Array(3000), new Int32Array(2999), [0, 1, 2]]) {
      expect(() => small.readSync({ into: bad as Int32Array })).to.throw(BrookError, /options\.into must be an Int32Array of 3000 elements/);
      let error: unknown = null;
      await small.read({ into: bad as Int32Array }).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(BrookError);
    }
    expect(ctx.stats()).to.deep.equal(before);
    small.dispose();
  });

  it('readSync({ into }) reads the texels straight into the caller\'s array and returns it (own, native and packed texels)', () => {
    const gl = ctx.gl;
    const real = gl.readPixels;
    const targets: ArrayBufferView[] = [];
    const cases = [['float4', 777, 'native'], ['float', 1001, 'native'], ['float', 1001, 'pack'], ['float3', 1001, 'pack'], ['int2', 999, 'pack'], ['uint', 4099, 'native']] as const;
    for (const [type, n, method] of cases) {
      const st = ctx.stream(type, n, dataFor(type, n, 5));
      const want = st.readSync({ method });
      const scalars = want.length;
      const packed = method === 'pack'; // (a packed read's last texel, when partly used, goes through 4 words of its own)
      const host = new (want.constructor as Float32ArrayConstructor)(scalars + 3);
      const into = host.subarray(3) as unknown as typeof want; // a view that does not start at its buffer's first byte
      targets.length = 0;
      gl.readPixels = function (this: WebGL2RenderingContext, ...args: unknown[]) {
        if (ArrayBuffer.isView(args[6])) targets.push(args[6]);
        return (real as (...a: unknown[]) => void).apply(this, args);
      } as typeof gl.readPixels;
      let got: ArrayLike<number>;
      try {
        got = st.readSync({ method, into });
      } finally {
        gl.readPixels = real;
      }
      expect(got, `${type} x ${n} (${method}): the array passed`).to.equal(into);
      expectArrayEqual(into, want, `${type} x ${n} (${method})`);
      expect(host.subarray(0, 3).every((x) => x === 0), 'the elements before the view untouched').to.equal(true);
      expect(targets.length).to.be.greaterThan(0);
      expect(targets.filter((t) => t.buffer !== host.buffer).length, `${type} x ${n} (${method}): readPixels into an array of its own`).to.be.at.most(packed && scalars % 4 !== 0 ? 1 : 0);
      st.dispose();
    }
  });

  it('leaves no buffer, sync or extra texture behind after reads', async () => {
    const s = ctx.stream('float', 5000, dataFor('float', 5000, 3));
    await s.read();
    s.readSync();
    const before = ctx.stats();
    for (let i = 0; i < 5; i++) {
      await s.read();
      s.readSync();
    }
    const after = ctx.stats();
    expect(after).to.deep.equal(before);
    expect(after.buffers).to.equal(0);
    expect(after.syncs).to.equal(0);
    s.dispose();
  });

  it('round-trips a 2D stream and keeps its shape', () => {
    const data = dataFor('float2', 37 * 53, 5);
    const s = ctx.stream('float2', [37, 53], data);
    expect(s.shape).to.deep.equal([37, 53]);
    expect(s.length).to.equal(37 * 53);
    expect(s.layout.width).to.equal(53);
    expectArrayEqual(s.readSync(), data, '2D float2');
    s.dispose();
  });

  it('keeps integers exact beyond 2^24 in int and uint streams', () => {
    const big = [2 ** 24 + 1, 2 ** 31 - 1, 2 ** 25 + 3, 123456789];
    const u = ctx.stream('uint', 4, Uint32Array.from([...big.slice(0, 3), 2 ** 32 - 1]));
    expectArrayEqual(u.readSync(), [...big.slice(0, 3), 2 ** 32 - 1], 'uint');
    const i = ctx.stream('int', 4, Int32Array.from([-(2 ** 31), -(2 ** 24) - 1, ...big.slice(0, 2)]));
    expectArrayEqual(i.readSync(), [-(2 ** 31), -(2 ** 24) - 1, ...big.slice(0, 2)], 'int');
    u.dispose();
    i.dispose();
  });

  it('lays 1D streams out in power-of-two widths near the square root', () => {
    const cases: Array<[number, number, number]> = [[1, 1, 1], [7, 4, 2], [1000, 32, 32], [4097, 128, 33], [1 << 20, 1024, 1024]];
    for (const [n, w, h] of cases) {
      const s = ctx.stream('float', n);
      expect([s.layout.width, s.layout.height], `n = ${n}`).to.deep.equal([w, h]);
      s.dispose();
    }
  });

  it('holds float special values as written (+-inf, NaN, -0)', () => {
    const data = Float32Array.from([Infinity, -Infinity, NaN, -0, 0, 3.5e38, 1.5e-38]);
    const s = ctx.stream('float', data.length, data);
    expectArrayEqual(s.readSync(), data, 'specials');
    s.dispose();
  });
});
