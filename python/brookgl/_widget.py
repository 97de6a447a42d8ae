"""The anywidget widgets: Run (a Brook kernel on numpy arrays) and Embed (a live demo).

The computation happens in the browser that shows the widget: the arrays go to the front end as
binary buffers in the widget's model, the kernel runs there (WebGL2), and the results come back
through the same model (``results``: dtype, shape and the bytes as a buffer).

Waiting for a result: a cell that creates a widget returns before the browser has run anything
(the front end renders the widget only once the cell's output arrives). The widget's answer is a
comm message to the kernel, and ipykernel handles shell messages one at a time: while a later
cell of "Run All" runs, or sleeps in a loop, the answer waits in the queue behind it. A cell that
*awaits* (IPython's top-level ``await``) gives the kernel's event loop back, and ipykernel (7.x)
dispatches comm messages that arrive while an async cell is waiting. So::

    w = brookgl.Run(...); w            # cell 1: shows the widget
    out = await w.result_async('out')  # cell 2: waits for the browser's answer

works in "Run All". ``w.result('out')`` (no await) reads what has arrived already.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, Optional, Union

import anywidget
import numpy as np
import traitlets

from ._assets import puzzle_numbers, widget_esm
from ._common import Iter, result_array
from ._kernel import BrookError, convert_array, convert_output, parse_kernels, pick_kernel, record_shape

DEFAULT_TIMEOUT = 120.0


def _wire(a: np.ndarray) -> Dict[str, Any]:
    return {"dtype": a.dtype.name, "shape": list(a.shape), "data": memoryview(a.tobytes())}


_WIRE_DTYPES = ("float32", "int32", "uint32", "uint8")


def _results_from_wire(results, buffers) -> Dict[str, Any]:
    """The front end's ``results`` ({name: {dtype, shape, buffer}}) with each buffer index
    replaced by its bytes, or a BrookError saying what is wrong with the message."""
    if not isinstance(results, dict):
        raise BrookError(f"brookgl: the front end's answer is malformed: results is {type(results).__name__}, not a dict")
    out: Dict[str, Any] = {}
    for name, r in results.items():
        what = f"brookgl: the front end's answer is malformed: result {name!r}"
        if not isinstance(r, dict):
            raise BrookError(f"{what} is {type(r).__name__}, not {{dtype, shape, buffer}}")
        i = r.get("buffer")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(buffers):
            raise BrookError(f"{what} names buffer {i!r}, but the message carries {len(buffers)} buffer(s)")
        if r.get("dtype") not in _WIRE_DTYPES:
            raise BrookError(f"{what} has dtype {r.get('dtype')!r}, not one of {', '.join(_WIRE_DTYPES)}")
        dtype = np.dtype(r["dtype"])
        shape = r.get("shape")
        if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
            raise BrookError(f"{what} has shape {shape!r}, not a list of sizes")
        size = memoryview(buffers[i]).nbytes
        if size != dtype.itemsize * int(np.prod(shape, dtype=np.int64)):
            raise BrookError(f"{what}: {size} bytes in buffer {i} for a {dtype} array of shape {tuple(shape)}")
        out[name] = {"dtype": dtype.name, "shape": shape, "data": buffers[i]}
    return out


class _Base(anywidget.AnyWidget):
    _esm = traitlets.Unicode().tag(sync=True)
    kind = traitlets.Unicode("run").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    renderer = traitlets.Unicode("").tag(sync=True)
    trace = traitlets.List().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(_esm=widget_esm(), **kwargs)
        self.on_msg(self._from_front_end)

    def _from_front_end(self, _widget, content, buffers) -> None:
        """The front end's answer: one custom message, results' bytes as binary buffers (see
        python/js/widget.ts, publish, for why not the model's own sync)."""
        if not isinstance(content, dict) or content.get("brookgl") != "state":
            return
        state = dict(content.get("state") or {})
        if "results" in state:
            try:
                state["results"] = _results_from_wire(state["results"] or {}, buffers)
            except BrookError as e:
                # a malformed answer: an error the waiting cell raises at once (an exception here
                # would only be logged by the kernel, and the cell would wait until its timeout)
                answered = state.get("answered")
                state = {"status": "error", "error": str(e), "results": {},
                         "answered": answered if isinstance(answered, int) and not isinstance(answered, bool) else self.request}
        names = [n for n in state if self.has_trait(n) and n not in ("_esm", "kind")]
        with self.hold_trait_notifications():
            for name in names:
                setattr(self, name, state[name])

    async def _wait_until(self, ready: Callable[[], bool], names, timeout: Optional[float], what: str) -> None:
        if ready():
            return
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def changed(_change):
            if ready() and not done.done():
                loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

        self.observe(changed, names)
        try:
            await asyncio.wait_for(done, timeout)
        except asyncio.TimeoutError:
            raise BrookError(
                f"brookgl: no {what} after {timeout:g} s (status {self.status or 'not shown'}). The browser computes it "
                "when a front end shows the widget: make it the last expression of its cell (or display(w)); "
                "the answer reaches Python while a cell awaits only with ipykernel 7 or later"
            ) from None
        finally:
            self.unobserve(changed, names)


class Run(_Base):
    """A Brook kernel run on numpy arrays in the notebook's browser.

    ``Run(source, outputs={'result': n}, kernel=None, show=True, **args)``: ``args`` are the
    kernel's parameters by name — numpy arrays for streams ``<>`` and gathers ``[]`` (float
    types: float arrays, rounded to float32; int/uint types: integer arrays within 32 bits;
    char/uchar/fixed (8-bit) types: integer arrays of bytes 0 to 255, sent as uint8, read as
    b / 255 in the kernel, and char outputs come back as uint8; a vector type of k components as
    shape (n, k) or (h, w, k)), numbers or short lists for
    uniforms, ``brookgl.iter(a, b)`` for iterators. ``outputs`` gives each output's length n or
    (height, width). Arguments are checked here, against the kernel's parameter list: a wrong
    dtype, shape or name raises ``BrookError`` naming the parameter's line. Once a front end
    shows the widget, ``await w.result_async(name)`` returns the output as a numpy array (or
    raises the browser's ``BrookError``, e.g. a compile error with its line); ``trace`` lists
    the passes; ``rerun(**args)`` runs again with new arguments.
    """

    source = traitlets.Unicode().tag(sync=True)
    kernel = traitlets.Unicode("").tag(sync=True)
    arrays = traitlets.Dict().tag(sync=True)
    uniforms = traitlets.Dict().tag(sync=True)
    iters = traitlets.Dict().tag(sync=True)
    outputs = traitlets.Dict().tag(sync=True)
    show = traitlets.Bool(True).tag(sync=True)
    request = traitlets.Int(0).tag(sync=True)
    answered = traitlets.Int(-1).tag(sync=True)
    results = traitlets.Dict().tag(sync=True)
    #: ``{}`` (run on the GPU only) or the tolerance of a comparison with the CPU backend: ``{ulps, abs, first}``.
    compare = traitlets.Dict().tag(sync=True)
    #: compareBackends' report, once the browser has compared (see ``comparison_async``).
    comparison = traitlets.Dict().tag(sync=True)

    def __init__(self, source: str, *, outputs: Dict[str, Any], kernel: Optional[str] = None, show: bool = True,
                 compare: Union[bool, Dict[str, Any]] = False, **args):
        self._kernel = pick_kernel(parse_kernels(source), kernel)
        outs = self._outputs(outputs)
        arrays, uniforms, iters = self._convert(args, complete=True)
        super().__init__(
            kind="run", source=source, kernel=self._kernel.name, outputs=outs,
            arrays=arrays, uniforms=uniforms, iters=iters, show=show, compare=_compare_options(compare),
        )

    def _outputs(self, outputs: Dict[str, Any]) -> Dict[str, Any]:
        k = self._kernel
        if not isinstance(outputs, dict):
            raise BrookError(f"brookgl: outputs must be a dict {{name: n or (h, w)}} for kernel {k.name}'s out parameters")
        outs = [p for p in k.params if p.role == "out"]
        for name in outputs:
            if not any(p.name == name for p in outs):
                raise BrookError(f"brookgl: outputs names {name!r}, which is not an out parameter of kernel {k.name} (line {k.line}; out parameters: {', '.join(p.name for p in outs) or 'none'})")
        shapes: Dict[str, Any] = {}
        for p in outs:
            if p.name not in outputs:
                raise BrookError(f"brookgl: {p.where(k)}: give its shape in outputs={{'{p.name}': n or (h, w)}}")
            shapes[p.name] = convert_output(k, p, outputs[p.name])
        if len({tuple(s) for s in shapes.values()}) > 1:
            raise BrookError(f"brookgl: kernel {k.name} (line {k.line}): its outputs share one domain, but outputs has shapes {shapes}")
        return {n: s[0] if len(s) == 1 else s for n, s in shapes.items()}

    def _convert(self, args: Dict[str, Any], complete: bool):
        k = self._kernel
        arrays, uniforms, iters = {}, {}, {}
        for name, value in args.items():
            p = k.param(name)
            if p is None:
                raise BrookError(f"brookgl: kernel {k.name} (line {k.line}) has no parameter {name!r} (its parameters: {', '.join(q.name for q in k.params)})")
            if p.role == "out":
                raise BrookError(f"brookgl: {p.where(k)} is an output: give its shape in outputs={{'{name}': ...}}, not an argument")
            if p.role == "iter":
                if not isinstance(value, Iter):
                    raise BrookError(f"brookgl: {p.where(k)} is an iterator: pass brookgl.iter(start, end)")
                iters[name] = value.message()
            elif p.role in ("stream", "gather"):
                arrays[name] = _wire(convert_array(k, p, value))
            elif p.kind == "char":
                # the compiler refuses char constants too; say so here, in the cell that passes one
                raise BrookError(f"brookgl: {p.where(k)}: char types are 8-bit streams; declare the constant as float and pass a number in [0, 1] (b / 255)")
            else:
                if isinstance(value, np.generic):
                    value = value.item()
                if isinstance(value, (list, tuple, np.ndarray)) and np.ndim(value) >= 1 and 1 <= len(value) <= 4:
                    flat = np.asarray(value).ravel()
                    if p.kind in ("int", "uint") and not all(isinstance(v, (int, np.integer)) or float(v).is_integer() for v in flat.tolist()):
                        raise BrookError(f"brookgl: {p.where(k)} is {p.type}, got {value!r} (whole numbers only)")
                    value = [float(v) if p.kind == "float" else int(v) for v in flat.tolist()]
                    if p.components not in (0, len(value)):
                        raise BrookError(f"brookgl: {p.where(k)} wants {p.components} numbers, got {len(value)}")
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    if p.components > 1:
                        raise BrookError(f"brookgl: {p.where(k)} wants {p.components} numbers (a list), got {value!r}")
                    value = float(value) if p.kind == "float" else value
                    if p.kind in ("int", "uint") and not float(value).is_integer():
                        raise BrookError(f"brookgl: {p.where(k)} is {p.type}, got {value!r}")
                else:
                    raise BrookError(f"brookgl: {p.where(k)} is a uniform: pass a number or up to 4 numbers, got {type(value).__name__}")
                uniforms[name] = value
        if complete:
            missing = [p for p in k.params if p.role != "out" and p.name not in args]
            if missing:
                p = missing[0]
                what = "a numpy array" if p.role in ("stream", "gather") else "brookgl.iter(start, end)" if p.role == "iter" else "a number"
                raise BrookError(f"brookgl: {p.where(k)}: pass {p.name}=... ({what})")
        return arrays, uniforms, iters

    def __repr__(self) -> str:
        outs = ", ".join(f"{n} {tuple(v) if isinstance(v, list) else (v,)}" for n, v in self.outputs.items())
        return f"<brookgl.Run kernel {self.kernel} -> {outs}: computed by the browser that shows it>"

    def rerun(self, **args) -> None:
        """Runs again, with ``args`` replacing the earlier arguments of the same names."""
        arrays, uniforms, iters = self._convert(args, complete=False)
        with self.hold_sync():
            self.arrays = {**self.arrays, **arrays}
            self.uniforms = {**self.uniforms, **uniforms}
            self.iters = {**self.iters, **iters}
            self.request += 1

    @property
    def done(self) -> bool:
        """True once the browser has answered the latest request (with results or an error)."""
        return self.answered == self.request and self.status in ("done", "error")

    def result(self, name: Optional[str] = None):
        """The output ``name`` (default: the first) as a numpy array, shape (n,), (n, k), (h, w)
        or (h, w, k), if the browser has answered; see ``result_async`` to wait for it."""
        if self.status == "error" and self.answered == self.request:
            raise BrookError(f"brookgl: the kernel failed in the browser: {self.error}")
        if not self.done:
            raise LookupError(
                f"brookgl: no result yet (status {self.status or 'not shown'}): show the widget, then "
                "`await w.result_async(name)` in a later cell"
            )
        name = name or next(iter(self.outputs))
        if name not in self.results:
            raise BrookError(f"brookgl: kernel {self._kernel.name} has no output {name!r} (outputs: {', '.join(self.results)})")
        return result_array(self.results[name])

    async def result_async(self, name: Optional[str] = None, timeout: float = DEFAULT_TIMEOUT):
        """Waits (``await``) until the browser has run the latest request, then returns
        ``result(name)``; raises ``BrookError`` with the browser's message if it failed."""
        await self._wait_until(lambda: self.done, ["status", "answered"], timeout, "result")
        return self.result(name)

    async def comparison_async(self, timeout: float = DEFAULT_TIMEOUT) -> Dict[str, Any]:
        """Waits (``await``) until the browser has run the latest request on the GPU and on the
        CPU backend (a widget made with ``compare=``, or by ``brookgl.compare``), then returns
        compareBackends' report: ``ok``, ``renderer`` (the GPU's), ``cpu`` (the CPU backend's
        name), ``tolerance`` and per output ``{records, differing, first}``, ``first`` listing
        the first differing records (``record``, ``position``, ``gpu``, ``cpu``, ``ulps``,
        ``inputs``; a NaN or infinite number arrives as None)."""
        if not self.compare:
            raise BrookError(f"brookgl: this widget runs kernel {self.kernel} on the GPU only: make it with compare=True (or brookgl.compare(...)) to compare with the CPU backend")
        await self._wait_until(lambda: self.done, ["status", "answered"], timeout, "comparison")
        if self.status == "error":
            raise BrookError(f"brookgl: the kernel failed in the browser: {self.error}")
        return dict(self.comparison)


def _number(value: Any, name: str, integer: bool = False) -> Union[int, float]:
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if ok and integer:
        ok = float(value).is_integer()
    if not ok or not np.isfinite(value) or value < (1 if integer else 0):
        want = "a whole number >= 1" if integer else "a finite number >= 0"
        raise BrookError(f"brookgl: compare's {name} must be {want}, got {value!r}")
    return int(value) if integer else float(value)


COMPARE_DEFAULTS = {"ulps": 4, "abs": 0.0, "first": 5}


def _compare_options(compare: Union[bool, Dict[str, Any]]) -> Dict[str, Any]:
    """``compare=`` as the widget's model holds it: {} (off) or {ulps, abs, first} (compareBackends' options)."""
    if compare is False or compare is None:
        return {}
    if compare is True:
        return dict(COMPARE_DEFAULTS)
    if not isinstance(compare, dict):
        raise BrookError(f"brookgl: compare must be True, False or a dict of ulps, abs and first, got {type(compare).__name__}")
    unknown = [k for k in compare if k not in COMPARE_DEFAULTS]
    if unknown:
        raise BrookError(f"brookgl: compare has no option {unknown[0]!r} (its options: ulps, abs, first)")
    out = {**COMPARE_DEFAULTS, **compare}
    return {"ulps": _number(out["ulps"], "ulps"), "abs": _number(out["abs"], "abs"), "first": _number(out["first"], "first", integer=True)}


def compare(source: str, *, outputs: Dict[str, Any], ulps: float = 4, abs: float = 0.0, first: int = 5,
            kernel: Optional[str] = None, show: bool = True, **args) -> Run:
    """A kernel run on the GPU and on the CPU backend in the notebook's browser, compared record
    by record (the library's ``compareBackends``): ``brookgl.Run(source, outputs=..., compare={...},
    **args)``. Floats agree within ``ulps`` units in the last place or ``abs`` absolutely, ints
    and 8-bit records exactly. Shown, the widget draws each output as the GPU wrote it and a diff
    view (the differing records orange) with the first ``first`` of them listed; ``await
    w.comparison_async()`` returns the report, ``await w.result_async(name)`` the GPU's output.

    ``w = brookgl.compare(src, outputs={'c': 100}, a=a, b=b); w`` then ``report = await w.comparison_async()``.
    """
    return Run(source, outputs=outputs, kernel=kernel, show=show, compare={"ulps": ulps, "abs": abs, "first": first}, **args)


class Embed(_Base):
    """A live demo (``demo``: 'filter', 'fluid', 'nbody' or 'dem') with its controls and pass
    trace; ``state`` mirrors the numbers it shows (synced once a second)."""

    options = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)

    def __init__(self, demo: str = "filter", **options):
        demos = ("filter", "fluid", "nbody", "dem")
        if demo not in demos:
            raise BrookError(f"brookgl: Embed demo must be one of {', '.join(demos)} (got {demo!r})")
        super().__init__(kind="embed", options={"demo": demo, **options})

    def __repr__(self) -> str:
        return f"<brookgl.Embed {self.options.get('demo')}: a live demo, running in the browser that shows it>"

    async def state_async(self, ready: Callable[[Dict[str, Any]], bool] = lambda s: True, timeout: float = DEFAULT_TIMEOUT) -> Dict[str, Any]:
        """Waits (``await``) until the demo is running and ``ready(state)`` holds, then returns the
        state; raises ``BrookError`` if the demo failed to start."""
        def ok():
            return self.status == "error" or (self.status == "ready" and bool(self.state) and ready(self.state))
        await self._wait_until(ok, ["status", "state"], timeout, "demo state")
        if self.status == "error":
            raise BrookError(f"brookgl: the demo failed in the browser: {self.error}")
        return dict(self.state)


