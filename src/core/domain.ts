/**
 * Stream domains: Brook's `a.domain(start, end)`, a view of a sub-range (1D) or sub-box (2D to
 * 4D) of a stream, usable wherever a stream is — as a kernel's elementwise input, gather or
 * output, and for host reads and writes.
 *
 * ```ts
 * const a = ctx.stream('float', [10, 10]);
 * const d = a.domain([1, 2], [9, 5]);          // columns 1..8, rows 2..4 (end exclusive): [3, 8]
 * ctx.run(copy, { src: other, dst: d });       // writes only those 24 records; the rest keep theirs
 * d.write(data);  await d.read();              // host I/O of the domain's records, row-major
 * ```
 *
 * `start` and `end` are Brook's int2/int3/int4, x first: x is the fastest dimension (the last of
 * the shape), then y, z, w — `a.domain(int2(1, 2), int2(9, 5))` in Brook. A 1D stream takes
 * numbers. The end is exclusive, as in BrookGPU (`domain(30, 80)` is 50 records). Inside a
 * kernel a domain behaves as a stream of its own shape: `indexof` counts from its start, a
 * gather `g[0]` reads its first record and reads outside it give zero (the domain's nearest
 * record with KernelSpec.gatherEdge 'clamp', as in brook kernels), and an output domain leaves
 * the records outside it untouched (the pass is scissored to the rows it covers and discards
 * the others).
 *
 * A domain owns no GL object (`ctx.stats()` does not change); it lives as long as its stream:
 * after `stream.dispose()` using it throws a BrookError. Host I/O of a domain runs one copy
 * pass through a pooled temporary stream of the domain's shape.
 */
import { check } from './errors';
import type { KernelSpec } from './kernelspec';
import { extentsXYZW } from './layout';
import type { Stream, StreamOwner } from './stream';
import type { ReadOptions } from './streamread';
import { ElementType, StreamData, TypeInfo } from './types';
import { describeValue } from './checks';

/** A domain bound: a number for a 1D stream, or an array of 2 to 4 integers, x (fastest dimension) first. */
export type DomainBound = number | readonly number[];

export class StreamDomain {
  /** Offset of the domain in its stream, x first (0 beyond the rank). */
  readonly origin: readonly [number, number, number, number];
  /** Extents of the domain, x first (1 beyond the rank). */
  readonly extents: readonly [number, number, number, number];
  /** The domain's shape, slowest first, as a stream's: [n], [height, width], [d, h, w], ... */
  readonly shape: readonly number[];
  /** Number of records. */
  readonly length: number;

