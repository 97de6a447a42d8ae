"""Results as outputs a saved notebook keeps: arrays as PNG images, rows as HTML tables.

A widget's own view lives only in a running front end (GitHub and nbviewer show nothing of
it), so the worked notebooks also show what came back to Python this way.
"""
from __future__ import annotations

import html
import struct
import zlib
from typing import Any, Optional, Sequence

import numpy as np

# viridis, 9 stops (matplotlib's values), interpolated linearly
_VIRIDIS = np.array([
    [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
    [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]], dtype=np.float64)


def _png_bytes(rgb: np.ndarray) -> bytes:
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _rgb(a: np.ndarray, lo: Optional[float], hi: Optional[float]) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 1:
        width = int(np.ceil(np.sqrt(a.size)))
        a = np.concatenate([a, np.full(width * width - a.size, np.nan)]).reshape(-1, width)
    if a.ndim == 3 and a.shape[-1] in (3, 4):  # colours in [0, 1]
        return (np.clip(np.nan_to_num(a[..., :3]), 0, 1) * 255 + 0.5).astype(np.uint8)
    if a.ndim == 3:
        a = np.linalg.norm(a, axis=-1)
    if a.ndim != 2:
        raise ValueError(f"brookgl.image: wants shape (n,), (h, w) or (h, w, k), got {a.shape}")
    finite = a[np.isfinite(a)]
    lo = float(finite.min()) if lo is None and finite.size else (lo or 0.0)
    hi = float(finite.max()) if hi is None and finite.size else (hi if hi is not None else 1.0)
    t = np.clip((a - lo) / (hi - lo if hi > lo else 1.0), 0, 1)
    x = np.nan_to_num(t) * (len(_VIRIDIS) - 1)
    i = np.minimum(x.astype(int), len(_VIRIDIS) - 2)
    f = (x - i)[..., None]
    rgb = _VIRIDIS[i] * (1 - f) + _VIRIDIS[i + 1] * f
    rgb[~np.isfinite(a)] = 255  # NaN and inf: white
    return (rgb + 0.5).astype(np.uint8)


class Image:
    def __init__(self, png: bytes, width: int, height: int, title: str):
        self.png, self.width, self.height, self.title = png, width, height, title

    def _repr_png_(self):
        return self.png, {"width": self.width, "height": self.height}

    def __repr__(self) -> str:
        return f"<brookgl.image {self.title} {self.width}x{self.height}>"


def image(a: Any, title: str = "", scale: int = 0, lo: Optional[float] = None, hi: Optional[float] = None) -> Image:
    """``a`` as a PNG: a 2D array through viridis (NaN white), (h, w, 3|4) as colours in [0, 1],
    a 1D array wrapped into a square. ``scale`` repeats pixels (default: up to ~256 px wide)."""
    rgb = _rgb(a, lo, hi)
    s = scale or max(1, 256 // max(rgb.shape[1], 1))
    rgb = np.repeat(np.repeat(rgb, s, axis=0), s, axis=1)
    return Image(_png_bytes(np.ascontiguousarray(rgb)), rgb.shape[1], rgb.shape[0], title)


def _cell(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        v = float(v)
        a = abs(v)
        v = "-" if v != v else f"{v:.0f}" if a >= 100 else f"{v:.2f}" if a >= 1 else f"{v:.3g}"
    return html.escape(str(v))


class Table:
    def __init__(self, columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str, varies: Sequence[str] = ()):
        self.columns, self.rows, self.title = list(columns), [list(r) for r in rows], title
        unknown = [v for v in varies if v not in self.columns]
        if unknown:
            raise ValueError(f"brookgl.table: varies names {unknown}, which are not columns ({self.columns})")
        self.varies = set(varies)

    def _repr_html_(self) -> str:
        varies = ' class="brookgl-varies"'
        head = "".join(f"<th{varies if c in self.varies else ''}>{html.escape(str(c))}</th>" for c in self.columns)
        body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in r) + "</tr>" for r in self.rows)
        title = f"<h4>{html.escape(self.title)}</h4>" if self.title else ""
        return f"{title}<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self) -> str:
        lines = [self.title] if self.title else []
        lines.append(" | ".join(map(str, self.columns)))
        lines += [" | ".join(_cell(v) for v in r) for r in self.rows]
        return "\n".join(lines)


def table(columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str = "", varies: Sequence[str] = ()) -> Table:
    """Rows as an HTML table (a saved notebook keeps it; GitHub and nbviewer show it).
    ``varies``: columns whose values change from run to run although their header names no
    time or rate (a live demo's step count); the repository's committed-output check
    (scripts/jupyter.mjs) masks their numbers, as it does those of timing columns."""
    return Table(columns, rows, title, varies)
