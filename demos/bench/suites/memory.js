// Suite `memory`: a real out-of-memory probe. In a context of its own (a loss must not take the
// page's with it), float4 streams as large as the device allows (MAX_TEXTURE_SIZE square) are
// allocated one after another; each is written by a pass and one record is read back. The
// table says where the first failure came: at the allocation (a BrookError naming its size:
// what the driver reports at once) or later (a driver that accepts memory it cannot back), and
// with what message. Budget: on a GPU up to `gpuGiB` GiB in all (beyond an H100's 80); on a
// software renderer one stream of caps.maxRecords float4 records (SwiftShader: 1 GiB of the
// machine's RAM), as the issue that asked for this probe did; --quick allocates 64 MiB only.
import { createContext } from '../../../dist/brookgl.js';

const fill = { name: 'MemoryFill', uniforms: { v: 'float' }, outputs: { out_: 'float4' }, body: 'out_ = vec4(v, float(brook_index), 0.0, 1.0);' };
const pick = { name: 'MemoryPick', gathers: { src: 'float4' }, uniforms: { at: 'int' }, outputs: { v: 'float4' }, body: 'v = src(at);' };

export async function run(_pageCtx, { log = () => {}, quick = false, gpuGiB = 96 } = {}) {
  const ctx = createContext();
  const rows = [];
  const held = [];
  let failure = null;
  const renderer = ctx.caps.renderer;
  try {
    const maxSide = ctx.caps.maxTextureSize;
    const side = quick ? 2048 : maxSide;
    const bytes = side * side * 16;
    const budget = quick ? bytes : ctx.caps.software ? bytes : gpuGiB * 2 ** 30;
    {
      // compile both kernels first, so a failure below is the memory's, not a first compile's
      const a = ctx.stream('float4', 4);
      const b = ctx.stream('float4', 1);
      ctx.run(fill, { v: 0, out_: a });
      ctx.run(pick, { src: a, at: 3, v: b });
      await b.read();
      [a, b].forEach((t) => t.dispose());
    }
    let total = 0;
    for (let k = 0; total + bytes <= budget && !failure; k++) {
      const row = { stream: k + 1, shape: `[${side}, ${side}] float4`, MiB: bytes / 2 ** 20, totalGiB: (total + bytes) / 2 ** 30, stage: 'allocate', ok: false, message: '', ms: 0 };
      const t0 = performance.now();
      try {
        const s = ctx.stream('float4', [side, side]);
        held.push(s);
        total += bytes;
        row.stage = 'first pass (fill)';
        ctx.run(fill, { v: k + 1, out_: s });
        row.stage = 'read one record';
        const one = ctx.stream('float4', 1);
        try {
          ctx.run(pick, { src: s, at: side * side - 1, v: one });
          const v = await one.read();
          if (v[0] !== k + 1 || v[1] !== side * side - 1) throw new Error(`the last record read back as ${Array.from(v)}, expected [${k + 1}, ${side * side - 1}, 0, 1]`);
        } finally {
          if (!ctx.isLost) one.dispose();
        }
        row.stage = 'done';
        row.ok = true;
      } catch (e) {
        row.message = `${e?.name ?? 'Error'}: ${String(e?.message ?? e)}`;
        failure = row;
      }
      row.ms = performance.now() - t0;
      row.lost = ctx.isLost;
      rows.push(row);
      log(`memory: stream ${row.stream} (${row.totalGiB.toFixed(2)} GiB in all): ${row.ok ? 'ok' : `failed at '${row.stage}': ${row.message.slice(0, 200)}`}`);
    }
    // after a failure: is the context still usable, and does the next call name the allocation?
    if (failure) {
      try {
        const t = ctx.stream('float', 4, [1, 2, 3, 4]);
        await t.read();
        t.dispose();
        failure.after = 'the context still works (a small stream written and read back)';
      } catch (e) {
        failure.after = `next call: ${e?.name ?? 'Error'}: ${String(e?.message ?? e)}`;
      }
    }
  } finally {
    if (!ctx.isLost) held.forEach((s) => s.dispose());
    ctx.dispose();
  }
  if (failure) {
    // and a new context, once the failed one is disposed?
    const fresh = createContext();
    try {
      const t = fresh.stream('float', 4, [1, 2, 3, 4]);
      const v = await t.read();
      t.dispose();
      failure.fresh = v[3] === 4 ? 'a new context works' : `a new context read back ${Array.from(v)}`;
    } catch (e) {
      failure.fresh = `a new context fails too: ${String(e?.message ?? e)}`;
    } finally {
      fresh.dispose();
    }
  }
  const where = failure ? (failure.stage === 'allocate' ? 'at the allocation (reported at once)' : `later, at '${failure.stage}' (the allocation was accepted)`) : 'no failure within the budget';
  const tables = [
    {
      title: `Out-of-memory probe on ${renderer}: streams of MAX_TEXTURE_SIZE² float4 records allocated, filled and read, until the first failure or ${quick ? 'one 64 MiB stream (quick)' : 'the budget'}`,
      columns: ['stream', 'shape', 'MiB', 'GiB in all', 'reached', 'ok', 'ms', 'context lost', 'message'],
      rows: rows.map((r) => [r.stream, r.shape, r.MiB, r.totalGiB.toFixed(2), r.stage, r.ok ? 'yes' : 'no', r.ms.toFixed(0), r.lost ? 'yes' : 'no', r.message]),
    },
    { title: 'Where the failure came', columns: ['first failure', 'then, in the same context', 'then, in a new context'], rows: [[where, failure?.after ?? '', failure?.fresh ?? '']] },
  ];
  return { tables, plots: [], results: { renderer, rows, failure, where } };
}
