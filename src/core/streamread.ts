/**
 * Reading streams back (`Stream.read`, `readSync`): which texels cross to the CPU and how —
 * a stream's own texels, its RED / RG texels, or a copy packed four scalars to a texel — then
 * readPixels of only the texels that hold records. stream.ts re-exports the options.
 */
import { check } from './errors';
import { ElementType, HostKind, StreamData, TypeInfo, allocate, arrayKind, typeInfo } from './types';
import type { Device } from './device';
import type { KernelSpec } from './kernelspec';
import type { Stream } from './stream';
import { checkOptions, describeValue } from './checks';
import READ_PACK_1 from '../../glsl/core/read-pack-1.glsl';
import READ_PACK_2 from '../../glsl/core/read-pack-2.glsl';
import READ_PACK_3 from '../../glsl/core/read-pack-3.glsl';
import READ_BITS from '../../glsl/core/read-bits.glsl';

/**
 * How `read()` moves a 1- or 2-component stream: `'native'` (default) reads RED / RG texels
 * where the implementation offers that format (IMPLEMENTATION_COLOR_READ_FORMAT, asked once per
 * texture format), else packs; `'pack'` always packs four scalars to a texel in one pass and
 * reads RGBA. Both move 4 bytes a scalar. Measured (peers bench, 2^22 floats): 27.5 vs 29.4 ms
 * on an H100, and on SwiftShader the pack pass costs more than the copy it saves.
 */
export type ReadMethod = 'pack' | 'native';

export interface ReadOptions {
  /** See `ReadMethod`; default 'native'. */
  method?: ReadMethod;
  /**
   * An array to fill and return instead of a new one: the stream's host type (Float32Array,
   * Int32Array, Uint32Array, Uint8Array for char) and exactly length × components elements.
   * A loop that reads the same stream again saves the cost of a new array's first touch
   * (SwiftShader, 16 MiB: 7.6 ms into a reused array against 15–17 into a new one).
   */
  into?: StreamData;
}

const RGBA_INTEGER = 0x8d99;
const UNSIGNED_INT = 0x1405;
const UNSIGNED_BYTE = 0x1401;

interface ReadPlan {
  /** The texture read, its width in texels, and how many texels (in row order) hold data. */
  texture: WebGLTexture;
  width: number;
  texels: number;
  /** The packed copy, disposed once its read is issued. */
  temp: Stream | null;
  channels: number;
  format: number;
  glType: number;
  /** Texels hold 32-bit patterns of the records' scalars, four a texel. */
  packed: boolean;
  /** Texels are whole RGBA records of fewer components (take the first ones of each). */
  unpack: boolean;
}

/**
 * Reads of at least this many bytes (whole texel rows) go through READ_BANDS pixel-pack
 * buffers, a band of rows each, each band followed by its own fence and copied into the result
 * as soon as that fence signals, while the GPU still packs the later bands. Measured (bench
 * suite `readback`, RGBA32F): on an H100 16 MiB came back in 12.1 ms through 4 bands with a
 * fence each, 16.6–16.8 through 4 or 8 bands with one fence, 25.4 through one buffer (64 MiB:
 * 77.8 against 86–89); on SwiftShader 4 or 8 bands took 8.5–9.6 ms either way against 22–73
 * through one buffer. At 4 MiB bands made no difference.
 */
export const READ_BAND_BYTES = 8 * 2 ** 20;
/** Row bands (pixel-pack buffers, a fence each) of a large read: 4 was the fastest on the H100 (8: 13.6 ms at 16 MiB). */
export const READ_BANDS = 4;

