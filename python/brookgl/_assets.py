"""The built JavaScript: the anywidget ES module and its script-tag twin (both inline brookgl)."""
from functools import lru_cache
from pathlib import Path

STATIC = Path(__file__).parent / "static"


@lru_cache(maxsize=None)
def _read(name: str) -> str:
    path = STATIC / name
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing: build it in the brookgl repository with `npm install && npm run build` "
            "(it writes python/brookgl/static/), then reinstall this package"
        )
    return path.read_text(encoding="utf-8")


def widget_esm() -> str:
    """The anywidget ES module (``export default { render }``) with brookgl inlined."""
    return _read("widget.js")


def widget_iife() -> str:
    """The same module as a classic script defining ``window.brookglWidget``."""
    return _read("widget.iife.js")
