/**
 * brookgl's Jupyter widget, as an anywidget ES module (`export default { render }`) with the
 * library inlined, so it works offline. Two kinds, chosen by the model's `kind`:
 *
 * - 'run': a Brook kernel run on arrays. The model holds `source` (Brook), `kernel` (its name,
 *   or '' for the only/first one), `arrays` ({ name: { dtype, shape, data } }, data binary),
 *   `uniforms` ({ name: number | number[] }), `iters` ({ name: [start, end] }), `outputs`
 *   ({ name: shape }) and `request` (bumped to run again). The widget writes `results`
 *   ({ name: { dtype, shape, data } }, data binary), `trace` (one dict per pass), `renderer`,
 *   `error` and `status` ('running' | 'done' | 'error'), and shows the outputs as pictures
 *   with the pass trace. With `compare` ({ ulps, abs, first }; {} for none) the kernel runs on
 *   the GPU and on the CPU backend through compareBackends: `comparison` gets its report (the
 *   first differing records), each output is also drawn as a diff view (differing records
 *   orange) and the first differing records are listed; `results` hold the GPU's outputs.
 * - 'embed': `embed(el, options)` (the model's `options`), its `state` synced back once a second.
 *
 * After each run the widget sets `answered` to the `request` it ran, so Python knows the results
 * (or the error) belong to the latest arguments: the answer's fields, `answered`, the root's
 * status and the message to Python in one step (finishRun). A view rendered once the model holds
 * the answer to its request runs it only to draw it (startRun). The root element carries
 * `data-status` (and, for runs and apps, `data-request`: the request its last finished run drew),
 * the model (`el.brookglModel`) and, once made, the widget's context (`el.brookglContext`), for
 * tests that read the model's state (and the context's trace and stats) from the page.
 */
import { createContext, parseBrook, iter, embed, streamFigure, traceTable, typeInfo, compareBackends, htmlTable, CPU_RENDERER, type BrookContext, type Comparison, type KernelArgs, type Stream, type StreamData, type PassRecord } from '../../src/index';
import { releaseContext } from '../../src/view/embedui';
import { APPS } from './apps';

/** The widget's root element, with what tests read from the page. */
type WidgetRoot = HTMLElement & { brookglModel?: WidgetModel; brookglContext?: BrookContext };

/** A widget's root element: its kind in data-kind, its model on the element (the specs read both). */
function widgetRoot(model: WidgetModel, kind: 'run' | 'embed' | 'app'): WidgetRoot {
  const root = document.createElement('div') as WidgetRoot;
  root.className = 'brookgl-widget';
  root.dataset.kind = kind;
  root.brookglModel = model;
  return root;
}

/** The part of anywidget's model interface the widget uses. */
export interface WidgetModel {
  get(name: string): any;
  set(name: string, value: unknown): void;
  save_changes(): void;
  on(event: string, callback: () => void): void;
  off(event?: string | null, callback?: (() => void) | null): void;
  send(content: unknown, callbacks?: unknown, buffers?: ArrayBuffer[] | ArrayBufferView[]): void;
}

/**
 * The model's `names` sent to Python as one custom message (results' bytes as binary buffers),
 * where the widget's Python side sets them on its traitlets. Not `save_changes` alone: ipywidgets sends
 * a model's next update only once the kernel has published an idle status for the previous one,
 * and ipykernel 7 publishes none for the comm messages it handles while a cell awaits, so every
 * update after the first would wait until the notebook had finished.
 */
function publish(model: WidgetModel, names: string[]): void {
  const state: Record<string, unknown> = {};
  const buffers: ArrayBufferView[] = [];
  for (const name of names) {
    const value = model.get(name);
    if (name === 'results') {
      const meta: Record<string, unknown> = {};
      for (const [k, r] of Object.entries((value ?? {}) as Record<string, ArrayIn>)) {
        meta[k] = { dtype: r.dtype, shape: r.shape, buffer: buffers.length };
        buffers.push(r.data as ArrayBufferView);
      }
      state[name] = meta;
    } else state[name] = value;
  }
  model.send({ brookgl: 'state', state }, undefined, buffers);
  // the model's own sync as well: marimo re-runs the cells that read a widget when its front end
  // saves a change (in ipywidgets this update may wait, as above; it carries the same values)
  model.save_changes();
}

interface ArrayIn {
  dtype: 'float32' | 'int32' | 'uint32' | 'uint8';
  shape: number[];
  data: DataView | ArrayBuffer | ArrayBufferView;
}