/**
 * Results of at least this many bytes come in an array whose pages were touched ahead. A new
 * array's pages are mapped by the first write to each: on the H200 host (bench suite
 * `readback`), 16 MiB read into a new array took 20.1 ms against 10.3 into a reused one. So
 * after a large read takes its array (the caller's to keep), the context has one spare of the
 * same size prepared: allocated and a byte written per 4 KiB page by a small worker of its own
 * (a Blob URL script), which hands the buffer over (a transfer moves it, pages and all), so the
 * main thread pays nothing for it; where a worker cannot start (a Content-Security-Policy
 * without blob: workers, no Worker), on a later event-loop turn of the main thread. The next
 * read of that size fills a spare instead of a new array. Up to SPARE_DEPTH spares per context
 * (one without a worker), the size of its last large read; a read of another size drops them;
 * dispose() drops them and ends the worker. `ctx.stats()` counts them (`readSpares`,
 * `readSpareBytes`: those held and those asked for, so the count changes only when a read or
 * dispose() does).
 */
export const SPARE_RESULT_BYTES = 2 ** 20;

/** The worker: allocates the bytes asked for, touches each page, transfers the buffer back. */
const SPARE_WORKER = 'onmessage=function(e){var b=new ArrayBuffer(e.data),u=new Uint8Array(b);for(var i=0;i<u.length;i+=4096)u[i]=0;postMessage(b,[b]);};';

/** Spares a worker keeps ready (or coming) for the next reads of one size: two, so that it keeps up with reads back to back. */
export const SPARE_DEPTH = 2;

interface Spare {
  bytes: number;
  /** Prepared buffers of `bytes`. */
  ready: ArrayBuffer[];
  /** The sizes asked for and not yet come (worker) or due (main thread), in the order they come: those of an earlier size are dropped when they come. */
  asked: number[];
  /** The preparing worker; null before the first large read, false where none could start. */
  worker: Worker | null | false;
  url: string | null;
}
const spares = new WeakMap<Device, Spare>();

/** The context's spare worker, started on first use; false where the page cannot start one. */
function spareWorker(spare: Spare): Worker | false {
  if (spare.worker !== null) return spare.worker;
  try {
    if (typeof Worker === 'undefined' || typeof Blob === 'undefined' || typeof URL === 'undefined') throw new Error('no Worker');
    spare.url = URL.createObjectURL(new Blob([SPARE_WORKER], { type: 'text/javascript' }));
    const worker = new Worker(spare.url);
    worker.onmessage = (e: MessageEvent<ArrayBuffer>) => {
      spare.asked.shift(); // (one worker answers in the order it was asked)
      if (e.data.byteLength === spare.bytes && spare.ready.length < SPARE_DEPTH) spare.ready.push(e.data);
    };
    worker.onerror = (e) => {
      // (a policy that refuses the script reports here, not at construction)
      e.preventDefault?.();
      worker.terminate();
      spare.worker = false;
      spare.asked = [];
    };
    spare.worker = worker;
  } catch {
    spare.worker = false;
  }
  return spare.worker;
}

/** A buffer of `bytes` with every page written once (mapped), made on the main thread. */
function touched(bytes: number): ArrayBuffer {
  const buffer = new ArrayBuffer(bytes);
  const touch = new Uint8Array(buffer);
  for (let i = 0; i < touch.length; i += 4096) touch[i] = 0;
  return buffer;
}

/** The result array of a read: a prepared spare where one of the size is ready, else a new one; then spares for the next reads. */
function resultOf(ctx: Device, kind: HostKind, count: number): StreamData {
  const bytes = count * (kind === 'char' ? 1 : 4);
  if (bytes < SPARE_RESULT_BYTES) return allocate(kind, count);
  let spare = spares.get(ctx);
  if (!spare) spares.set(ctx, (spare = { bytes, ready: [], asked: [], worker: null, url: null }));
  if (spare.bytes !== bytes) {
    spare.bytes = bytes;
    spare.ready = [];
  }
  const b = spare.ready.shift();
  const out: StreamData = !b
    ? allocate(kind, count)
    : kind === 'float' ? new Float32Array(b) : kind === 'int' ? new Int32Array(b) : kind === 'char' ? new Uint8Array(b) : new Uint32Array(b);
  const worker = spareWorker(spare);
  if (worker) {
    for (; spare.ready.length + coming(spare) < SPARE_DEPTH; spare.asked.push(bytes)) worker.postMessage(bytes);
  } else if (spare.ready.length + coming(spare) < 1) {
    // no worker: one spare, made on a later turn of the main thread
    const s = spare;
    s.asked.push(bytes);
    setTimeout(() => {
      s.asked.shift();
      if (!ctx.isLost && s.bytes === bytes && s.ready.length === 0) s.ready.push(touched(bytes));
    }, 0);
  }
  return out;
}

