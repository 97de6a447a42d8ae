import { expect } from 'chai';
import { BrookContext, BrookError, KernelSpec, brook, createContext, iter } from '../../src/index';
import { expectBrookError, newContext } from '../helpers';

describe('core/errors', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('names the kernel, the driver message and the body line of a shader compile error', () => {
    // a Brook kernel's type errors are the front end's (test/brook/frontend.test.ts); the driver's
    // words come from hand-written GLSL, numbered from the line its origin gives
    const Broken: KernelSpec = {
      name: 'Broken', inputs: { a: 'float' }, outputs: { b: 'float' },
      body: '\n  float x = a * 2.0;\n  b = x + undefinedThing;\n',
      origin: { text: '\n  float x = a * 2.0;\n  b = x + undefinedThing;\n', bodyLine: 2 },
    };
    expectBrookError(() => brook`
kernel void Broken(float a<>, out float b<>) {
  float x = a * 2.0;
  b = x + undefinedThing;
}`, /kernel Broken, line 4: 'undefinedThing' is not declared/);
    let message = '';
    try {
      ctx.kernel(Broken!);
    } catch (e) {
      expect(e).to.be.instanceOf(BrookError);
      message = (e as Error).message;
    }
    expect(message).to.match(/kernel Broken failed to compile/);
    expect(message).to.match(/line 4: .*undefinedThing/);
    expect(message).to.match(/>\s*4\|\s+b = x \+ undefinedThing;/);
  });

  it('refuses an unknown createContext option by name (a misspelt or absent option is not ignored), and makes no context', () => {
    expectBrookError(() => createContext({ backnd: 'cpu' } as never), /unknown option 'backnd' \(options\.backnd\).*canvas, debug, programCacheSize, backend/);
    expectBrookError(() => createContext({ backend: 'gpu' } as never), /backend must be 'webgl2' \(the default\) or 'cpu'/);
    expectBrookError(() => createContext({ backend: 'cpu', debug: true } as never), /debug is a WebGL2 option; a CPU context takes none/);
    expectBrookError(() => createContext({ debgu: true } as never), /unknown option 'debgu'/);
    expectBrookError(() => createContext(null as never), /options must be an object/);
    const c = createContext({ debug: false, programCacheSize: 8 });
    expect(c.caps.renderer.length).to.be.greaterThan(0);
    c.dispose();
  });

  it('says in Brook words which types do not convert on which line, without generated names', () => {
    // the typed front end (src/brook/check.ts) reports these when the kernel is compiled, before
    // any GLSL exists; src/core/glslmessages.ts words the driver's messages of hand-written GLSL
    const compileError = (source: string): string => {
      try {
        brook(Object.assign([source], { raw: [source] }) as TemplateStringsArray);
      } catch (e) {
        expect(e).to.be.instanceOf(BrookError);
        return (e as Error).message;
      }
      throw new Error('the kernel compiled');
    };
    const internal = /brook_|overloaded|mediump|highp|component vector|vec\d/;
    // The kernel: a float3 into a float4 output (Cg never lengthens a vector).
    const widened = compileError(`
kernel void TypeMix(float4 img[][], out float4 o<>) {
  float2 p = indexof(o).xy;
  float3 c = img[p.y][p.x];
  o = c;
}`);
    expect(widened).to.match(/kernel TypeMix, line 5: a float3 cannot be assigned to the float4 output 'o' \(Cg does not widen a vector/);
    expect(widened).to.match(/>5\|\s+o = c;/);
    expect(widened).not.to.match(internal);
    // A gather's swizzle into a declaration, a vector as a condition, an operator on two vector sizes.
    const three = (line: string) => compileError(`
kernel void Three(float4 img[], float a<>, out float4 o<>) {
  float4 d = img[a];
  ${line}
}`);
    expect(three('float4 e = img[a].xy;')).to.match(/line 4: a float2 cannot initialise the float4 'e'/);
    expect(three('if (d.xyz) { o = d; }')).to.match(/line 4: the condition of if is a float3, not one bool: write any\(...\) or all\(...\)/);
    expect(three('o = d.xyz * float2(1.0, 2.0);')).to.match(/line 4: '\*' cannot combine a float3 and a float2/);
    for (const l of ['float4 e = img[a].xy;', 'if (d.xyz) { o = d; }', 'o = d.xyz * float2(1.0, 2.0);']) expect(three(l)).not.to.match(internal);
  });

  it('refuses bad stream shapes and lengths with the limit named', () => {
    expectBrookError(() => ctx.stream('float', 0), /positive integer, got 0/);
    expectBrookError(() => ctx.stream('float', 2.5), /positive integer/);
    expectBrookError(() => ctx.stream('float', ctx.caps.maxRecords + 1), /exceeds this device's capacity.*MAX_TEXTURE_SIZE/);
    expectBrookError(() => ctx.stream('float', [1, ctx.caps.maxTextureSize + 1]), /exceeds MAX_TEXTURE_SIZE/);
    expectBrookError(() => ctx.stream('double' as never, 4), /unknown element type 'double'/);
  });

  it('refuses writes of the wrong size or kind before any GL call', () => {
    const s = ctx.stream('float2', 4);
    expectBrookError(() => s.write(new Float32Array(7)), /got 7 numbers .* needs 8/);
    expectBrookError(() => s.write(new Int32Array(8)), /got a Int32Array .* pass a Float32Array/);
    const u = ctx.stream('uint', 2);
    expectBrookError(() => u.write([1, -1]), /element 1 is -1, not a valid uint/);
    expectBrookError(() => u.write([1, 0.5]), /element 1 is 0.5/);
    s.dispose();
    u.dispose();
  });

  const add: KernelSpec = { name: 'add', inputs: { a: 'float', b: 'float' }, outputs: { c: 'float' }, body: 'c = a + b;' };

  it('says which argument is wrong: missing, wrong type, wrong length, unknown, disposed', () => {
    const a = ctx.stream('float', 10);
    const b = ctx.stream('float', 10);
    const c = ctx.stream('float', 10);
    const short = ctx.stream('float', 9);
    const wide = ctx.stream('float2', 10);
    expectBrookError(() => ctx.run(add, { a, c }), /kernel add, argument 'b' is missing/);
    expectBrookError(() => ctx.run(add, { a, b: wide, c }), /argument 'b': expected a float stream, got a float2 stream/);
    expectBrookError(() => ctx.run(add, { a, b: short, c }), /argument 'b': .*9 records cannot be read elementwise over a domain of 10/);
    expectBrookError(() => ctx.run(add, { a, b, c, d: 1 }), /kernel add has no parameter 'd'/);
    expectBrookError(() => ctx.run(add, { a, b: 3, c }), /argument 'b': expected a float stream .* got number 3/);
    short.dispose();
    expectBrookError(() => ctx.run(add, { a, b: short, c }), /argument 'b': the stream was disposed/);
    const k: KernelSpec = { name: 'u', uniforms: { n: 'int', v: 'float3' }, iters: { it: 'float' }, outputs: { o: 'float' }, body: 'o = it;' };
    expectBrookError(() => ctx.run(k, { n: 1.5, v: [1, 2, 3], it: iter(0, 1), o: c }), /argument 'n': a int takes integers/);
    expectBrookError(() => ctx.run(k, { n: 1, v: [1, 2], it: iter(0, 1), o: c }), /argument 'v': a float3 takes 3 number\(s\), got 2/);
    expectBrookError(() => ctx.run(k, { n: 1, v: [1, 2, 3], it: 5, o: c }), /argument 'it': expected an iterator/);
    [a, b, c, wide].forEach((s) => s.dispose());
  });

  it('refuses malformed kernel descriptions and Brook source', () => {
    expectBrookError(() => ctx.kernel({ name: 'none', outputs: {}, body: '' }), /at least one output/);
    expectBrookError(() => ctx.kernel({ name: 'bad', inputs: { brook_x: 'float' }, outputs: { o: 'float' }, body: '' }), /reserved prefix/);
    expectBrookError(() => ctx.kernel({ name: 'kw', outputs: { out: 'float' }, body: '' }), /'out' is a GLSL reserved word/);
    expectBrookError(() => ctx.kernel({ name: 'dup', inputs: { a: 'float' }, outputs: { a: 'float' }, body: '' }), /declared twice/);
    expectBrookError(() => brook`kernel void k(float a<>) { }`, /needs at least one 'out'/);
    expectBrookError(() => brook`kernel void k(long a<>, out float b<>) { b = 1; }`, /unknown type 'long'/);
    expectBrookError(() => brook`kernel void k(float a<>, out float b<>) { b = a; `, /unbalanced '\{'/);
    expectBrookError(() => brook`just text`, /no `kernel void/);
  });

  it('throws a clear error on every call after the context is lost', async function () {
    const lost = createContext();
    const s = lost.stream('float', 4, [1, 2, 3, 4]);
    const ext = lost.gl.getExtension('WEBGL_lose_context');
    if (!ext) this.skip(); // WEBGL_lose_context is missing: nothing to simulate the loss with
    ext.loseContext();
    expectBrookError(() => s.readSync(), /WebGL context was lost/);
    expectBrookError(() => lost.stream('float', 4), /WebGL context was lost/);
    expectBrookError(() => lost.run(add, { a: s, b: s, c: s }), /WebGL context was lost/);
    let rejected: unknown;
    await s.read().catch((e) => (rejected = e));
    expect(String(rejected)).to.match(/WebGL context was lost/);
    s.dispose();
    lost.dispose();
  });

  it('throws after dispose', () => {
    const c = createContext();
    c.dispose();
    c.dispose(); // idempotent
    expectBrookError(() => c.stream('float', 1), /was disposed/);
  });
});
