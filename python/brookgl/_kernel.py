"""Brook kernel signatures read in Python, so bad arguments fail in the cell that passes them.

Only the parameter lists are read (``kernel void name(...)``): each parameter's role (stream
``<>``, gather ``[]``, ``out``, ``iter``, uniform), element type and the source line it is
declared on. The body is compiled in the browser; its errors come back through the widget
(``BrookError`` with the compiler's message, which names the line).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional

import numpy as np


class BrookError(RuntimeError):
    """A Brook kernel or its arguments are wrong: the message names the argument or the kernel's
    line, and what to do. Raised in Python for arguments, and for errors the browser reports."""


_KINDS = {"float": "float32", "int": "int32", "uint": "uint32", "char": "uint8"}
_TYPE = re.compile(r"^(float|int|uint|char)([234])?$")
_ALIASES = {"half": "float", "double": "float", "uchar": "char", "fixed": "char"}


def _normal_type(t: str) -> str:
    m = re.match(r"^(half|double|uchar|fixed)([234]?)$", t)
    return _ALIASES[m.group(1)] + m.group(2) if m else t
_KERNEL = re.compile(r"\b(?:reduce\s+)?kernel\s+void\s+([A-Za-z_]\w*)\s*\(")


@dataclass
class Param:
    name: str
    type: str  # Brook element type ('float4'), or a struct's name
    role: str  # 'stream' | 'gather' | 'out' | 'iter' | 'uniform' | 'reduce'
    line: int  # 1-based line of the source it is declared on
    text: str  # the declaration as written

    @property
    def kind(self) -> Optional[str]:
        m = _TYPE.match(self.type)
        return m.group(1) if m else None

    @property
    def components(self) -> int:
        m = _TYPE.match(self.type)
        return int(m.group(2) or 1) if m else 0

    def where(self, kernel: "Kernel") -> str:
        return f"kernel {kernel.name}, line {self.line}: `{self.text}`"


@dataclass
class Kernel:
    name: str
    line: int
    params: List[Param]

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)


def _strip_comments(source: str) -> str:
    """Comments blanked, newlines kept (so line numbers still match the listing)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, source, flags=re.S)


def parse_kernels(source: str) -> Dict[str, Kernel]:
    """The kernels of ``source`` by name, in order, with their parameters."""
    if not isinstance(source, str) or not source.strip():
        raise BrookError("brookgl: source must be Brook source text with at least one `kernel void name(...) { ... }`")
    text = _strip_comments(source)
    kernels: Dict[str, Kernel] = {}
    for m in _KERNEL.finditer(text):
        start = m.end()
        depth, i = 1, start
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        if depth:
            line = text.count("\n", 0, m.start()) + 1
            raise BrookError(f"brookgl: kernel {m.group(1)} (line {line}): its parameter list has no closing ')'")
        params: List[Param] = []
        offset = start
        for decl in text[start:i - 1].split(","):
            line = text.count("\n", 0, offset + len(decl) - len(decl.lstrip())) + 1
            offset += len(decl) + 1
            words = decl.replace("<", " < ").replace(">", " > ").replace("[", " [ ").replace("]", " ] ").split()
            if not words:
                continue
            shown = " ".join(decl.split())
            role = "uniform"
            if words[0] in ("out", "iter", "reduce"):
                role = {"out": "out", "iter": "iter", "reduce": "reduce"}[words[0]]
                words = words[1:]
            elif words[0] == "const":
                words = words[1:]
            if len(words) < 2:
                continue
            if words[0] == "unsigned":  # `unsigned char` is char, `unsigned int` and a bare `unsigned` uint (as the compiler reads them)
                m2 = re.match(r"^(char|int)([234]?)$", words[1]) if len(words) > 2 else None
                words = ([("char" if m2.group(1) == "char" else "uint") + m2.group(2)] + words[2:]) if m2 else ["uint"] + words[1:]
            if len(words) < 2:
                continue
            type_, name = words[0], words[1]
            rest = "".join(words[2:])
            if role == "uniform":
                role = "stream" if rest.startswith("<") else "gather" if rest.startswith("[") else "uniform"
            params.append(Param(name=name, type=_normal_type(type_), role=role, line=line, text=shown))
        kernels[m.group(1)] = Kernel(name=m.group(1), line=text.count("\n", 0, m.start()) + 1, params=params)
    if not kernels:
        raise BrookError("brookgl: no kernel in the source: expected `kernel void name(params) { ... }`")
    return kernels


