/**
 * The one seam between the CCD pipeline's stages and the Ccd that runs them. Every stage (refit,
 * static traversal, lazy work stealing, front compaction, narrow phase) takes a CcdHost and
 * nothing else of the Ccd: it draws its passes, makes its scratch streams, sizes its chunks from
 * the memory budget, names its stage and counts its round trips through it. The deferred pyramid
 * filter (./filter.ts) is reached through the host too (`host.filter`).
 *
 * Only interfaces and constants live here (no code the stages import at run time), so that the
 * stages, the filter and the runner that implements the host (./runner.ts) import this file and
 * never each other in a circle.
 */
import type { BrookContext } from '../../core/context';
import type { KernelSpec } from '../../core/kernelspec';
import type { KernelArgs } from '../../core/kernelargs';
import type { PassDesc } from '../../core/pass';
import type { Stream } from '../../core/stream';
import type { Stage } from './stages';

/** Bytes per record of the chunked passes, their filters' working streams included: a static
 * traversal step per work item (3 int4 children, the filter's flags and pyramid, the next list,
 * the front slot), the elementary tests per candidate (its int4 hit mask 16, the filter's flags
 * and levels 5.3, the kept hits at most 16; with times, 15 int4 feature hits and their filter's
 * streams, the ticks on top), per orphan record (its hit and filter streams; without times a
 * hit record per 8: 2 + 0.7 + at most 2 kept), and the front compaction per record (gathered
 * 16, the front's and the candidates' flags and levels 2 x 5.3, the kept front and candidates
 * at most 2 x 16). */
export const CCD_BYTES = { traverse: 144, candidate: 40, candidateToi: 15 * 24, orphan: 24, orphanGroup: 6, compact: 60 } as const;

/** Scratch stream types the stages make. */
export type ScratchType = 'int4' | 'int2' | 'int' | 'uint4';

/** A stream of records and how many of them count (the rest is padding or CCD_DEAD). */
export interface Chunk {
  stream: Stream;
  count: number;
}

/** Pyramid levels of a deferred filter: the flags first, the root (one texel: four counts) last. */
export type Pyramid = Stream[];

/** The scene's streams every BVTT kernel gathers (and the self-test switch). */
export interface BvttStreams {
  nodes: Stream;
  nodeObject: Stream;
  boxLo: Stream;
  boxHi: Stream;
  tris: Stream;
  selfTest: number;
}

/** What the passes of a stage need from the Ccd running it. */
export interface CcdPasses {
  readonly ctx: BrookContext;
  /** Bytes one chunk of a large pass may use (createCcd's memoryBudget). */
  readonly memoryBudget: number;
  /** Runs one kernel pass and counts it in the current stage; a target the device cannot
   * allocate or render into is a BrookError naming the pass, its size and memoryBudget. */
  run(spec: KernelSpec, args: KernelArgs): void;
  /** Draws one runner pass (a scatter) and counts it. */
  pass(p: PassDesc): void;
  /** A scratch stream of n records (its allocation guarded as run's targets are). */
  scratch(type: ScratchType, n: number, what: string): Stream;
  /** Records per chunk of a pass using `bytes` a record (at least 1; within caps.maxRecords / per). */
  chunk(bytes: number, per?: number, budget?: number): number;
  /** Records per chunk beside `held` bytes the frame holds already: from what the budget leaves,
   * at least a quarter of it (so that a chunk always makes progress). */
  chunkBeside(bytes: number, per: number, held: number): number;
  /** Counts one more chunk of a split pass. */
  split(): void;
  /** The passes drawn from now on belong to `stage` (Table 1's breakdown). */
  stage(stage: Stage): void;
  /** The stage passes are counted in now. */
  readonly currentStage: Stage;
  /** Counts `n` passes drawn outside run and pass (an idiom's), in the current stage. */
  count(n: number): void;
  /** Counts `n` CPU round trips (readbacks, query answers). */
  roundTrip(n?: number): void;
  /** Counts a static group of steps redone after a list outgrew its size. */
  rollback(): void;
  /** A failed allocation or framebuffer as a BrookError naming `what`, its size and the budget;
   * other errors as they are. */
  renamed(e: unknown, what: string, size: string): unknown;
}

/** The deferred pyramid filter (./filter.ts): brookgl's filter of int4 records split so that its
 * count need not be read at once, and what joins and reads its results. */
export interface CcdFilter {
  /** A whole filter (its passes and the readback of its count, counted). */
  filter(s: Stream, keep: string, indices?: boolean): Promise<{ stream: Stream | null; count: number; indices?: Stream | null }>;
  /** The flags and levels up to the root, no readback. */
  pyramid(s: Stream, keep: string): Pyramid;
  /** The counts of several pyramids (and any other streams read with them): one round trip. */
  counts(pyramids: Pyramid[], also?: Stream[], gather?: boolean): Promise<{ counts: number[]; data: Array<Int32Array | Float32Array | Uint32Array> }>;
  /** The kept records of `s` into a new stream of `length` records (capped: CCD_DEAD past the count). */
  descend(s: Stream, levels: Pyramid, length: number, capped: boolean): Stream;
  /** Concatenates int4 chunks into one stream (the chunks are disposed). */
  concat(chunks: Chunk[]): { stream: Stream | null; count: number };
  /** Compiles and draws once every descent (capped and exact) up to the level count of `records`. */
  warmDescents(records: number): void;
}

/** The seam every stage takes: the passes and the deferred filter. */
export interface CcdHost extends CcdPasses {
  readonly filter: CcdFilter;
}