/** numpy's dtype for each host kind: char streams (char, uchar, fixed) hold bytes, uint8. */
const HOST_DTYPE = { float: 'float32', int: 'int32', uint: 'uint32', char: 'uint8' } as const;

const dtypeOf = (data: StreamData): ArrayIn['dtype'] =>
  data instanceof Float32Array ? 'float32' : data instanceof Int32Array ? 'int32' : data instanceof Uint8Array ? 'uint8' : 'uint32';

function typed(a: ArrayIn): StreamData {
  const view = a.data as ArrayBufferView;
  const buffer = a.data instanceof ArrayBuffer ? a.data : view.buffer;
  const offset = a.data instanceof ArrayBuffer ? 0 : view.byteOffset;
  const bytes = a.data instanceof ArrayBuffer ? a.data.byteLength : view.byteLength;
  const copy = buffer.slice(offset, offset + bytes); // aligned, and ours
  if (a.dtype === 'int32') return new Int32Array(copy);
  if (a.dtype === 'uint32') return new Uint32Array(copy);
  if (a.dtype === 'float32') return new Float32Array(copy);
  if (a.dtype === 'uint8') return new Uint8Array(copy); // a char stream's bytes
  throw new Error(`(brookgl) array dtype must be float32, int32, uint32 or uint8 (got ${String(a.dtype)}); convert with numpy's astype`);
}

/** Record shape of an array for a stream of `type`: numpy's shape minus the component axis. */
function recordShape(name: string, type: string, shape: number[]): number | [number, number] {
  const k = typeInfo(type).components;
  const s = k > 1 ? (shape.at(-1) === k ? shape.slice(0, -1) : null) : shape;
  if (!s || s.length < 1 || s.length > 2) {
    throw new Error(`(brookgl) array ${name}: a ${type} stream wants numpy shape ${k > 1 ? `(n, ${k}) or (h, w, ${k})` : '(n,) or (h, w)'}, got (${shape.join(', ')})`);
  }
  return s.length === 1 ? s[0]! : [s[0]!, s[1]!];
}

/**
 * `work` with the context's trace on; the trace is stopped whether `work` returns or throws (an
 * error mid-run left tracing on: every later pass of that context recorded, and timed, forever).
 */
async function traced<T>(ctx: BrookContext, work: () => T | Promise<T>): Promise<{ value: T; passes: PassRecord[] }> {
  ctx.trace.start();
  let value: T;
  try {
    value = await work();
  } catch (e) {
    await ctx.trace.stop().catch(() => {}); // the work's error is the one to report
    throw e;
  }
  return { value, passes: await ctx.trace.stop() };
}

/** The model's fields a run's answer sets, beside `status`, `error`, `renderer` and `answered`. */
type RunAnswer = { results: Record<string, ArrayIn>; comparison: Record<string, unknown>; trace: Record<string, unknown>[] };