def pick_kernel(kernels: Dict[str, Kernel], name: Optional[str]) -> Kernel:
    if name:
        if name not in kernels:
            raise BrookError(f"brookgl: no kernel named {name!r} in the source (found: {', '.join(kernels)})")
        return kernels[name]
    return next(iter(kernels.values()))


def convert_array(kernel: Kernel, p: Param, value) -> np.ndarray:
    """``value`` as the dtype and shape the parameter ``p`` reads, or a BrookError naming its line.

    Rules: float parameters take any float array (float64 is rounded to float32); int and uint
    parameters take integer arrays whose values fit 32 bits; char parameters (char, uchar,
    unsigned char, fixed: 8-bit streams, read as b / 255 in kernels) integer arrays of bytes 0 to
    255, sent as uint8; bool, complex, object and
    integer-to-float (or float-to-int) mixes are refused rather than guessed. A vector type of k
    components wants a last axis of k: (n, k) or (h, w, k); a scalar type (n,) or (h, w).
    """
    where = p.where(kernel)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise BrookError(f"brookgl: {where} is a {'gather' if p.role == 'gather' else 'stream'}: pass a numpy array, not the number {value!r}")
    a = np.asarray(value)
    kind = p.kind
    if kind is None:
        raise BrookError(f"brookgl: {where}: struct streams ({p.type}) cannot be passed from Python; pass one array per field in a kernel of plain types")
    dt = a.dtype
    if kind == "float":
        if dt.kind != "f":
            raise BrookError(f"brookgl: {where} reads {p.type} but {p.name} has dtype {dt}: convert it with {p.name}.astype(np.float32)")
        a = a.astype(np.float32, copy=False)
    elif kind in ("int", "uint", "char"):
        if dt.kind not in "iu":
            if kind == "char":
                raise BrookError(f"brookgl: {where} reads {p.type}, an 8-bit stream (bytes 0 to 255, b / 255 in the kernel), but {p.name} has dtype {dt}: "
                                 f"pass bytes, e.g. np.round({p.name} * 255).astype(np.uint8) for values in [0, 1]")
            raise BrookError(f"brookgl: {where} reads {p.type} but {p.name} has dtype {dt}: pass integers (e.g. {p.name}.astype(np.{_KINDS[kind]}))")
        lo, hi = {"int": (-(2**31), 2**31 - 1), "uint": (0, 2**32 - 1), "char": (0, 255)}[kind]
        if a.size and (int(a.min()) < lo or int(a.max()) > hi):
            raise BrookError(f"brookgl: {where}: {p.name} holds values outside {_KINDS[kind]} ({lo} to {hi})")
        a = a.astype(_KINDS[kind], copy=False)
    k = p.components
    record = a.shape[:-1] if k > 1 else a.shape
    if (k > 1 and (a.ndim < 2 or a.shape[-1] != k)) or not 1 <= len(record) <= 2:
        want = f"(n, {k}) or (h, w, {k})" if k > 1 else "(n,) or (h, w)"
        raise BrookError(f"brookgl: {where}: a {p.type} {'gather' if p.role == 'gather' else 'stream'} wants numpy shape {want}, got {a.shape}")
    if 0 in record:
        raise BrookError(f"brookgl: {where}: {p.name} is empty (shape {a.shape})")
    return np.ascontiguousarray(a)


def record_shape(p: Param, a: np.ndarray):
    return tuple(a.shape[:-1] if p.components > 1 else a.shape)


def convert_output(kernel: Kernel, p: Param, shape) -> List[int]:
    where = p.where(kernel)
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        dims = [int(shape)]
    elif isinstance(shape, (list, tuple)) and len(shape) in (1, 2) and all(isinstance(s, (int, np.integer)) for s in shape):
        dims = [int(s) for s in shape]
    else:
        raise BrookError(f"brookgl: {where}: outputs[{p.name!r}] must be a length n or a (height, width) pair, got {shape!r}")
    if any(d < 1 for d in dims):
        raise BrookError(f"brookgl: {where}: outputs[{p.name!r}] = {shape!r} must be positive")
    return dims
