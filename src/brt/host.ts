/**
 * Brook's host API beside brookgl's own, so a BrookGPU program's main() translates line for
 * line:
 *
 * ```text
 * BrookGPU (C++)                          brookgl
 * float a<10, 10>;                        const a = streamDecl(ctx, 'float a<10, 10>');
 * Pair p<100>;                            const p = streamDecl(ctx, 'Pair p<100>', kernels.k.structs);
 * streamRead(a, data);                    streamRead(a, data);          // memory -> stream
 * streamWrite(a, data);                   streamWrite(a, data);         // stream -> memory (waits)
 * saxpy(alpha, x, y, result);             ctx.run(saxpy, { alpha, x, y, result });
 * float total; sum(a, total);             const [total] = await reduceValue(ctx, sum, { a });
 * write_query q = write_query::create();   const q = writeQuery(ctx);
 * q.begin(); k(a, b); q.end();             q.begin(); ctx.run(k, { a, b }); q.end();
 * n = q.count();                           const n = await q.count();   // or q.countSync()
 * streamBeginWriteQuery();                 streamBeginWriteQuery(ctx);
 * n = streamEndWriteQuery();               const n = streamEndWriteQuery(ctx);   // waits
 * ```
 *
 * streamWrite is synchronous as in Brook (it waits for the GPU); `await s.read()` is the
 * non-blocking form. Declarations take 1 to 4 extents (`float b<4, 5, 6>`); streamRead and
 * streamWrite also take domains (`streamRead(a.domain([1, 5], [8, 8]), data)`).
 */
import { BrookError, check } from '../core/errors';
import type { BrookContext } from '../core/context';
import { Stream } from '../core/stream';
import { StreamDomain } from '../core/domain';
import { StructDomain, StructStream, StructType, structStream } from '../core/struct';
import { ElementType } from '../core/types';
import { WriteQuery, writeQuery } from './writequery';

const BROOK_TYPES: Record<string, ElementType> = {
  float: 'float', float2: 'float2', float3: 'float3', float4: 'float4',
  half: 'float', half2: 'float2', half3: 'float3', half4: 'float4',
  int: 'int', int2: 'int2', int3: 'int3', int4: 'int4',
  uint: 'uint', uint2: 'uint2', uint3: 'uint3', uint4: 'uint4',
  char: 'char', char2: 'char2', char3: 'char3', char4: 'char4',
  uchar: 'char', uchar2: 'char2', uchar3: 'char3', uchar4: 'char4',
  fixed: 'char', fixed2: 'char2', fixed3: 'char3', fixed4: 'char4',
};

/**
 * A stream from a Brook declaration: `'float a<100>'`, `'float4 b<10, 10>'` (rows, columns, as
 * in Brook: row-major), `'Pair p<8>'` with the struct types from the source
 * (`kernels.k.structs`). The name is optional.
 */
export function streamDecl(ctx: BrookContext, decl: string, structs: Record<string, StructType> = {}): Stream | StructStream {
  check(typeof decl === 'string', 'streamDecl: pass a declaration such as "float a<10, 10>"');
  const m = /^\s*(?:unsigned\s+)?([A-Za-z_]\w*)\s*(?:[A-Za-z_]\w*)?\s*<([^>]*)>\s*;?\s*$/.exec(decl);
  if (!m) throw new BrookError(`streamDecl: cannot read '${decl}': write e.g. 'float a<100>' or 'float4 b<10, 10>'`);
  const dims = m[2]!.split(',').map((d) => Number(d.trim()));
  check(dims.length >= 1 && dims.every((d) => Number.isInteger(d) && d >= 1), () => `streamDecl: '${decl}': the extents must be positive integers`);
  check(dims.length <= 4, () => `streamDecl: '${decl}': a stream has 1 to 4 dimensions (extents), as in BrookGPU; this one has ${dims.length}`);
  const shape = dims.length === 1 ? dims[0]! : dims;
  const struct = structs[m[1]!];
  if (struct) return structStream(ctx, struct, shape);
  const unsigned = /^\s*unsigned\s/.test(decl);
  const type = BROOK_TYPES[unsigned && /^int[234]?$/.test(m[1]!) ? `u${m[1]}` : m[1]!];
  if (!type) throw new BrookError(`streamDecl: '${decl}': unknown type '${m[1]}' (float..float4, int.., uint.., char.., or a struct type passed as the third argument)`);
  return ctx.stream(type, shape);
}

/** Brook's streamRead(stream, data): copies `data` (memory) into the stream (or its domain). */
export function streamRead(stream: Stream | StreamDomain | StructStream | StructDomain, data: ArrayLike<number>): void {
  check(stream instanceof Stream || stream instanceof StreamDomain || stream instanceof StructStream || stream instanceof StructDomain, 'streamRead: the first argument must be a stream');
  stream.write(data);
}

/**
 * Brook's streamWrite(stream, data): copies the stream into `data` (memory), waiting for the
 * GPU. `data` must hold exactly the stream's numbers (interleaved for struct streams).
 */
export function streamWrite(stream: Stream | StreamDomain | StructStream | StructDomain, data: { length: number; [i: number]: number }): void {
  check(stream instanceof Stream || stream instanceof StreamDomain || stream instanceof StructStream || stream instanceof StructDomain, 'streamWrite: the first argument must be a stream');
  const values = stream.readSync();
  check(
    data !== null && typeof data === 'object' && data.length === values.length,
    () => `streamWrite: the destination must hold ${values.length} numbers, got ${data === null || typeof data !== 'object' ? String(data) : data.length}`,
  );
  for (let i = 0; i < values.length; i++) data[i] = values[i]!;
}

const hostQueries = new WeakMap<BrookContext, WriteQuery>();

/** Brook's `streamBeginWriteQuery()`: starts counting the records kernels write (writequery.ts). */
export function streamBeginWriteQuery(ctx: BrookContext): void {
  check(!hostQueries.has(ctx), 'streamBeginWriteQuery: a query begun by streamBeginWriteQuery is still open; call streamEndWriteQuery(ctx) first');
  const q = writeQuery(ctx);
  q.begin();
  hostQueries.set(ctx, q);
}

/** Brook's `streamEndWriteQuery()`: stops counting and returns the records written since the begin (waits for the GPU). */
export function streamEndWriteQuery(ctx: BrookContext): number {
  const q = hostQueries.get(ctx);
  check(q !== undefined, 'streamEndWriteQuery: no query is open; call streamBeginWriteQuery(ctx) first');
  hostQueries.delete(ctx);
  try {
    q.end();
    return q.countSync();
  } finally {
    q.dispose();
  }
}
