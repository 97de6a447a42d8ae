/**
 * Reductions (Brook's `reduce`): a whole stream folded to one record by an associative operator,
 * in log passes.
 *
 * Each pass folds REDUCE_FACTOR consecutive records into one, so n records take
 * ceil(log_F n) passes (2^20 records: 5 passes at F = 16). Records past the end are skipped
 * rather than padded with an identity, so a user operator needs no identity element.
 *
 * ```ts
 * const [total] = await ctx.reduce(s, 'sum');
 * const [lo] = await ctx.reduce(s, 'min');
 * const [x, y] = await ctx.reduce(points, { op: 'max(a, b)' });     // componentwise on float2
 * const biggest = await ctx.reduce(v, { name: 'longest', op: 'length(a) >= length(b) ? a : b' });
 * ```
 * Integer sums are exact modulo 2^32; float sums are float32 sums in tree order, so they differ
 * from a sequential CPU sum by rounding (tests state the tolerance).
 */
import { check } from './errors';
import { compileKernel } from './kernel';
import { KernelSpec } from './kernelspec';
import { runKernel } from './run';
import { Stream, type StreamHost } from './stream';
import { ElementType, typeInfo } from './types';

/** 'sum', 'min', 'max', or an associative GLSL expression of `a` and `b` (records of the stream's type). */
export type ReduceOp = 'sum' | 'min' | 'max' | { op: string; name?: string };

/** Records folded into one per pass. */
export const REDUCE_FACTOR = 16;

const BUILTIN: Record<string, string> = { sum: 'a + b', min: 'min(a, b)', max: 'max(a, b)' };

/** The fold kernel for records of `type` under `expr`. */
export function reduceKernel(type: ElementType, expr: string, name = 'reduce'): KernelSpec {
  const t = typeInfo(type).glsl;
  return {
    name: `${name}<${type}>`,
    gathers: { src: type },
    uniforms: { n: 'int' },
    outputs: { result: type },
    helpers: `${t} brook_reduce_op(${t} a, ${t} b) { return ${expr}; }`,
    body: [
      `  int first = brook_index * ${REDUCE_FACTOR};`,
      '  result = src(first);',
      `  for (int j = 1; j < ${REDUCE_FACTOR}; j++) {`,
      '    if (first + j >= n) break;',
      '    result = brook_reduce_op(result, src(first + j));',
      '  }',
    ].join('\n'),
  };
}

/** Reduces `stream` to a new stream of one record (the caller disposes it). */
export function reduceStream(ctx: StreamHost, stream: Stream, op: ReduceOp): Stream {
  check(stream instanceof Stream && !stream.disposed, 'reduce needs a live stream');
  let expr: string;
  let name = 'reduce';
  if (typeof op === 'string') {
    check(op in BUILTIN, () => `unknown reduction '${op}': use 'sum', 'min', 'max' or { op: 'GLSL expression of a and b' }`);
    expr = BUILTIN[op]!;
    name = op;
  } else {
    check(op && typeof op.op === 'string' && op.op.trim().length > 0, "a custom reduction is { op: 'GLSL expression of a and b' }");
    expr = op.op;
    name = op.name ?? 'reduce';
  }
  const kernel = compileKernel(ctx, reduceKernel(stream.type, expr, name));
  let src = stream;
  do {
    const n = src.length;
    const out = ctx.scratch(stream.type, Math.ceil(n / REDUCE_FACTOR));
    runKernel(ctx, kernel, { src, n, result: out });
    if (src !== stream) src.dispose();
    src = out;
  } while (src.length > 1);
  return src;
}
