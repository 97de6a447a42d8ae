/**
 * `embed(element, options)`: a live demo of one technique mounted into any element — a demo
 * page, a notebook cell's output, an Observable cell — with its controls, its readout and the
 * pass trace, on a WebGL context of its own.
 *
 * ```ts
 * const handle = embed(document.querySelector('#here')!, { demo: 'filter', n: 4096, density: 0.3 });
 * await handle.ready;                 // first result shown
 * handle.state;                       // { count, expected, matches, passes, ... }
 * handle.dispose();                   // loop stopped, listeners off, GPU objects and the context freed
 * ```
 *
 * Demos: 'filter' (Horn's stream filter, every pass drawn, checked against the CPU reference),
 * 'fluid' (Harris & Buck's flow-control idioms in a 2D fluid with obstacles), 'nbody' (the
 * all-pairs chapter), 'dem' (Oat et al.'s depth-peeled binning driving DEM particles).
 * Sizes default small on a software renderer (SwiftShader) and larger on a GPU.
 */
import { BrookError } from '../core/errors';
import type { Stream } from '../core/stream';
import { filter, FILTER_METHODS, type FilterMethod } from '../idioms/filter';
import { createFluid, type Fluid } from '../apps/fluid/index';
import { createFieldRenderer } from './field';
import { createNBody, nbodyPreset, NBODY_FLOPS, type NBodySystem } from '../apps/nbody/index';
import { createDem, type Dem } from '../apps/dem/index';
import { filterOnHost } from '../idioms/hostfilter';
import { drawStream, describeRange } from './image';
import { embedFrame, frames, type EmbedHandle } from './embedui';
import { animated, contextFor, handle, pointView, viewContext } from './embedloop';

export type { EmbedHandle } from './embedui';

/** The demos `embed` mounts. */
export const EMBEDS = ['filter', 'fluid', 'nbody', 'dem'] as const;
export type EmbedName = (typeof EMBEDS)[number];

export interface FilterEmbedOptions {
  demo: 'filter';
  /** Records (float4); default 4096. Streams up to 2^16 records have their passes drawn. */
  n?: number;
  /** Kept fraction: records with x.x below it are kept; default 0.5. */
  density?: number;
  method?: FilterMethod;
}
export interface FluidEmbedOptions {
  demo: 'fluid';
  /** Cells per side; default 64 on a software renderer, 256 on a GPU. */
  size?: number;
  jacobi?: number;
}
export interface NBodyEmbedOptions {
  demo: 'nbody';
  /** Bodies; default 1024 on a software renderer, 16384 on a GPU. */
  n?: number;
  preset?: 'disks' | 'plummer';
  dt?: number;
}
export interface DemEmbedOptions {
  demo: 'dem';
  /** Particles; default 2048 on a software renderer, 65536 on a GPU. */
  n?: number;
}
export type EmbedOptions = (FilterEmbedOptions | FluidEmbedOptions | NBodyEmbedOptions | DemEmbedOptions) & {
  /** Canvas size in CSS pixels for the animated demos; default 360. */
  viewSize?: number;
};

/**
 * Mounts the demo named by `options.demo` into `element` and returns its handle. Throws a
 * BrookError for an unknown demo or a missing element; WebGL errors show in the embed's error
 * line and reject `ready`.
 */
export function embed(element: HTMLElement, options: EmbedOptions): EmbedHandle {
  if (!element || typeof (element as HTMLElement).append !== 'function') {
    throw new BrookError('embed: element must be a DOM element to mount into (e.g. document.querySelector("#demo"))');
  }
  const demo = options?.demo;
  if (!EMBEDS.includes(demo as EmbedName)) throw new BrookError(`embed: options.demo must be one of ${EMBEDS.join(', ')} (got ${String(demo)})`);
  switch (options.demo) {
    case 'filter':
      return embedFilter(element, options);
    case 'fluid':
      return embedFluid(element, options);
    case 'nbody':
      return embedNBody(element, options);
    case 'dem':
      return embedDem(element, options);
  }
}

// ---- filter ---------------------------------------------------------------------------------

const FILTER_SIZES = [1024, 4096, 16384, 65536, 262144, 1048576];
const MAX_DRAWN = 1 << 16;

