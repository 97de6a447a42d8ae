/**
 * scatterReduce(s, index, t, op): every record i of `s` is combined into record index[i] of `t`
 * by `op`, a reduce kernel (its reduce parameter is t's record, its stream
 * parameter the scattered record). Records scattered to one target are combined in the order
 * of i (so an associative operator that does not commute still has one answer).
 *
 * A vertex-shader pass of points could only combine by blending (+, min, max on float
 * targets with EXT_float_blend); an arbitrary operator needs the records of one target side by
 * side, so this sorts (index, i) pairs by target (stable: the order of i is kept) and lets each
 * record of `t` binary-search its run of sorted records and fold it — one sort and one pass.
 *
 * On a CPU context (src/cpu/ops.ts) the loop itself runs: for i in order, t[index[i]] = op(s[i], t[index[i]]).
 *
 * BrookGPU's own streamScatterOp, despite its name, reads through its index (a[p] = op(a[p],
 * c[b[p]]); gatherop.ts): this is the scatter that its name suggests, which BrookGPU did not have.
 */
import { BrookContext, BrookError, Kernel, KernelArgs, KernelSpec, Stream, UniformType, glslName } from '../core/index';
import { keyKernel } from './gatherop';
import { sortStream } from './sort';

const scatterOps = new WeakMap<KernelSpec, KernelSpec>();

/**
 * Scatters `s` into `t` at `index` (float record numbers of `t`), combining with the reduce kernel
 * `op`. Indices are rounded as BrookGPU rounds them, (int)(x + 0.5), as streamGatherOp rounds
 * its own; an index outside t (NaN and infinities included) scatters nothing.
 */
export function scatterReduce(ctx: BrookContext, s: Stream, index: Stream, t: Stream, op: KernelSpec | Kernel, args: KernelArgs = {}): void {
  ctx.guard();
  const spec = op instanceof Kernel ? op.spec : op;
  const meta = spec?.brook?.reduce;
  if (!meta) throw new BrookError(`scatterReduce: the operator must be a reduce kernel (reduce void f(T a<>, reduce T r<>)), got ${spec?.name ?? typeof op}`);
  for (const [what, x] of [['s', s], ['index', index], ['t', t]] as const) {
    if (!(x instanceof Stream) || x.disposed) throw new BrookError(`scatterReduce: '${what}' must be a live stream`);
  }
  if (s.type !== meta.type || t.type !== meta.type) throw new BrookError(`scatterReduce: s and t must be ${meta.type} streams for ${spec.name}; got a ${s.describe()} and a ${t.describe()}`);
  if (index.type !== 'float' || index.length !== s.length) {
    throw new BrookError(`scatterReduce: index must be a float stream of ${s.length} record numbers of t (one per record of s), got a ${index.describe()}`);
  }
  if (t.length > 1 << 24) {
    // each record of t finds its run by float(its record number): past 2^24 neighbours would share one
    throw new BrookError(`scatterReduce: t has ${t.length} records, at most 2^24 (16777216) can be named exactly by float indices; split t`);
  }
  // a CPU context (src/cpu, backend: 'cpu') folds in record order with the operator's JavaScript: the same applications, in the same order
  const cpu = (ctx as unknown as { backend?: string }).backend === 'cpu' ? (ctx as unknown as { scatterReduceOp(spec: KernelSpec, s: Stream, index: Stream, t: Stream, args: KernelArgs): void }) : undefined;
  if (cpu) return cpu.scatterReduceOp(spec, s, index, t, args);
  let derived = scatterOps.get(spec);
  if (!derived) {
    const uniforms: Record<string, UniformType> = { ...spec.uniforms, sop_n: 'int' };
    for (const u of ['reduce_n', 'reduce_span', 'reduce_block', 'reduce_2d']) delete uniforms[u];
    const gathers = { ...spec.gathers };
    delete gathers.reduce_src;
    const r = glslName(meta.result);
    const a = glslName(meta.input);
    derived = {
      ...spec,
      name: `${spec.name}<scatterReduce>`,
      inputs: { sop_old: meta.type },
      gathers: { ...gathers, sop_keys: 'float', sop_order: 'uint', sop_src: meta.type },
      uniforms,
      brook: undefined,
      // fold the run of sorted keys equal to this record's index; the last combine is main's call
      prologue: [
        `  ${r} = sop_old;`,
        '  float sop_here = float(brook_index);',
        '  int sop_lo = 0; int sop_hi = sop_n;',
        '  while (sop_lo < sop_hi) { int m = (sop_lo + sop_hi) / 2; if (sop_keys(m) < sop_here) sop_lo = m + 1; else sop_hi = m; }',
        '  if (sop_lo < sop_n && sop_keys(sop_lo) == sop_here) {',
        `    ${a} = sop_src(sop_order(sop_lo)); sop_lo++;`,
        `    while (sop_lo < sop_n && sop_keys(sop_lo) == sop_here) { brook_kernel(); ${a} = sop_src(sop_order(sop_lo)); sop_lo++; }`,
        '  } else brook_reduce_skip = true;',
      ].join('\n'),
    };
    scatterOps.set(spec, derived);
  }
  // the records of t that index names, rounded as BrookGPU rounds ((int)(x + 0.5), as streamGatherOp); -1 outside t
  const made: Stream[] = [];
  try {
    const keys = ctx.scratch('float', index.length);
    made.push(keys);
    ctx.runInternal(keyKernel('float'), { index, gop_shape: [t.length, 1, 1, 1], key: keys });
    const sorted = sortStream(ctx, keys);
    made.push(sorted.keys, sorted.order);
    ctx.runInternal(derived, { ...args, sop_old: t, sop_keys: sorted.keys, sop_order: sorted.order, sop_src: s, sop_n: s.length, [meta.result]: t });
  } finally {
    made.forEach((x) => x.dispose());
  }
}