/** Runs the model's kernel on its arrays and draws the outputs in `view`; the answer for the model. */
async function runKernel(model: WidgetModel, ctx: BrookContext, view: HTMLElement): Promise<RunAnswer> {
  const kernels = parseBrook(String(model.get('source') ?? ''));
  const wanted = String(model.get('kernel') ?? '');
  const names = Object.keys(kernels);
  const spec = wanted ? kernels[wanted] : kernels[names[0]!];
  if (!spec) throw new Error(`(brookgl) no kernel ${wanted ? `named ${wanted}` : ''} in the source (found: ${names.join(', ') || 'none'})`);
  const arrays: Record<string, ArrayIn> = model.get('arrays') ?? {};
  const outputs: Record<string, number | number[]> = model.get('outputs') ?? {};
  const owned: Stream[] = [];
  try {
    const args: KernelArgs = {};
    for (const [name, type] of [...Object.entries(spec.inputs ?? {}), ...Object.entries(spec.gathers ?? {})]) {
      const a = arrays[name];
      if (!a) throw new Error(`(brookgl) kernel ${spec.name} reads ${type} ${name}: pass it as a numpy array (${name}=...)`);
      const s = ctx.stream(type, recordShape(name, type, a.shape), typed(a));
      owned.push(s);
      args[name] = s;
    }
    for (const [name, v] of Object.entries(model.get('uniforms') ?? {})) args[name] = v as number | number[];
    for (const [name, [a, b]] of Object.entries((model.get('iters') ?? {}) as Record<string, [number | number[], number | number[]]>)) args[name] = iter(a, b);
    const outs: [string, Stream][] = [];
    for (const [name, type] of Object.entries(spec.outputs)) {
      const shape = outputs[name];
      if (shape === undefined) throw new Error(`(brookgl) kernel ${spec.name} writes ${type} ${name}: give its shape in outputs={'${name}': n or (h, w)}`);
      const s = ctx.stream(type, Array.isArray(shape) ? [shape[0]!, shape[1]!] : shape);
      owned.push(s);
      outs.push([name, s]);
      args[name] = s;
    }
    const compare = (model.get('compare') ?? {}) as { ulps?: number; abs?: number; first?: number };
    const comparing = Object.keys(compare).length > 0;
    const { value: comparison, passes } = await traced(ctx, () =>
      comparing ? compareBackends(ctx, spec, args, { ulps: compare.ulps, abs: compare.abs, first: compare.first, indices: true }) : (ctx.run(spec, args), null),
    );
    const results: Record<string, ArrayIn> = {};
    const figures: HTMLElement[] = [];
    for (const [name, s] of outs) {
      const data = await s.read();
      const k = s.info.components;
      results[name] = { dtype: HOST_DTYPE[s.info.host], shape: [...s.shape, ...(k > 1 ? [k] : [])], data: new DataView(data.buffer, data.byteOffset, data.byteLength) };
      if (model.get('show') === false) continue;
      const colormap = k === 1 ? ('viridis' as const) : undefined;
      figures.push(await streamFigure(s, { title: comparison ? `${name} (GPU)` : name, colormap }));
      const o = comparison?.outputs[name];
      if (o) figures.push(await streamFigure(s, { title: `${name}: GPU vs CPU, ${o.differing} of ${o.records} differ (orange)`, colormap, highlight: o.indices }));
    }
    view.replaceChildren(...figures);
    if (comparison && model.get('show') !== false) view.insertAdjacentHTML('beforeend', comparisonHtml(comparison));
    if (model.get('show') !== false) view.insertAdjacentHTML('beforeend', `<details><summary>pass trace (${passes.length})</summary>${traceTable(passes)}</details>`);
    return { results, comparison: comparison ? comparisonMessage(comparison) : {}, trace: passes.map((p) => ({ ...p })) };
  } finally {
    owned.forEach((s) => s.dispose());
  }
}

/** A number as JSON carries it: NaN and the infinities as null (Python's json would refuse them). */
const finite = (x: number) => (Number.isFinite(x) ? x : null);

/** compareBackends' report for the model (JSON: no typed arrays, no non-finite numbers), and the CPU backend's name. */
function comparisonMessage(c: Comparison): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(c.outputs)) {
    outputs[name] = {
      records: o.records,
      differing: o.differing,
      first: o.first.map((d) => ({
        record: d.record, position: d.position, gpu: d.gpu.map(finite), cpu: d.cpu.map(finite), ulps: finite(d.ulps),
        inputs: Object.fromEntries(Object.entries(d.inputs).map(([k, v]) => [k, v.map(finite)])),
      })),
    };
  }
  return { ok: c.ok, renderer: c.renderer, cpu: CPU_RENDERER, tolerance: c.tolerance, outputs };
}

/** The comparison in words and the first differing records of each output, as HTML. */
function comparisonHtml(c: Comparison): string {
  const tol = `floats within ${c.tolerance.ulps} ulps${c.tolerance.abs ? ` or ${c.tolerance.abs} absolutely` : ''}, ints and 8-bit records exactly`;
  const outs = Object.entries(c.outputs);
  const verdict = c.ok
    ? `GPU (${c.renderer}) and CPU backend agree on every record (${tol}).`
    : `GPU (${c.renderer}) and CPU backend differ on ${outs.filter(([, o]) => o.differing).map(([k, o]) => `${o.differing} of ${o.records} records of ${k}`).join(', ')} (${tol}).`;
  const fmt = (v: number[]) => v.map((x) => (Number.isInteger(x) ? String(x) : x.toPrecision(7))).join(', ');
  const tables = outs.filter(([, o]) => o.differing).map(([name, o]) => {
    const inputs = [...new Set(o.first.flatMap((d) => Object.keys(d.inputs)))];
    return htmlTable({
      title: `${name}: the first ${o.first.length} of ${o.differing} differing records`,
      columns: ['record', 'position', 'GPU', 'CPU', 'ulps / difference', ...inputs.map((k) => `input ${k}`)],
      rows: o.first.map((d) => [String(d.record), `(${d.position.join(', ')})`, fmt(d.gpu), fmt(d.cpu), Number.isFinite(d.ulps) ? String(d.ulps) : '∞', ...inputs.map((k) => (d.inputs[k] ? fmt(d.inputs[k]!) : ''))]),
    });
  });
  const p = document.createElement('p');
  p.className = 'brookgl-comparison';
  p.textContent = verdict;
  return p.outerHTML + tables.join('');
}

