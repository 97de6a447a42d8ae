/**
 * Argument checks of the CCD pipeline: every bad scene, option or position array is refused
 * with a BrookError naming it before any GL object is made or any pass runs.
 */
import type { BrookContext } from '../../core/context';
import { check } from '../../core/errors';
import { checkContext, checkInteger, checkNumber, checkOneOf, checkOptions, describeValue } from '../../core/validate';
import type { CcdScene } from '../../geometry/bvh';
import type { LwsOptions } from './lws';

const isNumbers = (v: unknown): v is Float32Array | Float64Array => v instanceof Float32Array || v instanceof Float64Array;

/** Positions: a Float32Array or Float64Array of `n` finite numbers (n a multiple of 3 when null). */
export function checkPositions(v: unknown, where: string, n: number | null): asserts v is Float32Array | Float64Array {
  check(v !== undefined && v !== null, () => `${where} is missing: pass a Float32Array of 3 coordinates per vertex`);
  check(isNumbers(v), () => `${where} must be a Float32Array (or Float64Array) of 3 coordinates per vertex, got ${describeValue(v)}`);
  if (n === null) check(v.length > 0 && v.length % 3 === 0, () => `${where} must hold 3 coordinates per vertex, got ${v.length} numbers`);
  else check(v.length === n, () => `${where} must hold ${n} numbers (3 per vertex), got ${v.length}`);
  for (let i = 0; i < v.length; i++) check(Number.isFinite(v[i]), () => `${where}[${i}] is ${v[i]}: positions must be finite`);
}

/** The lazy-work-stealing options (ranges as src/apps/ccd/lws.ts documents them). */
export function checkLwsOptions(o: unknown, where: string): LwsOptions {
  const lws = checkOptions(o as LwsOptions | undefined, where);
  const T = lws.threads ?? 64;
  if (lws.blocks !== undefined) checkInteger(lws.blocks, `${where}.blocks`, 1, 32);
  if (lws.threads !== undefined) checkInteger(lws.threads, `${where}.threads`, 1, 1024);
  if (lws.pop !== undefined) checkInteger(lws.pop, `${where}.pop (nodes a thread pops per iteration)`, 1, 4);
  if (lws.steps !== undefined) checkInteger(lws.steps, `${where}.steps (nodes a thread steps per pass)`, 1, 1024);
  const P = typeof lws.pop === 'number' ? lws.pop : 4;
  if (lws.stackCap !== undefined) checkInteger(lws.stackCap, `${where}.stackCap (at least (pop + 6) x threads)`, (P + 6) * T, 2 ** 24);
  if (lws.dequeCap !== undefined) checkInteger(lws.dequeCap, `${where}.dequeCap (at least threads)`, T, 2 ** 24);
  if (lws.inFlight !== undefined) checkInteger(lws.inFlight, `${where}.inFlight`, 1, 64);
  return lws;
}

/** createCcd's arguments. */
export function checkCcdArgs(ctx: unknown, scene: unknown, options: unknown): asserts ctx is BrookContext {
  checkContext(ctx, 'createCcd');
  check(scene !== undefined && scene !== null, 'createCcd: scene is missing: pass { x0, x1, tris } (positions at t = 0 and 1, 3 vertex ids per triangle)');
  check(typeof scene === 'object' && !Array.isArray(scene), () => `createCcd: scene must be an object { x0, x1, tris }, got ${describeValue(scene)}`);
  const s = scene as Partial<CcdScene>;
  checkPositions(s.x0, 'createCcd: scene.x0', null);
  checkPositions(s.x1, 'createCcd: scene.x1', s.x0.length);
  const nv = s.x0.length / 3;
  check(s.tris instanceof Int32Array, () => `createCcd: scene.tris must be an Int32Array of 3 vertex ids per triangle, got ${describeValue(s.tris)}`);
  const tris = s.tris;
  check(tris.length > 0 && tris.length % 3 === 0, () => `createCcd: scene.tris must hold 3 vertex ids per triangle, got ${tris.length} ids`);
  for (let i = 0; i < tris.length; i++) check(tris[i]! >= 0 && tris[i]! < nv, () => `createCcd: scene.tris[${i}] = ${tris[i]} is not a vertex id (${nv} vertices)`);
  if (s.objects !== undefined) {
    check(s.objects instanceof Int32Array && s.objects.length === tris.length / 3, () => `createCcd: scene.objects must be an Int32Array of one object id per triangle (${tris.length / 3}), got ${describeValue(s.objects)}`);
  }
  if (s.self !== undefined) check(typeof s.self === 'boolean', () => `createCcd: scene.self must be true or false, got ${describeValue(s.self)}`);
  const o = checkOptions(options as object | undefined, 'createCcd: options') as { rebuildGrowth?: unknown; lws?: unknown; memoryBudget?: unknown };
  if (o.memoryBudget !== undefined) checkInteger(o.memoryBudget, 'createCcd: options.memoryBudget (bytes a chunk of a pass may use)', 4096);
  if (o.rebuildGrowth !== undefined) checkNumber(o.rebuildGrowth, 'createCcd: options.rebuildGrowth', 1);
  if (o.lws !== undefined) checkLwsOptions(o.lws, 'createCcd: options.lws');
}

/** Ccd.step's options. */
export function checkStepOptions(options: unknown): { balance?: 'static' | 'lws'; fromRoot?: boolean; lws?: LwsOptions; profile?: boolean; fences?: boolean; times?: boolean; verdicts?: boolean } {
  const o = checkOptions(options as object | undefined, 'Ccd.step: options') as Record<string, unknown>;
  if (o.balance !== undefined) checkOneOf(o.balance, ['static', 'lws'] as const, 'Ccd.step: options.balance');
  for (const flag of ['fromRoot', 'profile', 'fences', 'times', 'verdicts']) {
    if (o[flag] !== undefined) check(typeof o[flag] === 'boolean', () => `Ccd.step: options.${flag} must be true or false, got ${describeValue(o[flag])}`);
  }
  // the step's lws options are checked merged over the creation's (threads bound stackCap)
  if (o.lws !== undefined) checkOptions(o.lws as object, 'Ccd.step: options.lws');
  return o;
}
