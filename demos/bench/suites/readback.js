// Suite `readback`: how many bytes per second come back from the GPU through this browser, and
// what moves more. A plain WebGL2 context of its own (not brookgl's: the study is of the
// browser's path) reads an RGBA32F texture of `MiB` into the CPU in several ways:
// - one PBO: readPixels into one pixel-pack buffer, a fence, getBufferSubData once it signals
//   (brookgl's read() below READ_BAND_BYTES);
// - k PBOs, one fence: the texture in k row bands, each into its own buffer, all issued before
//   the one fence, then each copied out;
// - k PBOs, a fence each: each band's buffer copied out as soon as its own fence signals, while
//   later bands are still being packed (brookgl's read() from READ_BAND_BYTES up, k = READ_BANDS);
// - what read() adds to that: a new result array each call (its pages first touched by the
//   copy, or filled while the GPU reads), the fences polled every event-loop turn through a
//   MessageChannel as ctx.queries does (setTimeout here otherwise);
// - the same bytes as RGBA32UI and as RGBA8 (four times the texels): whether another format
//   takes a faster path;
// - readPixels straight into an array (no PBO: the call stalls until the GPU is done).
// Then brookgl's own read() of the same bytes as float4 and float streams (and into one array,
// `read({ into })`), and a layout probe:
// one copy pass over 2^22 float4 records as a 1D stream and as a [2048, 2048] 2D stream
// (wall clock with a fence, and the GPU timer where there is one).
import { measureBoth, fenceOf, fmt, stats } from '../timing.js';

const sleep0 = () => new Promise((r) => setTimeout(r, 0));

/** The next event-loop turn through a MessageChannel (no timer clamp), as ctx.queries polls first. */
const channel = new MessageChannel();
const turn0 = () => new Promise((r) => { channel.port1.onmessage = r; channel.port2.postMessage(null); });

async function waitFence(gl, sync, poll = 'timeout') {
  gl.flush();
  for (;;) {
    const s = gl.clientWaitSync(sync, 0, 0);
    if (s === gl.ALREADY_SIGNALED || s === gl.CONDITION_SATISFIED) break;
    if (s === gl.WAIT_FAILED) throw new Error('clientWaitSync failed');
    await (poll === 'channel' ? turn0() : sleep0());
  }
  gl.deleteSync(sync);
}

function makeTarget(gl, w, h, internal, format, type, data) {
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, internal, w, h);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, w, h, format, type, data);
  const fb = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error(`readback: format 0x${internal.toString(16)} is not renderable here`);
  return { tex, fb, w, h, format, type };
}

/** Reads target t into `out` (a typed array of its bytes) through k PBOs: 'one' fence after all, or 'each' band its own. */
async function readBands(gl, t, out, k, fences, poll = 'timeout', fresh = 0) {
  const rows = Math.ceil(t.h / k);
  const bytesPerRow = (out ? out.byteLength : fresh) / t.h;
  const bufs = [];
  const syncs = [];
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, t.fb);
  for (let b = 0; b < k; b++) {
    const y = b * rows;
    const h = Math.min(rows, t.h - y);
    if (h <= 0) break;
    const buf = gl.createBuffer();
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buf);
    gl.bufferData(gl.PIXEL_PACK_BUFFER, h * bytesPerRow, gl.STREAM_READ);
    gl.readPixels(0, y, t.w, h, t.format, t.type, 0);
    bufs.push({ buf, y, h });
    if (fences === 'each') syncs.push(gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0));
  }
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  if (!out) out = new Float32Array(fresh / 4).fill(0); // a new array, its pages touched while the GPU works
  if (fences === 'one') {
    await waitFence(gl, gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0), poll);
  }
  const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < bufs.length; i++) {
    if (fences === 'each') await waitFence(gl, syncs[i], poll);
    const { buf, y, h } = bufs[i];
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buf);
    gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, bytes.subarray(y * bytesPerRow, (y + h) * bytesPerRow));
    gl.deleteBuffer(buf);
  }
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
}

