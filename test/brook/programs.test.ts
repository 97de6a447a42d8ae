// Classic Brook programs, kernels as BrookGPU wrote them and their host main() translated line
// for line (the Brook line in a comment beside each), whose printed output equals a CPU run
// of the same program (src/reference/brook.ts) exactly.
import { expect } from 'chai';
import { BrookContext, Stream, brook, iter, reduceValue, reference, streamDecl, streamRead, streamWrite } from '../../src/index';
import { expectArrayEqual, newContext, rng } from '../helpers';

const print = (xs: ArrayLike<number>) => Array.from(xs, (x) => x.toFixed(4)).join(' ');

describe('brook/programs: classic Brook programs equal their CPU runs', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('prefix sum (log n scan passes)', () => {
    const { scanStep } = brook`
      kernel void scanStep(float input[], iter float here<>, float offset, out float result<>) {
        result = input[here];
        if (here >= offset)
          result += input[here - offset];
      }`;
    const N = 1000;
    const data = Float32Array.from({ length: N }, (_, i) => (i * 37) % 11); // float data[N];
    let a = streamDecl(ctx, `float a<${N}>`) as Stream; //                 float a<N>;
    let b = streamDecl(ctx, `float b<${N}>`) as Stream; //                 float b<N>;
    streamRead(a, data); //                                                streamRead(a, data);
    for (let offset = 1; offset < N; offset *= 2) { //                    for (offset = 1; offset < N; offset *= 2) {
      ctx.run(scanStep!, { input: a, here: iter(0, N), offset, result: b }); //   scanStep(a, it, offset, b);
      [a, b] = [b, a]; //                                                    swap(a, b); }
    }
    const out = new Float32Array(N);
    streamWrite(a, out); //                                                streamWrite(a, out);
    expect(print(out)).to.equal(print(reference.brookPrefixSumReference(data)));
    expect(out[N - 1]).to.equal(data.reduce((s, x) => s + x, 0));
    [a, b].forEach((s) => s.dispose());
  });

  it('bitonic sort', () => {
    const { bitonic } = brook`
      kernel void bitonic(float input[], iter float here<>, float stageWidth, float sortWidth, out float result<>) {
        float i = here;
        bool lower = fmod(i, 2 * stageWidth) < stageWidth;
        float partner = lower ? i + stageWidth : i - stageWidth;
        float a = input[i];
        float b = input[partner];
        bool ascending = fmod(floor(i / sortWidth), 2) == 0;
        result = (lower == ascending) ? min(a, b) : max(a, b);
      }`;
    const N = 256;
    const r = rng(42);
    const data = Float32Array.from({ length: N }, () => Math.floor(r() * 1000) - 500);
    let s = streamDecl(ctx, `float s<${N}>`) as Stream;
    let t = streamDecl(ctx, `float t<${N}>`) as Stream;
    streamRead(s, data);
    for (let sortWidth = 2; sortWidth <= N; sortWidth *= 2) { //        for (sortWidth = 2; ...; sortWidth *= 2)
      for (let stage = sortWidth / 2; stage >= 1; stage /= 2) { //     for (stage = sortWidth / 2; stage >= 1; stage /= 2) {
        ctx.run(bitonic!, { input: s, here: iter(0, N), stageWidth: stage, sortWidth, result: t }); // bitonic(s, it, stage, sortWidth, t);
        [s, t] = [t, s]; //                                                 swap(s, t); }
      }
    }
    const out = new Float32Array(N);
    streamWrite(s, out);
    expect(print(out)).to.equal(print(reference.brookBitonicReference(data)));
    expectArrayEqual(out, Float32Array.from(data).sort(), 'sorted');
    [s, t].forEach((x) => x.dispose());
  });

  it('matrix multiply by reduce (products, then a reduction of [N, N*N] to [N, N])', async () => {
    const { products, sumk } = brook`
      kernel void products(float A[][], float B[][], float N, iter float2 ij<>, out float p<>) {
        float j = floor(ij.x / N);
        float k = ij.x - j * N;
        p = A[ij.y][k] * B[k][j];
      }
      reduce void sumk(float p<>, reduce float c<>) { c += p; }`;
    const N = 8;
    const r = rng(7);
    const av = Float32Array.from({ length: N * N }, () => Math.floor(r() * 9) - 4 + r());
    const bv = Float32Array.from({ length: N * N }, () => Math.floor(r() * 9) - 4 + r());
    const A = streamDecl(ctx, `float A<${N}, ${N}>`) as Stream; //          float A<N, N>;
    const B = streamDecl(ctx, `float B<${N}, ${N}>`) as Stream; //          float B<N, N>;
    const P = streamDecl(ctx, `float P<${N}, ${N * N}>`) as Stream; //      float P<N, N*N>;
    const C = streamDecl(ctx, `float C<${N}, ${N}>`) as Stream; //          float C<N, N>;
    streamRead(A, av); //                                                  streamRead(A, a);
    streamRead(B, bv); //                                                  streamRead(B, b);
    ctx.run(products!, { A, B, N, ij: iter([0, 0], [N * N, N]), p: P }); // products(A, B, N, it, P);
    ctx.run(sumk!, { p: P, c: C }); //                                     sumk(P, C);
    const out = new Float32Array(N * N);
    streamWrite(C, out); //                                                streamWrite(C, c);
    expect(print(out)).to.equal(print(reference.brookMatmulReference(av, bv, N)));
    expectArrayEqual(out, reference.brookMatmulReference(av, bv, N), 'C, bit for bit');
    // and a reduction to a value: the sum of all products
    const [total] = await reduceValue(ctx, sumk!, { p: P }); //           float total; sumk(P, total);
    expect(Math.abs(total! - out.reduce((s, x) => s + x, 0))).to.be.at.most(1e-3);
    [A, B, P, C].forEach((s) => s.dispose());
  });

  it('Mandelbrot', () => {
    const { mandel } = brook`
      kernel void mandel(iter float2 c<>, float maxIter, out float count<>) {
        float2 z = 0;
        float n = 0;
        while (n < maxIter && z.x * z.x + z.y * z.y < 4) {
          z = float2(z.x * z.x - z.y * z.y, 2 * z.x * z.y) + c;
          n += 1;
        }
        count = n;
      }`;
    const [H, W] = [24, 32];
    const counts = streamDecl(ctx, `float counts<${H}, ${W}>`) as Stream; // float counts<H, W>;
    ctx.run(mandel!, { c: iter([-2, -1.125], [1, 1.125]), maxIter: 50, count: counts }); // mandel(it, 50, counts);
    const out = new Float32Array(H * W);
    streamWrite(counts, out);
    expect(print(out)).to.equal(print(reference.brookMandelbrotReference(H, W, [-2, -1.125], [1, 1.125], 50)));
    expectArrayEqual(out, reference.brookMandelbrotReference(H, W, [-2, -1.125], [1, 1.125], 50), 'counts');
    expect(new Set(out).size).to.be.greaterThan(10);
    counts.dispose();
  });

  it('a struct-stream particle step', () => {
    const { step } = brook`
      typedef struct particle_t { float3 pos; float3 vel; } Particle;
      kernel void step(Particle p<>, float dt, float3 g, out Particle q<>) {
        q.vel = p.vel + g * dt;
        q.pos = p.pos + q.vel * dt;
        if (q.pos.y < 0) {
          q.pos.y = -q.pos.y;
          q.vel.y = -q.vel.y;
        }
      }`;
    const N = 50;
    const r = rng(3);
    const data = Float32Array.from({ length: N * 6 }, (_, i) => (i % 6 === 1 ? r() : r() * 2 - 1));
    let p = streamDecl(ctx, `Particle p<${N}>`, step!.structs); //         Particle p<N>;
    let q = streamDecl(ctx, `Particle q<${N}>`, step!.structs); //         Particle q<N>;
    streamRead(p, data); //                                                streamRead(p, data);
    for (let s = 0; s < 20; s++) { //                                      for (s = 0; s < 20; s++) {
      ctx.run(step!, { p, dt: 0.05, g: [0, -9.8, 0], q }); //                step(p, 0.05, g, q);
      [p, q] = [q, p]; //                                                    swap(p, q); }
    }
    const out = new Float32Array(N * 6);
    streamWrite(p, out); //                                                streamWrite(p, out);
    expect(print(out)).to.equal(print(reference.brookParticlesReference(data, 0.05, [0, -9.8, 0], 20)));
    // (not bit for bit: SwiftShader contracts p + v * dt into one rounding here and there)
    [p, q].forEach((s) => s.dispose());
  });
});
