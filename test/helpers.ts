// Shared test helpers: one context per spec file, seeded random data, tolerances as named
// constants, and the end-of-test checks (no GL error).
import { expect } from 'chai';
import { BrookContext, createContext, seededRandom } from '../src/index';
import { bothBackends } from './both';

/** Float32 results computed in the same order as the reference are compared exactly; float
 * sums in a different order (tree vs sequential) within this relative tolerance. */
export const SUM_RELATIVE_TOLERANCE = 1e-5;

/**
 * The context a spec runs on: WebGL2 in the browser; the CPU backend where the Node runner
 * (scripts/test-node.mjs) set `globalThis.__brookBackend = 'cpu'` (typed as a BrookContext, as
 * the specs take one: a CPU context has the verbs they call, and refuses GPU-only ones with a BrookError).
 * A WebGL2 context compares each plain run with the CPU backend while a brook spec runs (test/both.ts).
 */
export function newContext(): BrookContext {
  if ((globalThis as { __brookBackend?: string }).__brookBackend === 'cpu') return createContext({ backend: 'cpu' }) as unknown as BrookContext;
  const ctx = createContext();
  (window as unknown as { __brookRenderer: string }).__brookRenderer = ctx.caps.renderer;
  bothBackends(ctx); // in the brook specs, each plain run is compared with the CPU backend (test/both.ts)
  return ctx;
}

/** A describe's CPU context and, in the page (not the Node run), its GPU context. */
export interface CpuAndGpu {
  readonly cpu: BrookContext;
  /** Undefined in the Node run, or before the describe's `before` hook. */
  readonly gpu: BrookContext | undefined;
  /** Runs `body` on the CPU context and, where there is one, on the GPU context. */
  both<T>(body: (ctx: BrookContext) => T): { cpu: T; gpu?: T };
}

/**
 * For a describe comparing the backends: a CPU context made now, and in the page a GPU context
 * made by `makeGpu` in a `before` hook (createContext, or newContext to have test/both.ts
 * compare its plain runs too); both disposed in an `after` hook. Call it inside `describe`.
 */
export function cpuAndGpu(makeGpu: () => BrookContext = createContext): CpuAndGpu {
  const cpu = createContext({ backend: 'cpu' }) as unknown as BrookContext;
  let gpu: BrookContext | undefined;
  before(() => {
    if ((globalThis as { __brookBackend?: string }).__brookBackend !== 'cpu') gpu = makeGpu();
  });
  after(() => {
    cpu.dispose();
    gpu?.dispose();
  });
  return {
    cpu,
    get gpu() {
      return gpu;
    },
    both: (body) => ({ cpu: body(cpu), ...(gpu ? { gpu: body(gpu) } : {}) }),
  };
}

/** Mulberry32 (the library's seededRandom): a small seeded generator so failures reproduce. */
export const rng = seededRandom;

export function randomFloats(count: number, seed: number, lo = -1000, hi = 1000): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = lo + (hi - lo) * r();
  return out;
}

/** Whether `ctx` is a CPU context (the Node run's, scripts/test-node.mjs): for a spec's GL-only checks (texture counts, traces of passes). */
export function onCpu(ctx: BrookContext): boolean {
  return (ctx as { backend?: string }).backend === 'cpu';
}

/**
 * Skips the running spec on a CPU context, with `why` (what it needs of a GPU context) listed
 * among the Node run's skips (scripts/test-node.mjs prints each with its reason): for specs that
 * check GL objects (ctx.trimPool, texture counts), which a CPU context does not have. Call it first.
 */
export function gpuOnly(test: Mocha.Context, ctx: BrookContext, why: string): void {
  if ((ctx as { backend?: string }).backend !== 'cpu') return;
  const g = globalThis as { __skips?: string[] };
  (g.__skips ??= []).push(`${test.test?.fullTitle() ?? ''}: ${why}`);
  test.skip();
}

/** No GL error is pending on a GPU context. A CPU context has no GL (this check is the GPU's own; the spec's other checks still run there). */
export function expectNoGLError(ctx: BrookContext): void {
  if ((ctx as { backend?: string }).backend === 'cpu') return;
  const err = ctx.gl.getError();
  expect(err, `GL error 0x${err.toString(16)}`).to.equal(ctx.gl.NO_ERROR);
}

/** Exact element-wise equality with the first mismatch named (chai's deep equal is slow on 2^20). */
export function expectArrayEqual(actual: ArrayLike<number>, expected: ArrayLike<number>, what = 'array'): void {
  expect(actual.length, `${what} length`).to.equal(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!;
    const e = expected[i]!;
    if (!(Object.is(a, e) || (a === e) || (Number.isNaN(a) && Number.isNaN(e)))) {
      expect.fail(`${what}[${i}] is ${a}, expected ${e}`);
    }
  }
}

export function expectClose(actual: number, expected: number, relative: number, what = 'value'): void {
  const scale = Math.max(1, Math.abs(expected));
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).to.be.at.most(relative * scale);
}

/** Asserts that `fn` throws a BrookError whose message matches `pattern`. */
export function expectBrookError(fn: () => unknown, pattern: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a BrookError').to.be.instanceOf(Error);
  expect((caught as Error).name).to.equal('BrookError');
  expect((caught as Error).message).to.match(pattern);
}

/** Asserts that `promise` rejects with a BrookError whose message matches `pattern`. */
export async function expectBrookRejection(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  let caught: unknown;
  await promise.catch((e: unknown) => (caught = e));
  expect(caught, 'expected a BrookError').to.be.instanceOf(Error);
  expect((caught as Error).name).to.equal('BrookError');
  expect((caught as Error).message).to.match(pattern);
}

/** What a build waited on, in order: a stalling readPixels ('read'), a query polled ('poll': QUERY_RESULT_AVAILABLE) or its answer taken ('answer'). */
export type Wait = 'read' | 'poll' | 'answer';

/**
 * Runs `fn` with ctx.gl's readPixels and getQueryParameter recorded (own properties over the
 * prototype's, removed afterwards): the order in which it stalls on reads and polls queries,
 * without timing anything.
 */
export async function recordWaits(ctx: BrookContext, fn: () => Promise<unknown>): Promise<Wait[]> {
  const gl = ctx.gl;
  const waits: Wait[] = [];
  const proto = Object.getPrototypeOf(gl) as WebGL2RenderingContext;
  const own = gl as unknown as Record<string, unknown>;
  own.readPixels = function (this: WebGL2RenderingContext, ...args: unknown[]) {
    if (gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING) === null) waits.push('read'); // (a read into a pack buffer does not stall)
    return (proto.readPixels as (...a: unknown[]) => void).apply(this, args);
  };
  own.getQueryParameter = function (this: WebGL2RenderingContext, query: WebGLQuery, pname: number) {
    const v = proto.getQueryParameter.call(this, query, pname);
    if (pname === gl.QUERY_RESULT_AVAILABLE) waits.push('poll');
    if (pname === gl.QUERY_RESULT) waits.push('answer');
    return v;
  };
  try {
    await fn();
  } finally {
    delete own.readPixels;
    delete own.getQueryParameter;
  }
  return waits;
}
