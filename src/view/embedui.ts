/**
 * The frame every embed mounts: a title with the renderer, a row of controls, the view, a
 * readout, the pass trace and an error line; plus the animation loop and the bookkeeping that
 * lets `dispose()` undo all of it (listeners, frames, GPU objects, the WebGL context).
 */
import type { BrookContext } from '../core/context';
import type { PassRecord } from '../core/trace';
import { traceTable } from './tracetable';

/** What `embed` returns. */
export interface EmbedHandle<State = Record<string, unknown>> {
  /** The embed's own context (dead after `dispose()`). */
  readonly ctx: BrookContext;
  /** The element the embed added to the caller's element. */
  readonly root: HTMLElement;
  /** Resolves when the first result is shown (rejects with the first error). */
  readonly ready: Promise<void>;
  /** The latest numbers the embed shows (also what tests and notebooks read). */
  readonly state: State;
  /** The trace last shown in the table. */
  readonly passes: readonly PassRecord[];
  readonly disposed: boolean;
  /** Stops the loop, unwires every listener, frees every GPU object and the WebGL context, and removes `root`. Idempotent. */
  dispose(): void;
}

export interface EmbedFrame {
  root: HTMLElement;
  controls: HTMLElement;
  view: HTMLElement;
  readout: HTMLElement;
  traceBox: HTMLElement;
  error: HTMLElement;
  /** Runs `fn` at dispose, last registered first. */
  onDispose(fn: () => void): void;
  readonly disposed: boolean;
  dispose(): void;
  showTrace(passes: readonly PassRecord[], caption: string): void;
  showError(e: unknown): void;
  range(label: string, spec: { min: number; max: number; step: number; value: number; digits?: number }, onChange: (v: number) => void, live?: boolean): HTMLInputElement;
  select<T extends string>(label: string, options: readonly T[], value: T, onChange: (v: T) => void): HTMLSelectElement;
  checkbox(label: string, value: boolean, onChange: (v: boolean) => void): HTMLInputElement;
  button(label: string, onClick: () => void): HTMLButtonElement;
  /** Calls `frame` once per animation frame (awaiting it when it returns a promise) until dispose or an error. */
  animate(frame: () => void | Promise<void>): void;
}

const STYLE = `
.brookgl-embed{font:13px/1.4 system-ui,sans-serif;border:1px solid #ddd;border-radius:6px;padding:8px;margin:6px 0;max-width:980px}
.brookgl-embed h4{margin:0 0 4px;font-size:14px}.brookgl-embed .bg-renderer{color:#777;font-size:11px}
.brookgl-embed .bg-controls{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:6px 0}
.brookgl-embed .bg-view canvas{touch-action:none}
.brookgl-embed .bg-readout{font-family:ui-monospace,monospace;font-size:12px;margin:4px 0}
.brookgl-embed .bg-error{color:#b00020;white-space:pre-wrap}
.brookgl-embed table{border-collapse:collapse;font-size:11px}.brookgl-embed td,.brookgl-embed th{border:1px solid #ddd;padding:1px 5px;text-align:right}
.brookgl-embed details{margin-top:4px}`;

/** Builds the frame inside `element` (appended, the element's other content is left alone). */
export function embedFrame(element: HTMLElement, title: string): EmbedFrame {
  const root = document.createElement('div');
  root.className = 'brookgl-embed';
  const style = document.createElement('style');
  style.textContent = STYLE;
  const head = document.createElement('h4');
  head.textContent = title;
  const part = (tag: string, cls: string) => Object.assign(document.createElement(tag), { className: cls });
  const controls = part('div', 'bg-controls');
  const view = part('div', 'bg-view');
  const readout = part('div', 'bg-readout');
  const details = part('details', 'bg-trace') as HTMLDetailsElement;
  const summary = document.createElement('summary');
  summary.textContent = 'pass trace';
  const traceBox = document.createElement('div');
  details.append(summary, traceBox);
  const error = part('div', 'bg-error');
  root.append(style, head, controls, view, readout, details, error);
  element.append(root);

  const cleanups: (() => void)[] = [];
  let disposed = false;
  let raf = 0;
  const frame: EmbedFrame = {
    root, controls, view, readout, traceBox, error,
    onDispose: (fn) => cleanups.push(fn),
    get disposed() {
      return disposed;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      cancelAnimationFrame(raf);
      for (const fn of cleanups.reverse()) {
        try {
          fn();
        } catch {
          // one failing cleanup must not keep the others (the context above all) alive
        }
      }
      root.remove();
    },
    showTrace(passes, caption) {
      summary.textContent = `pass trace: ${caption} (${passes.length} passes)`;
      traceBox.innerHTML = traceTable(passes);
    },
    showError(e) {
      if (!disposed) error.textContent = String((e as Error)?.message ?? e);
    },
    range(label, spec, onChange, live = false) {
      const input = Object.assign(document.createElement('input'), { type: 'range', min: String(spec.min), max: String(spec.max), step: String(spec.step), value: String(spec.value) });
      const out = document.createElement('output');
      const show = () => (out.textContent = Number(input.value).toFixed(spec.digits ?? 2));
      show();
      input.addEventListener('input', () => {
        show();
        if (live) onChange(Number(input.value));
      });
      if (!live) input.addEventListener('change', () => onChange(Number(input.value)));
      controls.append(labelled(label, input, out));
      return input;
    },
    select(label, options, value, onChange) {
      const sel = document.createElement('select');
      for (const o of options) sel.add(new Option(o, o));
      sel.value = value;
      sel.addEventListener('change', () => onChange(sel.value as (typeof options)[number]));
      controls.append(labelled(label, sel));
      return sel;
    },
    checkbox(label, value, onChange) {
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: value });
      box.addEventListener('change', () => onChange(box.checked));
      controls.append(labelled(label, box));
      return box;
    },
    button(label, onClick) {
      const b = Object.assign(document.createElement('button'), { textContent: label, type: 'button' });
      b.addEventListener('click', onClick);
      controls.append(b);
      return b;
    },
    animate(step) {
      const tick = async () => {
        if (disposed) return;
        try {
          await step();
        } catch (e) {
          frame.showError(e);
          return;
        }
        if (!disposed) raf = requestAnimationFrame(tick);
      };
      raf = requestAnimationFrame(tick);
    },
  };
  return frame;
}

function labelled(text: string, ...inputs: HTMLElement[]): HTMLElement {
  const label = document.createElement('label');
  label.append(`${text} `, ...inputs);
  return label;
}

/**
 * Frees the context and the WebGL context behind it: `ctx.dispose()` deletes every GL object;
 * WEBGL_lose_context then gives the context back to the browser, which otherwise keeps it until
 * garbage collection (browsers hold about 16 and drop the oldest — re-run notebook cells would
 * lose live ones).
 */
export function releaseContext(ctx: BrookContext): void {
  const gl = ctx.gl;
  ctx.dispose();
  if (!gl.isContextLost()) gl.getExtension('WEBGL_lose_context')?.loseContext();
}

/** Waits for `frames` animation frames. */
export function frames(count: number): Promise<void> {
  return new Promise((resolve) => {
    const f = () => (count-- <= 0 ? resolve() : requestAnimationFrame(f));
    requestAnimationFrame(f);
  });
}
