"""Arrays to and from the widget's wire format: {dtype, shape, data} with data as raw bytes."""
from __future__ import annotations

from typing import Any, Dict, Sequence, Union

import numpy as np

ArrayLike = Union[np.ndarray, Sequence[float]]

_DTYPES = {"float32", "int32", "uint32"}


class Iter:
    """A Brook iterator argument (``iter float i<>``): values from ``start`` to ``end`` across the domain."""

    def __init__(self, start, end):
        self.start, self.end = start, end

    def message(self):
        return [self.start, self.end]


def iter(start, end) -> Iter:  # noqa: A001 - the library's own name
    """``iter(start, end)``, as in brookgl's JavaScript API."""
    return Iter(start, end)


def array_message(name: str, value: ArrayLike) -> Dict[str, Any]:
    """A numpy array as {dtype, shape, data}; float64 becomes float32, int64 int32 (checked)."""
    a = np.asarray(value)
    if a.dtype == np.float64 or a.dtype == np.float16:
        a = a.astype(np.float32)
    elif a.dtype == np.int64 or a.dtype == np.int16 or a.dtype == np.int8:
        if a.size and (a.min() < -(2**31) or a.max() >= 2**31):
            raise ValueError(f"brookgl: array {name} has values outside int32; brookgl streams hold 32-bit numbers")
        a = a.astype(np.int32)
    elif a.dtype == np.uint64 or a.dtype == np.uint16 or a.dtype == np.uint8:
        if a.size and a.max() >= 2**32:
            raise ValueError(f"brookgl: array {name} has values outside uint32")
        a = a.astype(np.uint32)
    if a.dtype.name not in _DTYPES:
        raise TypeError(f"brookgl: array {name} has dtype {a.dtype}; use float32, int32 or uint32")
    a = np.ascontiguousarray(a)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "data": a.tobytes()}


def result_array(message: Dict[str, Any]) -> np.ndarray:
    """{dtype, shape, data} (data: bytes or memoryview) back to a numpy array."""
    data = message["data"]
    return np.frombuffer(bytes(data), dtype=np.dtype(message["dtype"])).reshape(message["shape"])


def split_args(args: Dict[str, Any]):
    """Keyword arguments into arrays, uniforms and iterators, as the widget's model holds them."""
    arrays, uniforms, iters = {}, {}, {}
    for name, v in args.items():
        if isinstance(v, Iter):
            iters[name] = v.message()
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            uniforms[name] = float(v) if isinstance(v, float) else v
        elif isinstance(v, (list, tuple)) and len(v) <= 4 and all(isinstance(x, (int, float)) for x in v):
            uniforms[name] = list(v)
        else:
            arrays[name] = array_message(name, v)
    return arrays, uniforms, iters


def output_shapes(outputs: Dict[str, Any]):
    shapes = {}
    for name, shape in outputs.items():
        if isinstance(shape, int):
            shapes[name] = shape
        elif isinstance(shape, (list, tuple)) and len(shape) == 2:
            shapes[name] = [int(shape[0]), int(shape[1])]
        else:
            raise ValueError(f"brookgl: outputs['{name}'] must be a length n or a (height, width) pair, got {shape!r}")
    return shapes
