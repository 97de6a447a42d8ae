// `npx brookgl`'s pieces in the page (scripts/test-cli.mjs runs the command itself in Node): a .br
// file's module, written by kernelModule and imported as a module is, runs with the library and
// answers as the CPU does; runBrookgl with an in-memory io reports errors at file:line:col.
import { expect } from 'chai';
import { BrookContext, KernelSpec, createContext, cpuKernelSource, parseBrook, reduceValue, structStream } from '../../src/index';
import { compileBrFile } from '../../src/cli/brfile';
import { kernelModule, literal } from '../../src/cli/module';
import { runBrookgl } from '../../src/cli/cli';
import PAIRS_BR from './br/pairs.br';
import REDUCE_BR from './br/reduce.br';
import ERRORS_BR from './br/errors.br';
import { expectArrayEqual, expectNoGLError, newContext } from '../helpers';

/** The module text imported as the browser imports a file (in Node, the Node run's, a data: URL: Node imports no blob: URL). */
async function importText(text: string): Promise<Record<string, KernelSpec>> {
  if (typeof window === 'undefined') {
    const data = `data:text/javascript;base64,${btoa(unescape(encodeURIComponent(text)))}`;
    return ((await import(/* @vite-ignore */ data)) as { default: Record<string, KernelSpec> }).default;
  }
  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  try {
    return ((await import(/* @vite-ignore */ url)) as { default: Record<string, KernelSpec> }).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

describe('brook/npx brookgl: the module it writes, run with the library', () => {
  let ctx: BrookContext;
  beforeEach(() => (ctx = newContext()));
  afterEach(() => ctx.dispose());

  it('pairs.br: scalePair (a struct kernel calling a helper, a #define) from the written module equals the CPU', async () => {
    const result = compileBrFile(PAIRS_BR);
    expect(result.errors).to.deep.equal([]);
    expect(result.skipped.map((s) => `${s.line}:${s.col} ${s.what}`)).to.deep.equal([
      '4:1 #include <stdio.h>', '5:1 #include <stdlib.h>', "29:1 declaration 'static int failures = 0;'", '31:1 function report', '35:1 function main',
    ]);
    const kernels = await importText(kernelModule(result.kernels, { file: 'pairs.br', version: 'test', signatures: result.signatures, skipped: result.skipped }));
    expect(Object.keys(kernels)).to.deep.equal(['clear2', 'clearPair', 'scalePair']);
    const n = 37;
    const data = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) [data[2 * i], data[2 * i + 1]] = [i * 0.75 - 9, -i];
    const Pair = kernels.scalePair!.structs!.Pair!;
    const p = structStream(ctx, Pair, n, data);
    const out = structStream(ctx, Pair, n);
    ctx.run(kernels.scalePair!, { p, result: out });
    const expected = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) [expected[2 * i], expected[2 * i + 1]] = [Math.fround(Math.fround(data[2 * i]! * 2) * 2.5), data[2 * i + 1]!];
    expectArrayEqual(await out.read(), expected, 'scalePair');
    expectNoGLError(ctx);
    p.dispose();
    out.dispose();
  });

  it('reduce.br: matrix_mult (a reduce kernel) from the written module folds 2x2 matrices in order, as the CPU does', async () => {
    const result = compileBrFile(REDUCE_BR);
    expect(result.errors).to.deep.equal([]);
    const { matrix_mult } = await importText(kernelModule(result.kernels, { file: 'reduce.br', version: 'test' }));
    // matrices of small integers: every product exact in float32, so the order alone decides the answer
    const n = 12; // entries in -1..2: every partial product below 3^12, exact in float32
    const m = new Float32Array(4 * n);
    for (let i = 0; i < 4 * n; i++) m[i] = [1, 0, -1, 2, 1, 1][(i * 7 + (i >> 2)) % 6]!;
    const b = ctx.stream('float4', n, m);
    const [x, y, z, w] = await reduceValue(ctx, matrix_mult!, { b });
    let acc = [m[0]!, m[1]!, m[2]!, m[3]!];
    for (let k = 1; k < n; k++) {
      const [p, q, r, s] = [m[4 * k]!, m[4 * k + 1]!, m[4 * k + 2]!, m[4 * k + 3]!];
      acc = [acc[0]! * p + acc[1]! * r, acc[0]! * q + acc[1]! * s, acc[2]! * p + acc[3]! * r, acc[2]! * q + acc[3]! * s];
    }
    expect([x, y, z, w]).to.deep.equal(acc);
    b.dispose();
  });

  it("a module's kernels give the same records on this context as the brook tag's kernels of the same Brook, and the CPU backend writes the same JavaScript for them", async () => {
    for (const [file, text] of [['pairs.br', PAIRS_BR], ['reduce.br', REDUCE_BR]] as const) {
      const result = compileBrFile(text);
      const written = await importText(kernelModule(result.kernels, { file, version: 'test' }));
      const tagged = parseBrook(result.brook); // the Brook of the file, as the brook tag compiles it
      expect(Object.keys(written)).to.deep.equal(Object.keys(tagged));
      for (const name of Object.keys(tagged)) {
        // the module's description is the tag's, field for field (origin.source: the file's Brook, its host lines left empty)
        expect(written[name], name).to.deep.equal(tagged[name]);
        expect(written[name]!.origin!.source).to.equal(result.brook.replace(/^[ \t]+$/gm, ''));
        expect(cpuKernelSource(written[name]!), name).to.equal(cpuKernelSource(tagged[name]!));
      }
    }
    // a loop bound other than the default (npx brookgl --max-iterations N, or Infinity: none) is compiled again with it
    const LOOP = 'kernel void spin(float n, out float o<>) { float s = 0.0; int i; for (i = 0; i < int(n); i++) s += 1.0; o = s; }';
    for (const maxIterations of [50, Infinity]) {
      const { spin } = await importText(kernelModule(parseBrook(LOOP, { maxIterations }), { file: 'spin.br', version: 'test' }));
      expect(spin!.maxIterations).to.equal(maxIterations === Infinity ? undefined : 50);
      expect(cpuKernelSource(spin!)).to.equal(cpuKernelSource(parseBrook(LOOP, { maxIterations }).spin!));
      const o = ctx.stream('float', 3);
      ctx.run(spin!, { n: 80, o });
      expect(Array.from(await o.read())).to.deep.equal(maxIterations === Infinity ? [80, 80, 80] : [NaN, NaN, NaN]);
      o.dispose();
    }
    // pairs.br's scalePair on structs, record by record
    const pairs = compileBrFile(PAIRS_BR);
    const fromModule = await importText(kernelModule(pairs.kernels, { file: 'pairs.br', version: 'test' }));
    const fromTag = parseBrook(pairs.brook);
    const n = 53;
    const data = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) [data[2 * i], data[2 * i + 1]] = [Math.sin(i) * 40, i / 7 - 3];
    const Pair = fromTag.scalePair!.structs!.Pair!;
    const p = structStream(ctx, Pair, n, data);
    const [a, b] = [structStream(ctx, Pair, n), structStream(ctx, Pair, n)];
    ctx.run(fromModule.scalePair!, { p, result: a });
    ctx.run(fromTag.scalePair!, { p, result: b });
    const want = await b.read();
    expect(want.some((x) => x !== 0)).to.equal(true);
    expectArrayEqual(await a.read(), want, 'scalePair: module vs brook tag');
    // reduce.br's foo (a gather and a constant) and matrix_mult, as values
    const red = compileBrFile(REDUCE_BR);
    const redModule = await importText(kernelModule(red.kernels, { file: 'reduce.br', version: 'test' }));
    const redTag = parseBrook(red.brook);
    const m = new Float32Array(4 * 40);
    for (let i = 0; i < m.length; i++) m[i] = ((i * 13) % 7) - 3;
    const s4 = ctx.stream('float4', 40, m);
    const d = ctx.stream('float', [10, 10], Float32Array.from({ length: 100 }, (_, i) => (i % 11) * 0.5));
    const c = [1, 2, 0.5, 4];
    expect(await reduceValue(ctx, redModule.foo!, { a: s4, c, d })).to.deep.equal(await reduceValue(ctx, redTag.foo!, { a: s4, c, d }));
    expect(await reduceValue(ctx, redModule.matrix_mult!, { b: s4 })).to.deep.equal(await reduceValue(ctx, redTag.matrix_mult!, { b: s4 }));
    expectNoGLError(ctx);
    for (const x of [p, a, b, s4, d]) x.dispose();
  });

  it("a CPU context refuses a module's description that was edited (its GLSL, name or outputs), or whose Brook source no longer compiles, with a BrookError", async () => {
    const result = compileBrFile(PAIRS_BR);
    const { clear2 } = await importText(kernelModule(result.kernels, { file: 'pairs.br', version: 'test' }));
    const cpu = createContext({ backend: 'cpu' });
    try {
      const out = cpu.stream('float2', 4);
      const edited = { ...clear2!, body: `${clear2!.body}\n` };
      expect(() => cpu.run(edited, { result: out })).to.throw(/kernel clear2: the description differs from the kernel its Brook source \(origin\.source\) compiles to .*or run this description on a GPU context/);
      const renamed = { ...clear2!, name: 'clear3' };
      expect(() => cpu.run(renamed, { result: out })).to.throw(/kernel clear3: the description differs from every kernel its Brook source/);
      const wider = { ...clear2!, outputs: { result: 'float3' as const } };
      expect(() => cpu.run(wider, { result: cpu.stream('float3', 4) })).to.throw(/kernel clear2: the description differs from the kernel/);
      const broken = { ...clear2!, origin: { ...clear2!.origin!, source: clear2!.origin!.source!.replace('kernel void clear2', 'kernel void clear2 oops') } };
      expect(() => cpu.run(broken, { result: out })).to.throw(/kernel clear2: the Brook source the description carries \(origin\.source\) does not compile/);
      cpu.run(clear2!, { result: out }); // the description as written runs: result = -1
      expect(Array.from(await out.read())).to.deep.equal(new Array(8).fill(-1));
      out.dispose();
    } finally {
      cpu.dispose();
    }
  });

  it('runBrookgl: errors.br reports each error at file:line:col and writes nothing; a good file writes its module', () => {
    const files: Record<string, string> = { 'errors.br': ERRORS_BR, 'pairs.br': PAIRS_BR };
    const written: Record<string, string> = {};
    let out = '';
    let err = '';
    const io = { readFile: (f: string) => files[f] ?? (() => { throw new Error('no such file'); })(), writeFile: (f: string, t: string) => void (written[f] = t), stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t), version: 'test' };
    expect(runBrookgl(['errors.br'], io)).to.equal(1);
    expect(err.split('\n').filter((l) => l.includes(': error: ')).map((l) => l.slice(0, l.indexOf(': error: ')))).to.deep.equal(['errors.br:6:5', 'errors.br:9:1']);
    expect(Object.keys(written)).to.deep.equal([]);
    err = '';
    expect(runBrookgl(['-q', 'pairs.br'], io)).to.equal(0);
    expect(out).to.equal('');
    expect(Object.keys(written)).to.deep.equal(['pairs.js']);
    expect(written['pairs.js']).to.match(/^\/\/ Written by brookgl test \(npx brookgl\) from pairs\.br/);
  });

  it('literal writes what JSON cannot (undefined, Infinity, -0) and refuses a class instance', () => {
    expect(literal({ a: undefined, b: Infinity, c: -0, d: [1, 'x'] })).to.equal('{\n  a: undefined,\n  b: Infinity,\n  c: -0,\n  d: [\n    1,\n    "x",\n  ],\n}');
    expect(() => literal({ m: new Map() })).to.throw(/class instance/);
  });
});