  /** Use `stream.domain(start, end)`. */
  constructor(
    /** The stream the domain views. */
    readonly stream: Stream,
    start: DomainBound,
    end: DomainBound,
    base: { origin: readonly number[]; extents: readonly number[] } = { origin: [0, 0, 0, 0], extents: extentsXYZW(stream.shape) },
  ) {
    const rank = stream.layout.dims;
    const of = `domain(start, end) of a ${stream.describe()}`;
    const vec = (v: DomainBound, arg: string): number[] => {
      if (rank === 1 && typeof v === 'number') {
        check(Number.isInteger(v), () => `${of}: ${arg} must be an integer, got ${describeValue(v)}`);
        return [v];
      }
      check(
        Array.isArray(v) && v.length === rank,
        () =>
          `${of}: ${arg} must be ${rank === 1 ? 'a number (or [x])' : `an array of ${rank} integers, x first (Brook's int${rank})`}, got ${describeValue(v)}` +
          (Array.isArray(v) ? ` — the stream has ${rank} dimension${rank > 1 ? 's' : ''}` : ''),
      );
      (v as readonly unknown[]).forEach((x, k) =>
        check(Number.isInteger(x), () => `${of}: ${arg}[${k}] must be an integer, got ${describeValue(x)}`),
      );
      return [...(v as readonly number[])];
    };
    check(!stream.disposed, () => `${of}: the stream was disposed`);
    const s = vec(start, 'start');
    const e = vec(end, 'end');
    const origin = [0, 0, 0, 0];
    const extents = [1, 1, 1, 1];
    const axis = ['x', 'y', 'z', 'w'];
    for (let k = 0; k < rank; k++) {
      const limit = base.extents[k]!;
      check(s[k]! >= 0 && s[k]! < limit, () => `${of}: start ${axis[k]} = ${s[k]} is outside [0, ${limit})${rank > 1 ? ' (x is the last dimension of the shape)' : ''}`);
      check(e[k]! <= limit, () => `${of}: end ${axis[k]} = ${e[k]} is beyond the extent ${limit} (the end is exclusive)`);
      check(e[k]! > s[k]!, () => `${of}: the domain is empty along ${axis[k]} (start ${s[k]}, end ${e[k]}): end must exceed start`);
      origin[k] = base.origin[k]! + s[k]!;
      extents[k] = e[k]! - s[k]!;
    }
    this.origin = origin as [number, number, number, number];
    this.extents = extents as [number, number, number, number];
    this.shape = extents.slice(0, rank).reverse();
    this.length = extents.reduce((a, b) => a * b, 1);
  }

  get ctx(): StreamOwner {
    return this.stream.ctx;
  }
  get type(): ElementType {
    return this.stream.type;
  }
  get info(): TypeInfo {
    return this.stream.info;
  }
  /** True once its stream is disposed. */
  get disposed(): boolean {
    return this.stream.disposed;
  }

  /** A domain of this domain (start and end relative to it), as BrookGPU allowed. */
  domain(start: DomainBound, end: DomainBound): StreamDomain {
    this.live('domain()');
    return new StreamDomain(this.stream, start, end, { origin: this.origin, extents: this.extents });
  }

  /** Writes the domain's records (Brook's `streamRead(a.domain(...), data)`), `length x components` numbers in row-major order. */
  write(data: ArrayLike<number>): this {
    this.live('write()');
    const temp = this.ctx.scratch(this.type, this.tempShape());
    try {
      temp.write(data);
      this.ctx.runInternal(domainCopy(this.type), { src: temp, dst: this });
    } finally {
      temp.dispose();
    }
    return this;
  }

  /** Reads the domain's records back, row-major (Brook's `streamWrite(a.domain(...), data)`), without stalling. */
  async read(options: ReadOptions = {}): Promise<StreamData> {
    const temp = this.copyOut();
    try {
      return await temp.read(options);
    } finally {
      temp.dispose();
    }
  }

  /** As `read()`, stalling until the GPU has finished. */
  readSync(options: ReadOptions = {}): StreamData {
    const temp = this.copyOut();
    try {
      return temp.readSync(options);
    } finally {
      temp.dispose();
    }
  }

  /** e.g. "domain [2, 8] at (1, 2) of a float stream of [10, 10] records". */
  describe(): string {
    const rank = this.stream.layout.dims;
    const at = rank === 1 ? String(this.origin[0]) : `(${this.origin.slice(0, rank).join(', ')})`;
    return `domain [${this.shape.join(', ')}] at ${at} of a ${this.stream.describe()}`;
  }

  private live(what: string): void {
    this.ctx.guard();
    check(!this.stream.disposed, () => `${this.describe()}: ${what}: its stream was disposed`);
  }

  private tempShape(): number | number[] {
    return this.shape.length === 1 ? this.shape[0]! : [...this.shape];
  }

  private copyOut(): Stream {
    this.live('read()');
    const temp = this.ctx.scratch(this.type, this.tempShape());
    try {
      this.ctx.runInternal(domainCopy(this.type), { src: this, dst: temp });
    } catch (e) {
      temp.dispose();
      throw e;
    }
    return temp;
  }
}

/** The copy between a domain and a stream of its shape (host I/O of domains). */
function domainCopy(type: ElementType): KernelSpec {
  return { name: 'DomainCopy', inputs: { src: type }, outputs: { dst: type }, body: 'dst = src;' };
}
