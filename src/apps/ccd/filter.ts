/**
 * The deferred pyramid filter of the CCD pipeline: brookgl's filter (src/idioms/filter.ts) over
 * int4 records, split in two so that its count need not be read at once — the flags and levels
 * up to the root (`pyramid`), then, once the counts are known or guessed, the kept records
 * (`descend`). Several pyramids' counts come back in one round trip (`counts`), which is how the
 * static traversal runs steps ahead and the narrow phase reads all its hits together. `concat`
 * joins chunks of records eight at a time.
 */
import { BrookError } from '../../core/errors';
import type { KernelSpec } from '../../core/kernelspec';
import type { KernelArgs } from '../../core/kernelargs';
import type { Stream } from '../../core/stream';
import { filter, flagKernel, packedLevel, pyramidDescent, pyramidFilterPasses } from '../../idioms/filter';
import type { CcdFilter, CcdPasses, Chunk, Pyramid } from './host';
import { CCD_DEAD, CCD_GATHER8, CCD_ROOTS8 } from './kernels';

/** The kernels of a pyramid filter over int4 records, built once per predicate / level count. */
const FLAGS = new Map<string, KernelSpec>();
const DESCENTS = new Map<string, KernelSpec>();
function flagSpec(keep: string): KernelSpec {
  let k = FLAGS.get(keep);
  if (!k) FLAGS.set(keep, (k = flagKernel('int4', keep)));
  return k;
}
function descentSpec(levels: number, capped: boolean): KernelSpec {
  const key = `${levels} ${capped}`;
  let k = DESCENTS.get(key);
  if (!k) DESCENTS.set(key, (k = pyramidDescent('int4', levels, false, capped ? CCD_DEAD : undefined)));
  return k;
}

export const rootOf = (p: Pyramid): Stream => p[p.length - 1]!;

/** The pyramid levels over n records (flags included). */
const levelCount = (n: number): number => {
  let l = 1;
  for (let len = Math.ceil(n / 4); len > 1; len = Math.ceil(len / 4)) l++;
  return l;
};

export class DeferredFilter implements CcdFilter {
  /** Whether warmDescents ran. */
  private warmed = false;

  constructor(private readonly host: CcdPasses) {}

  async filter(s: Stream, keep: string, indices = false): Promise<{ stream: Stream | null; count: number; indices?: Stream | null }> {
    const host = this.host;
    host.roundTrip();
    let r;
    try {
      r = await filter(host.ctx, s, { keep, ...(indices ? { indices } : {}) });
    } catch (e) {
      throw host.renamed(e, `a filter (${keep})`, `of ${s.length} ${s.type} records, ${((s.length * s.info.texelBytes) / 2 ** 20).toFixed(1)} MiB`);
    }
    host.count(pyramidFilterPasses(s.length, r.count));
    return { stream: r.stream, count: r.count, ...(indices ? { indices: r.indices } : {}) };
  }

  pyramid(s: Stream, keep: string): Pyramid {
    const levels: Pyramid = [];
    try {
      levels.push(this.host.scratch('uint4', Math.ceil(s.length / 4), `a filter's flags (${keep})`));
      this.host.run(flagSpec(keep), { src: s, n: s.length, flags: levels[0]! });
      while (rootOf(levels).length > 1) {
        const below = rootOf(levels);
        levels.push(this.host.scratch('uint4', Math.ceil(below.length / 4), `a filter's pyramid level (${keep})`));
        this.host.run(packedLevel, { below, lenBelow: below.length, counts: rootOf(levels) });
      }
      return levels;
    } catch (e) {
      levels.forEach((l) => l.dispose());
      throw e;
    }
  }

  async counts(pyramids: Pyramid[], also: Stream[] = [], gather = pyramids.length > 2): Promise<{ counts: number[]; data: Array<Int32Array | Float32Array | Uint32Array> }> {
    if (pyramids.length + also.length === 0) return { counts: [], data: [] };
    // the roots eight to a stream (a pass each), so a group of 24 steps reads 3 streams, not 24
    // (`gather` false: each root read on its own)
    const roots = pyramids.map(rootOf);
    const side: Stream[] = [];
    try {
      if (gather) {
        for (let a = 0; a < roots.length; a += 8) {
          const group = roots.slice(a, a + 8);
          side.push(this.host.scratch('uint4', group.length, 'the counts of a group of steps'));
          const args: KernelArgs = { c: side[side.length - 1]! };
          for (let k = 0; k < 8; k++) args[`r${k}`] = group[Math.min(k, group.length - 1)]!;
          this.host.run(CCD_ROOTS8, args);
        }
      }
      this.host.roundTrip();
      const all = (await Promise.all([...(side.length ? side : roots), ...also].map((s) => s.read()))) as Array<Int32Array | Float32Array | Uint32Array>;
      const texels = side.length ? all.slice(0, side.length).flatMap((r) => Array.from({ length: r.length / 4 }, (_, i) => r.subarray(4 * i, 4 * i + 4))) : all.slice(0, roots.length);
      const counts = texels.map((r) => r[0]! + r[1]! + r[2]! + r[3]!);
      return { counts, data: all.slice(side.length ? side.length : roots.length) };
    } finally {
      side.forEach((s) => s.dispose());
    }
  }

