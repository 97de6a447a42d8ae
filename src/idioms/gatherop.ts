/**
 * BrookGPU's two combining operators, with the meaning its runtime gives them
 * (runtime/brt.cpp, `__streamGatherOrScatterOp`; prog/tests/gatherop and scatter are its gold):
 *
 * ```text
 * streamGatherOp(t, index, s, op)    for i in order: t[i] = s[index[i]]; s[index[i]] = op(s[index[i]])
 * streamScatterOp(a, b, c, op)       for p:          a[p] = op(a[p], c[b[p]])
 * ```
 *
 * `op` is a reduce kernel `reduce void op(T x<>, reduce T r<>)`. In the gather form BrookGPU
 * calls it with both arguments equal to the record read (x = r = s[index[i]]) and keeps what it
 * wrote, so `r = x - 1` decrements and `r += x` doubles. In the scatter form its reduce
 * argument is a[p] and its stream argument the gathered c[b[p]]; only `a` changes. Indices are
 * rounded as BrookGPU rounds them (`(int)(x + 0.5)`); a float2 index is (column, row) of a 2D
 * source, float3/float4 likewise (x first); an index outside the source reads zero and (gather
 * form) modifies nothing.
 *
 * The gather form is a read-modify-write that is sequential in i: where index[i] repeats, the
 * k-th occurrence (k from 0, in the order of i) reads op applied k times, and the source record
 * ends with op applied as many times as it is named. A fragment shader cannot see the passes of
 * other records, so brookgl finds each record's rank without a loop over i: the (index, i) pairs
 * are sorted by index (stable, so i ascends within a run of equal indices), and
 *
 * - pass 1 (over t): record i binary-searches the run of its index and, inside the run, its own
 *   i; its rank k is its place in the run; it reads s[index[i]] and applies op k times;
 * - pass 2 (over s): record j binary-searches its run; the run's length c says how often it is
 *   named; it applies op c times.
 *
 * This is exact for any operator (op need not compose into anything shorter): op is applied the
 * same number of times, in the same order, as BrookGPU's loop applies it. The cost is one sort
 * of the n indices, two passes, and op run Σ k + Σ c times — for distinct indices once per
 * record, for an index repeated m times about m²/2 times.
 */
import { BrookContext, BrookError, ElementType, Iter, IterType, Kernel, KernelArgs, KernelSpec, Stream, UniformType, glslName } from '../core/index';
import { extentsXYZW } from '../core/layout';
import { sortStream } from './sort';

const iterStreams = new Map<IterType, KernelSpec>();

/** What a CPU context (src/cpu, `backend: 'cpu'`) offers for these operators, or undefined on a GPU context. */
type CpuOps = { gatherOp(spec: KernelSpec, t: Stream, i: Stream, s: Stream, args: KernelArgs): void; scatterOp(spec: KernelSpec, a: Stream, b: Stream, c: Stream, args: KernelArgs): void };
const onCpu = (ctx: BrookContext): CpuOps | undefined => ((ctx as unknown as { backend?: string }).backend === 'cpu' ? (ctx as unknown as CpuOps) : undefined);

/**
 * An iterator where an index stream is expected, as a stream of `like`'s shape (Brook converts an
 * iterator passed for a stream; prog/tests iterator gathers through one).
 */
export function iterAsStream(ctx: BrookContext, it: Iter, like: Stream): Stream {
  const type: IterType = typeof it.start === 'number' ? 'float' : (`float${it.start.length}` as IterType);
  let k = iterStreams.get(type);
  if (!k) iterStreams.set(type, (k = { name: 'IterToStream', iters: { it: type }, outputs: { o: type }, body: 'o = it;' }));
  const s = ctx.scratch(type, like.layout.dims === 1 ? like.length : like.shape);
  try {
    ctx.runInternal(k, { it, o: s });
  } catch (e) {
    s.dispose();
    throw e;
  }
  return s;
}

const REDUCE_ONLY = ['reduce_n', 'reduce_span', 'reduce_block', 'reduce_2d'];

function operator(what: string, op: KernelSpec | Kernel): { spec: KernelSpec; meta: NonNullable<NonNullable<KernelSpec['brook']>['reduce']> } {
  const spec = op instanceof Kernel ? op.spec : op;
  const meta = spec?.brook?.reduce;
  if (!meta) throw new BrookError(`${what}: the operator must be a reduce kernel (reduce void f(T a<>, reduce T r<>)), got ${spec?.name ?? typeof op}`);
  return { spec, meta };
}

/** The operator's own constants and gathers, without those of its reduce passes. */
function operatorParams(spec: KernelSpec): { uniforms: Record<string, UniformType>; gathers: Record<string, ElementType> } {
  const uniforms = { ...spec.uniforms };
  for (const u of REDUCE_ONLY) delete uniforms[u];
  const gathers = { ...spec.gathers };
  delete gathers.reduce_src;
  return { uniforms, gathers };
}

