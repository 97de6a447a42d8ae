"""Build hook: the wheel must carry brookgl/static/widget.js (the widget's ES module, brookgl
inlined) and brookgl/static/puzzles.json (the puzzle book's list, which check_puzzle reads). In the repository it is built by `node scripts/build.mjs` (what `npm run build` runs);
this hook runs that when the file is missing and Node is there, and stops with what to do
otherwise. An sdist already carries the file, so building from one needs no Node."""
import shutil
import subprocess
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class WidgetBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        here = Path(self.root)
        widget = here / "brookgl" / "static" / "widget.js"
        built = [widget, here / "brookgl" / "static" / "puzzles.json"]
        if all(f.exists() for f in built):
            return
        repo = here.parent
        script = repo / "scripts" / "build.mjs"
        node = shutil.which("node")
        if script.exists() and node and (repo / "node_modules").exists():
            self.app.display_info("brookgl: building the widget's JavaScript (node scripts/build.mjs --no-types)")
            subprocess.run([node, str(script), "--no-types"], cwd=repo, check=True)
        missing = [f for f in built if not f.exists()]
        if missing:
            raise RuntimeError(
                f"{missing[0]} is missing: in the brookgl repository run `npm install && npm run build` "
                "(it writes python/brookgl/static/widget.js and puzzles.json), then build the wheel again"
            )
