"""brookgl in Jupyter: Brook kernels on numpy arrays, run by the notebook's browser in WebGL2.

The computation happens in the browser that shows the notebook (the Python kernel has no GPU
context): arrays go to the page as binary buffers, the kernel runs there, and the results come
back as numpy arrays.

Widgets (anywidget; JupyterLab, Notebook 7, VS Code, Colab)::

    import numpy as np, brookgl
    w = brookgl.Run('''
        kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) {
          result = alpha * x + y;
        }''', x=np.arange(1000, dtype=np.float32), y=np.ones(1000, np.float32), alpha=2.0,
        outputs={'result': 1000})
    w                      # displays the result as a picture with the pass trace
    w.result('result')     # a later cell: the numpy array

Plain HTML outputs (no widget machinery; results return to Python where a Jupyter server serves the page)::

    brookgl.load()                        # once: defines the module in the page
    r = brookgl.html_run(source, outputs={'result': 1000}, x=..., y=..., alpha=2.0)
    r                                     # shows it; r.result('result') in a later cell
"""
from ._common import ArrayLike, Iter, array_message, iter, result_array
from ._html import HtmlRun, html_embed, html_run, load
from ._assets import widget_esm, widget_iife
from ._tables import bench_table

__version__ = "0.1.0"

try:  # the widgets need anywidget (pip install "brookgl[widget]")
    from ._widget import Embed, Run
except ImportError as _missing:  # pragma: no cover - depends on the environment
    _reason = str(_missing)

    def Run(*args, **kwargs):  # type: ignore[no-redef]
        raise ImportError(
            f"brookgl.Run needs anywidget ({_reason}): pip install anywidget, "
            "or use brookgl.load() and brookgl.html_run(...) in a plain HTML output"
        )

    def Embed(*args, **kwargs):  # type: ignore[no-redef]
        raise ImportError(
            f"brookgl.Embed needs anywidget ({_reason}): pip install anywidget, "
            "or use brookgl.load() and brookgl.html_embed(...)"
        )

__all__ = [
    "Run", "Embed", "HtmlRun", "html_run", "html_embed", "load", "iter", "Iter",
    "array_message", "result_array", "widget_esm", "widget_iife", "ArrayLike", "bench_table",
]
