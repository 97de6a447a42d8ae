"""Harris & Buck, "GPU Flow-Control Idioms" (GPU Gems 2, ch. 34) in marimo: Listing 34-1's
landlocked cells as a Brook kernel, checked against numpy, and the fluid demo (mo.ui.anywidget).
The Jupyter notebook notebooks/jupyter/harris-buck-34.ipynb has the whole chapter."""
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import numpy as np
    import brookgl
    return brookgl, mo, np


@app.cell
def _(mo):
    mo.md(r'''
    # Harris & Buck, "GPU Flow-Control Idioms"

    Listing 34-1 marks the fluid's landlocked cells (all four neighbours are obstacles), so later
    passes can skip them by z-cull. The same test as a Brook kernel writes a flag per cell.
    ''')
    return


@app.cell
def _(brookgl, mo, np):
    h, w = 48, 64
    yy, xx = np.mgrid[0:h, 0:w]
    obstacles = (((xx - 36) ** 2 + (yy - 24) ** 2) < 14 ** 2).astype(np.float32)
    obstacles[5:40, 12:15] = 1
    landlocked = mo.ui.anywidget(brookgl.Run('''
kernel void landlocked(float obstacles[], out float flag<>) {
  float4 bounds = float4(obstacles(brook_pos - ivec2(1, 0)), obstacles(brook_pos + ivec2(1, 0)),
                         obstacles(brook_pos - ivec2(0, 1)), obstacles(brook_pos + ivec2(0, 1)));
  flag = dot(bounds, float4(1, 1, 1, 1)) >= 4.0 ? 1.0 : 0.0;
}''', outputs={'flag': (h, w)}, obstacles=obstacles))
    landlocked
    return landlocked, obstacles


@app.cell
def _(brookgl, mo):
    fluid = mo.ui.anywidget(brookgl.Embed('fluid', size=64))
    fluid
    return (fluid,)


@app.cell
def _(fluid, landlocked, mo, np, obstacles):
    _answers = (landlocked.value.get('answered'), fluid.value.get('state'))
    run, demo = landlocked.widget, fluid.widget
    if not run.done or demo.state.get('steps', 0) < 1:
        text = 'brookgl check: waiting'
    else:
        flag = run.result('flag')
        p = np.pad(obstacles, 1)
        want = ((p[1:-1, :-2] + p[1:-1, 2:] + p[:-2, 1:-1] + p[2:, 1:-1]) >= 4).astype(np.float32)
        ok = np.array_equal(flag, want)
        text = '\n'.join([f"landlocked cells: {int(want.sum())} · equal to numpy: {ok} · fluid stepping: {demo.state['steps'] >= 1}",
                          f"brookgl check: {'ok' if ok else 'FAILED'}"])
    mo.plain_text(text)
    return


if __name__ == "__main__":
    app.run()