function embedFilter(element: HTMLElement, o: FilterEmbedOptions): EmbedHandle {
  const frame = embedFrame(element, "Stream filtering (Horn, GPU Gems 2 ch. 36): every pass, the trace, the CPU check");
  const ctx = contextFor(frame);
  const state = { n: o.n ?? 4096, density: o.density ?? 0.5, method: (o.method ?? 'pyramid') as FilterMethod, count: -1, expected: -1, matches: false, passes: 0, runs: 0 };
  if (!FILTER_METHODS.includes(state.method)) throw new BrookError(`embed filter: method must be one of ${FILTER_METHODS.join(', ')}`);
  let input: { n: number; data: Float32Array; stream: Stream } | null = null;
  frame.onDispose(() => input?.stream.dispose());
  const pictures = document.createElement('div');
  pictures.style.cssText = 'display:flex;flex-wrap:wrap;gap:4px';
  frame.view.append(pictures);
  let queue = Promise.resolve();
  const rerun = () => (queue = queue.then(run).catch((e) => frame.showError(e)));
  frame.select('n', FILTER_SIZES.map(String), String(state.n), (v) => ((state.n = Number(v)), rerun()));
  frame.range('kept fraction', { min: 0, max: 1, step: 0.01, value: state.density }, (v) => ((state.density = v), rerun()));
  frame.select('method', FILTER_METHODS, state.method, (v) => ((state.method = v), rerun()));
  frame.button('run', rerun);
  const h = handle(frame, ctx, state, async () => {
    await run();
  });

  async function run() {
    if (frame.disposed) return;
    frame.error.textContent = '';
    const n = state.n;
    if (input?.n !== n) {
      input?.stream.dispose();
      const data = new Float32Array(n * 4);
      let seed = 12345;
      const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
      for (let i = 0; i < n; i++) data.set([rand(), i / n, (i % 97) / 97, 1], i * 4);
      input = { n, data, stream: ctx.stream('float4', n, data) };
    }
    const shown: HTMLElement[] = [];
    const picture = (label: string, data: ArrayLike<number>, shape: readonly number[], components: number) => {
      const fig = document.createElement('figure');
      fig.style.cssText = 'margin:0;font-size:11px;max-width:150px';
      const c = document.createElement('canvas');
      const px = drawStream(c, data, shape, components);
      c.style.cssText = 'width:140px;image-rendering:pixelated;border:1px solid #ccc';
      fig.append(c, Object.assign(document.createElement('figcaption'), { textContent: `${label} (${describeRange(px)})` }));
      shown.push(fig);
    };
    const draw = n <= MAX_DRAWN;
    if (draw) picture('input', input.data, [n], 4);
    const keep = `x.x < ${state.density.toFixed(6)}`;
    ctx.trace.start();
    const t0 = performance.now();
    const r = await filter(ctx, input.stream, {
      keep,
      method: state.method,
      indices: true,
      watch: draw ? (label, s) => picture(label, s.readSync(), s.shape, s.info.components) : undefined,
    });
    const ms = performance.now() - t0;
    const passes = await ctx.trace.stop();
    const gotIdx = r.indices ? await r.indices.read() : new Uint32Array(0);
    r.stream?.dispose();
    r.indices?.dispose();
    if (frame.disposed) return;
    const d = Math.fround(state.density);
    const want = filterOnHost(input.data, 4, (rec) => rec[0]! < d);
    Object.assign(state, {
      count: r.count,
      expected: want.indices.length,
      matches: r.count === want.indices.length && want.indices.every((v, i) => gotIdx[i] === v),
      passes: passes.length,
      runs: state.runs + 1,
    });
    h.passes.splice(0, h.passes.length, ...passes);
    pictures.replaceChildren(...shown);
    frame.showTrace(passes, `${state.method}, ${n} records`);
    frame.readout.textContent =
      `${state.method}: kept ${r.count} of ${n} records in ${passes.length} passes, ${ms.toFixed(1)} ms with the drawing · ` +
      (state.matches ? 'same indices as the CPU reference' : `DIFFERS from the CPU reference (${state.expected} expected)`);
    if (!state.matches) throw new BrookError(`filter ${state.method} differs from the CPU reference`);
  }
  return h;
}

// ---- fluid ----------------------------------------------------------------------------------

