import { expect } from 'chai';
import { BrookContext, brook, iter, parseBrook, reference } from '../../src/index';
import { expectArrayEqual, expectBrookError, expectNoGLError, newContext, rng } from '../helpers';

// Section 36.1 of Horn, "Stream Reduction Operations for GPGPU Applications" (GPU Gems 2,
// ch. 36), as printed apart from whitespace: StartScan and Scan from section 36.1.1 (printed in
// the text, without a listing number), GatherSearch and RelGather from Listing 36-1 (headed
// "Example 36-1").
const listing = brook`
kernel void StartScan(float4 value[],
  out float count<>,
  iter float here<>,
  iter float left_1<>)
{
  count = isinf(value[here].x) ? 1 : 0;
  if (here >= 1)
    count += isinf(value[left_1].x) ? 1 : 0;
}

kernel void Scan (float input[],
  out float count<>,
  iter float here<>,
  iter float left_2toi<>,
  float twotoi)
{
  count = input[here];
  if (here > twotoi)
    count += input[left_2toi];
}

kernel void GatherSearch(float scatterValues[],
  out float outGuess<>,
  float4 value[],
  float twotoi,
  float lastguess<>,
  iter float here<>)
{
  float guess = scatterValues[here + lastguess];
  float4 finalValue = value[here + lastguess];
  if (guess > lastguess)
    outGuess = lastguess + twotoi; //too low
 else if (guess == lastguess && !isinf(finalValue.x))
    outGuess = lastguess; // correct
 else
    outGuess = lastguess - twotoi; //too high
}

kernel void RelGather(out float4 outp<>,
 float gatherindex<>,
 float4 value[],
 iter float here<>)
{
  outp = value[here + gatherindex];
}
`;

/** n float4 records, about `density` of them null (+infinity in x). */
function records(n: number, density: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    v[i * 4] = r() < density ? Infinity : i;
    v[i * 4 + 1] = i * 2;
    v[i * 4 + 2] = -i;
    v[i * 4 + 3] = 1;
  }
  return v;
}
const xs = (v: Float32Array) => v.filter((_, i) => i % 4 === 0);

describe('brook/compile front end: section 36.1 (StartScan, Scan, Listing 36-1) as printed', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('parses the four kernels into kernel descriptions', () => {
    expect(Object.keys(listing)).to.deep.equal(['StartScan', 'Scan', 'GatherSearch', 'RelGather']);
    expect(listing.Scan!.gathers).to.deep.equal({ input: 'float' });
    expect(listing.Scan!.uniforms).to.deep.equal({ twotoi: 'float' });
    expect(listing.GatherSearch!.inputs).to.deep.equal({ lastguess: 'float' });
    expect(listing.RelGather!.outputs).to.deep.equal({ outp: 'float4' });
    expect(listing.StartScan!.iters).to.deep.equal({ here: 'float', left_1: 'float' });
  });

  for (const n of [1, 1000, 4097]) {
    it(`runs StartScan and the Scan passes on ${n} records, each pass equal to its CPU mirror`, () => {
      const v = records(n, 0.3, n);
      const value = ctx.stream('float4', n, v);
      let count = ctx.stream('float', n);
      ctx.run(listing.StartScan!, { value, count, here: iter(0, n), left_1: iter(-1, n - 1) });
      let expected = reference.startScanReference(xs(v));
      expectArrayEqual(count.readSync(), expected, 'StartScan');
      for (let twotoi = 2; twotoi < n; twotoi *= 2) {
        const next = ctx.stream('float', n);
        ctx.run(listing.Scan!, { input: count, count: next, here: iter(0, n), left_2toi: iter(-twotoi, n - twotoi), twotoi });
        expected = reference.scanPassReference(expected, twotoi, '>');
        expectArrayEqual(next.readSync(), expected, `Scan twotoi=${twotoi}`);
        count.dispose();
        count = next;
      }
      count.dispose();
      value.dispose();
      expectNoGLError(ctx);
    });
  }

  it('shows the printed Scan guard (here > twotoi) undercounts exactly where here == 2^i', () => {
    const n = 64;
    const v = records(n, 1, 1); // every record null: the running count is i + 1
    const asPrinted = (guard: '>' | '>=') => {
      let c: Float32Array = reference.startScanReference(xs(v));
      for (let t = 2; t < n; t *= 2) c = reference.scanPassReference(c, t, guard);
      return c;
    };
    const exact = reference.prefixNullCount(xs(v));
    expectArrayEqual(asPrinted('>='), exact, 'with >=');
    const wrong = Array.from(asPrinted('>')).flatMap((c, i) => (c !== exact[i] ? [i] : []));
    expect(wrong).to.include.members([2, 4, 8, 16, 32]);
  });

  it('runs a GatherSearch pass and RelGather, equal to their CPU mirrors', () => {
    const n = 1000;
    const v = records(n, 0.25, 7);
    const exactScan = Float32Array.from(reference.prefixNullCount(xs(v)));
    const value = ctx.stream('float4', n, v);
    const scatterValues = ctx.stream('float', n, exactScan);
    const guesses = Float32Array.from({ length: n }, (_, i) => (i * 7) % 300);
    const lastguess = ctx.stream('float', n, guesses);
    const outGuess = ctx.stream('float', n);
    ctx.run(listing.GatherSearch!, { scatterValues, outGuess, value, twotoi: 16, lastguess, here: iter(0, n) });
    expectArrayEqual(outGuess.readSync(), reference.gatherSearchPassReference(exactScan, xs(v), guesses, 16), 'GatherSearch');
    const outp = ctx.stream('float4', n);
    ctx.run(listing.RelGather!, { outp, gatherindex: outGuess, value, here: iter(0, n) });
    const expected = reference.relGatherReference(reference.gatherSearchPassReference(exactScan, xs(v), guesses, 16), v, 4);
    expectArrayEqual(outp.readSync(), expected, 'RelGather');
    [value, scatterValues, lastguess, outGuess, outp].forEach((s) => s.dispose());
  });

  it('translates Cg to GLSL: literals, reserved names, gathers, intrinsics', () => {
    const { k } = brook`
      float twice(float x) { return 2 * x; }
      kernel void k(float input[], float a<>, out float output<>, int shift) {
        int j = 3 + shift;
        float2 p = float2(1, 2);
        output = lerp(a, twice(input[j]), 0.5) + frac(p.y) + input[1][2] + saturate(a);
      }`;
    // literals typed by the checker: int beside an int, float where a float is wanted
    expect(k!.body).to.contain('int j = 3 + shift;');
    expect(k!.body).to.contain('vec2 p = vec2(1.0, 2.0);');
    expect(k!.body).to.contain('output_ = mix(a, twice(input_(j)), 0.5) + fract(p.y) + input_(1, 2) + saturate(a);');
    expect(k!.helpers).to.contain('float twice(float x) { return 2.0 * x; }');
    const a = ctx.stream('float', 3, [0.25, 2, -1]);
    const input = ctx.stream('float', 16, Float32Array.from({ length: 16 }, (_, i) => i));
    const output = ctx.stream('float', 3);
    // input[1][2] on a 1D stream is record 2 (BrookGPU: index float2(2, 1), y past the rank clamps to 0), not texel (2, 1) of its 4x4 layout
    ctx.run(k!, { input, a, output, shift: 1 });
    const sat = (x: number) => Math.min(1, Math.max(0, x));
    const expected = [0.25, 2, -1].map((x) => f32(f32(f32(x + (2 * 4 - x) * 0.5) + 0) + 2) + sat(x));
    expectArrayEqual(output.readSync(), expected.map(f32), 'translated kernel');
    [a, input, output].forEach((s) => s.dispose());
  });
});

