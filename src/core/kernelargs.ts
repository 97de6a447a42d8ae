/**
 * Binding a kernel's arguments: every stream, iterator and constant checked against the
 * description and turned into the uniforms of its pass (sizes, input mappings, iterator steps)
 * before any GL call. The argument types (KernelArgs) are declared here, with the streams they
 * bind. Imported from here (kernel.ts does not re-export it).
 */
import { check } from './errors';
import type { Device } from './device';
import { Stream } from './stream';
import { StreamDomain } from './domain';
import { extentsXYZW } from './layout';
import { ElementType, typeInfo } from './types';
import { checkOwner, describeValue as describeAny } from './checks';
import { expandStructArgs } from './struct';
import { Iter, KernelSpec, UniformType, glslName, roles } from './kernelspec';
import type { KernelVariant } from './kernelsource';
import type { StructDomain, StructStream } from './struct';

export type KernelArg = Stream | StreamDomain | StructStream | StructDomain | Iter | number | boolean | readonly number[] | Float32Array | Int32Array | Uint32Array | StructValue;
/** A struct constant by field name (`{ index: [1, 2, 3, 4], Translation: [0, 0, 1] }`). */
export type StructValue = { readonly [field: string]: number | readonly number[] };
export type KernelArgs = Record<string, KernelArg>;

export interface Bound {
  /** The output streams (of output domains, their streams). */
  outputs: Stream[];
  uniforms: Record<string, unknown>;
  /** Streams read by the pass (inputs and gathers; of domains, their streams), for alias detection and the trace. */
  reads: Map<string, Stream>;
  /** Records written: the outputs' length, or their domain's. */
  records: number;
  /** With output domains: the texels to scissor to ([x, y, width, height]); the pass writes only the domain. */
  scissor?: [number, number, number, number];
  /** What the shader is specialised for (the output's rank and domain, input mappings, gather domains). */
  variant: KernelVariant;
}

/** A stream or a domain of one, as a pass reads or writes it. */
interface Viewed {
  stream: Stream;
  /** A domain (true), or the whole stream. */
  view: boolean;
  /** Offset in the stream, extents, and the stream's extents: x (fastest) first. */
  origin: readonly number[];
  extents: readonly number[];
  full: readonly number[];
  length: number;
  rank: number;
  describe(): string;
}

/** A whole stream's view, made once per stream (its layout never changes; every run reads it). */
const wholeViews = new WeakMap<Stream, Viewed>();
const NO_OFFSET: readonly number[] = Object.freeze([0, 0, 0, 0]);

function viewed(s: Stream | StreamDomain): Viewed {
  if (s instanceof StreamDomain) {
    const stream = s.stream;
    return { stream, view: true, origin: s.origin, extents: s.extents, full: extentsXYZW(stream.shape), length: s.length, rank: stream.layout.dims, describe: () => s.describe() };
  }
  let v = wholeViews.get(s);
  if (!v) {
    const full = Object.freeze(extentsXYZW(s.shape));
    wholeViews.set(s, (v = { stream: s, view: false, origin: NO_OFFSET, extents: full, full, length: s.length, rank: s.layout.dims, describe: () => s.describe() }));
  }
  return v;
}