function embedFluid(element: HTMLElement, o: FluidEmbedOptions & { viewSize?: number }): EmbedHandle {
  const frame = embedFrame(element, 'Flow control (Harris & Buck, GPU Gems 2 ch. 34): a fluid with obstacles — drag to push');
  const { canvas, ctx } = viewContext(frame, o.viewSize ?? 360);
  const renderer = createFieldRenderer(ctx);
  frame.onDispose(() => renderer.dispose());
  const state = { size: o.size ?? (ctx.caps.software ? 64 : 256), jacobi: o.jacobi ?? (ctx.caps.software ? 20 : 40), steps: 0, passesPerStep: 0, zcull: true, staticBranches: true, precomputed: true, showMask: false };
  let fluid: Fluid | null = null;
  frame.onDispose(() => fluid?.dispose());
  const reset = () => {
    fluid?.dispose();
    const n = state.size;
    fluid = createFluid(ctx, { size: n, jacobi: state.jacobi });
    fluid.paintObstacle(n * 0.55, n * 0.5, n * 0.16);
    for (let y = n * 0.1; y < n * 0.35; y += 1) fluid.paintObstacle(n * 0.3, y, n * 0.015);
    applyIdioms();
  };
  const applyIdioms = () => {
    if (fluid) for (const k of ['zcull', 'staticBranches', 'precomputed'] as const) fluid.idioms[k] = state[k];
  };
  frame.select('grid', ['32', '64', '128', '256', '512'], String(state.size), (v) => ((state.size = Number(v)), reset()));
  for (const k of ['zcull', 'staticBranches', 'precomputed'] as const) frame.checkbox(k, state[k], (v) => ((state[k] = v), applyIdioms()));
  frame.checkbox('show mask', false, (v) => (state.showMask = v));
  // the user's push: drag on the canvas (cells, y up)
  let drag: { at: [number, number]; moved: [number, number] } | null = null;
  const cell = (e: PointerEvent): [number, number] => {
    const r = canvas.getBoundingClientRect();
    return [((e.clientX - r.left) / r.width) * state.size, (1 - (e.clientY - r.top) / r.height) * state.size];
  };
  const down = (e: PointerEvent) => (drag = { at: cell(e), moved: [0, 0] });
  const move = (e: PointerEvent) => {
    if (!drag) return;
    const at = cell(e);
    drag = { at, moved: [at[0] - drag.at[0], at[1] - drag.at[1]] };
  };
  const up = () => (drag = null);
  canvas.addEventListener('pointerdown', down);
  canvas.addEventListener('pointermove', move);
  addEventListener('pointerup', up);
  frame.onDispose(() => removeEventListener('pointerup', up));
  let t = 0;
  return animated(frame, ctx, state, {
    reset,
    step() {
      const f = fluid!;
      const n = state.size;
      t++;
      f.step(0.5, { splat: { x: n * 0.08, y: n * (0.5 + 0.2 * Math.sin(t * 0.01)), fx: n * 0.6, fy: 0, dye: 0.6, radius: n * 0.025 } });
      if (drag) f.step(0, { splat: { x: drag.at[0], y: drag.at[1], fx: drag.moved[0] * 30, fy: drag.moved[1] * 30, dye: 1, radius: n * 0.03 } });
      state.steps++;
      state.passesPerStep = f.passesPerStep;
    },
    draw: () => renderer.draw(fluid!.fields.dye, fluid!.obstacles, fluid!.offsets, state.showMask),
    traceLabel: () => `one step of the ${state.size}² fluid`,
    readout(steps, secs) {
      const on = (['zcull', 'staticBranches', 'precomputed'] as const).filter((k) => state[k]).join(', ') || 'no idioms';
      return `${state.size}² grid · ${state.passesPerStep} passes per step · ${((secs * 1000) / steps).toFixed(1)} ms per frame (wall) · ${on}`;
    },
  });
}

// ---- N-body ---------------------------------------------------------------------------------

