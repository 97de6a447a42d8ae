"""The quickstart notebook's cells (make_notebooks.py writes them)."""
import nbformat as nbf

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell

SETUP = code("import numpy as np\nimport brookgl")

QUICKSTART = [
    md("""# brookgl in a notebook: a Brook kernel on numpy arrays

The kernel runs in **this page's browser** (WebGL2), not in the Python kernel: the arrays travel
to the page as binary buffers in the widget's model, the results come back the same way as numpy
arrays. `brookgl.Run(...)` and `brookgl.Embed(...)` are [anywidget](https://anywidget.dev)
widgets: JupyterLab 4, Notebook 7, marimo (`mo.ui.anywidget`), VS Code.

**Waiting for a result.** A widget computes once a front end shows it, after its cell has
finished. Its answer reaches Python as a message to the kernel, and the kernel reads such
messages only between cells — or while a cell *awaits*. So a later cell says
`await w.result_async('name')` (IPython's top-level `await`): "Run All" works, each cell waits
for the browser's answer before going on."""),
    SETUP,
    md("## saxpy, in the papers' Brook syntax"),
    code("""n = 4096
x = (np.arange(n) % 1000).astype(np.float32)
y = np.ones(n, dtype=np.float32)
saxpy = brookgl.Run('''
kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) {
  result = alpha * x + y;
}''', outputs={'result': n}, x=x, y=y, alpha=2.0)
saxpy"""),
    code("""result = await saxpy.result_async('result')
print('renderer:', saxpy.renderer)
print('result:', result.dtype, result.shape, result[:5])
print('passes:', len(saxpy.trace))
brookgl.image(result, 'result')"""),
    md("""## A 2D stream of float4 records

numpy shape `(height, width, 4)` is a 2D stream of `float4`; the output comes back the same way."""),
    code("""img = np.random.default_rng(1).random((24, 32, 4), dtype=np.float32)
swizzle = brookgl.Run('''
kernel void swizzle(float4 v<>, out float4 o<>) {
  o = v.wzyx * 2.0;
}''', outputs={'o': (24, 32)}, v=img)
swizzle"""),
    code("""o = await swizzle.result_async('o')
print('o:', o.dtype, o.shape)
brookgl.image(o[..., :3] / 2, 'o.rgb / 2')"""),
    md("""## 8-bit streams: an image of bytes

BrookGPU's `char`, `uchar` and `fixed` types are 8-bit streams: numpy `uint8` arrays here. A kernel
reads each byte `b` as the float `b / 255`, and what it writes to a `char` output is clamped to
[0, 1] and rounded to the nearest byte; the output comes back as `uint8`."""),
    code("""photo = np.random.default_rng(2).integers(0, 256, (24, 32, 4), dtype=np.uint8)
invert = brookgl.Run('''
kernel void invert(uchar4 c<>, out uchar4 o<>) {
  o = 1.0 - c;
}''', outputs={'o': (24, 32)}, c=photo)
invert"""),
    code("""inverted = await invert.result_async('o')
print('inverted:', inverted.dtype, inverted.shape, inverted[0, 0], 'from', photo[0, 0])
brookgl.image(inverted[..., :3] / 255, '255 - photo (rgb)')"""),
    md("""## The GPU against the CPU backend

`brookgl.compare(...)` runs a kernel on the GPU and on brookgl's CPU backend (the same kernel as
JavaScript) and compares them record by record: floats within `ulps` units in the last place, ints
and 8-bit records exactly. The widget draws the output and a diff view (differing records orange)
and lists the first differing records. 8-bit sums differ by design: past 255 a GPU texture
saturates, BrookGPU's CPU backend wrapped modulo 256, as brookgl's does."""),
    code("""a8 = np.arange(0, 256, 8, dtype=np.uint8)
b8 = np.full(32, 100, np.uint8)
add8 = brookgl.compare('''
kernel void add8(uchar a<>, uchar b<>, out uchar c<>) {
  c = a + b;
}''', outputs={'c': 32}, a=a8, b=b8)
add8"""),
    code("""report = await add8.comparison_async()
c8 = report['outputs']['c']
print('GPU:', report['renderer'], '· CPU:', report['cpu'])
print(c8['differing'], 'of', c8['records'], 'records differ; the first:', c8['first'][0])"""),
    md("""## Bad input is an exception, not an empty widget

Arguments are checked against the kernel's parameter list when the widget is made (the message
quotes the parameter's line); what only the browser can find, like a compile error, is raised by
`result_async` with the compiler's line."""),
    code("""try:
    brookgl.Run('''kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) {
  result = alpha * x + y;
}''', outputs={'result': n}, x=np.arange(n), y=y, alpha=2.0)     # int64 x for a float stream
except brookgl.BrookError as e:
    print(e)"""),
    code("""broken = brookgl.Run('''
kernel void broken(float x<>, out float result<>) {
  result = x * undefined_name;
}''', outputs={'result': n}, x=x)
broken"""),
    code("""try:
    await broken.result_async()
except brookgl.BrookError as e:
    print(str(e)[:300])"""),
    md("""## A live demo: Horn's stream filter, every pass drawn

`Embed` mounts one of brookgl's demos; the numbers it shows come back as `state`."""),
    code("demo = brookgl.Embed('filter', n=4096, density=0.3, method='scan-multipass')\ndemo"),
    code("""state = await demo.state_async(lambda s: 'matches' in s)
brookgl.table(['method', 'records', 'kept', 'CPU reference agrees'], [[state['method'], state['n'], state['count'], state['matches']]])"""),
    md("""## Exercise

Change the kernel below to compute `alpha * x * x + y` (a new output `square`), then run it and
the check cell. The cell holds one answer: change it (another formula, another `alpha`) and the
check cell recomputes the expected values with numpy from `ALPHA`."""),
    code("""ALPHA = 0.5
exercise = brookgl.Run('''
kernel void square(float alpha, float x<>, float y<>, out float square<>) {
  square = alpha * x * x + y;
}''', outputs={'square': n}, x=x, y=y, alpha=ALPHA)
exercise"""),
    md("## Check: the browser's results against numpy on the CPU"),
    code("""square = await exercise.result_async('square')
ok_saxpy = np.array_equal(result, 2 * x + y)
ok_swizzle = o.shape == img.shape and np.array_equal(o, img[..., ::-1] * np.float32(2))
ok_bytes = inverted.dtype == np.uint8 and np.array_equal(inverted, 255 - photo)
ok_error = broken.status == 'error' and 'line' in broken.error
ok_demo = state['matches'] is True and state['count'] == state['expected']
ok_exercise = np.allclose(square, np.float32(ALPHA) * x * x + y, rtol=1e-6)
over = np.flatnonzero(a8.astype(int) + b8 > 255)
ok_compare = c8['differing'] == len(over) and [d['record'] for d in c8['first']] == over[:5].tolist() and c8['first'][0]['gpu'] == [255] and c8['first'][0]['cpu'] == [(int(a8[over[0]]) + 100) % 256]
print('saxpy equal to numpy:', ok_saxpy, '· swizzle:', ok_swizzle, '· 8-bit invert:', ok_bytes, '· compile error reported:', ok_error)
print('filter embed agrees with the CPU:', ok_demo, '· exercise:', ok_exercise, '· GPU against CPU (8-bit sums saturate against wrap):', ok_compare)
print('brookgl check:', 'ok' if ok_saxpy and ok_swizzle and ok_bytes and ok_error and ok_demo and ok_exercise and ok_compare else 'FAILED')"""),
]
