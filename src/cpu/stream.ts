/**
 * The CPU backend's streams: a Stream (so Brook's host API, domains, struct streams and every
 * `instanceof Stream` check take it) whose records live in a typed array instead of a texture:
 * Float32Array for float..float4, Int32Array for int.., Uint32Array for uint.., Uint8Array for
 * the 8-bit char types, `length x components` numbers in row-major record order.
 */
import { BrookError } from '../core/errors';
import { Stream, checkWriteData, type StreamOwner, type StreamShape } from '../core/stream';
import type { ElementType, StreamData } from '../core/types';

/** The typed array of a CPU stream's records: by the type's host kind (float, int, uint, 8-bit char). */
export type CpuData = Float32Array | Int32Array | Uint32Array | Uint8Array;

const ARRAYS = { float: Float32Array, int: Int32Array, uint: Uint32Array, char: Uint8Array } as const;

export class CpuStream extends Stream {
  /** The records, `length x components` numbers (a kernel run may replace the array). */
  data: CpuData;
  private gone = false;

  /** Use `ctx.stream(type, shape)` on a CPU context. */
  constructor(ctx: StreamOwner, type: ElementType, shape: StreamShape) {
    super(ctx, type, shape);
    this.data = new ARRAYS[this.info.host](this.length * this.info.components);
  }

  override get disposed(): boolean {
    return this.gone;
  }

  override write(data: ArrayLike<number>): this {
    this.live('write(data)');
    checkWriteData(this, data); // a GPU stream's checks and words (core/stream.ts)
    this.data.set(data as ArrayLike<number>);
    return this;
  }

  override readSync(): StreamData {
    this.live('readSync()');
    return this.data.slice() as StreamData;
  }

  override async read(): Promise<StreamData> {
    return this.readSync();
  }

  override dispose(): void {
    if (this.gone) return;
    this.gone = true;
    this.data = new (this.data.constructor as Float32ArrayConstructor)(0);
    this.ctx.forget(this);
  }

  private live(what: string): void {
    this.ctx.guard();
    if (this.gone) throw new BrookError(`${this.describe()}: ${what}: the stream was disposed`);
  }
}
