// Missing, null and wrong-type options: a BrookError naming the argument, never a TypeError.
import { expect } from 'chai';
import { BrookContext, createContext, createNBody, filter, nbodyPreset, occlusionLoop, runBranch, scan, sortStream } from '../../src/index';
import { newContext } from '../helpers';
import { refuses } from './util';

describe('reliability/options', () => {
  let ctx: BrookContext;
  before(() => (ctx = newContext()));
  after(() => ctx.dispose());

  it('createContext refuses a canvas that is not one, and bad options', async () => {
    for (const canvas of ['x', document.createElement('div'), 5, {}]) {
      const e = await refusesNoContext(() => createContext({ canvas: canvas as never }));
      expect(e).to.match(/createContext: options.canvas must be an HTMLCanvasElement or an OffscreenCanvas/);
    }
    expect(await refusesNoContext(() => createContext('x' as never))).to.match(/createContext: options must be an object of options, got string 'x'/);
    expect(await refusesNoContext(() => createContext(null as never))).to.match(/createContext: options must be an object/);
    expect(await refusesNoContext(() => createContext({ debug: 'yes' as never }))).to.match(/options.debug must be true or false/);
    const c = createContext({ canvas: document.createElement('canvas') });
    c.dispose();
  });

  it('filter: no options, keep null, a keep that is not a string, bad flags', async () => {
    const s = ctx.stream('float', 8, new Float32Array(8));
    await refuses(ctx, () => filter(ctx, s, undefined as never), /filter: options is missing: pass \{ keep/);
    await refuses(ctx, () => filter(ctx, s, null as never), /filter: options is missing/);
    await refuses(ctx, () => filter(ctx, s, 'x > 0.0' as never), /filter: options must be an object of options, got string/);
    await refuses(ctx, () => filter(ctx, s, { keep: null as never }), /filter: options.keep is missing: pass a Brook expression of x and i/);
    await refuses(ctx, () => filter(ctx, s, { keep: 3 as never }), /filter: options.keep must be a non-empty string .* got number 3/);
    await refuses(ctx, () => filter(ctx, s, { keep: '  ' }), /filter: options.keep must be a non-empty string/);
    await refuses(ctx, () => filter(ctx, s, { keep: 'x > 0.0', method: 'fast' as never }), /filter: unknown filter method 'fast' \(options.method\)/);
    await refuses(ctx, () => filter(ctx, s, { keep: 'x > 0.0', indices: 'yes' as never }), /options.indices must be true or false/);
    await refuses(ctx, () => filter(ctx, s, { keep: 'x > 0.0', watch: 1 as never }), /options.watch must be a function/);
    await refuses(ctx, () => filter(ctx, null as never, { keep: 'x > 0.0' }), /filter: stream is missing: pass a stream/);
    await refuses(ctx, () => filter(ctx, [1, 2] as never, { keep: 'x > 0.0' }), /filter: stream: expected a stream, got an array of 2/);
    await refuses(ctx, () => filter(null as never, s, { keep: 'x > 0.0' }), /filter: the first argument must be a brookgl context .* got null/);
    s.dispose();
    await refuses(ctx, () => filter(ctx, s, { keep: 'x > 0.0' }), /filter: stream: the float stream of 8 records was disposed/);
  });

  it('sortStream and scan: null or wrong options and keys', async () => {
    const k = ctx.stream('float', 4, [3, 1, 2, 0]);
    await refuses(ctx, () => sortStream(ctx, k, null as never), /sortStream: options must be an object/);
    await refuses(ctx, () => sortStream(ctx, k, { payload: 5 as never }), /sortStream: options.payload: expected a stream, got number 5/);
    const short = ctx.stream('float', 3);
    await refuses(ctx, () => sortStream(ctx, k, { payload: short }), /options.payload must be a stream of 4 records/);
    const ints = ctx.stream('int', 4);
    await refuses(ctx, () => sortStream(ctx, ints), /sortStream: keys: expected a float stream, got a int stream of 4 records/);
    await refuses(ctx, () => sortStream(ctx, undefined as never), /sortStream: keys is missing/);
    await refuses(ctx, () => scan(ctx, k, 'exclusive' as never), /scan: options must be an object/);
    await refuses(ctx, () => scan(ctx, k, { exclusive: 1 as never }), /scan: options.exclusive must be true or false/);
    [k, short, ints].forEach((s) => s.dispose());
  });

  it('createNBody: no options, empty options, positions as a string, method fast, bad variants', async () => {
    const bodies = nbodyPreset('plummer', 8, 1);
    await refuses(ctx, () => createNBody(ctx, undefined as never), /createNBody: options is missing: pass \{ positions, softening \}/);
    await refuses(ctx, () => createNBody(ctx, {} as never), /createNBody: options.positions must be a Float32Array or an array of numbers .* got undefined/);
    await refuses(ctx, () => createNBody(ctx, { positions: 'abcdabcd' as never, softening: 0.1 }), /options.positions must be .* got string/);
    await refuses(ctx, () => createNBody(ctx, { positions: [1, 2, 3, NaN], softening: 0.1 }), /options.positions\[3\] must be a finite number, got number NaN/);
    await refuses(ctx, () => createNBody(ctx, { positions: [1, 2, 3], softening: 0.1 }), /4 numbers \(x, y, z, mass\) per body, got 3/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: 0.1, method: 'fast' as never }), /method must be 'nxn', 'points' or a variant \{ p, u, q, b \}, got string 'fast'/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: 0.1, method: { p: 3 } }), /p and u must be powers of two/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: 0.1, method: { fast: 1 } as never }), /unknown field 'fast'/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: 0.1, method: null as never }), /method must be 'nxn', 'points' or a variant/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: NaN }), /options.softening must be a positive number, got number NaN/);
    await refuses(ctx, () => createNBody(ctx, { ...bodies, softening: '0.1' as never }), /options.softening must be a positive number, got string/);
    await refuses(ctx, () => createNBody(ctx, { positions: bodies.positions, velocities: [1, 2], softening: 0.1 }), /velocities must hold 3 or 4 numbers per body/);
    await refuses(ctx, () => createNBody(undefined as never, { ...bodies, softening: 0.1 }), /createNBody: the first argument must be a brookgl context/);
    const sys = createNBody(ctx, { ...bodies, softening: 0.1 });
    await refuses(ctx, () => sys.write('x' as never), /nbody write: positions must be/);
    await refuses(ctx, () => sys.step(Infinity), /dt must be a finite number/);
    await refuses(ctx, () => sys.step(0.1, -1), /steps must be a non-negative integer/);
    sys.dispose();
  });

  it('occlusionLoop: no options, no terminate, no bound', async () => {
    await refuses(ctx, () => occlusionLoop(ctx, undefined as never), /occlusionLoop: options is missing/);
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {} } as never), /occlusionLoop: options.terminate is missing: pass \(\) =>/);
    await refuses(ctx, () => occlusionLoop(ctx, { terminate: () => {}, maxIterations: 4 } as never), /options.iterate is missing/);
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {}, terminate: 'x' as never, maxIterations: 4 }), /options.terminate must be a function/);
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {}, terminate: () => {} } as never), /options.maxIterations .* must be an integer, got undefined/);
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {}, terminate: () => {}, maxIterations: Infinity }), /maxIterations .* got number Infinity/);
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {}, terminate: () => {}, maxIterations: 0 }), /maxIterations .* must be positive, got 0/);
    await refuses(ctx, () => occlusionLoop(ctx, { iterate: () => {}, terminate: () => {}, maxIterations: 2, inFlight: 1.5 }), /options.inFlight must be an integer/);
  });

  it('runBranch: a description without cond, sides or outputs', async () => {
    const x = ctx.stream('float', 4);
    const y = ctx.stream('float', 4);
    const d = { name: 'B', inputs: { x: 'float' as const }, outputs: { y: 'float' as const }, cond: 'x > 0.0', then: 'y = 1.0;', else: 'y = 2.0;' };
    await refuses(ctx, () => runBranch(ctx, null as never, { x, y }), /runBranch: branch is missing/);
    await refuses(ctx, () => runBranch(ctx, { ...d, cond: undefined as never }, { x, y }), /branch B: cond is missing/);
    await refuses(ctx, () => runBranch(ctx, { ...d, then: 3 as never }, { x, y }), /branch B: then must be a string/);
    await refuses(ctx, () => runBranch(ctx, { ...d, outputs: {} }, { x, y }), /outputs must name at least one output/);
    await refuses(ctx, () => runBranch(ctx, d, null as never), /runBranch: args is missing/);
    await refuses(ctx, () => runBranch(ctx, d, { x, y }, { method: 'fast' as never }), /unknown method 'fast'/);
    x.dispose();
    y.dispose();
  });
});

/** createContext makes no context to compare stats on: the message of its BrookError. */
async function refusesNoContext(fn: () => unknown): Promise<string> {
  try {
    fn();
  } catch (e) {
    expect((e as Error).name).to.equal('BrookError');
    return (e as Error).message;
  }
  throw new Error('expected a BrookError');
}