class App(_Base):
    """A library application run on arrays from Python, checked against the library's CPU
    reference in the page: ``'collide'`` (Horn's OBB-tree collision of a mesh with a turned copy:
    ``positions``, ``indices``, options ``degrees``, ``offset``), ``'subdivide'`` (Horn's adaptive
    subdivision: ``positions``, ``indices``, options ``epsilon``, ``max_depth``) and ``'ccd'`` (da
    Silva et al.'s continuous collision detection of a BART-like frame, static balancing against
    lazy work stealing: options ``triangles``, ``frame``, ``blocks``, ``threads``, ``stack``).
    ``await a.state_async()`` returns its numbers, ``a.result(name)`` its arrays."""

    app = traitlets.Unicode().tag(sync=True)
    arrays = traitlets.Dict().tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    results = traitlets.Dict().tag(sync=True)
    request = traitlets.Int(0).tag(sync=True)
    answered = traitlets.Int(-1).tag(sync=True)

    APPS = ("collide", "subdivide", "ccd")

    def __init__(self, app: str, *, options: Optional[Dict[str, Any]] = None, **arrays):
        if app not in self.APPS:
            raise BrookError(f"brookgl: App must be one of {', '.join(self.APPS)} (got {app!r})")
        wire = {}
        for name, a in arrays.items():
            a = np.asarray(a)
            if a.dtype.kind in "iu" and a.size and (int(a.min()) < -(2**31) or int(a.max()) > 2**31 - 1):
                raise BrookError(f"brookgl: App {app}: {name} holds values outside int32 ({int(a.min())} to {int(a.max())})")
            a = a.astype(np.float32) if a.dtype.kind == "f" else a.astype(np.int32) if a.dtype.kind in "iu" else a
            if a.dtype.name not in ("float32", "int32"):
                raise BrookError(f"brookgl: App {app}: {name} must be a float or integer array, got {a.dtype}")
            wire[name] = _wire(np.ascontiguousarray(a))
        super().__init__(kind="app", app=app, arrays=wire, options=dict(options or {}))

    @property
    def done(self) -> bool:
        return self.answered == self.request and self.status in ("done", "error")

    def __repr__(self) -> str:
        return f"<brookgl.App {self.app}: run and checked against the CPU by the browser that shows it>"

    def result(self, name: str):
        if self.status == "error" and self.done:
            raise BrookError(f"brookgl: app {self.app} failed in the browser: {self.error}")
        if not self.done or name not in self.results:
            raise LookupError(f"brookgl: no result {name!r} yet (status {self.status or 'not shown'}): `await a.state_async()` first")
        return result_array(self.results[name])

    async def state_async(self, timeout: float = DEFAULT_TIMEOUT) -> Dict[str, Any]:
        """Waits (``await``) until the browser has run the app; its numbers (``state``)."""
        await self._wait_until(lambda: self.done, ["status", "answered"], timeout, f"answer from app {self.app}")
        if self.status == "error":
            raise BrookError(f"brookgl: app {self.app} failed in the browser: {self.error}")
        return dict(self.state)


