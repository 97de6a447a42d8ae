// 8-bit records (char streams; operators over char, uchar, char2, char4, fixed) through scatterReduce, streamGatherOp and
// streamScatterOp: the operator reads an 8-bit record as b / 255 and its result is stored back as
// a byte, on a CPU context as on a GPU one. Each case is checked against a plain loop over the
// bytes written here, on the CPU context and, in the page, on a GPU context too. Where the result
// stays in 0..255 both backends give the same bytes; past it they differ by the documented rule
// (docs/brook.md, "CPU backend"): char/uchar wrap modulo 256 on the CPU (BrookGPU's CPU backend,
// C's unsigned char), saturate at 0 and 255 on the GPU (UNORM textures); fixed saturates on both.
import { expect } from 'chai';
import { BrookContext, brook, scatterReduce, streamGatherOp, streamScatterOp } from '../../src/index';
import { cpuAndGpu, expectArrayEqual, rng } from '../helpers';

const { add8, max8, last2, add4, dec8, addFixed, scale3, decay } = brook`
  reduce void add8(uchar a<>, reduce uchar r<>) { r += a; }
  reduce void max8(char a<>, reduce char r<>) { r = max(r, a * a); }
  reduce void last2(char2 a<>, reduce char2 r<>) { r = a; }
  reduce void add4(char4 a<>, reduce char4 r<>) { r = r + a; }
  reduce void dec8(uchar a<>, reduce uchar r<>) { r = a - 1.0 / 255.0; }
  reduce void addFixed(fixed a<>, reduce fixed r<>) { r += a; }
  reduce void scale3(uchar a<>, reduce uchar r<>) { r = a * 0.3; }
  reduce void decay(uchar a<>, reduce uchar r<>) { r = r * 0.3 + a; }`;


/** Byte operators, as the plain loops apply them: `wrap` keeps b mod 256 (CPU char/uchar), otherwise b is clamped to 0..255. */
type ByteOp = (x: number[], r: number[]) => number[];
const fit = (b: number, wrap: boolean) => (wrap ? ((b % 256) + 256) % 256 : Math.min(255, Math.max(0, b)));

/** BrookGPU's scatterReduce over bytes: for i in order, t[k] = op(s[i], t[k]), k = index[i] ((int)(x + 0.5)), outside skipped. */
function scatterReduceBytes(s: Uint8Array, index: Float32Array, t: Uint8Array, comps: number, op: ByteOp, wrap: boolean): Uint8Array {
  const out = t.slice();
  const m = t.length / comps;
  for (let i = 0; i < index.length; i++) {
    const k = Number.isFinite(index[i]!) && index[i]! > -1.5 ? Math.trunc(index[i]! + 0.5) : -1;
    if (k < 0 || k >= m) continue;
    const v = op(Array.from(s.subarray(i * comps, i * comps + comps)), Array.from(out.subarray(k * comps, k * comps + comps)));
    v.forEach((b, c) => (out[k * comps + c] = fit(b, wrap)));
  }
  return out;
}

/** Index values into m records: mostly inside, some at .5, some outside. */
function indices(n: number, m: number, seed: number): Float32Array {
  const r = rng(seed);
  const odd = [-0.6, -3, m - 0.5, m + 2, NaN, 2.5];
  return Float32Array.from({ length: n }, (_, i) => (i % 11 === 4 ? odd[(i / 11) % odd.length | 0]! : Math.floor(r() * m)));
}