function embedNBody(element: HTMLElement, o: NBodyEmbedOptions & { viewSize?: number }): EmbedHandle {
  const frame = embedFrame(element, 'All-pairs N-body (Nyland, Harris & Prins, GPU Gems 3 ch. 31) — drag to orbit, wheel to zoom');
  const { canvas, ctx } = viewContext(frame, o.viewSize ?? 360);
  const { renderer, viewProjection } = pointView(frame, canvas, ctx, 9);
  const state = { n: o.n ?? (ctx.caps.software ? 1024 : 16384), preset: o.preset ?? 'disks', dt: o.dt ?? 0.01, steps: 0, running: true, interactionsPerSecond: 0 };
  let sys: NBodySystem | null = null;
  frame.onDispose(() => sys?.dispose());
  const restart = () => {
    sys?.dispose();
    sys = createNBody(ctx, { ...nbodyPreset(state.preset, state.n, 7), softening: 0.05 });
  };
  frame.select('bodies', ['256', '1024', '4096', '16384', '65536'], String(state.n), (v) => ((state.n = Number(v)), restart()));
  frame.select('preset', ['disks', 'plummer'] as const, state.preset, (v) => ((state.preset = v), restart()));
  frame.range('dt', { min: 0.001, max: 0.05, step: 0.001, value: state.dt, digits: 3 }, (v) => (state.dt = v), true);
  const pause = frame.button('pause', () => {
    state.running = !state.running;
    pause.textContent = state.running ? 'pause' : 'run';
  });
  return animated(frame, ctx, state, {
    reset: restart,
    step() {
      sys!.step(state.dt, 1);
      state.steps++;
    },
    running: () => state.running,
    draw: () => renderer.draw(sys!.positions, sys!.count, viewProjection(), { pointSize: sys!.count > 20000 ? 10 : 18 }),
    traceLabel: () => `one leapfrog step of ${sys!.count} bodies`,
    readout(steps, secs) {
      state.interactionsPerSecond = (sys!.interactions * steps) / secs;
      return (
        `${sys!.count} bodies · ${(steps / secs).toFixed(1)} steps/s · ${(state.interactionsPerSecond / 1e9).toFixed(3)} G interactions/s · ` +
        `${((state.interactionsPerSecond * NBODY_FLOPS) / 1e9).toFixed(2)} GFLOP/s (wall clock per frame, drawing included)`
      );
    },
  });
}

// ---- DEM (binning) --------------------------------------------------------------------------

function embedDem(element: HTMLElement, o: DemEmbedOptions & { viewSize?: number }): EmbedHandle {
  const frame = embedFrame(element, 'Spatial binning (Oat, Barczak & Shopf 2009) driving DEM particles — hold "push" to press them down');
  const { canvas, ctx } = viewContext(frame, o.viewSize ?? 360);
  const { renderer, camera, viewProjection } = pointView(frame, canvas, ctx, 2.2);
  [camera.target[0], camera.target[1], camera.target[2]] = [0.5, 0.25, 0.5];
  const state = { n: o.n ?? (ctx.caps.software ? 2048 : 65536), steps: 0, pushing: false, binningPasses: 0, binningReductions: 0 };
  let dem: Dem | null = null;
  frame.onDispose(() => dem?.dispose());
  const reset = () => {
    dem?.dispose();
    const cells = Math.min(128, Math.max(16, Math.round(Math.cbrt(state.n) * 1.6)));
    dem = createDem(ctx, { count: state.n, diameter: 1 / cells });
  };
  frame.select('particles', ['1024', '2048', '4096', '16384', '65536', '262144'], String(state.n), (v) => ((state.n = Number(v)), reset()));
  const push = frame.button('push', () => {});
  const down = () => (state.pushing = true);
  const up = () => (state.pushing = false);
  push.addEventListener('pointerdown', down);
  addEventListener('pointerup', up);
  frame.onDispose(() => removeEventListener('pointerup', up));
  frame.button('reset', reset);
  return animated(frame, ctx, state, {
    reset,
    async step() {
      const d = dem!;
      await d.step(1 / 600, { push: state.pushing ? [0, -40, 0] : [0, 0, 0] });
      state.steps++;
      state.binningPasses = d.lastBinning?.passes ?? 0;
      state.binningReductions = d.lastBinning?.reductions ?? 0;
    },
    draw: () => renderer.draw(dem!.positions, dem!.count, viewProjection(), { pointSize: 6, blend: false, velocities: dem!.velocities, maxSpeed: 1.5, color: [1, 1, 1, 1] }),
    traceLabel: () => `one DEM step of ${dem!.count} particles (binning, forces, integration)`,
    readout: (steps, secs) =>
      `${dem!.count} particles in ${dem!.grid.cells[0]}³ cells · ${(steps / secs).toFixed(1)} steps/s (wall, drawing included) · ` +
      `binning: ${state.binningPasses} passes, ${state.binningReductions} reductions`,
  });
}

export { frames as waitFrames };