/** Spares of the current size asked for and not come yet. */
const coming = (spare: Spare) => spare.asked.filter((b) => b === spare.bytes).length;

/** The spare result arrays a context holds or has asked for, and their bytes (ctx.stats()). */
export function spareStats(ctx: Device): { readSpares: number; readSpareBytes: number } {
  const spare = spares.get(ctx);
  const n = spare ? spare.ready.length + coming(spare) : 0;
  return { readSpares: n, readSpareBytes: n * (spare?.bytes ?? 0) };
}

/** Drops the context's spare result array and ends its worker (dispose). */
export function dropSpare(ctx: Device): void {
  const spare = spares.get(ctx);
  if (spare?.worker) spare.worker.terminate();
  if (spare?.url) URL.revokeObjectURL(spare.url);
  spares.delete(ctx);
}

/** Bytes of one channel of the texels a read moves: 1 for char streams' 8-bit texels, else 4. */
function channelBytes(plan: ReadPlan): number {
  return plan.glType === UNSIGNED_BYTE ? 1 : 4;
}

/**
 * readPixels of the texels that hold data: the whole rows, then the filled part of the last
 * row (a stream's last row may be partly unused), into `dst` or the bound pixel-pack buffer.
 */
function issueReads(gl: WebGL2RenderingContext, plan: ReadPlan, dst: StreamData | null): void {
  const rows = Math.floor(plan.texels / plan.width);
  const rest = plan.texels - rows * plan.width;
  const rowScalars = plan.width * plan.channels;
  gl.pixelStorei(gl.PACK_ALIGNMENT, 4);
  if (dst) {
    const view = plan.glType === UNSIGNED_INT && !(dst instanceof Uint32Array) ? new Uint32Array(dst.buffer, dst.byteOffset, dst.length) : dst;
    if (rows > 0) gl.readPixels(0, 0, plan.width, rows, plan.format, plan.glType, view, 0);
    if (rest > 0) gl.readPixels(0, rows, rest, 1, plan.format, plan.glType, view, rows * rowScalars);
  } else {
    if (rows > 0) gl.readPixels(0, 0, plan.width, rows, plan.format, plan.glType, 0);
    if (rest > 0) gl.readPixels(0, rows, rest, 1, plan.format, plan.glType, rows * rowScalars * channelBytes(plan));
  }
}

/**
 * readPixels straight into the caller's array (the framebuffer bound): its elements are the
 * texels' scalars in order (packed texels as 32-bit patterns), except that a packed read's last
 * texel may hold fewer scalars than its four words: that texel goes through a small array.
 */
function readInto(gl: WebGL2RenderingContext, plan: ReadPlan, into: StreamData): void {
  const view = plan.packed && !(into instanceof Uint32Array) ? new Uint32Array(into.buffer, into.byteOffset, into.length) : into;
  if (view.length >= plan.texels * plan.channels) return issueReads(gl, plan, view);
  const last = plan.texels - 1;
  issueReads(gl, { ...plan, texels: last }, view);
  const texel = new Uint32Array(4);
  gl.readPixels(last % plan.width, Math.floor(last / plan.width), 1, 1, plan.format, plan.glType, texel);
  view.set(texel.subarray(0, view.length - last * 4), last * 4);
}

const nativeFormats = new WeakMap<Device, Map<number, boolean>>();

