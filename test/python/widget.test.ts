// The Jupyter widget's ES module (python/js/widget.ts) driven through a local model that follows
// anywidget's model interface (get, set, on, off, save_changes, send). It checks the module's side
// of the protocol — binary arrays in, the answer sent to Python as one custom message with binary
// buffers, the trace, errors, cleanup; scripts/jupyter.mjs runs it in real anywidget front ends.
import { expect } from 'chai';
import widget, { WidgetModel } from '../../python/js/widget';
import { HIGHLIGHT } from '../../src/index';

class LocalModel implements WidgetModel {
  saved = 0;
  sent: Array<{ content: any; buffers: ArrayBufferView[] }> = [];
  private listeners = new Map<string, Set<() => void>>();
  constructor(public values: Record<string, unknown>) {}
  get(name: string) {
    return this.values[name];
  }
  set(name: string, value: unknown) {
    if (this.values[name] === value) return; // as Backbone: no change, no event
    this.values[name] = value;
    this.listeners.get(`change:${name}`)?.forEach((f) => f());
  }
  save_changes() {
    this.saved++;
  }
  send(content: unknown, _callbacks?: unknown, buffers: ArrayBufferView[] = []) {
    this.sent.push({ content, buffers });
  }
  on(event: string, f: () => void) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(f);
  }
  off(event?: string | null, f?: (() => void) | null) {
    if (!event) this.listeners.clear();
    else if (f) this.listeners.get(event)?.delete(f);
    else this.listeners.delete(event);
  }
  /** Resolves when `status` becomes one of `states`. */
  until(...states: string[]): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (states.includes(this.values.status as string)) {
          this.off('change:status', check);
          resolve();
        }
      };
      this.on('change:status', check);
      check();
    });
  }
}

/** A numpy-like array message: {dtype, shape, data: DataView} as ipywidgets delivers binary. */
const message = (a: Float32Array | Int32Array | Uint8Array, shape: number[]) => ({
  dtype: a instanceof Float32Array ? 'float32' : a instanceof Uint8Array ? 'uint8' : 'int32',
  shape,
  data: new DataView(a.buffer),
});