function checkStreams(ctx: BrookContext, what: string, streams: [string, unknown][]): void {
  for (const [name, x] of streams) {
    if (!(x instanceof Stream) || x.disposed) throw new BrookError(`${what}: '${name}' must be a live stream, got ${x instanceof Stream ? 'a disposed stream' : typeof x}`);
    if (x.ctx !== ctx) throw new BrookError(`${what}: '${name}' belongs to another context`);
  }
  for (let a = 0; a < streams.length; a++) {
    for (let b = a + 1; b < streams.length; b++) {
      if (streams[a]![1] === streams[b]![1]) throw new BrookError(`${what}: '${streams[a]![0]}' and '${streams[b]![0]}' are the same stream; pass distinct streams`);
    }
  }
}

/** The index stream's checks: one index per record of the destination, with as many components as the source has dimensions. */
function checkIndex(what: string, index: Stream, dst: Stream, dstName: string, src: Stream): void {
  if (index.length !== dst.length) throw new BrookError(`${what}: index has ${index.length} records, ${dstName} has ${dst.length}; one index per record of ${dstName}`);
  const m = /^(float|int|uint)([234]?)$/.exec(index.type);
  if (!m) throw new BrookError(`${what}: index must be a float stream (float for a 1D source, float2 (column, row) for a 2D one, float3, float4), got a ${index.describe()}`);
  const comps = m[2] ? Number(m[2]) : 1;
  const rank = src.layout.dims;
  if (comps !== rank && !(comps === 1 && m[1] !== 'float' && rank === 1)) {
    throw new BrookError(`${what}: a ${rank}D source takes ${rank === 1 ? 'float' : `float${rank}`} indices (as BrookGPU, one component per dimension, x first), got a ${index.describe()}`);
  }
}

/**
 * GLSL: `ivec4 name` = the record (x first) that index value `value` names, rounded as BrookGPU
 * rounds a float index, (int)(x + 0.5) toward zero, or ivec4(-1) where a float has no such int
 * (NaN, infinite, 2^30 and beyond): the float is tested before it becomes an int. Exact for
 * every float: floor(x) plus (fract >= 0.5), not x + 0.5, which float32 rounds to even (odd x in
 * [2^23, 2^24) would name the record after it). Integer indices convert directly (a uint past
 * 2^31 - 1 is outside).
 */
function roundedIndex(type: ElementType, value: string, name: string): string {
  const comps = /[234]$/.test(type) ? Number(type[type.length - 1]) : 1;
  const pad = ', 0'.repeat(4 - comps);
  if (type.startsWith('uint')) {
    const u = comps === 1 ? 'uint' : `uvec${comps}`;
    return `ivec4 ${name} = ivec4(${comps === 1 ? 'int' : `ivec${comps}`}(min(${value}, ${u}(0x7fffffffu)))${pad});`;
  }
  if (type.startsWith('int')) return `ivec4 ${name} = ivec4(${value}${pad});`;
  const v = comps === 4 ? `vec4(${value})` : `vec4(${comps === 1 ? `float(${value})` : `vec${comps}(${value})`}${', 0.0'.repeat(4 - comps)})`;
  return [
    `vec4 ${name}_x = ${v};`,
    `vec4 ${name}_f = floor(${name}_x);`,
    `vec4 ${name}_r = ${name}_f + vec4(greaterThanEqual(${name}_x - ${name}_f, vec4(0.5)));`, // floor(x + 0.5), exactly
    // (int)(x + 0.5) truncates toward zero: x in (-1.5, -0.5) is record 0 too
    // NaN and infinities by their exponent bits too (a driver may fold NaN comparisons away)
    `bool ${name}_ok = !any(equal(floatBitsToUint(${name}_x) & uvec4(0x7f800000u), uvec4(0x7f800000u))) && all(greaterThan(${name}_x, vec4(-1.5))) && all(lessThan(${name}_r, vec4(1073741824.0)));`,
    `ivec4 ${name} = ${name}_ok ? ivec4(max(${name}_r, vec4(0.0))) : ivec4(-1);`,
  ].join('\n');
}

const keyKernels = new Map<string, KernelSpec>();

/**
 * key[i] = the record number index[i] names in a source of extents gop_shape (x first), or -1
 * outside it (roundedIndex: a float index is tested before it becomes an int; NaN or 1e30 has none).
 * streamGatherOp and scatterReduce share it.
 */
