/**
 * Streams of structs (Brook's `typedef struct { float3 A, B, C; } Tri;` and `Tri t<>`), as in
 * GPU Gems 2 ch. 36's Listings 36-3 and 36-5.
 *
 * A struct stream is flattened into one stream (one texture) per field; a kernel sees whole
 * structs. Host code reads and writes interleaved arrays, record by record, the fields in
 * declaration order with their components packed as C lays out floats (a `Tri` record is 9
 * floats: A.xyz, B.xyz, C.xyz).
 *
 * ```ts
 * const { Pair } = brookStructs`typedef struct pair_t { float a; float3 b; } Pair;`;
 * const { swap } = brook`
 *   typedef struct pair_t { float a; float3 b; } Pair;
 *   kernel void swap(Pair p<>, out Pair q<>) { q.a = p.b.x; q.b = float3(p.a, p.b.yz); }`;
 * const p = structStream(ctx, Pair, 100, interleaved);   // 100 x 4 floats
 * const q = structStream(ctx, Pair, 100);
 * ctx.run(swap, { p, q });                              // bound by name, like any stream
 * const back = await q.read();                          // Float32Array(400), interleaved
 * ```
 *
 * Inside a kernel a struct input `p` is a local struct, a struct gather `g[i]` returns a struct
 * and a struct output `q` is a struct whose fields are written at the end (also after `return;`).
 * A struct output needs one render target per field: a kernel whose outputs (all fields of all
 * outputs) exceed MAX_DRAW_BUFFERS runs as several passes (run.ts), each computing the whole
 * body and writing some of the fields.
 */
import { BrookError, check } from './errors';
import { Stream, StreamShape, type StreamOwner } from './stream';
import { DomainBound, StreamDomain } from './domain';
import { StructType, typeInfo } from './types';
import type { StructParam } from './kernelspec';

export type { StructField, StructType } from './types';
export type { StructParam } from './kernelspec';

/** The flattened stream name of one field of a struct parameter: `p` field `A` is `p_A`. */
export function fieldParam(param: string, field: string): string {
  return `${param}_${field}`;
}

/**
 * What a struct stream and a domain of one share: records of a struct type held one field per
 * stream (or per domain of a stream), their length and shape (the first field's), and host
 * reads and writes of interleaved records.
 */
export abstract class StructRecords<F extends Stream | StreamDomain = Stream | StreamDomain> {
  /** The struct type of the records. */
  abstract readonly type: StructType;
  /** The field streams (or domains) by field name. */
  abstract readonly fields: Readonly<Record<string, F>>;
  /** In words, for messages: `Pair stream of 8 records`. */
  abstract describe(): string;

  /** Records. */
  get length(): number {
    return this.first.length;
  }
  /** Extents, as a stream's (`[rows, columns]` for 2D). */
  get shape(): readonly number[] {
    return this.first.shape;
  }

  /** Writes all records from an interleaved array of `length x type.components` numbers (row-major). */
  write(data: ArrayLike<number>): this {
    writeInterleaved(this.type, this.fields, this.length, data, this.describe());
    return this;
  }

  /** Reads all records back as one interleaved Float32Array (without stalling the GPU). */
  async read(): Promise<Float32Array> {
    const parts = await Promise.all(this.type.fields.map((f) => this.fields[f.name]!.read()));
    return interleave(this.type, this.length, parts as Float32Array[]);
  }

  /** Reads all records back now (stalls). */
  readSync(): Float32Array {
    return interleave(this.type, this.length, this.type.fields.map((f) => this.fields[f.name]!.readSync() as Float32Array));
  }

  /** The first field's stream or domain (every field has the same shape). */
  protected get first(): F {
    return this.fields[this.type.fields[0]!.name]!;
  }
}

/** A stream of struct records: one stream per field, read and written as interleaved arrays. */
export class StructStream extends StructRecords<Stream> {
  /** The field streams by field name (each an ordinary stream of the field's type). */
  readonly fields: Readonly<Record<string, Stream>>;

  /** Use `structStream(ctx, type, shape, data?)`. */
  constructor(
    readonly ctx: StreamOwner,
    readonly type: StructType,
    shape: StreamShape,
  ) {
    super();
    check(type && Array.isArray(type.fields) && type.fields.length > 0, 'structStream: the type must be a struct type from brookStructs`...` or a kernel\'s structs');
    const fields: Record<string, Stream> = {};
    try {
      for (const f of type.fields) fields[f.name] = ctx.stream(f.type, shape);
    } catch (e) {
      for (const s of Object.values(fields)) s.dispose();
      throw e;
    }
    this.fields = fields;
  }

  get disposed(): boolean {
    return this.first.disposed;
  }

  /**
   * Brook's `s.domain(start, end)` of a struct stream: the same domain of every field (see
   * Stream.domain), for host I/O (`streamRead(b.domain(127, 305), data)`) and as a kernel
   * argument.
   */
  domain(start: DomainBound, end: DomainBound): StructDomain {
    return new StructDomain(this, start, end);
  }

  /** Releases every field's texture. Idempotent. */
  dispose(): void {
    for (const s of Object.values(this.fields)) s.dispose();
  }

  describe(): string {
    const shape = this.shape.length === 1 ? `${this.length} records` : `[${this.shape.join(', ')}] records`;
    return `${this.type.name} stream of ${shape}`;
  }
}

/** A domain of a struct stream: the same domain of each field stream; owns no texture. */
export class StructDomain extends StructRecords<StreamDomain> {
  /** The field domains by field name. */
  readonly fields: Readonly<Record<string, StreamDomain>>;