/** Resolves once `ready()` holds (checked every 20 ms), or fails after 20 s. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (const until = performance.now() + 20_000; !ready(); ) {
    if (performance.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('python/js/widget (anywidget protocol, local model)', () => {
  let el: HTMLElement;
  beforeEach(() => document.body.append((el = document.createElement('div'))));
  afterEach(() => el.remove());

  it('runs a Brook kernel on binary arrays and returns binary results equal to the CPU', async () => {
    const n = 3000;
    const x = Float32Array.from({ length: n }, (_, i) => (i % 100) / 4);
    const v = Float32Array.from({ length: 6 * 5 * 4 }, (_, i) => i - 60);
    const model = new LocalModel({
      kind: 'run',
      source: `kernel void twice(float a, float x<>, out float y<>) { y = a * x + 1.0; }
               kernel void flip(float4 v<>, out float4 o<>) { o = v.wzyx * 2.0; }`,
      kernel: 'twice',
      arrays: { x: message(x, [n]), v: message(v, [6, 5, 4]) },
      uniforms: { a: 3 },
      outputs: { y: n },
      request: 0,
    });
    const cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    const y = model.values.results as Record<string, { dtype: string; shape: number[]; data: DataView }>;
    expect(y.y!.dtype).to.equal('float32');
    expect(y.y!.shape).to.deep.equal([n]);
    const got = new Float32Array(y.y!.data.buffer, y.y!.data.byteOffset, n);
    for (let i = 0; i < n; i++) expect(got[i], `y[${i}]`).to.equal(Math.fround(3 * x[i]! + 1));
    expect((model.values.trace as unknown[]).length).to.equal(1);
    expect(el.querySelectorAll('figure').length).to.equal(1);
    // what Python receives: one message, the result's bytes as buffer 0
    const answer = model.sent.at(-1)!;
    expect(answer.content.brookgl).to.equal('state');
    expect(answer.content.state.status).to.equal('done');
    expect(answer.content.state.answered).to.equal(0);
    expect(answer.content.state.results.y).to.deep.equal({ dtype: 'float32', shape: [n], buffer: 0 });
    const sent = answer.buffers[0]!;
    expect(new Float32Array(sent.buffer, sent.byteOffset, n)[7]).to.equal(Math.fround(3 * x[7]! + 1));

    // run the other kernel on the 2D float4 stream: numpy shape (6, 5, 4) in and out
    model.values.kernel = 'flip';
    model.values.outputs = { o: [6, 5] };
    model.values.uniforms = {};
    model.values.arrays = { v: message(v, [6, 5, 4]) };
    model.values.status = '';
    model.set('request', 1);
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    const o = (model.values.results as Record<string, { shape: number[]; data: DataView }>).o!;
    expect(o.shape).to.deep.equal([6, 5, 4]);
    const flipped = new Float32Array(o.data.buffer, o.data.byteOffset, 120);
    for (let i = 0; i < 120; i++) expect(flipped[i], `o[${i}]`).to.equal(2 * v[(i & ~3) + 3 - (i & 3)]!);
    cleanup();
    expect(el.children.length).to.equal(0);
  });

  it("sets a run's answer in one step (done only with answered and results), and a view rendered after the answer only draws it", async () => {
    const n = 64;
    const x = Float32Array.from({ length: n }, (_, i) => i);
    const model = new LocalModel({
      kind: 'run',
      source: 'kernel void k(float x<>, out float y<>) { y = x + 0.5; }',
      arrays: { x: message(x, [n]) },
      outputs: { y: n },
      request: 0,
      answered: -1,
    });
    // every status the model takes, with what the model and the first view's root say at that moment
    const seen: Array<{ status: unknown; answered: unknown; results: number; dom: string | undefined }> = [];
    const rootOf = (i: number) => el.querySelectorAll<HTMLElement>('.brookgl-widget')[i];
    model.on('change:status', () => seen.push({ status: model.values.status, answered: model.values.answered, results: Object.keys((model.values.results ?? {}) as object).length, dom: rootOf(0)?.dataset.status }));
    const first = widget.render({ model, el });
    await model.until('done', 'error');
    expect(seen.map((s) => s.status)).to.deep.equal(['running', 'done']);
    expect(seen[1], 'when the model says done').to.deep.equal({ status: 'done', answered: 0, results: 1, dom: 'running' });
    expect(rootOf(0)!.dataset.status, 'the root says done in the same step').to.equal('done');
    expect(model.sent.length).to.equal(1);
    // a second view of the answered model (a front end rendering the output again): it draws the
    // answer and leaves the model, and Python, as they were
    const second = widget.render({ model, el });
    await waitFor(() => rootOf(1)!.dataset.status === 'done');
    expect(rootOf(1)!.querySelectorAll('figure').length, 'the second view drew the output').to.equal(1);
    expect(seen.length, 'the model stayed done').to.equal(2);
    expect(model.values.status).to.equal('done');
    expect(model.sent.length, 'nothing sent again').to.equal(1);
    // a new request: both views run it, the model is answered (and Python told) once
    model.set('request', 1);
    await waitFor(() => seen.length === 4 && [0, 1].every((k) => rootOf(k)!.dataset.status === 'done'));
    expect(seen.slice(2).map((s) => [s.status, s.answered])).to.deep.equal([['running', 0], ['done', 1]]);
    expect(model.sent.length).to.equal(2);
    expect(model.sent[1]!.content.state).to.include({ status: 'done', answered: 1 });
    // a stale update that says running for the request already answered (a sync arriving after
    // the answer): the model takes its views' status again, and nothing is run or sent
    model.set('status', 'running');
    expect(model.values.status, 'a stale running is undone').to.equal('done');
    expect(model.sent.length, 'nothing sent for it').to.equal(2);
    expect([0, 1].map((k) => rootOf(k)!.dataset.status)).to.deep.equal(['done', 'done']);
    second();
    first();
  });

  it('takes 8-bit (char, uchar, fixed) streams as uint8 bytes and returns char outputs as uint8', async () => {
    // what brookgl.Run sends for a uint8 numpy array (python/brookgl/_kernel.py convert_array)
    const [h, w] = [6, 7];
    const photo = Uint8Array.from({ length: h * w * 4 }, (_, i) => (i * 37 + 11) % 256);
    const mask = Uint8Array.from({ length: h * w }, (_, i) => (i * 53) % 256);
    const model = new LocalModel({
      kind: 'run',
      source: `kernel void invert(uchar4 c<>, fixed m<>, out uchar4 o<>, out float f<>) {
                 o = 1.0 - c;
                 f = m;
               }`,
      arrays: { c: message(photo, [h, w, 4]), m: message(mask, [h, w]) },
      outputs: { o: [h, w], f: [h, w] },
      request: 0,
    });
    const cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    const results = model.values.results as Record<string, { dtype: string; shape: number[]; data: DataView }>;
    expect(results.o!.dtype).to.equal('uint8');
    expect(results.o!.shape).to.deep.equal([h, w, 4]);
    expect(results.o!.data.byteLength).to.equal(h * w * 4);
    const o = new Uint8Array(results.o!.data.buffer, results.o!.data.byteOffset, h * w * 4);
    for (let i = 0; i < o.length; i++) expect(o[i], `o[${i}]`).to.equal(255 - photo[i]!);
    expect(results.f!.dtype).to.equal('float32');
    const f = new Float32Array(results.f!.data.buffer, results.f!.data.byteOffset, h * w);
    for (let i = 0; i < f.length; i++) expect(Math.abs(f[i]! - mask[i]! / 255), `f[${i}]`).to.be.at.most(2 ** -23);
    // what Python receives: the bytes, dtype uint8
    const answer = model.sent.at(-1)!;
    expect(answer.content.state.results.o).to.deep.equal({ dtype: 'uint8', shape: [h, w, 4], buffer: answer.content.state.results.o.buffer });
    expect(answer.buffers[answer.content.state.results.o.buffer]!.byteLength).to.equal(h * w * 4);
    cleanup();
  });

  it("compares the GPU with the CPU backend (compare: brookgl.compare): compareBackends' report to Python, a diff view highlighting exactly the differing records", async () => {
    // 8-bit sums: the GPU saturates at 255, the CPU backend wraps (BrookGPU's CPU backend)
    const n = 40;
    const a = Uint8Array.from({ length: n }, (_, i) => i * 6);
    const b = Uint8Array.from({ length: n }, () => 100);
    const over = Array.from(a).flatMap((x, i) => (x + b[i]! > 255 ? [i] : []));
    const model = new LocalModel({
      kind: 'run',
      source: 'kernel void add8(uchar a<>, uchar b<>, out uchar c<>) { c = a + b; }',
      arrays: { a: message(a, [n]), b: message(b, [n]) },
      outputs: { c: n },
      compare: { ulps: 4, abs: 0, first: 3 },
      request: 0,
    });
    const cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    const report = model.sent.at(-1)!.content.state.comparison;
    expect(report.ok).to.equal(false);
    expect(report.cpu).to.equal('brookgl CPU (JavaScript)');
    expect(report.tolerance).to.deep.equal({ ulps: 4, abs: 0 });
    expect(report.outputs.c.records).to.equal(n);
    expect(report.outputs.c.differing).to.equal(over.length);
    expect(report.outputs.c.first.map((d: { record: number }) => d.record)).to.deep.equal(over.slice(0, 3));
    const d = report.outputs.c.first[0];
    expect([d.gpu, d.cpu, d.inputs]).to.deep.equal([[255], [(a[over[0]!]! + 100) & 255], { a: [a[over[0]!]], b: [100] }]);
    expect(JSON.parse(JSON.stringify(report))).to.deep.equal(report); // plain JSON for Python
    // the results are the GPU's (saturated)
    const c = model.values.results as Record<string, { data: DataView }>;
    expect(new Uint8Array(c.c!.data.buffer, c.c!.data.byteOffset, n)[over[0]!]).to.equal(255);
    // shown: the output, its diff view with exactly the differing records orange, the first ones listed
    const figures = el.querySelectorAll('figure');
    expect(figures.length).to.equal(2);
    const diff = figures[1]!.querySelector('canvas')!; // the picture (a colour bar follows it)
    const px = diff.getContext('2d')!.getImageData(0, 0, diff.width, diff.height).data;
    let lit = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] === HIGHLIGHT[0] && px[i + 1] === HIGHLIGHT[1] && px[i + 2] === HIGHLIGHT[2]) lit++;
    expect(lit).to.equal(over.length);
    expect(el.querySelector('.brookgl-comparison')!.textContent).to.include(`differ on ${over.length} of ${n} records of c`);
    expect(el.querySelectorAll('table.bench tbody tr').length).to.equal(3);
    // compare off again: GPU only, the report emptied
    model.values.compare = {};
    model.values.status = '';
    model.set('request', 1);
    await model.until('done', 'error');
    expect(model.sent.at(-1)!.content.state.comparison).to.deep.equal({});
    expect(el.querySelectorAll('figure').length).to.equal(1);
    cleanup();
  });

  it('reports a bad argument as an error, naming it', async () => {
    const model = new LocalModel({
      kind: 'run',
      source: 'kernel void k(float4 v<>, out float o<>) { o = v.x; }',
      arrays: { v: message(new Float32Array(12), [12]) },
      outputs: { o: 3 },
    });
    const cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.status).to.equal('error');
    expect(model.values.error).to.match(/array v: a float4 stream wants numpy shape \(n, 4\)/);
    cleanup();
  });

  it('shows a compile error with its numbered kernel lines on lines of their own, and a later good run without the error style', async () => {
    const model = new LocalModel({
      kind: 'run',
      source: 'kernel void k(float x<>, out float y<>) {\n  float z = x * 2.0;\n  y = z * undeclared;\n}',
      arrays: { x: message(new Float32Array(4), [4]) },
      outputs: { y: 4 },
      request: 0,
    });
    const cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.status).to.equal('error');
    const status = el.querySelector('.brookgl-widget > div') as HTMLElement;
    // innerText follows the CSS: with white-space collapsed, the message would be one line
    const shown = status.innerText.split('\n');
    expect(getComputedStyle(status).whiteSpace).to.equal('pre-wrap');
    // the front end's message: the line, the line quoted, a caret under the column
    expect(shown[0]).to.match(/kernel k, line 3: 'undeclared' is not declared$/);
    expect(shown).to.include.members(['>3|   y = z * undeclared;']);
    const caret = shown.find((l) => /^\s+\^ \(column 11\)$/.test(l)) ?? '';
    expect(caret.indexOf('^'), shown.join('\n')).to.equal('>3|   y = z * undeclared;'.indexOf('undeclared'));
    expect(getComputedStyle(status).color).to.equal('rgb(176, 0, 32)');
    model.values.source = 'kernel void k(float x<>, out float y<>) { y = x + 1.0; }';
    model.values.status = '';
    model.set('request', 1);
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    expect(status.innerText).to.match(/^brookgl · /);
    expect(getComputedStyle(status).color).not.to.equal('rgb(176, 0, 32)');
    expect(getComputedStyle(status).whiteSpace).to.equal('normal');
    cleanup();
  });

  it('stops the trace when a run or an app fails mid-way (tracing was left on)', async () => {
    const root = () => el.querySelector('.brookgl-widget') as HTMLElement & { brookglContext?: { trace: { active: boolean; length: number } } };
    // the shader fails to compile inside ctx.run, after the trace started
    const model = new LocalModel({
      kind: 'run',
      source: 'kernel void k(float x<>, out float y<>) { y = x * undeclared; }',
      arrays: { x: message(new Float32Array(4), [4]) },
      outputs: { y: 4 },
      request: 0,
    });
    let cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.status).to.equal('error');
    expect(model.values.error).to.match(/undeclared/);
    expect(root().brookglContext, 'the widget made its context').to.not.equal(undefined);
    expect(root().brookglContext!.trace.active, 'trace still on after the failed run').to.equal(false);
    // the next run on the same context traces its own pass only
    model.values.source = 'kernel void k(float x<>, out float y<>) { y = x + 1.0; }';
    model.values.status = '';
    model.set('request', 1);
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    expect((model.values.trace as unknown[]).length).to.equal(1);
    expect(root().brookglContext!.trace.active).to.equal(false);
    cleanup();
    // an app that throws (an array it needs is missing) after the trace started
    const app = new LocalModel({ kind: 'app', app: 'collide', arrays: {}, options: {}, request: 0 });
    cleanup = widget.render({ model: app, el });
    await app.until('done', 'error');
    expect(app.values.error).to.match(/needs the array positions/);
    expect(root().brookglContext!.trace.active, 'trace still on after the failed app').to.equal(false);
    cleanup();
  });

  it('runs an app (collision of two cubes) and returns its pairs with the CPU check', async () => {
    // the cube of data/models/cube.ply: 8 corners, 12 triangles
    const positions = Float32Array.from([-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1]);
    const indices = Int32Array.from([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3]);
    const model = new LocalModel({ kind: 'app', app: 'collide', arrays: { positions: message(positions, [8, 3]), indices: message(indices, [12, 3]) }, options: { degrees: 30, offset: [1, 0.5, 0.25] }, request: 0 });
    const cleanup = widget.render({ model, el });
    await model.until('done', 'error');
    expect(model.values.error).to.equal('');
    const state = model.values.state as { pairs: number; same_as_brute_force: boolean; brute_force_pairs: number };
    expect(state.pairs).to.be.greaterThan(0);
    expect(state.same_as_brute_force).to.equal(true);
    expect((model.values.results as Record<string, { shape: number[] }>).pairs!.shape).to.deep.equal([state.pairs, 2]);
    cleanup();
  });

  it('mounts an embed and syncs its state; cleanup releases its context', async () => {
    const model = new LocalModel({ kind: 'embed', options: { demo: 'filter', n: 1024, density: 0.25 } });
    const cleanup = widget.render({ model, el });
    await model.until('ready', 'error');
    const state = model.values.state as { matches: boolean; count: number; expected: number };
    expect(state.matches).to.equal(true);
    expect(state.count).to.equal(state.expected);
    const canvasCount = el.querySelectorAll('.brookgl-embed').length;
    expect(canvasCount).to.equal(1);
    cleanup();
    expect(el.querySelectorAll('.brookgl-embed').length).to.equal(0);
  });
});