/**
 * Whether readPixels takes this texture format in its own format and type (RED/RG FLOAT, INT
 * or UNSIGNED_INT), as IMPLEMENTATION_COLOR_READ_FORMAT / _TYPE report for a framebuffer
 * holding it; asked once per context and internal format (getParameter may be a round trip).
 */
function nativeReadable(ctx: Device, texture: WebGLTexture, info: TypeInfo): boolean {
  let known = nativeFormats.get(ctx);
  if (!known) nativeFormats.set(ctx, (known = new Map()));
  let ok = known.get(info.internalFormat);
  if (ok === undefined) {
    const gl = ctx.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([texture]));
    ok = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_FORMAT) === info.format && gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_TYPE) === info.glType;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    known.set(info.internalFormat, ok);
  }
  return ok;
}

/** The pass that packs a 1-3 component stream's scalars four to a uvec4 texel for readback. */
function packKernel(type: ElementType): KernelSpec {
  const body = [READ_PACK_1, READ_PACK_2, READ_PACK_3][typeInfo(type).components - 1]!;
  return { name: 'ReadPack', gathers: { src: type }, outputs: { texels: 'uint4' }, helpers: READ_BITS, body };
}

/**
 * Reads all records back now, stalling until the GPU has finished the passes that write them.
 * Moves the same bytes as `read()` (see there).
 */
export function readStreamSync(s: Stream, options: ReadOptions): StreamData {
  s.ctx.guard();
  const gl = s.ctx.gl;
  const opts = checkOptions(options, 'readSync(): options');
  const into = opts.into === undefined ? undefined : resultArray(s, opts.into, 'readSync()');
  const plan = planRead(s, opts.method ?? 'native');
  try {
    gl.bindFramebuffer(gl.FRAMEBUFFER, s.ctx.framebufferFor([plan.texture]));
    if (into && !plan.unpack) {
      readInto(gl, plan, into);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      // a context lost during the read (GPU reset) leaves the array unwritten: refuse it, not zeros
      s.ctx.guard();
      return into;
    }
    // (RGBA texels of fewer components are read whole, then their first components taken)
    const raw = allocate(plan.format === RGBA_INTEGER && plan.glType === UNSIGNED_INT ? 'uint' : s.info.host, plan.texels * plan.channels);
    issueReads(gl, plan, raw);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    s.ctx.guard();
    return plan.unpack ? fromRGBA(s, raw, into) : finishRead(s, plan, raw);
  } finally {
    plan.temp?.dispose();
  }
}

/**
 * Reads all records back without stalling the pipeline: the copy goes into a pixel-pack
 * buffer, a fence follows it, and the fence is polled until the GPU has passed it.
 *
 * Only the bytes of the records cross to the CPU (readback is the slowest link on every GPU
 * measured, ≈ 0.5 GB/s in Chrome): a 4-component stream is read as its own RGBA texels, the
 * rows it fills and the filled part of its last row; a 3-component stream (and a 1- or
 * 2-component one whose own format cannot be read) is first packed four scalars to a texel
 * by one pass (glsl/core/read-pack-*.glsl, as 32-bit patterns,
 * so every value comes back bit for bit) and that is read. An n-record stream of c
 * components moves 4·n·c bytes rounded up to a whole texel (16 bytes). By default (`method:
 * 'native'`) a 1- or 2-component stream is read directly in its own RED / RG format where
 * the implementation offers it (IMPLEMENTATION_COLOR_READ_FORMAT), with no pass; `'pack'`
 * always packs.
 */