/**
 * An error in the widget, its lines kept: a compile error's numbered kernel lines (JupyterLab's
 * output area, like any HTML, runs a plain element's line breaks together).
 */
function showError(el: HTMLElement, message: string): void {
  el.textContent = message;
  el.style.color = '#b00020';
  el.style.whiteSpace = 'pre-wrap';
  el.style.fontFamily = 'ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';
}

/** A status line, after an error too (a later run that succeeds is not shown in the error's style). */
function showStatus(el: HTMLElement, text: string): void {
  el.textContent = text;
  el.style.color = el.style.whiteSpace = el.style.fontFamily = '';
}

/** Sets each of `values` on the model, with no await between them. */
function setAll(model: WidgetModel, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) model.set(name, value);
}

/** One run of a view: the request it runs, and whether it answers it or only draws it. */
interface ViewRun {
  request: number;
  answers: boolean;
}

/**
 * A run's start. The root says running, and the model too unless it holds the answer to this
 * request already: a view rendered after the model was answered (a second view of the widget, or
 * an output the front end rendered again) runs the request only to draw it, and leaves the model,
 * and what Python was sent, as answered. (It used to set the model back to running: the one path
 * by which a root could say done while its model read running with its request answered, as a
 * fresh clone's notebook check once saw in horn-36.)
 */
function startRun(model: WidgetModel, root: HTMLElement): ViewRun {
  const request = Number(model.get('request') ?? 0);
  const answers = model.get('answered') !== request;
  root.dataset.status = 'running';
  if (answers) setAll(model, { status: 'running', error: '' });
  return { request, answers };
}

/**
 * A run's end, in one step with no await: the answer's fields, `answered` and the root's status
 * set together, then sent to Python (publish), so the model, the root and Python agree as soon as
 * any of them says the request is answered. A view that only drew the request (startRun), or
 * whose request another view of the model answered first, sets its root alone.
 */
function finishRun(model: WidgetModel, root: HTMLElement, run: ViewRun, answer: Record<string, unknown>): void {
  if (run.answers && model.get('answered') !== run.request) {
    const { status, ...rest } = answer;
    setAll(model, { ...rest, answered: run.request, status }); // status last: a listener that sees done sees the rest
    publish(model, [...Object.keys(answer), 'answered']);
  }
  root.dataset.status = String(answer.status);
  root.dataset.request = String(run.request);
}

/**
 * A model that holds the answer to its request is done (or in error), never running: a state
 * update that says running for a request already answered (a sync that arrives after the answer,
 * seen in fresh clones' notebook checks: the root said done, the model running, answered ===
 * request) is stale, and the model takes its root's status again, in the page only. Returns the
 * listener's removal.
 */
function keepAnswered(model: WidgetModel, root: HTMLElement): () => void {
  const stale = () => {
    const request = model.get('request');
    if (model.get('status') === 'running' && model.get('answered') === request && root.dataset.request === String(request) && root.dataset.status !== 'running') {
      model.set('status', root.dataset.status);
    }
  };
  model.on('change:status', stale);
  return () => model.off('change:status', stale);
}

function renderRun(model: WidgetModel, el: HTMLElement): () => void {
  const root = widgetRoot(model, 'run');
  root.style.cssText = 'font:12px system-ui,sans-serif';
  const status = document.createElement('div');
  const view = document.createElement('div');
  root.append(status, view);
  el.append(root);
  let ctx: BrookContext | null = null;
  let queue = Promise.resolve();
  const run = () =>
    (queue = queue.then(async () => {
      const job = startRun(model, root);
      let answer: Record<string, unknown>;
      try {
        ctx ??= root.brookglContext = createContext();
        showStatus(status, `brookgl · ${ctx.caps.renderer}`);
        answer = { status: 'done', error: '', renderer: ctx.caps.renderer, ...(await runKernel(model, ctx, view)) };
      } catch (e) {
        const message = String((e as Error)?.message ?? e);
        showError(status, message);
        answer = { status: 'error', error: message, comparison: {}, ...(ctx ? { renderer: ctx.caps.renderer } : {}) };
      }
      finishRun(model, root, job, answer);
    }));
  model.on('change:request', run);
  const unstale = keepAnswered(model, root);
  run();
  return () => {
    model.off('change:request', run);
    unstale();
    if (ctx) releaseContext(ctx);
    root.remove();
  };
}

