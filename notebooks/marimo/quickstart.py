"""brookgl in marimo: the quickstart's saxpy, filter demo and GPU-against-CPU comparison through mo.ui.anywidget.

    marimo edit notebooks/marimo/quickstart.py     (with brookgl installed: pip install ./python)

A widget computes in the browser once marimo shows it; marimo then re-runs the cells that read
it (here the comparison's report and the check cell, which read `add8.value` and `saxpy.value`),
so no cell waits: the check shows "waiting" until the browser's answers are there, then "ok".
"""
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import numpy as np
    import brookgl
    return brookgl, mo, np


@app.cell
def _(brookgl, mo, np):
    n = 4096
    x = (np.arange(n) % 1000).astype(np.float32)
    y = np.ones(n, dtype=np.float32)
    saxpy = mo.ui.anywidget(brookgl.Run('''
kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) {
  result = alpha * x + y;
}''', outputs={'result': n}, x=x, y=y, alpha=2.0))
    saxpy
    return saxpy, x, y


@app.cell
def _(brookgl, mo):
    demo = mo.ui.anywidget(brookgl.Embed('filter', n=4096, density=0.3, method='scan-multipass'))
    demo
    return (demo,)


@app.cell
def _(mo):
    mo.md(
        """
        ## The GPU against the CPU backend

        `brookgl.compare(...)` runs a kernel on the GPU and on brookgl's CPU backend (the same kernel
        as JavaScript) and compares them record by record: floats within `ulps` units in the last
        place, ints and 8-bit records exactly. The widget draws the output and a diff view
        (differing records orange) and lists the first differing records. 8-bit sums differ by
        design: past 255 a GPU texture saturates, BrookGPU's CPU backend wrapped modulo 256, as
        brookgl's does.
        """
    )
    return


@app.cell
def _(brookgl, mo, np):
    a8 = np.arange(0, 256, 8, dtype=np.uint8)
    b8 = np.full(32, 100, np.uint8)
    add8 = mo.ui.anywidget(brookgl.compare('''
kernel void add8(uchar a<>, uchar b<>, out uchar c<>) {
  c = a + b;
}''', outputs={'c': 32}, a=a8, b=b8))
    add8
    return a8, add8, b8


@app.cell
def _(add8, mo):
    # the comparison's report (compareBackends' in the browser), once the widget has answered (add8.value)
    _answered = add8.value.get('answered')
    if not add8.widget.done:
        _text = 'comparison: waiting'
    elif add8.widget.status == 'error':
        _text = f'comparison failed in the browser: {add8.widget.error}'
    else:
        _report = dict(add8.widget.comparison)
        _c8 = _report['outputs']['c']
        _text = '\n'.join([f"GPU: {_report['renderer']} · CPU: {_report['cpu']}",
                           f"{_c8['differing']} of {_c8['records']} records differ; the first: {_c8['first'][0]}"])
    mo.plain_text(_text)
    return


@app.cell
def _(a8, add8, b8, demo, mo, np, saxpy, x, y):
    # re-runs whenever a widget's front end reports (saxpy.value, demo.value, add8.value)
    _answers = (saxpy.value.get('answered'), demo.value.get('state'), add8.value.get('answered'))
    run, embed, cmp8 = saxpy.widget, demo.widget, add8.widget
    if not run.done or 'matches' not in embed.state or not cmp8.done:
        text = 'brookgl check: waiting'
    else:
        result = run.result('result')
        ok_saxpy = np.array_equal(result, 2 * x + y)
        ok_demo = embed.state['matches'] is True
        # the comparison against numpy: the records whose 8-bit sum passes 255, the first five listed, both answers
        c8 = dict(cmp8.comparison).get('outputs', {}).get('c', {}) if cmp8.status == 'done' else {}
        over = np.flatnonzero(a8.astype(int) + b8 > 255)
        first = c8.get('first') or [{}]
        ok_compare = (c8.get('differing') == len(over) and [d.get('record') for d in c8.get('first', [])] == over[:5].tolist()
                      and first[0].get('gpu') == [255] and first[0].get('cpu') == [(int(a8[over[0]]) + int(b8[over[0]])) % 256])
        ok = ok_saxpy and ok_demo and ok_compare
        text = '\n'.join([f'renderer: {run.renderer}',
                          f"saxpy equal to numpy: {ok_saxpy} · filter embed agrees with the CPU: {ok_demo}",
                          f"GPU against CPU (8-bit sums saturate against wrap): {ok_compare}",
                          f"brookgl check: {'ok' if ok else 'FAILED'}"])
    mo.plain_text(text)
    return


if __name__ == "__main__":
    app.run()
