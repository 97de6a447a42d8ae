"""The anywidget widgets: Run (a Brook kernel on numpy arrays) and Embed (a live demo)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import anywidget
import traitlets

from ._assets import widget_esm
from ._common import output_shapes, result_array, split_args


class _Base(anywidget.AnyWidget):
    _esm = traitlets.Unicode().tag(sync=True)
    kind = traitlets.Unicode("run").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    renderer = traitlets.Unicode("").tag(sync=True)
    trace = traitlets.List().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(_esm=widget_esm(), **kwargs)


class Run(_Base):
    """A Brook kernel run on numpy arrays in the notebook's browser.

    ``Run(source, outputs={'result': n}, kernel=None, show=True, **args)``: ``args`` are the
    kernel's parameters by name — numpy arrays for streams and gathers (float32, int32 or uint32;
    a vector stream of k components as shape (n, k) or (h, w, k)), numbers or short lists for
    uniforms, ``brookgl.iter(a, b)`` for iterators. ``outputs`` gives each output's length n or
    (height, width). Once the widget is shown, ``status`` becomes 'done' and
    ``result(name)`` returns the output as a numpy array; ``trace`` lists the passes;
    ``rerun(**args)`` runs again with new arguments.
    """

    source = traitlets.Unicode().tag(sync=True)
    kernel = traitlets.Unicode("").tag(sync=True)
    arrays = traitlets.Dict().tag(sync=True)
    uniforms = traitlets.Dict().tag(sync=True)
    iters = traitlets.Dict().tag(sync=True)
    outputs = traitlets.Dict().tag(sync=True)
    show = traitlets.Bool(True).tag(sync=True)
    request = traitlets.Int(0).tag(sync=True)
    results = traitlets.Dict().tag(sync=True)

    def __init__(self, source: str, *, outputs: Dict[str, Any], kernel: Optional[str] = None, show: bool = True, **args):
        arrays, uniforms, iters = split_args(args)
        super().__init__(
            kind="run", source=source, kernel=kernel or "", outputs=output_shapes(outputs),
            arrays=arrays, uniforms=uniforms, iters=iters, show=show,
        )

    def rerun(self, **args) -> None:
        """Runs again, with ``args`` replacing the earlier arguments of the same names."""
        arrays, uniforms, iters = split_args(args)
        self.arrays = {**self.arrays, **arrays}
        self.uniforms = {**self.uniforms, **uniforms}
        self.iters = {**self.iters, **iters}
        self.request += 1

    def result(self, name: str):
        """The output ``name`` as a numpy array (shape (n,), (n, k), (h, w) or (h, w, k))."""
        if self.status == "error":
            raise RuntimeError(f"brookgl: the kernel failed in the browser: {self.error}")
        if name not in self.results:
            raise LookupError(
                f"brookgl: no result {name!r} yet (status {self.status or 'not shown'}): display the widget, "
                "then read it in a later cell"
            )
        return result_array(self.results[name])


class Embed(_Base):
    """A live demo (``demo``: 'filter', 'fluid', 'nbody' or 'dem') with its controls and pass
    trace; ``state`` mirrors the numbers it shows (synced once a second)."""

    options = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)

    def __init__(self, demo: str = "filter", **options):
        super().__init__(kind="embed", options={"demo": demo, **options})