const f32 = Math.fround;

// BrookGPU accepted kernel declarations (prototypes), as its split_testing drivers write them for
// kernels that another file defines; brookgl compiles one source, so a declaration must be matched
// by a definition in the same source.
describe('brook/kernel declarations (BrookGPU prototypes)', () => {
  const withDeclarations = `
    kernel void twice(float a<>, out float b<>);
    reduce void total(float a<>, reduce float r<>);
    kernel void addone( float a <>,
                        out float b<> );
    kernel void twice(float a<>, out float b<>) { float t; addone(a, t); b = 2 * t; }
    kernel void addone(float a<>, out float b<>) { b = a + 1; }
    reduce void total(float a<>, reduce float r<>) { r += a; }`;
  const definitionsOnly = withDeclarations.replace(/^ *(kernel|reduce) void \w+\([^)]*\);\n/gm, '');

  it('a declaration before its definition compiles to the same kernels as the definition alone (a kernel calling one defined further on too)', () => {
    expect(definitionsOnly.split(';').length).to.be.lessThan(withDeclarations.split(';').length);
    const a = parseBrook(withDeclarations), b = parseBrook(definitionsOnly);
    expect(Object.keys(a)).to.deep.equal(['twice', 'addone', 'total']);
    for (const name of Object.keys(b)) {
      const { origin: _o1, ...x } = a[name]!;
      const { origin: _o2, ...y } = b[name]!;
      expect(x, name).to.deep.equal(y);
    }
    expect(a.twice!.body).to.match(/addone/);
  });

  it('a declaration without a definition, or with other parameters, is a BrookError naming the line', () => {
    expectBrookError(() => parseBrook('kernel void f(float a<>, out float b<>);\nkernel void g(float a<>, out float b<>) { b = a; }'), /kernel f \(line 1\): declared but not defined in this source; .*put the definition/);
    expectBrookError(() => parseBrook('\nkernel void f(float a<>, out float c<>);\nkernel void f(float a<>, out float b<>) { b = a; }'), /kernel f \(line 2\): the declaration 'kernel void f\(float a<>,out float c<>\)' differs from the definition on line 3/);
    expectBrookError(() => parseBrook('kernel void f(float a<>, reduce float r<>);\nreduce void f(float a<>, reduce float r<>) { r += a; }'), /kernel f \(line 1\): the declaration 'kernel void f.*differs from the definition on line 2 \('reduce void f/);
  });
});
