/**
 * The scaffolding every embed shares (embed.ts): its handle, its own context on a view canvas,
 * a point view with an orbit camera, and the loop of an animated simulation — a "trace a step"
 * button, the first step traced and drawn, then a step and a draw per frame with a readout
 * about once a second.
 */
import { createContext, type BrookContext } from '../core/context';
import type { PassRecord } from '../core/trace';
import { OrbitCamera } from '../apps/nbody/index';
import { createPointRenderer } from './points';
import { releaseContext, type EmbedFrame, type EmbedHandle } from './embedui';

/** The handle over a frame, a context and a state object; `ready` settles once. */
export function handle<S extends Record<string, unknown>>(frame: EmbedFrame, ctx: BrookContext, state: S, start: () => Promise<void>): EmbedHandle<S> & { passes: PassRecord[] } {
  const h = {
    ctx,
    root: frame.root,
    state,
    passes: [] as PassRecord[],
    ready: Promise.resolve(),
    get disposed() {
      return frame.disposed;
    },
    dispose: () => frame.dispose(),
  };
  h.ready = Promise.resolve()
    .then(start)
    .catch((e) => {
      frame.showError(e);
      throw e;
    });
  h.ready.catch(() => {}); // shown in the frame; callers who await it see it too
  return h;
}

/** The embed's own context (on `canvas`, else an OffscreenCanvas), released last at dispose; its renderer joins the title. */
export function contextFor(frame: EmbedFrame, canvas?: HTMLCanvasElement): BrookContext {
  let ctx: BrookContext;
  try {
    ctx = createContext(canvas ? { canvas } : {});
  } catch (e) {
    frame.dispose();
    throw e;
  }
  frame.onDispose(() => releaseContext(ctx)); // registered first, so it runs after every other cleanup
  const r = document.createElement('span');
  r.className = 'bg-renderer';
  r.textContent = ` · ${ctx.caps.renderer}`;
  frame.root.querySelector('h4')!.append(r);
  return ctx;
}

/** A canvas of `size` CSS pixels (device-pixel-ratio sharp) in the frame's view, and a context drawing on it. */
export function viewContext(frame: EmbedFrame, size: number): { canvas: HTMLCanvasElement; ctx: BrookContext } {
  const canvas = document.createElement('canvas');
  const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
  canvas.width = canvas.height = Math.round(size * dpr);
  canvas.style.cssText = `width:${size}px;height:${size}px;background:#000;display:block`;
  frame.view.append(canvas);
  return { canvas, ctx: contextFor(frame, canvas) };
}

/** A point renderer and an orbit camera (drag to orbit, wheel to zoom) on the view, released with the frame. */
export function pointView(frame: EmbedFrame, canvas: HTMLCanvasElement, ctx: BrookContext, distance: number) {
  const renderer = createPointRenderer(ctx);
  frame.onDispose(() => renderer.dispose());
  const camera = new OrbitCamera(distance);
  frame.onDispose(camera.attach(canvas));
  const viewProjection = () => camera.viewProjection(canvas.width / canvas.height);
  return { renderer, camera, viewProjection };
}

/** What an animated embed (a simulation drawn every frame) supplies to `animated`. */
export interface Simulation {
  /** Makes (or remakes) the simulation. */
  reset(): void;
  /** One step (counted in the per-second readout). */
  step(): void | Promise<void>;
  draw(): void;
  /** Whether frames step (a paused simulation only draws); default always. */
  running?(): boolean;
  /** The trace table's caption for one traced step. */
  traceLabel(): string;
  /** The readout line, about once a second, from the steps and wall seconds since the last one. */
  readout(steps: number, seconds: number): string;
}

/**
 * The loop every animated embed shares: a "trace a step" button (the passes of one step in the
 * frame's trace table and the handle's `passes`), then the first step traced and drawn, then a
 * step and a draw per frame with a readout about once a second.
 */
export function animated<S extends Record<string, unknown>>(frame: EmbedFrame, ctx: BrookContext, state: S, sim: Simulation): EmbedHandle {
  async function traceStep() {
    ctx.trace.start();
    await sim.step();
    const passes = await ctx.trace.stop();
    h.passes.splice(0, h.passes.length, ...passes);
    frame.showTrace(passes, sim.traceLabel());
  }
  frame.button('trace a step', () => void traceStep().catch((e) => frame.showError(e)));
  let since = performance.now();
  let counted = 0;
  const h = handle(frame, ctx, state, async () => {
    sim.reset();
    await traceStep();
    sim.draw();
    await ctx.queries.fence();
    frame.animate(async () => {
      if (sim.running?.() ?? true) {
        await sim.step();
        counted++;
      }
      if (frame.disposed) return;
      sim.draw();
      const secs = (performance.now() - since) / 1000;
      if (secs > 1 && counted) {
        frame.readout.textContent = sim.readout(counted, secs);
        since = performance.now();
        counted = 0;
      }
    });
  });
  return h;
}