/** Checks every argument against the kernel's parameters before any GL call. */
export function bindArguments(ctx: Device, kernel: { spec: KernelSpec }, givenArgs: KernelArgs): Bound {
  const spec = kernel.spec;
  const args = expandStructArgs(spec.name, spec.structParams, givenArgs);
  const where = (name: string) => `kernel ${spec.name}, argument '${name}'`;
  check(args && typeof args === 'object', () => `kernel ${spec.name}: pass the arguments as an object { name: value }`);
  const known = parameterNames(spec);
  for (const name of Object.keys(args)) {
    check(known.has(name), () => `kernel ${spec.name} has no parameter '${name}' (it has: ${[...known].join(', ')})`);
  }
  const stream = (name: string, type: ElementType, role: string): Viewed => {
    const s = args[name];
    check(s !== undefined, () => `${where(name)} is missing: pass a ${type} stream (${role})`);
    check(s instanceof Stream || s instanceof StreamDomain, () => `${where(name)}: expected a ${type} stream (${role}), got ${describeValue(s)}`);
    check(!s.disposed, () => (s instanceof StreamDomain ? `${where(name)}: the stream of the domain was disposed` : `${where(name)}: the stream was disposed`));
    if (s.ctx !== ctx) checkOwner(ctx, s.ctx, where(name), s.describe());
    check(s.type === type, () => `${where(name)}: expected a ${type} stream, got a ${s.describe()}`);
    return viewed(s);
  };
  const outNames = Object.keys(spec.outputs);
  const outs = Object.entries(spec.outputs).map(([name, type]) => stream(name, type, 'output'));
  const out = outs[0]!;
  const domain = out.stream.layout;
  const same = (a: readonly number[], b: readonly number[]) => a.every((x, k) => x === b[k]);
  outs.forEach((o, i) => {
    const name = outNames[i]!;
    check(
      o.stream.layout.length === domain.length && o.stream.layout.width === domain.width,
      () => `${where(name)}: all outputs must have the same shape; got ${o.describe()} and ${out.describe()}`,
    );
    check(
      o.view === out.view && same(o.origin, out.origin) && same(o.extents, out.extents),
      () => `${where(name)}: outputs written through domains must all cover the same records (the same domain of streams of one shape); got ${o.describe()} and ${out.describe()}`,
    );
    check(outs.findIndex((x) => x.stream === o.stream) === i, () => `${where(name)}: the same stream is passed as two outputs`);
  });

  const uniforms: Record<string, unknown> = {
    brook_dims: dimsOf(out.stream),
    brook_shape: out.extents,
    brook_origin: out.origin,
    brook_full: out.full,
  };
  const reads = new Map<string, Stream>();
  const variant: KernelVariant = { rank: out.rank, view: out.view, inputs: [], gathers: [] };
  for (const [name, type] of Object.entries(spec.inputs ?? {})) {
    const s = stream(name, type, 'elementwise input <>');
    check(
      s.length === out.length || spec.resample,
      () => `${where(name)}: a ${s.describe()} cannot be read elementwise over a domain of ${out.length} records (lengths must match; use a gather [] to read other shapes)`,
    );
    reads.set(name, s.stream);
    uniforms[`brook_s_${name}_dims`] = dimsOf(s.stream);
    const [mode, map] = inputMapping(s, out, where(name));
    (variant.inputs as { mode: number; pow2: boolean }[]).push({ mode, pow2: pow2(s.stream) });
    uniforms[`brook_s_${name}_map`] = map;
    uniforms[`brook_s_${name}_origin`] = s.origin;
    uniforms[`brook_s_${name}_full`] = s.full;
    uniforms[`brook_s_${name}_ext`] = s.extents; // the input's own extents (its records' positions, for a front end's indexof)
  }
  for (const [name, type] of Object.entries(spec.gathers ?? {})) {
    const s = stream(name, type, 'gather []');
    reads.set(name, s.stream);
    (variant.gathers as { view: boolean; pow2: boolean }[]).push({ view: s.view, pow2: pow2(s.stream) });
    setGatherUniforms(uniforms, name, s);
  }
  for (const [name, type] of Object.entries(spec.iters ?? {})) {
    const { start, step } = iterSteps(where(name), type, args[name], out.rank, out.length, out.extents);
    uniforms[`brook_i_${name}_start`] = type === 'float' ? start[0] : start;
    uniforms[`brook_i_${name}_step`] = type === 'float' ? step[0] : step;
  }
  for (const [name, type] of Object.entries(spec.uniforms ?? {})) {
    const v = args[name];
    check(v !== undefined, () => `${where(name)} is missing: pass a ${type} value`);
    uniforms[glslName(name)] = uniformValue(where(name), type, v);
  }
  return { outputs: outs.map((o) => o.stream), uniforms, reads, records: out.length, variant, ...(out.view ? { scissor: viewScissor(out) } : {}) };
}

