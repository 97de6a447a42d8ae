"""brookgl in marimo: the quickstart's saxpy and filter demo through mo.ui.anywidget.

    marimo edit notebooks/marimo/quickstart.py     (with brookgl installed: pip install ./python)

A widget computes in the browser once marimo shows it; marimo then re-runs the cells that read
it (here the check cell, which reads `saxpy.value`), so no cell waits: the check shows
"waiting" until the browser's answer is there, then "ok".
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
def _(demo, mo, np, saxpy, x, y):
    # re-runs whenever a widget's front end reports (saxpy.value, demo.value)
    _answers = (saxpy.value.get('answered'), demo.value.get('state'))
    run, embed = saxpy.widget, demo.widget
    if not run.done or 'matches' not in embed.state:
        text = 'brookgl check: waiting'
    else:
        result = run.result('result')
        ok = np.array_equal(result, 2 * x + y) and embed.state['matches'] is True
        text = '\n'.join([f'renderer: {run.renderer}',
                          f"saxpy equal to numpy: {np.array_equal(result, 2 * x + y)} · filter embed agrees with the CPU: {embed.state['matches']}",
                          f"brookgl check: {'ok' if ok else 'FAILED'}"])
    mo.plain_text(text)
    return


if __name__ == "__main__":
    app.run()