  /** The records past the count are CCD_DEAD when `capped`, and a count above `length` loses the
   * rest (the caller checks). */
  descend(s: Stream, levels: Pyramid, length: number, capped: boolean): Stream {
    const units = this.host.ctx.caps.maxTextureImageUnits;
    if (levels.length + 1 > units) {
      throw new BrookError(`the pyramid over ${s.length} records has ${levels.length} levels, more than this device's ${units - 1} texture units allow`);
    }
    const kept = this.host.scratch('int4', length, 'the kept records of a filter');
    try {
      const args: KernelArgs = { value: s, kept };
      levels.forEach((l, i) => (args[`lv${i}`] = l));
      this.host.run(descentSpec(levels.length, capped), args);
    } catch (e) {
      kept.dispose();
      throw e;
    }
    return kept;
  }

  /** Eight at a time, so every record is copied once per ceil(log8 chunks) levels. */
  concat(chunks: Chunk[]): { stream: Stream | null; count: number } {
    if (chunks.length === 0) return { stream: null, count: 0 };
    let level = chunks;
    while (level.length > 1) {
      const next: Chunk[] = [];
      for (let i = 0; i < level.length; i += 8) {
        const group = level.slice(i, i + 8);
        if (group.length === 1) {
          next.push(group[0]!);
          continue;
        }
        const starts: number[] = [];
        let total = 0;
        for (const c of group) starts.push(total), (total += c.count);
        while (starts.length < 8) starts.push(total);
        let out: Stream | null = null;
        try {
          out = this.host.ctx.scratch('int4', total);
          const args: KernelArgs = { lo: starts.slice(0, 4), hi: starts.slice(4, 8), joined: out };
          for (let k = 0; k < 8; k++) args[`c${k}`] = group[Math.min(k, group.length - 1)]!.stream;
          this.host.run(CCD_GATHER8, args);
        } catch (e) {
          // the chunks are ours: none is left behind (dispose is idempotent)
          out?.dispose();
          [...next, ...level.slice(i)].forEach((c) => c.stream.dispose());
          throw e;
        }
        group.forEach((c) => c.stream.dispose());
        next.push({ stream: out, count: total });
      }
      level = next;
    }
    return level[0]!;
  }

  /** The pyramid descents (capped and exact) of every level count up to `records`' and CCD_ROOTS8
   * (built and drawn once per filter, one fragment each), so that later frames do not compile
   * them inside their timed steps (an H100 through Chrome: ~10 ms each; a front rebuilt from the
   * root, or more hits than last frame's, met new level counts). */
  warmDescents(records: number): void {
    if (this.warmed) return;
    this.warmed = true;
    const top = Math.min(levelCount(records), this.host.ctx.caps.maxTextureImageUnits - 1);
    const made: Stream[] = [];
    const make = (type: 'int4' | 'uint4') => (made.push(this.host.scratch(type, 1, 'a warm-up record')), made[made.length - 1]!);
    try {
      const zero = make('uint4'), one = make('int4'), kept = make('int4'), one2 = make('uint4');
      zero.write(new Uint32Array(4));
      for (let k = 1; k <= top; k++) {
        const args: KernelArgs = { value: one, kept };
        for (let l = 0; l < k; l++) args[`lv${l}`] = zero;
        this.host.run(descentSpec(k, true), args);
        this.host.run(descentSpec(k, false), args);
      }
      // and the pass that puts a group's counts side by side
      const roots: KernelArgs = { c: one2 };
      for (let k = 0; k < 8; k++) roots[`r${k}`] = zero;
      this.host.run(CCD_ROOTS8, roots);
    } finally {
      made.forEach((s) => s.dispose());
    }
  }
}