export function keyKernel(type: ElementType): KernelSpec {
  let k = keyKernels.get(type);
  if (!k) {
    k = {
      name: 'GatherOpKey',
      inputs: { index: type },
      uniforms: { gop_shape: 'int4' },
      outputs: { key: 'float' },
      body: [
        roundedIndex(type, 'index', 'c'),
        'bool inside = all(greaterThanEqual(c, ivec4(0))) && all(lessThan(c, gop_shape));',
        'key = inside ? float(((c.w * gop_shape.z + c.z) * gop_shape.y + c.y) * gop_shape.x + c.x) : -1.0;',
      ].join('\n'),
    };
    keyKernels.set(type, k);
  }
  return k;
}

/** GLSL: [first, end) of the run of sorted keys equal to `key` (two binary searches over gop_n records). */
const RUN_SEARCH = (key: string) =>
  [
    '  int gop_lo = 0; int gop_hi = gop_n;',
    `  while (gop_lo < gop_hi) { int m = (gop_lo + gop_hi) / 2; if (gop_sorted(m) < ${key}) gop_lo = m + 1; else gop_hi = m; }`,
    '  int gop_first = gop_lo; gop_hi = gop_n;',
    `  while (gop_lo < gop_hi) { int m = (gop_lo + gop_hi) / 2; if (gop_sorted(m) <= ${key}) gop_lo = m + 1; else gop_hi = m; }`,
    '  int gop_end = gop_lo;',
  ].join('\n');

const gatherOps = new WeakMap<KernelSpec, { read: KernelSpec; update: KernelSpec }>();

function gatherOpKernels(spec: KernelSpec, meta: NonNullable<NonNullable<KernelSpec['brook']>['reduce']>): { read: KernelSpec; update: KernelSpec } {
  let k = gatherOps.get(spec);
  if (k) return k;
  const { uniforms, gathers } = operatorParams(spec);
  const r = glslName(meta.result);
  const a = glslName(meta.input);
  const search = { gop_sorted: 'float', gop_order: 'uint' } as const;
  k = {
    // t[i]: op applied rank(i) times to s[index[i]]; main's own call of the body is skipped
    read: {
      ...spec,
      name: `${spec.name}<gatherOp>`,
      inputs: { gop_key: 'float' },
      gathers: { ...gathers, ...search, gop_src: meta.type },
      uniforms: { ...uniforms, gop_n: 'int' },
      brook: undefined,
      prologue: [
        '  brook_reduce_skip = true;',
        '  if (gop_key >= 0.0) {',
        RUN_SEARCH('gop_key'),
        '  uint gop_me = uint(brook_index);',
        '  gop_lo = gop_first; gop_hi = gop_end;',
        '  while (gop_lo < gop_hi) { int m = (gop_lo + gop_hi) / 2; if (gop_order(m) < gop_me) gop_lo = m + 1; else gop_hi = m; }',
        `  ${r} = gop_src(int(gop_key));`,
        `  for (int q = gop_first; q < gop_lo; q++) { ${a} = ${r}; brook_reduce_skip = false; brook_kernel(); }`,
        '  brook_reduce_skip = true;',
        '  }',
      ].join('\n'),
    },
    // s[j]: op applied as many times as index names j (the last application is main's call)
    update: {
      ...spec,
      name: `${spec.name}<gatherOp update>`,
      inputs: { gop_self: meta.type },
      gathers: { ...gathers, gop_sorted: 'float' },
      uniforms: { ...uniforms, gop_n: 'int' },
      brook: undefined,
      prologue: [
        `  ${r} = gop_self;`,
        RUN_SEARCH('float(brook_index)'),
        `  for (int q = gop_first; q < gop_end - 1; q++) { ${a} = ${r}; brook_kernel(); }`,
        `  if (gop_end > gop_first) ${a} = ${r}; else brook_reduce_skip = true;`,
      ].join('\n'),
    },
  };
  gatherOps.set(spec, k);
  return k;
}

/**
 * Brook's streamGatherOp(t, index, s, op), as BrookGPU's runtime runs it: in the order of i,
 * t[i] = s[index[i]], then s[index[i]] = op(s[index[i]]) — both `t` and `s` change (see the
 * file's header for how repeated indices are made sequential). `index` has one record per record
 * of `t` (the same shape) and one component per dimension of `s` (float for 1D, float2 (column,
 * row) for 2D; int or uint also for 1D), or an iterator (`iter(start, end)` over t's shape).
 * `args` passes the operator's extra constants and gathers.
 * @example streamGatherOp(ctx, t, index, s, kernels.myinc); // reduce void myinc(float a<>, reduce float b<>) { b = a + 1; }
 */