/** The stream types an iterator can stand for (Brook converts an iterator passed for a stream parameter). */
export const ITER_STREAM_TYPES: readonly string[] = ['float', 'float2', 'float3', 'float4'];

/**
 * Checks that an iterator may be passed for stream parameter `what` (kernel X, argument 'n') of
 * `type`: a float..float4 stream. A GPU context (src/brt/lower.ts) and a CPU context
 * (src/cpu/kernel.ts) refuse the others with this one message.
 */
export function checkIterForStream(what: string, type: string): void {
  check(ITER_STREAM_TYPES.includes(type), () => `${what}: an iterator can stand for a float..float4 stream, not a ${type} one; pass a stream`);
}

/**
 * An iterator argument `it` of `type` over an output domain of `rank` dimensions, `length` records
 * and `extents` (x first), checked as Brook takes it: its start, and its step per record (over a
 * 1D domain every component steps by (end - start) / length), or per position along dimension k
 * for component k (a domain of as many dimensions as components). Unrounded: a GPU context
 * passes them as uniforms, a CPU context (src/cpu/kernel.ts) rounds them to float32; the two
 * refuse a bad iterator with the same words.
 */
export function iterSteps(what: string, type: string, it: unknown, rank: number, length: number, extents: readonly number[]): { start: number[]; step: number[] } {
  check(it instanceof Iter, () => `${what}: expected an iterator, iter(start, end), got ${describeValue(it)}`);
  if (type === 'float') {
    check(typeof it.start === 'number' && typeof it.end === 'number', () => `${what}: a float iterator takes numbers, iter(0, n)`);
    return { start: [it.start as number], step: [((it.end as number) - (it.start as number)) / length] };
  }
  const c = Number(type[5]);
  const a = it.start as readonly number[];
  const b = it.end as readonly number[];
  check(Array.isArray(a) && Array.isArray(b) && a.length === c && b.length === c, () => `${what}: a ${type} iterator takes two arrays of ${c} numbers, iter([${Array(c).fill('x').join(', ')}], [...])`);
  check(
    rank === 1 || rank === c,
    () => `${what}: a ${type} iterator needs a ${c}D or a 1D output domain (as in BrookGPU, an iterator's dimensions equal its components, or it is 1D); this output is ${rank}D`,
  );
  // Over a 1D domain record i sees start + i * (end - start) / n in every component; over a
  // domain of c dimensions component k steps along dimension k (x the fastest).
  return { start: [...a], step: a.map((x, k) => (b[k]! - x) / (rank === 1 ? length : extents[k]!)) };
}

/** The names of a description's parameters, found once per description object. */
function parameterNames(spec: KernelSpec): Set<string> {
  let names = parameters.get(spec);
  if (!names) parameters.set(spec, (names = new Set(Object.values(roles(spec)).flatMap((g) => Object.keys(g)))));
  return names;
}
const parameters = new WeakMap<KernelSpec, Set<string>>();

/** The uniforms of gather `name` bound to `s` (kernels and pass stages; see gatherAccessors: a domain is also a shader variant). */
export function gatherUniforms(name: string, s: Stream | StreamDomain): Record<string, unknown> {
  const uniforms: Record<string, unknown> = {};
  setGatherUniforms(uniforms, name, viewed(s));
  return uniforms;
}

function setGatherUniforms(uniforms: Record<string, unknown>, name: string, v: Viewed): void {
  const g = `brook_g_${name}`;
  uniforms[`${g}_dims`] = dimsOf(v.stream);
  uniforms[`${g}_shape`] = v.extents;
  uniforms[`${g}_origin`] = v.origin;
  uniforms[`${g}_full`] = v.full;
  uniforms[`${g}_rank`] = v.rank;
}