export async function readStream(s: Stream, options: ReadOptions): Promise<StreamData> {
  s.ctx.guard();
  const ctx = s.ctx;
  const gl = ctx.gl;
  const opts = checkOptions(options, 'read(): options');
  const into = opts.into === undefined ? undefined : resultArray(s, opts.into, 'read()');
  const plan = planRead(s, opts.method ?? 'native');
  const bytes = plan.texels * plan.channels * channelBytes(plan);
  const rows = Math.ceil(plan.texels / plan.width);
  // large reads of whole rows in row bands, a pixel-pack buffer and a fence each (see READ_BAND_BYTES)
  const bands = !plan.unpack && plan.texels % plan.width === 0 && bytes >= READ_BAND_BYTES ? Math.min(READ_BANDS, rows) : 1;
  const buffers: WebGLBuffer[] = [];
  try {
    if (bands === 1) {
      const buffer = ctx.resources.buffer();
      buffers.push(buffer);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, bytes, gl.STREAM_READ);
      ctx.checkAllocation(buffer, bytes, `the readback buffer of a ${s.describe()}`);
      gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([plan.texture]));
      issueReads(gl, plan, null);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      plan.temp?.dispose();
      plan.temp = null;
      const scalars = s.length * s.info.components;
      // (the result array before the wait: a spare for the next read is prepared meanwhile)
      const direct = plan.unpack ? null : (into ?? resultOf(ctx, s.info.host, scalars));
      await ctx.queries.fence();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffers[0]!);
      let out: StreamData;
      if (plan.unpack) {
        const raw = allocate(s.info.host, plan.texels * 4);
        gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, raw);
        out = fromRGBA(s, raw, into);
      } else {
        out = direct!;
        gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, plan.packed ? new Uint32Array(out.buffer, out.byteOffset, scalars) : out, 0, scalars);
      }
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      return out;
    }
    return await readBands(s, plan, bands, buffers, into);
  } finally {
    plan.temp?.dispose();
    for (const buffer of buffers) if (ctx.resources.owns(buffer)) ctx.resources.release(buffer); // (dispose may have released them)
  }
}

/**
 * A large read of whole rows: `bands` row bands, each read into its own pixel-pack buffer and
 * followed by its own fence (ctx.queries owns the syncs: released when they signal, or when
 * the context is disposed); each band is copied into the result as soon as its fence signals,
 * while the GPU still packs the later ones. The buffers go into `buffers` for the caller to
 * release.
 */
async function readBands(s: Stream, plan: ReadPlan, bands: number, buffers: WebGLBuffer[], into: StreamData | undefined): Promise<StreamData> {
  const ctx = s.ctx;
  const gl = ctx.gl;
  const rows = plan.texels / plan.width;
  const per = Math.ceil(rows / bands);
  const rowBytes = plan.width * plan.channels * channelBytes(plan);
  gl.bindFramebuffer(gl.FRAMEBUFFER, ctx.framebufferFor([plan.texture]));
  gl.pixelStorei(gl.PACK_ALIGNMENT, 4);
  const fences: Promise<void>[] = [];
  try {
    // Each buffer is allocated, written and fenced in turn: Chrome copies a READ-usage buffer
    // written before a fence to the CPU side as soon as the fence passes, so getBufferSubData
    // need not wait on the GPU process, unless the buffer is written again (bufferData
    // included) after that fence and before it is read, which discards the copy.
    for (let y = 0; y < rows; y += per) {
      const h = Math.min(per, rows - y);
      const buffer = ctx.resources.buffer();
      buffers.push(buffer);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, h * rowBytes, gl.STREAM_READ);
      gl.readPixels(0, y, plan.width, h, plan.format, plan.glType, 0);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      const fence = ctx.queries.fence(); // (flushes, so this band starts before the next is issued)
      fence.catch(() => {}); // (a read that fails at an earlier band must not leave the later ones unhandled)
      fences.push(fence);
    }
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  }
  try {
    ctx.checkAllocation(buffers[buffers.length - 1]!, rows * rowBytes, `the readback buffers (${buffers.length} row bands) of a ${s.describe()}`);
  } catch (e) {
    await Promise.allSettled(fences); // (the bands' fences already issued: a refused read keeps no sync)
    throw e;
  }
  plan.temp?.dispose();
  plan.temp = null;
  const scalars = s.length * s.info.components;
  const out = into ?? resultOf(ctx, s.info.host, scalars); // (a new array's pages would be first touched by the copies below: see SPARE_RESULT_BYTES)
  const view = plan.packed ? new Uint32Array(out.buffer, out.byteOffset, scalars) : out;
  const bandScalars = per * plan.width * plan.channels; // scalars of a band (packed: 32-bit words)
  for (let b = 0; b < buffers.length; b++) {
    await fences[b];
    const first = b * bandScalars;
    const length = Math.min(bandScalars, scalars - first);
    if (length <= 0) continue;
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffers[b]!);
    gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, view, first, length);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  }
  return out;
}