export function streamGatherOp(ctx: BrookContext, t: Stream, index: Stream | Iter, s: Stream, op: KernelSpec | Kernel, args: KernelArgs = {}): void {
  ctx.guard();
  const what = 'streamGatherOp(t, index, s, op)';
  const { spec, meta } = operator(what, op);
  if (index instanceof Iter) {
    checkStreams(ctx, what, [['t', t]]);
    const made = iterAsStream(ctx, index, t);
    try {
      return streamGatherOp(ctx, t, made, s, op, args);
    } finally {
      made.dispose();
    }
  }
  checkStreams(ctx, what, [['t', t], ['index', index], ['s', s]]);
  if (t.type !== meta.type || s.type !== meta.type) throw new BrookError(`${what}: t and s must be ${meta.type} streams for ${spec.name}; got a ${t.describe()} and a ${s.describe()}`);
  checkIndex(what, index, t, 't', s);
  // the CPU backend (src/cpu/ops.ts) runs BrookGPU's loop itself
  if (onCpu(ctx)) return onCpu(ctx)!.gatherOp(spec, t, index, s, args);
  if (t.length > 1 << 24 || s.length > 1 << 24) throw new BrookError(`${what}: at most 2^24 records (the sort's float keys name records exactly up to there); got t of ${t.length}, s of ${s.length}`);
  const { read, update } = gatherOpKernels(spec, meta);
  const made: Stream[] = [];
  try {
    const keys = ctx.scratch('float', index.layout.dims === 1 ? index.length : index.shape);
    made.push(keys);
    ctx.runInternal(keyKernel(index.type), { index, gop_shape: extentsXYZW(s.shape), key: keys });
    const sorted = sortStream(ctx, keys);
    made.push(sorted.keys, sorted.order);
    const search = { gop_sorted: sorted.keys, gop_order: sorted.order, gop_n: keys.length };
    ctx.runInternal(read, { ...args, ...search, gop_key: keys, gop_src: s, [meta.result]: t });
    const { gop_order: _, ...counts } = search;
    ctx.runInternal(update, { ...args, ...counts, gop_self: s, [meta.result]: s }); // run.ts renders into a temporary: s is read and written

  } finally {
    made.forEach((x) => x.dispose());
  }
}

const scatterOps = new WeakMap<KernelSpec, Map<string, KernelSpec>>();

/**
 * Brook's streamScatterOp(a, b, c, op), as BrookGPU's runtime runs it: a[p] = op(a[p], c[b[p]])
 * for every record p of `a` — `op`'s reduce parameter is a[p], its stream parameter the record
 * of `c` that b[p] names; only `a` changes, so one pass does it. `b` has one record per record of
 * `a` and one component per dimension of `c` (float for 1D, float2 (column, row) for 2D; int or
 * uint also for 1D); an index outside `c` reads zero.
 * @example streamScatterOp(ctx, a, b, c, kernels.myinc); // a[p] = c[b[p]] + 1 for b = a + 1
 */
export function streamScatterOp(ctx: BrookContext, a: Stream, b: Stream | Iter, c: Stream, op: KernelSpec | Kernel, args: KernelArgs = {}): void {
  ctx.guard();
  const what = 'streamScatterOp(a, b, c, op)';
  const { spec, meta } = operator(what, op);
  if (b instanceof Iter) {
    checkStreams(ctx, what, [['a', a]]);
    const made = iterAsStream(ctx, b, a);
    try {
      return streamScatterOp(ctx, a, made, c, op, args);
    } finally {
      made.dispose();
    }
  }
  checkStreams(ctx, what, [['a', a], ['b', b], ['c', c]]);
  if (a.type !== meta.type || c.type !== meta.type) throw new BrookError(`${what}: a and c must be ${meta.type} streams for ${spec.name}; got a ${a.describe()} and a ${c.describe()}`);
  checkIndex(what, b, a, 'a', c);
  if (onCpu(ctx)) return onCpu(ctx)!.scatterOp(spec, a, b, c, args);
  let perIndex = scatterOps.get(spec);
  if (!perIndex) scatterOps.set(spec, (perIndex = new Map()));
  let derived = perIndex.get(b.type);
  if (!derived) {
    const { uniforms, gathers } = operatorParams(spec);
    derived = {
      ...spec,
      name: `${spec.name}<scatterOp>`,
      inputs: { sop_old: meta.type, sop_index: b.type },
      gathers: { ...gathers, sop_src: meta.type },
      uniforms,
      brook: undefined,
      prologue: [`  ${glslName(meta.result)} = sop_old;`, roundedIndex(b.type, 'sop_index', 'sop_c'), `  ${glslName(meta.input)} = sop_src(sop_c);`].join('\n'), // sop_c -1: zero
    };
    perIndex.set(b.type, derived);
  }
  ctx.runInternal(derived, { ...args, sop_old: a, sop_index: b, sop_src: c, [meta.result]: a });
}
