"""brookgl in Jupyter: Brook kernels on numpy arrays, run by the notebook's browser in WebGL2.

The computation happens in the browser that shows the notebook (the Python kernel has no GPU
context): arrays go to the page as binary buffers in an anywidget widget's model, the kernel
runs there, and the results come back through the model as numpy arrays::

    import numpy as np, brookgl
    w = brookgl.Run('''
        kernel void saxpy(float alpha, float x<>, float y<>, out float result<>) {
          result = alpha * x + y;
        }''', x=np.arange(1000, dtype=np.float32), y=np.ones(1000, np.float32), alpha=2.0,
        outputs={'result': 1000})
    w                                      # shows the result as a picture with the pass trace

    result = await w.result_async('result')   # a later cell: waits for the browser, a numpy array

Arguments are checked against the kernel's parameter list when the widget is made; errors the
browser finds (a compile error, with its line) are raised by ``result_async`` as ``BrookError``.
``brookgl.compare(...)`` (or ``Run(..., compare=True)``) runs the kernel on the GPU and on the
CPU backend and shows where they differ; ``await w.comparison_async()`` returns the report.
"""
from ._assets import widget_esm
from ._common import ArrayLike, Iter, iter, result_array
from ._kernel import BrookError, parse_kernels
from ._show import image, table
from ._tables import bench_table
from ._widget import App, Embed, PuzzleCheck, Run, check_puzzle, compare, read_ply

__version__ = "0.1.0"

__all__ = [
    "Run", "compare", "Embed", "App", "check_puzzle", "PuzzleCheck", "read_ply", "BrookError", "iter", "Iter", "result_array", "parse_kernels", "widget_esm",
    "ArrayLike", "bench_table", "image", "table",
]
