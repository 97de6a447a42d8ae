"""Recorded benchmark tables (the repository's bench-results/*.json) as HTML, for the worked
notebooks' "measured beside the paper" sections."""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Optional, Union


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, int) or float(v).is_integer():
        return str(int(v))
    a = abs(v)
    return f"{v:.0f}" if a >= 100 else f"{v:.2f}" if a >= 1 else f"{v:.3g}"


class BenchTable:
    def __init__(self, path: Path, tables, renderer: str, date: str):
        self.path, self.tables, self.renderer, self.date = path, tables, renderer, date

    def _repr_html_(self) -> str:
        parts = [f"<p><b>{html.escape(self.path.name)}</b> · {html.escape(self.renderer)} · {html.escape(self.date)}</p>"]
        for t in self.tables:
            head = "".join(f"<th>{html.escape(str(c))}</th>" for c in t["columns"])
            body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row) + "</tr>" for row in t["rows"])
            parts.append(f"<h4>{html.escape(t['title'])}</h4><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return "\n".join(parts)

    def __repr__(self) -> str:
        return "\n".join(f"{t['title']}: {len(t['rows'])} rows" for t in self.tables)


def bench_table(path: Union[str, Path], title: Optional[str] = None) -> BenchTable:
    """The tables of a recorded benchmark (``npm run bench -- <suite>`` writes them) whose title
    starts with ``title`` (all when None), shown with the renderer that measured them."""
    p = Path(path)
    data = json.loads(p.read_text(encoding="utf-8"))
    tables = [t for t in data.get("tables", []) if title is None or t["title"].startswith(title)]
    if not tables:
        raise LookupError(f"brookgl: no table starting with {title!r} in {p} (titles: {[t['title'] for t in data.get('tables', [])]})")
    return BenchTable(p, tables, data.get("renderer", "?"), str(data.get("date", "")))