/**
 * What a read transfers: s stream's own texels (4 components; or too short for packing to
 * save anything), its texels in RED / RG ('native' where offered), or a packed copy.
 */
function planRead(s: Stream, method: ReadMethod): ReadPlan {
  check(method === 'pack' || method === 'native', () => `read(): method must be 'pack' or 'native', got '${String(method)}'`);
  const { info, layout } = s;
  const ctx = s.ctx;
  const gl = ctx.gl;
  const c = info.components;
  const texels = Math.ceil((layout.length * c) / 4);
  const own = { texture: s.texture, width: layout.width, texels: layout.length, temp: null };
  if (c === 4) return { ...own, channels: 4, format: info.readFormat, glType: info.glType, packed: false, unpack: false };
  // (char streams: a byte a channel, so their RGBA8 texels are no bigger than packed scalars)
  if (texels >= layout.length || info.host === 'char') return { ...own, channels: 4, format: info.readFormat, glType: info.glType, packed: false, unpack: true };
  if (method === 'native' && c <= 2 && nativeReadable(ctx, s.texture, info)) {
    return { ...own, channels: c, format: info.format, glType: info.glType, packed: false, unpack: false };
  }
  const temp = ctx.scratch('uint4', texels);
  try {
    ctx.runInternal(packKernel(s.type), { src: s, texels: temp });
  } catch (e) {
    temp.dispose();
    throw e;
  }
  return { texture: temp.texture, width: temp.layout.width, texels, temp, channels: 4, format: RGBA_INTEGER, glType: UNSIGNED_INT, packed: true, unpack: false };
}

/** `into` when it is an array of the stream's host type and exact length, else a BrookError saying what to pass. */
function resultArray(s: Stream, into: unknown, where: string): StreamData {
  const scalars = s.length * s.info.components;
  const want = allocate(s.info.host, 0).constructor.name;
  check(
    arrayKind(into) === s.info.host && (into as StreamData).length === scalars,
    () => `${where}: options.into must be ${want === 'Int32Array' ? 'an' : 'a'} ${want} of ${scalars} elements (the ${s.describe()}'s ${s.length} records × ${s.info.components}), got ${describeValue(into)}; leave it out for a new array`,
  );
  return into as StreamData;
}

/** A read's own array of texel scalars as the stream's records (packed words reinterpreted; the last texel's spare words cut). */
function finishRead(s: Stream, plan: ReadPlan, raw: StreamData): StreamData {
  const scalars = s.length * s.info.components;
  const whole = raw.length === scalars ? raw : raw.slice(0, scalars);
  if (!plan.packed || s.info.kind === 'uint') return whole;
  return s.info.kind === 'float' ? new Float32Array(whole.buffer, whole.byteOffset, scalars) : new Int32Array(whole.buffer, whole.byteOffset, scalars);
}

function fromRGBA(s: Stream, raw: StreamData, into?: StreamData): StreamData {
  const { length } = s.layout;
  const c = s.info.components;
  if (c === 4 && !into) return raw.subarray(0, length * 4).slice();
  const out = into ?? allocate(s.info.host, length * c);
  for (let i = 0; i < length; i++) for (let k = 0; k < c; k++) out[i * c + k] = raw[i * 4 + k]!;
  return out;
}