/**
 * The texels an output domain covers, as a scissor box: the rows from its first record to its
 * last and, where the stream's last dimension runs along the texture's x (2D, and 3D/4D not
 * wrapped), its columns. Records inside the box but outside the domain are discarded.
 */
function viewScissor(v: Viewed): [number, number, number, number] {
  const { width } = v.stream.layout;
  const flat = (c: readonly number[]) => ((c[3]! * v.full[2]! + c[2]!) * v.full[1]! + c[1]!) * v.full[0]! + c[0]!;
  const first = flat(v.origin);
  const last = flat(v.origin.map((o, k) => o + v.extents[k]! - 1));
  const [y0, y1] = [Math.floor(first / width), Math.floor(last / width)];
  let [x0, x1] = [0, width];
  if (width === v.full[0]) [x0, x1] = [v.origin[0]!, v.origin[0]! + v.extents[0]!];
  else if (y0 === y1) [x0, x1] = [first % width, (last % width) + 1];
  return [x0, y0, x1 - x0, y1 - y0 + 1];
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
 * How an elementwise input is read over the output domain (a shader variant: kernelsource.ts inputTexel):
 * 0 the same texel, 1 the same record index (equal lengths, whatever the shapes), and for
 * Brook's shape rules (KernelSpec.resample), where the lengths differ, each dimension resampled as
 * floor(i * in / out) — repeated where the input is smaller (replication), skipped where it is
 * larger (stride): 3 index / k, 4 index * k, 5 index * in / out (1D), 2 per dimension (2D; a 1D
 * stream of n is the 2D [1, n]). Domains and streams of 3 or 4 dimensions take the general
 * forms: 7 the same record index, 6 per dimension over four (a stream of lower rank has
 * extent 1 in its missing slow dimensions), both through the input's origin in its stream.
 */
function inputMapping(s: Viewed, out: Viewed, where: string): [number, number[]] {
  const none = [0, 0, 0, 0];
  if (s.length === out.length) {
    if (s.view) return [7, [...s.extents]];
    return !out.view && s.stream.layout.width === out.stream.layout.width ? [0, none] : [1, none];
  }
  if (!s.view && s.rank === 1 && out.rank === 1) {
    const [n, m] = [s.length, out.length];
    if (m % n === 0) return [3, [m / n, 0, 0, 0]];
    if (n % m === 0) return [4, [n / m, 0, 0, 0]];
    check(n * m < 2 ** 31, () => `${where}: resampling ${n} records over ${m} needs n * m below 2^31 unless one length divides the other`);
    return [5, [n, m, 0, 0]];
  }
  check(
    s.extents.every((e, k) => e * out.extents[k]! < 2 ** 31),
    () => `${where}: resampling a ${s.describe()} over ${out.length} records needs each extent product below 2^31`,
  );
  if (!s.view && s.rank <= 2 && out.rank <= 2) {
    const [iw, ih] = s.extents;
    const [ow, oh] = out.extents;
    return [2, [iw!, ow!, ih!, oh!]];
  }
  return [6, [...s.extents]];
}

/** (length, width, log2 width or -1, height) of a stream's layout, for brook_texel in the prelude. */
export function dimsOf(s: Stream): readonly number[] {
  let d = dims.get(s);
  if (!d) {
    const { length, width, height } = s.layout;
    dims.set(s, (d = Object.freeze([length, width, pow2(s) ? Math.log2(width) : -1, height])));
  }
  return d;
}
const dims = new WeakMap<Stream, readonly number[]>();

/** Whether the stream's texture is a power of two wide (its records' texels are found by shifts). */
function pow2(s: Stream): boolean {
  const { width } = s.layout;
  return (width & (width - 1)) === 0;
}