describe('cpu/8-bit records through scatterReduce, streamGatherOp and streamScatterOp, CPU and GPU against plain loops', () => {
  const pair = cpuAndGpu();
  const { cpu, both } = pair;

  function runScatterReduce(type: string, comps: number, sv: Uint8Array, iv: Float32Array, tv: Uint8Array, op: unknown) {
    return both((ctx) => {
      const s = ctx.stream(type as 'char', sv.length / comps, sv);
      const index = ctx.stream('float', iv.length, iv);
      const t = ctx.stream(type as 'char', tv.length / comps, tv);
      scatterReduce(ctx, s, index, t, op as never);
      const out = t.readSync();
      [s, index, t].forEach((x) => x.dispose());
      return out;
    });
  }

  it('scatterReduce within 0..255: uchar sum, char max(r, a * a), char2 last-wins (order), char4 sum give the plain loop\'s bytes on both', () => {
    const n = 600;
    const m = 40;
    const r = rng(5);
    const iv = indices(n, m, 6);
    const cases: Array<[string, number, unknown, ByteOp, number, string]> = [
      // small values: at most ~15 records a target, 15 * 8 + 40 < 255
      ['char', 1, add8, (x, a) => [a[0]! + x[0]!], 8, 'uchar r += a'],
      // a * a of bytes is b * b / 255 rounded: the operator must see b / 255, not the byte
      ['char', 1, max8, (x, a) => [Math.max(a[0]!, Math.round((x[0]! * x[0]!) / 255))], 256, 'char max(r, a * a)'],
      ['char2', 2, last2, (x) => x, 256, 'char2 r = a'],
      ['char4', 4, add4, (x, a) => a.map((b, c) => b + x[c]!), 8, 'char4 r = r + a'],
    ];
    for (const [type, comps, op, plain, range, name] of cases) {
      const sv = Uint8Array.from({ length: n * comps }, () => Math.floor(r() * range));
      const tv = Uint8Array.from({ length: m * comps }, (_, k) => (range === 8 ? k % 40 : Math.floor(r() * 256)));
      const want = scatterReduceBytes(sv, iv, tv, comps, plain, true);
      expectArrayEqual(scatterReduceBytes(sv, iv, tv, comps, plain, false), want, `${type}: the data keeps every result in 0..255 (wrap and saturate agree)`);
      const got = runScatterReduce(type, comps, sv, iv, tv, op);
      expect(got.cpu, `${type}: CPU reads back a Uint8Array`).to.be.instanceOf(Uint8Array);
      expectArrayEqual(got.cpu, want, `CPU scatterReduce ${name} on ${type}`);
      if (got.gpu) expectArrayEqual(got.gpu, want, `GPU scatterReduce ${name} on ${type}`);
    }
  });

  it('scatterReduce past 255: uchar sums wrap modulo 256 on the CPU and saturate at 255 on the GPU; fixed saturates on both', () => {
    const n = 300;
    const m = 10;
    const r = rng(9);
    const sv = Uint8Array.from({ length: n }, () => 40 + Math.floor(r() * 200));
    const iv = indices(n, m, 10);
    const tv = Uint8Array.from({ length: m }, (_, k) => k * 20);
    const sum: ByteOp = (x, a) => [a[0]! + x[0]!];
    const wrapped = scatterReduceBytes(sv, iv, tv, 1, sum, true);
    const saturated = scatterReduceBytes(sv, iv, tv, 1, sum, false);
    expect([...saturated].filter((b) => b === 255).length, 'most targets overflow').to.be.greaterThan(m / 2);
    const got = runScatterReduce('char', 1, sv, iv, tv, add8);
    expectArrayEqual(got.cpu, wrapped, 'CPU uchar sum (wraps)');
    if (got.gpu) expectArrayEqual(got.gpu, saturated, 'GPU uchar sum (saturates)');
    const fixed = runScatterReduce('char', 1, sv, iv, tv, addFixed);
    expectArrayEqual(fixed.cpu, saturated, 'CPU fixed sum (saturates)');
    if (fixed.gpu) expectArrayEqual(fixed.gpu, saturated, 'GPU fixed sum (saturates)');
  });

  it('streamGatherOp (decrement by one byte) and streamScatterOp (sum) on uchar streams: the plain loop\'s bytes on both', () => {
    const n = 200;
    const m = 30;
    const r = rng(21);
    // every source byte is at least 40 and named at most ~15 times, so a decrement never passes 0
    const sv = Uint8Array.from({ length: m }, () => 40 + Math.floor(r() * 200));
    const iv = indices(n, m, 22);
    const av = Uint8Array.from({ length: n }, () => Math.floor(r() * 16));
    const got = both((ctx) => {
      const t = ctx.stream('char', n);
      const index = ctx.stream('float', n, iv);
      const s = ctx.stream('char', m, sv);
      streamGatherOp(ctx, t, index, s, dec8!);
      // a[p] = a[p] + c[b[p]] with c the small bytes of a: sums stay in range
      const c = ctx.stream('char', m, Uint8Array.from({ length: m }, (_, k) => k % 9));
      const a = ctx.stream('char', n, av);
      streamScatterOp(ctx, a, index, c, add8!);
      const out = { t: t.readSync(), s: s.readSync(), a: a.readSync() };
      [t, index, s, a, c].forEach((x) => x.dispose());
      return out;
    });
    // BrookGPU's loops over bytes
    const t = new Uint8Array(n);
    const s = sv.slice();
    const a = av.slice();
    for (let i = 0; i < n; i++) {
      const j = Number.isFinite(iv[i]!) && iv[i]! > -1.5 ? Math.trunc(iv[i]! + 0.5) : -1;
      const inside = j >= 0 && j < m;
      t[i] = inside ? s[j]! : 0;
      if (inside) s[j] = s[j]! - 1;
      a[i] = av[i]! + (inside ? j % 9 : 0);
    }
    expect(Math.min(...s), 'no decrement passes 0').to.be.greaterThan(0);
    for (const [k, want] of [['t', t], ['s', s], ['a', a]] as const) {
      expectArrayEqual(got.cpu[k], want, `CPU ${k}`);
      if (got.gpu) expectArrayEqual(got.gpu[k], want, `GPU ${k}`);
    }
  });

  it('streamGatherOp below 0: a uchar decrement of 0 wraps to 255 on the CPU and stays 0 on the GPU', () => {
    const got = both((ctx) => {
      const t = ctx.stream('char', 4);
      const index = ctx.stream('float', 4, [0, 0, 1, 2]);
      const s = ctx.stream('char', 3, Uint8Array.of(1, 0, 7));
      streamGatherOp(ctx, t, index, s, dec8!);
      const out = { t: t.readSync(), s: s.readSync() };
      [t, index, s].forEach((x) => x.dispose());
      return out;
    });
    // record 0 is named twice: 1 then 0; the second decrement passes 0
    expectArrayEqual(got.cpu.t, [1, 0, 0, 7], 'CPU t');
    expectArrayEqual(got.cpu.s, [255, 255, 6], 'CPU s (wraps)');
    if (got.gpu) {
      expectArrayEqual(got.gpu.t, [1, 0, 0, 7], 'GPU t');
      expectArrayEqual(got.gpu.s, [0, 0, 6], 'GPU s (saturates)');
    }
  });

  it('streamGatherOp with a repeated index: the CPU stores a byte after each application (BrookGPU\'s loop), the GPU applies op k times in float and stores once', () => {
    const n = 7;
    const start = 200;
    const got = both((ctx) => {
      const t = ctx.stream('char', n);
      const index = ctx.stream('float', n, new Float32Array(n)); // every record names source record 0
      const s = ctx.stream('char', 1, Uint8Array.of(start));
      streamGatherOp(ctx, t, index, s, scale3!);
      const out = { t: t.readSync(), s: s.readSync() };
      [t, index, s].forEach((x) => x.dispose());
      return out;
    });
    const f = Math.fround;
    const toByte = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 255);
    // CPU: s[0] = byte(op(s[0] / 255)) after every read; GPU: the k-th read is op applied k times to 200 / 255 in float32
    const cpuT: number[] = [];
    let b = start;
    for (let k = 0; k < n; k++) {
      cpuT.push(b);
      b = toByte(f(f(b / 255) * f(0.3)));
    }
    const gpuT: number[] = [];
    let x = f(start / 255);
    for (let k = 0; k < n; k++) {
      gpuT.push(toByte(x));
      x = f(x * f(0.3));
    }
    expect(cpuT, 'the two loops differ (the rule is exercised)').to.not.deep.equal(gpuT);
    expectArrayEqual(got.cpu.t, cpuT, 'CPU t');
    expectArrayEqual(got.cpu.s, [b], 'CPU s');
    if (got.gpu) {
      expectArrayEqual(got.gpu.t, gpuT, 'GPU t');
      expectArrayEqual(got.gpu.s, [toByte(x)], 'GPU s');
    }
  });

  it('scatterReduce into one target: the CPU stores a byte after each application, the GPU folds the run in float and stores once', () => {
    const n = 5;
    const start = 200;
    const got = runScatterReduce('char', 1, new Uint8Array(n), new Float32Array(n), Uint8Array.of(start), decay);
    const f = Math.fround;
    const toByte = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 255);
    let b = start;
    let x = f(start / 255);
    for (let k = 0; k < n; k++) {
      b = toByte(f(f(b / 255) * f(0.3))); // + a, which is 0
      x = f(x * f(0.3));
    }
    expect(b, 'the two loops differ (the rule is exercised)').to.not.equal(toByte(x));
    expectArrayEqual(got.cpu, [b], 'CPU t');
    if (got.gpu) expectArrayEqual(got.gpu, [toByte(x)], 'GPU t');
  });
});