class PuzzleCheck(App):
    """The puzzle book's checker (``demos/puzzles/``) on a student's Brook source, run in the
    notebook's browser: puzzle ``n``'s fixed host script runs the kernel on seeded inputs of
    three sizes and compares every record with the library's CPU answer. The widget shows the
    verdict, and on a failure the output with its wrong records red beside the expected one, the
    first wrong record with its inputs, expected and actual values, and the failing run's passes.
    ``await c.report_async()`` returns the same as text; ``await c.state_async()`` the numbers
    (``pass``, ``cases``, ``first_wrong``, ``error`` and ``error_line`` for a compile error), and
    then ``c.result('wrong')`` the wrong-record mask (1 = wrong) of the first failing case."""

    APPS = ("puzzle",)

    def __init__(self, n: int, source: str):
        numbers = puzzle_numbers()  # the book's, as the build wrote them beside the widget
        if not isinstance(n, int) or isinstance(n, bool) or n not in numbers:
            raise BrookError(f"brookgl.check_puzzle: n must be a puzzle number from {min(numbers)} to {max(numbers)}, got {n!r}")
        if not isinstance(source, str):
            raise BrookError(f"brookgl.check_puzzle: source must be the kernel's Brook text (a str), got {type(source).__name__}")
        super().__init__("puzzle", options={"n": n, "source": source})

    def __repr__(self) -> str:
        return f"<brookgl.check_puzzle {self.options.get('n')}: checked by the browser that shows it>"

    async def report_async(self, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Waits (``await``) for the browser's check; the verdict and diagnosis as text."""
        return str((await self.state_async(timeout)).get("report", ""))


def check_puzzle(n: int, source: str) -> PuzzleCheck:
    """Checks ``source`` (Brook) as the answer to puzzle ``n`` of the puzzle book, in the
    notebook's browser: show the returned widget, then ``print(await c.report_async())``."""
    return PuzzleCheck(n, source)


def read_ply(path) -> "tuple[np.ndarray, np.ndarray]":
    """An ASCII PLY triangle mesh as (positions float32 (n, 3), indices int32 (m, 3))."""
    with open(path, "r", encoding="ascii") as f:
        lines = f.read().split("\n")
    if not lines[0].startswith("ply") or not any(line.startswith("format ascii") for line in lines[:3]):
        raise BrookError(f"brookgl.read_ply: {path} is not an ASCII PLY file")
    end = lines.index("end_header")
    counts = {w[1]: int(w[2]) for w in (line.split() for line in lines[:end]) if w and w[0] == "element"}
    props = 0
    for line in lines[:end]:
        w = line.split()
        if w and w[0] == "element":
            current = w[1]
        elif w and w[0] == "property" and current == "vertex":
            props += 1
    nv, nf = counts.get("vertex", 0), counts.get("face", 0)
    tokens = " ".join(lines[end + 1:]).split()  # values may wrap across lines
    positions = np.array(tokens[:nv * props], dtype=np.float64).reshape(nv, props)[:, :3].astype(np.float32)
    rest, indices = tokens[nv * props:], []
    k = 0
    for _ in range(nf):
        n = int(rest[k])
        if n != 3:
            raise BrookError(f"brookgl.read_ply: {path} has a face of {n} vertices; triangles only")
        indices.append([int(v) for v in rest[k + 1:k + 4]])
        k += 1 + n
    indices = np.array(indices, dtype=np.int32)
    return positions, indices