  /** Use `structStream.domain(start, end)`. */
  constructor(
    readonly struct: StructStream,
    start: DomainBound,
    end: DomainBound,
  ) {
    super();
    const fields: Record<string, StreamDomain> = {};
    for (const f of struct.type.fields) fields[f.name] = struct.fields[f.name]!.domain(start, end);
    this.fields = fields;
  }

  get type(): StructType {
    return this.struct.type;
  }
  get disposed(): boolean {
    return this.struct.disposed;
  }

  describe(): string {
    return this.first.describe().replace(/of a .*$/, `of a ${this.struct.describe()}`);
  }
}

function writeInterleaved(type: StructType, fields: Readonly<Record<string, Stream | StreamDomain>>, n: number, data: ArrayLike<number>, what: string): void {
  const { components } = type;
  check(data !== null && typeof data === 'object' && typeof data.length === 'number', () => `${what}: write() needs an array of numbers (interleaved records)`);
  check(
    data.length === n * components,
    () => `${what}: write() got ${data.length} numbers; it needs ${n * components} (${n} records x ${components} floats, fields interleaved)`,
  );
  let offset = 0;
  for (const f of type.fields) {
    const c = typeInfo(f.type).components;
    const part = new Float32Array(n * c);
    for (let i = 0; i < n; i++) for (let k = 0; k < c; k++) part[i * c + k] = data[i * components + offset + k]!;
    fields[f.name]!.write(part);
    offset += c;
  }
}

function interleave(type: StructType, n: number, parts: Float32Array[]): Float32Array {
  const { components } = type;
  const out = new Float32Array(n * components);
  let offset = 0;
  type.fields.forEach((f, j) => {
    const c = typeInfo(f.type).components;
    const part = parts[j]!;
    for (let i = 0; i < n; i++) for (let k = 0; k < c; k++) out[i * components + offset + k] = part[i * c + k]!;
    offset += c;
  });
  return out;
}

/**
 * A new stream of `type` records (`shape` a length or [height, width]); with `data`, writes
 * that interleaved array.
 */
export function structStream(ctx: StreamOwner, type: StructType, shape: StreamShape, data?: ArrayLike<number>): StructStream {
  ctx.guard();
  const s = new StructStream(ctx, type, shape);
  if (data !== undefined) {
    try {
      s.write(data);
    } catch (e) {
      s.dispose();
      throw e;
    }
  }
  return s;
}

/**
 * The arguments with every struct stream replaced by its field streams (`p` -> `p_A`, `p_B`),
 * checked: a struct parameter takes a StructStream of its own type.
 */
export function expandStructArgs<T extends Record<string, unknown>>(
  kernel: string,
  structParams: Record<string, StructParam> | undefined,
  args: T,
): T {
  if (!structParams || !args || typeof args !== 'object') return args;
  const out: Record<string, unknown> = { ...args };
  for (const [param, { struct, role }] of Object.entries(structParams)) {
    const v = out[param];
    if (role === 'uniforms') {
      // a struct constant: { field: value, ... } or the fields' numbers in order
      delete out[param];
      if (v === undefined) throw new BrookError(`kernel ${kernel}, argument '${param}' is missing: pass a ${struct.name} as { ${struct.fields.map((f) => f.name).join(', ')} } or ${struct.components} numbers`);
      const flat = ArrayBuffer.isView(v) || Array.isArray(v) ? Array.from(v as ArrayLike<number>) : null;
      if (flat) {
        check(flat.length === struct.components, () => `kernel ${kernel}, argument '${param}': a ${struct.name} is ${struct.components} numbers, got ${flat.length}`);
        let at = 0;
        for (const f of struct.fields) {
          const c = typeInfo(f.type).components;
          out[fieldParam(param, f.name)] = c === 1 ? flat[at] : flat.slice(at, at + c);
          at += c;
        }
      } else {
        check(v !== null && typeof v === 'object' && !(v instanceof Stream) && !(v instanceof StructStream) && !(v instanceof StructDomain), () => `kernel ${kernel}, argument '${param}': pass a ${struct.name} as { ${struct.fields.map((f) => f.name).join(', ')} } or ${struct.components} numbers`);
        const fields = v as Record<string, unknown>;
        for (const k of Object.keys(fields)) check(struct.fields.some((f) => f.name === k), () => `kernel ${kernel}, argument '${param}': ${struct.name} has no field '${k}'`);
        for (const f of struct.fields) {
          check(fields[f.name] !== undefined, () => `kernel ${kernel}, argument '${param}': field '${f.name}' is missing`);
          out[fieldParam(param, f.name)] = fields[f.name];
        }
      }
      continue;
    }
    if (v === undefined) throw new BrookError(`kernel ${kernel}, argument '${param}' is missing: pass a ${struct.name} stream (structStream(ctx, ${struct.name}, shape))`);
    if (!(v instanceof StructStream) && !(v instanceof StructDomain)) {
      throw new BrookError(`kernel ${kernel}, argument '${param}': expected a ${struct.name} stream (structStream(ctx, ${struct.name}, shape)), got ${v instanceof Stream ? `a ${v.describe()}` : typeof v}`);
    }
    check(
      sameStruct(v.type, struct),
      () => `kernel ${kernel}, argument '${param}': expected a ${struct.name} stream, got a ${v.describe()} (another struct type)`,
    );
    delete out[param];
    for (const f of struct.fields) out[fieldParam(param, f.name)] = v.fields[f.name];
  }
  return out as T;
}

function sameStruct(a: StructType, b: StructType): boolean {
  return a === b || (a.fields.length === b.fields.length && a.fields.every((f, i) => f.name === b.fields[i]!.name && f.type === b.fields[i]!.type));
}
