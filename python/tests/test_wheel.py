"""The wheel: built with the PEP 517 backend (hatchling), it carries the widget's JavaScript;
installed into a fresh virtual environment with no Node on PATH, the package imports and makes
a widget whose ES module is the built one."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def test_wheel_installs_without_node():
    tmp = Path(tempfile.mkdtemp(prefix="brookgl-wheel-", dir=os.environ.get("BROOKGL_WHEEL_TMP")))
    # --no-isolation: hatchling comes from this environment (no download for the build itself)
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp / "dist"), str(HERE)],
                   check=True, capture_output=True, text=True)
    wheel = next((tmp / "dist").glob("brookgl-*.whl"))
    import zipfile
    names = zipfile.ZipFile(wheel).namelist()
    assert "brookgl/static/widget.js" in names and "brookgl/static/puzzles.json" in names and "brookgl/__init__.py" in names
    assert not any(n.startswith("tests/") for n in names)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(tmp / "venv")], check=True)
    py = tmp / "venv" / "bin" / "python"
    # PATH without Node: only the fresh venv (pip installs a wheel with no other program)
    env = {"PATH": str(tmp / "venv" / "bin"), "HOME": str(tmp), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    import shutil
    assert shutil.which("node", path=env["PATH"]) is None
    cache = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
    r = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--cache-dir", cache, str(wheel)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    check = ("import numpy as np, brookgl; "
             "w = brookgl.Run('kernel void k(float x<>, out float r<>) { r = x; }', x=np.ones(3), outputs={'r': 3}); "
             "assert 'export' in w._esm and len(w._esm) > 100000; brookgl.check_puzzle(1, 'kernel void k(out float o<>) { o = 1.0; }'); "
             "print('ok', brookgl.__version__)")
    r = subprocess.run([str(py), "-c", check], env=env, capture_output=True, text=True, cwd=str(tmp))
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stderr[-2000:]
