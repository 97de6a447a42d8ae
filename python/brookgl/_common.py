"""Iterators, and arrays from the widget's wire format: {dtype, shape, data} with data as raw bytes."""
from __future__ import annotations

from typing import Any, Dict, Sequence, Union

import numpy as np

ArrayLike = Union[np.ndarray, Sequence[float]]


class Iter:
    """A Brook iterator argument (``iter float i<>``): values from ``start`` to ``end`` across the domain."""

    def __init__(self, start, end):
        self.start, self.end = start, end

    def message(self):
        def plain(v):
            a = np.asarray(v, dtype=np.float64)
            if a.ndim > 1 or a.size > 4:
                raise ValueError(f"brookgl.iter: start and end are numbers or up to 4 numbers, got {v!r}")
            return float(a) if a.ndim == 0 else [float(x) for x in a]
        return [plain(self.start), plain(self.end)]


def iter(start, end) -> Iter:  # noqa: A001 - the library's own name
    """``iter(start, end)``, as in brookgl's JavaScript API."""
    return Iter(start, end)


def result_array(message: Dict[str, Any]) -> np.ndarray:
    """{dtype, shape, data} (data: bytes or memoryview) back to a numpy array."""
    data = message["data"]
    return np.frombuffer(bytes(data), dtype=np.dtype(message["dtype"])).reshape(message["shape"])