export async function run(ctx, { log = () => {}, quick = false } = {}) {
  const soft = ctx.caps.software;
  const sizesMiB = quick ? [4] : soft ? [4, 16] : [16, 64];
  const reps = quick ? 3 : 5;
  const canvas = new OffscreenCanvas(1, 1);
  const gl = canvas.getContext('webgl2');
  if (!gl || !gl.getExtension('EXT_color_buffer_float')) throw new Error('readback: WebGL2 with EXT_color_buffer_float is needed');
  const rows = [];
  const time = async (label, mib, fn) => {
    await fn(); // warm-up
    const t = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      await fn();
      t.push(performance.now() - t0);
    }
    const st = stats(t);
    rows.push([`${mib} MiB`, label, fmt(st), ((mib * 2 ** 20) / (st.median / 1000) / 1e9).toFixed(3)]);
    log(`readback ${mib} MiB ${label}: ${fmt(st)} ms`);
  };
  try {
    for (const mib of sizesMiB) {
      const bytes = mib * 2 ** 20;
      const side = Math.sqrt(bytes / 16); // RGBA32F texels of a square
      const f = new Float32Array(bytes / 4).map((_, i) => i * 0.5);
      const rgba32f = makeTarget(gl, side, side, gl.RGBA32F, gl.RGBA, gl.FLOAT, f);
      const rgba32ui = makeTarget(gl, side, side, gl.RGBA32UI, gl.RGBA_INTEGER, gl.UNSIGNED_INT, new Uint32Array(f.buffer));
      const rgba8 = makeTarget(gl, side * 2, side * 2, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(f.buffer));
      const outF = new Float32Array(bytes / 4);
      const outU = new Uint32Array(bytes / 4);
      const outB = new Uint8Array(bytes);
      await time('RGBA32F, one PBO, one fence (read() below 8 MiB)', mib, () => readBands(gl, rgba32f, outF, 1, 'one'));
      for (let i = 0; i < outF.length; i += 4099) if (outF[i] !== i * 0.5) throw new Error(`readback: float ${i} read back as ${outF[i]}`);
      for (const k of [2, 4, 8]) await time(`RGBA32F, ${k} PBOs (row bands), one fence`, mib, () => readBands(gl, rgba32f, outF, k, 'one'));
      for (const k of [4, 8]) await time(`RGBA32F, ${k} PBOs, a fence each, copied out as each signals`, mib, () => readBands(gl, rgba32f, outF, k, 'each'));
      // what read() adds to the raw probe: a new array for every result, the fence polled every turn
      await time('RGBA32F, 4 PBOs, a fence each, into a new array each call (as read() returns)', mib, () => readBands(gl, rgba32f, new Float32Array(bytes / 4), 4, 'each'));
      await time('RGBA32F, 4 PBOs, a fence each, into a new array filled while the GPU reads', mib, () => readBands(gl, rgba32f, null, 4, 'each', 'timeout', bytes));
      await time('RGBA32F, 4 PBOs, a fence each, polled every turn (MessageChannel, as ctx.queries)', mib, () => readBands(gl, rgba32f, outF, 4, 'each', 'channel'));
      await time('RGBA32UI (same bytes), one PBO', mib, () => readBands(gl, rgba32ui, outU, 1, 'one'));
      await time('RGBA8 (same bytes, 4x the texels), one PBO', mib, () => readBands(gl, rgba8, outB, 1, 'one'));
      await time('RGBA32F, readPixels into an array (no PBO: stalls)', mib, async () => {
        gl.bindFramebuffer(gl.READ_FRAMEBUFFER, rgba32f.fb);
        gl.readPixels(0, 0, side, side, gl.RGBA, gl.FLOAT, outF);
        gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
      });
      for (const t of [rgba32f, rgba32ui, rgba8]) {
        gl.deleteFramebuffer(t.fb);
        gl.deleteTexture(t.tex);
      }
      // brookgl's read() of the same bytes
      const s4 = ctx.stream('float4', bytes / 16, f);
      const s1 = ctx.stream('float', bytes / 4, f);
      await time('brookgl read(), float4 stream', mib, () => s4.read());
      await time('brookgl read(), float stream (packed to RGBA first)', mib, () => s1.read());
      await time('brookgl read({ into }), float4 stream, into one array', mib, () => s4.read({ into: outF }));
      for (let i = 0; i < outF.length; i += 4099) if (outF[i] !== i * 0.5) throw new Error(`readback: read({ into }) ${i} read back as ${outF[i]}`);
      [s4, s1].forEach((s) => s.dispose());
    }
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }

  // layout probe: one copy pass, 1D against 2D, the same records
  const layout = [];
  {
    const n = quick ? 1 << 18 : soft ? 1 << 20 : 1 << 22;
    const side = Math.sqrt(n);
    const copy = { name: 'Copy', inputs: { a: 'float4' }, outputs: { b: 'float4' }, body: 'b = a;' };
    for (const [label, shape] of [[`1D stream of ${n}`, n], [`2D stream [${side}, ${side}]`, [side, side]]]) {
      const a = ctx.stream('float4', shape);
      const b = ctx.stream('float4', shape);
      const r = await measureBoth(async () => { ctx.run(copy, { a, b }); await ctx.queries.fence(); }, { reps, batch: quick ? 2 : 5, drain: fenceOf(ctx) });
      const gpu = await ctx.queries.time(() => ctx.run(copy, { a, b }));
      const gbs = (ms) => (ms === null ? null : ((2 * n * 16) / (ms / 1000) / 1e9).toFixed(1));
      layout.push([label, fmt(r.loop), fmt(r.settled), gbs(r.loop.median), gpu === null ? null : gpu.toFixed(3), gbs(gpu)]);
      [a, b].forEach((s) => s.dispose());
    }
  }
  const tables = [
    { title: `Readback through this browser: ms, median (min–max) of ${reps} after a warm-up; GB/s from the median`, columns: ['bytes', 'how', 'ms', 'GB/s'], rows },
    { title: 'Layout probe: one float4 copy pass (+ fence), 1D against 2D, ms', columns: ['stream', 'loop ms', 'settled ms', 'GB/s (loop, read + write)', 'GPU timer ms', 'GPU GB/s'], rows: layout },
  ];
  return { tables, plots: [], results: { reps, readback: rows, layout } };
}
