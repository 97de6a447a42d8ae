/**
 * Binding a kernel's arguments: every stream, iterator and constant checked against the
 * description and turned into the uniforms of its pass (sizes, input mappings, iterator steps)
 * before any GL call. kernel.ts re-exports it.
 */
import { check } from './errors';
import type { BrookContext } from './context';
import { Layout, Stream } from './stream';
import { ElementType, typeInfo } from './types';
import { checkOwner, describeValue as describeAny } from './validate';
import { expandStructArgs } from './struct';
import { Iter, KernelArg, KernelArgs, KernelSpec, UniformType, glslName, roles } from './kernelspec';

export interface Bound {
  outputs: Stream[];
  uniforms: Record<string, unknown>;
  /** Streams read by the pass (inputs and gathers), for alias detection and the trace. */
  reads: Map<string, Stream>;
}

/** Checks every argument against the kernel's parameters before any GL call. */
export function bindArguments(ctx: BrookContext, kernel: { spec: KernelSpec }, givenArgs: KernelArgs): Bound {
  const spec = kernel.spec;
  const args = expandStructArgs(spec.name, spec.structParams, givenArgs);
  const where = (name: string) => `kernel ${spec.name}, argument '${name}'`;
  check(args && typeof args === 'object', () => `kernel ${spec.name}: pass the arguments as an object { name: value }`);
  const known = new Set(Object.values(roles(spec)).flatMap((g) => Object.keys(g)));
  for (const name of Object.keys(args)) {
    check(known.has(name), () => `kernel ${spec.name} has no parameter '${name}' (it has: ${[...known].join(', ')})`);
  }
  const stream = (name: string, type: ElementType, role: string): Stream => {
    const s = args[name];
    check(s !== undefined, () => `${where(name)} is missing: pass a ${type} stream (${role})`);
    check(s instanceof Stream, () => `${where(name)}: expected a ${type} stream (${role}), got ${describeValue(s)}`);
    check(!s.disposed, () => `${where(name)}: the stream was disposed`);
    checkOwner(ctx, s.ctx, where(name), s.describe());
    check(s.type === type, () => `${where(name)}: expected a ${type} stream, got a ${s.describe()}`);
    return s;
  };
  const outputs = Object.entries(spec.outputs).map(([name, type]) => stream(name, type, 'output'));
  const domain = outputs[0]!.layout;
  outputs.forEach((o, i) => {
    const name = Object.keys(spec.outputs)[i]!;
    check(
      o.layout.length === domain.length && o.layout.width === domain.width,
      () => `${where(name)}: all outputs must have the same shape; got ${o.describe()} and ${outputs[0]!.describe()}`,
    );
    check(outputs.indexOf(o) === i, () => `${where(name)}: the same stream is passed as two outputs`);
  });

  const uniforms: Record<string, unknown> = {
    brook_dims: dimsOf(outputs[0]!),
    brook_2d: domain.dims === 2,
  };
  const reads = new Map<string, Stream>();
  for (const [name, type] of Object.entries(spec.inputs ?? {})) {
    const s = stream(name, type, 'elementwise input <>');
    check(
      s.length === domain.length || spec.resample,
      () => `${where(name)}: a ${s.describe()} cannot be read elementwise over a domain of ${domain.length} records (lengths must match; use a gather [] to read other shapes)`,
    );
    reads.set(name, s);
    uniforms[`brook_s_${name}_dims`] = dimsOf(s);
    const [mode, map] = inputMapping(s.layout, domain, where(name));
    uniforms[`brook_s_${name}_mode`] = mode;
    uniforms[`brook_s_${name}_map`] = map;
  }
  for (const [name, type] of Object.entries(spec.gathers ?? {})) {
    const s = stream(name, type, 'gather []');
    reads.set(name, s);
    uniforms[`brook_g_${name}_dims`] = dimsOf(s);
  }
  for (const [name, type] of Object.entries(spec.iters ?? {})) {
    const it = args[name];
    check(it instanceof Iter, () => `${where(name)}: expected an iterator, iter(start, end), got ${describeValue(it)}`);
    if (type === 'float') {
      check(
        typeof it.start === 'number' && typeof it.end === 'number',
        () => `${where(name)}: a float iterator takes numbers, iter(0, n)`,
      );
      uniforms[`brook_i_${name}_start`] = it.start;
      uniforms[`brook_i_${name}_step`] = ((it.end as number) - (it.start as number)) / domain.length;
    } else {
      const c = Number(type[5]);
      const a = it.start as readonly number[];
      const b = it.end as readonly number[];
      check(
        Array.isArray(a) && Array.isArray(b) && a.length === c && b.length === c,
        () => `${where(name)}: a ${type} iterator takes two arrays of ${c} numbers, iter([${Array(c).fill('x').join(', ')}], [...])`,
      );
      check(
        c === 2 || domain.dims === 1,
        () => `${where(name)}: a ${type} iterator needs a 1D output domain (over a 2D one only float and float2 iterators are defined)`,
      );
      // Record i of a 1D domain sees start + i * (end - start) / n in every component; a 2D
      // float2 iterator steps x by column and y by row.
      const [h, w] = domain.dims === 2 ? domain.shape : [domain.length, domain.length];
      uniforms[`brook_i_${name}_start`] = [...a];
      uniforms[`brook_i_${name}_step`] = a.map((x, k) => (b[k]! - x) / (k === 1 ? h! : w!));
    }
  }
  for (const [name, type] of Object.entries(spec.uniforms ?? {})) {
    const v = args[name];
    check(v !== undefined, () => `${where(name)} is missing: pass a ${type} value`);
    uniforms[glslName(name)] = uniformValue(where(name), type, v);
  }
  return { outputs, uniforms, reads };
}

