// Every asynchronous operation, with its context disposed or lost while it is in flight: the
// promise rejects with a BrookError (no hang), and the context's counters fall back to zero.
import { expect } from 'chai';
import { BrookContext, KernelSpec, binPoints, bucketSort, createContext, createDem, createNBody, filter, liveCount, nbodyPreset, occlusionLoop } from '../../src/index';
import { caught, expectBrookErrorValue } from './util';

const live: KernelSpec = { name: 'live', inputs: { a: 'float' }, outputs: { o: 'float' }, body: 'if (a < 0.0) discard; o = a;' };

/** Starts one asynchronous operation on a fresh context (small sizes: SwiftShader). */
const OPERATIONS: Record<string, (ctx: BrookContext) => Promise<unknown>> = {
  'stream.read()': (ctx) => ctx.stream('float4', 256, new Float32Array(1024)).read(),
  'queries.fence()': (ctx) => ctx.queries.fence(),
  'queries.occlusion()': (ctx) => {
    const a = ctx.stream('float', 64, new Float32Array(64));
    return ctx.queries.occlusion(() => ctx.run(live, { a, o: ctx.stream('float', 64) }));
  },
  'queries.time()': (ctx) => ctx.queries.time(() => ctx.stream('float', 4)),
  'ctx.reduce()': (ctx) => ctx.reduce(ctx.stream('float', 1000, new Float32Array(1000)), 'sum'),
  'filter()': (ctx) => filter(ctx, ctx.stream('float', 1000, new Float32Array(1000)), { keep: 'x >= 0.0' }),
  "filter('scan-loop')": (ctx) => filter(ctx, ctx.stream('float', 100, new Float32Array(100)), { keep: 'x >= 0.0', method: 'scan-loop' }),
  'liveCount()': (ctx) => liveCount(ctx, ctx.stream('float', 100, new Float32Array(100)), 'x >= 0.0'),
  'occlusionLoop()': (ctx) => {
    const a = ctx.stream('float', 64, new Float32Array(64));
    const o = ctx.stream('float', 64);
    return occlusionLoop(ctx, { iterate: () => {}, terminate: () => ctx.run(live, { a, o }), maxIterations: 1000, inFlight: 2 });
  },
  'nbody read()': (ctx) => createNBody(ctx, { ...nbodyPreset('plummer', 16, 1), softening: 0.1 }).read(),
  "binPoints('predicated')": (ctx) => binPoints(ctx, ctx.stream('float4', 64, new Float32Array(256)), GRID, { method: 'predicated', capacity: 16 }),
  "binPoints('stencil-predicated')": (ctx) => binPoints(ctx, ctx.stream('float4', 64, new Float32Array(256)), GRID, { method: 'stencil-predicated', capacity: 16 }),
  "binPoints('delayed')": (ctx) => binPoints(ctx, ctx.stream('float4', 64, new Float32Array(256)), GRID, { method: 'delayed', capacity: 16 }),
  'bucketSort()': (ctx) => bucketSort(ctx, ctx.stream('float', 64, Float32Array.from({ length: 64 }, (_, i) => 63 - i))),
  'dem.step()': (ctx) => createDem(ctx, { count: 32, diameter: 0.25 }).step(0.001),
};
const GRID = { cells: [2, 2, 2] as [number, number, number], origin: [0, 0, 0] as [number, number, number], cellSize: 0.5 };

async function expectRejectsAndEmpty(ctx: BrookContext, p: Promise<unknown>, pattern: RegExp, what: string): Promise<void> {
  const e = await caught(() => p, what);
  expectBrookErrorValue(e, pattern, what);
  const s = ctx.stats();
  expect({ buffers: s.buffers, queries: s.queries, syncs: s.syncs }, `${what}: GL objects left`).to.deep.equal({ buffers: 0, queries: 0, syncs: 0 });
}

describe('reliability/async: disposed or lost in flight', () => {
  for (const [name, start] of Object.entries(OPERATIONS)) {
    it(`${name} rejects when the context is disposed in flight`, async () => {
      const ctx = createContext();
      const p = start(ctx);
      ctx.dispose();
      await expectRejectsAndEmpty(ctx, p, /disposed/, name);
      expect(ctx.stats()).to.include({ textures: 0, framebuffers: 0, programs: 0 });
    });

    it(`${name} rejects when the context is lost in flight`, async function () {
      const ctx = createContext();
      const lose = ctx.gl.getExtension('WEBGL_lose_context');
      if (!lose) this.skip(); // nothing to simulate the loss with
      const p = start(ctx);
      lose!.loseContext();
      await expectRejectsAndEmpty(ctx, p, /lost/, name);
      ctx.dispose();
    });
  }

  it('a read started after dispose rejects at once', async () => {
    const ctx = createContext();
    const s = ctx.stream('float', 4);
    ctx.dispose();
    expectBrookErrorValue(await caught(() => s.read()), /disposed/);
    expectBrookErrorValue(await caught(() => ctx.queries.fence()), /disposed/);
  });
});

describe('reliability/async: lost during a stalling readPixels', () => {
  /** Makes the context's next readPixels lose the context first (a GPU reset in the call): the read writes nothing. */
  function loseInReadPixels(ctx: BrookContext): boolean {
    const lose = ctx.gl.getExtension('WEBGL_lose_context');
    if (!lose) return false;
    const gl = ctx.gl as WebGL2RenderingContext & { readPixels: (...a: unknown[]) => void };
    const real = WebGL2RenderingContext.prototype.readPixels as (...a: unknown[]) => void;
    gl.readPixels = function (this: WebGL2RenderingContext, ...a: unknown[]) {
      if (!gl.isContextLost()) lose.loseContext();
      real.apply(this, a);
    };
    return true;
  }

  const CASES: Record<string, (ctx: BrookContext) => unknown> = {
    'readSync() of a float4 stream': (ctx) => ctx.stream('float4', 16, new Float32Array(64).fill(7)).readSync(),
    'readSync() of a float stream': (ctx) => ctx.stream('float', 16, new Float32Array(16).fill(7)).readSync(),
    'readSync({ into })': (ctx) => ctx.stream('float4', 16, new Float32Array(64).fill(7)).readSync({ into: new Float32Array(64) }),
    'filter() (its count is a readSync of the pyramid root)': (ctx) => filter(ctx, ctx.stream('float', 1000, new Float32Array(1000).fill(1)), { keep: 'x >= 0.0' }),
  };
  for (const [name, call] of Object.entries(CASES)) {
    it(`${name} throws a lost-context BrookError, not zeros`, async function () {
      const ctx = createContext();
      try {
        const start = (): unknown => {
          if (!loseInReadPixels(ctx)) this.skip();
          return call(ctx);
        };
        const e = await caught(start, name);
        expectBrookErrorValue(e, /lost/, name);
        const s = ctx.stats();
        expect({ buffers: s.buffers, queries: s.queries, syncs: s.syncs }, `${name}: GL objects left`).to.deep.equal({ buffers: 0, queries: 0, syncs: 0 });
      } finally {
        ctx.dispose();
      }
    });
  }
});