function renderEmbed(model: WidgetModel, el: HTMLElement): () => void {
  const root = widgetRoot(model, 'embed');
  el.append(root);
  const handle = embed(root, model.get('options') ?? { demo: 'filter' });
  const sync = () => {
    const state = JSON.stringify(handle.state);
    if (state === sent) return;
    sent = state;
    model.set('state', JSON.parse(state));
    model.set('trace', handle.passes.map((p) => ({ ...p })));
    publish(model, ['status', 'error', 'state', 'trace']);
  };
  let sent = '';
  handle.ready.then(
    () => {
      model.set('status', 'ready');
      root.dataset.status = 'ready';
      sync();
    },
    (e) => {
      root.dataset.status = 'error';
      model.set('status', 'error');
      model.set('error', String(e?.message ?? e));
      publish(model, ['status', 'error']);
    },
  );
  const timer = setInterval(() => handle.disposed || model.get('status') !== 'ready' || sync(), 1000);
  return () => {
    clearInterval(timer);
    handle.dispose();
    root.remove();
  };
}

/**
 * The context and run queue every puzzle check of the page shares: a notebook of puzzles shows
 * dozens of check widgets, and marimo renders them all at once — one WebGL context each passed
 * Chrome's limit (16), which loses the oldest mid-check. One context, one check at a time.
 */
let puzzleShared: { ctx: BrookContext | null; queue: Promise<void> } | null = null;

/** The 'app' kind: a library application (apps.ts) on arrays from Python, run once per request. */
function renderApp(model: WidgetModel, el: HTMLElement): () => void {
  const root = widgetRoot(model, 'app');
  root.style.cssText = 'font:12px system-ui,sans-serif';
  el.append(root);
  const shared = model.get('app') === 'puzzle' ? (puzzleShared ??= { ctx: null, queue: Promise.resolve() }) : null;
  let ctx: BrookContext | null = null;
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => (shared ? (shared.queue = shared.queue.then(work)) : (queue = queue.then(work)));
  const context = () => {
    if (!shared) return (ctx ??= createContext());
    if (!shared.ctx || shared.ctx.isLost) shared.ctx = createContext();
    return shared.ctx;
  };
  const run = () =>
    enqueue(async () => {
      const name = String(model.get('app'));
      const job = startRun(model, root);
      showStatus(root, `brookgl · ${name}: running`);
      let answer: Record<string, unknown>;
      try {
        const app = APPS[name];
        if (!app) throw new Error(`(brookgl) no app ${name} (apps: ${Object.keys(APPS).join(', ')})`);
        const ctx = (root.brookglContext = context());
        const arrays: Record<string, Float32Array | Int32Array | Uint32Array> = {};
        for (const [k, a] of Object.entries((model.get('arrays') ?? {}) as Record<string, ArrayIn>)) {
          const t = typed(a);
          if (t instanceof Uint8Array) throw new Error(`(brookgl) app ${name}: array ${k} is uint8; apps take float32, int32 or uint32 arrays`);
          arrays[k] = t;
        }
        const { value: out, passes } = await traced(ctx, () => app(ctx, arrays, model.get('options') ?? {}));
        const results: Record<string, ArrayIn> = {};
        for (const [k, r] of Object.entries(out.results)) {
          results[k] = { dtype: dtypeOf(r.data), shape: r.shape, data: new DataView(r.data.buffer, r.data.byteOffset, r.data.byteLength) };
        }
        answer = { status: 'done', error: '', renderer: ctx.caps.renderer, state: out.state, results, trace: passes.map((p) => ({ ...p })) };
        root.textContent = `brookgl · ${name} · ${ctx.caps.renderer} · ${passes.length} passes`;
        if (out.html !== undefined) root.insertAdjacentHTML('beforeend', out.html);
        else root.insertAdjacentHTML('beforeend', `<details><summary>pass trace (${passes.length})</summary>${traceTable(passes)}</details>`);
      } catch (e) {
        const message = String((e as Error)?.message ?? e);
        showError(root, message);
        answer = { status: 'error', error: message, ...(root.brookglContext ? { renderer: root.brookglContext.caps.renderer } : {}) };
      }
      finishRun(model, root, job, answer);
    });
  model.on('change:request', run);
  const unstale = keepAnswered(model, root);
  run();
  return () => {
    model.off('change:request', run);
    unstale();
    if (ctx) releaseContext(ctx); // never the puzzles' shared context: the page's other checks use it
    root.remove();
  };
}

/** anywidget's entry point. */
function render({ model, el }: { model: WidgetModel; el: HTMLElement }): () => void {
  const kind = model.get('kind');
  return kind === 'embed' ? renderEmbed(model, el) : kind === 'app' ? renderApp(model, el) : renderRun(model, el);
}

export default { render };