function uniformValue(where: string, type: UniformType, v: KernelArg): unknown {
  const size = type === 'bool' ? 1 : type.startsWith('mat') ? Number(type[3]) ** 2 : typeInfo(type).components;
  const raw: unknown[] | null =
    typeof v === 'number' || typeof v === 'boolean' ? [v] : ArrayBuffer.isView(v) || Array.isArray(v) ? Array.from(v as ArrayLike<unknown>) : null;
  check(raw !== null, () => `${where}: expected ${size === 1 ? 'a number' : `${size} numbers`} for a ${type}, got ${describeValue(v)}`);
  check(raw.length === size, () => `${where}: a ${type} takes ${size} number(s), got ${raw.length}`);
  raw.forEach((x, i) =>
    check(
      typeof x === 'number' || (typeof x === 'boolean' && (type === 'bool' || size === 1)),
      () => `${where}: a ${type} takes numbers, got ${describeAny(x)}${size > 1 ? ` at [${i}]` : ''}`,
    ),
  );
  const values = raw.map(Number);
  const kind = type === 'bool' || type.startsWith('mat') ? 'float' : typeInfo(type).kind;
  if (kind !== 'float') {
    // GL would wrap them silently (2^31 -> -2^31, -1 -> 2^32 - 1): refuse instead
    const [lo, hi] = kind === 'int' ? [-0x80000000, 0x7fffffff] : [0, 0xffffffff];
    values.forEach((x, i) =>
      check(
        Number.isInteger(x) && x >= lo && x <= hi,
        () => `${where}: a ${type} takes integers in [${lo}, ${hi}], got ${x}${size > 1 ? ` at [${i}]` : ''}`,
      ),
    );
  }
  return size === 1 ? values[0] : values;
}

function describeValue(v: unknown): string {
  return v instanceof Iter ? 'an iterator' : describeAny(v);
}

/**
 * How an elementwise input is read over the output domain (brook_input_texel in the prelude):
 * 0 the same texel, 1 the same record index (equal lengths, whatever the shapes), and for
 * Brook's shape rules (KernelSpec.resample), where the lengths differ, each dimension resampled as
 * floor(i * in / out) — repeated where the input is smaller (replication), skipped where it is
 * larger (stride): 3 index / k, 4 index * k, 5 index * in / out (1D), 2 per dimension (2D; a 1D
 * stream of n is the 2D [1, n]).
 */
function inputMapping(s: Layout, out: Layout, where: string): [number, number[]] {
  if (s.length === out.length) {
    return s.width === out.width ? [0, [0, 0, 0, 0]] : [1, [0, 0, 0, 0]];
  }
  if (s.dims === 1 && out.dims === 1) {
    const [n, m] = [s.length, out.length];
    if (m % n === 0) return [3, [m / n, 0, 0, 0]];
    if (n % m === 0) return [4, [n / m, 0, 0, 0]];
    check(n * m < 2 ** 31, () => `${where}: resampling ${n} records over ${m} needs n * m below 2^31 unless one length divides the other`);
    return [5, [n, m, 0, 0]];
  }
  const [ih, iw] = s.dims === 2 ? s.shape : [1, s.length];
  const [oh, ow] = out.dims === 2 ? out.shape : [1, out.length];
  check(
    iw! * ow! < 2 ** 31 && ih! * oh! < 2 ** 31,
    () => `${where}: resampling a [${ih}, ${iw}] stream over [${oh}, ${ow}] needs each extent product below 2^31`,
  );
  return [2, [iw!, ow!, ih!, oh!]];
}

/** (length, width, log2 width or -1, height) of a stream's layout, for brook_texel in the prelude. */
export function dimsOf(s: Stream): number[] {
  const { length, width, height } = s.layout;
  const pow2 = (width & (width - 1)) === 0;
  return [length, width, pow2 ? Math.log2(width) : -1, height];
}
