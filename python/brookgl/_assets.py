"""The built JavaScript: the anywidget ES module, with brookgl inlined (nothing fetched at run time),
and the puzzle book's list that the build writes beside it."""
import json
from functools import lru_cache
from pathlib import Path

STATIC = Path(__file__).parent / "static"


@lru_cache(maxsize=None)
def widget_esm() -> str:
    """The anywidget ES module (``export default { render }``) with brookgl inlined."""
    path = STATIC / "widget.js"
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing: this is a source checkout whose widget was not built. In the brookgl "
            "repository run `npm install && npm run build` (it writes python/brookgl/static/widget.js), "
            "or install the wheel (`python -m build python`), which carries it"
        )
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def puzzle_numbers() -> "tuple[int, ...]":
    """The numbers of the puzzle book's puzzles (src/view/puzzles/book.ts), from the list the
    build writes beside the widget (static/puzzles.json)."""
    path = STATIC / "puzzles.json"
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing: this is a source checkout whose widget was not built. In the brookgl "
            "repository run `npm install && npm run build` (it writes python/brookgl/static/puzzles.json), "
            "or install the wheel (`python -m build python`), which carries it"
        )
    return tuple(int(p["n"]) for p in json.loads(path.read_text(encoding="utf-8"))["puzzles"])
