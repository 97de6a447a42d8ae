"""The puzzle book's notebook cells (make_notebooks.py writes them): the puzzles of
src/view/puzzles/book.ts, read from the built library (dist/brookgl.js: run `npm run build`
first), each with its starter kernel as a string and `brookgl.check_puzzle(n, source)`."""
import json
import subprocess
from pathlib import Path

import nbformat as nbf

md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell
ROOT = Path(__file__).resolve().parents[2]

_READ = """import('./dist/brookgl.js').then((m) => console.log(JSON.stringify(m.PUZZLES.map((p) => ({
  n: p.n, title: p.title, task: p.task, idea: p.idea, source: p.source, host: p.host,
  starter: p.starter, solution: p.solution, note: p.solutionNote, hints: p.hints })))))"""


def puzzles():
    out = subprocess.run(["node", "--input-type=module", "-e", _READ], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def literal(source):
    """A Python string literal holding Brook source as written (its backslashes kept)."""
    assert "'''" not in source
    return "r'''" + source + "'''"


def build():
    ps = puzzles()
    cells = [
        md(f"""# Brook puzzles

The puzzle book of `demos/puzzles/` in a notebook: {len(ps)} small kernels in Brook, in the order of
the ideas of the papers brookgl implements. Each puzzle below holds its starter kernel as a string;
`brookgl.check_puzzle(n, source)` runs it in **this page's browser** (WebGL2) through the puzzle's
fixed host script on seeded inputs of three sizes (a size of one and one that is not a power of two
among them) and compares every record with the library's CPU answer. The widget shows the verdict,
and on a failure the output with its wrong records red beside the expected output, the first wrong
record with its inputs, expected and actual values, and the passes of that run;
`await c.report_async()` returns the same as text (without the GPU times).

The starters are meant to fail: edit a source string and run its two cells again. The solutions,
each checked, are at the end. Teachers: `docs/puzzles.md` (the arc, what each puzzle teaches, where
it comes from, our time estimates)."""),
        code("import brookgl"),
    ]
    for p in ps:
        n = p["n"]
        cells.append(md(f"""## {n}. {p['title']}

{p['task']}

*Teaches: {p['idea']}.* From {p['source']}.

The host script (fixed):

```
{p['host']}
```"""))
        cells.append(code(f"source_{n} = {literal(p['starter'])}\ncheck_{n} = brookgl.check_puzzle({n}, source_{n})\ncheck_{n}"))
        cells.append(code(f"print(await check_{n}.report_async())"))
    cells.append(md("""## Solutions (spoilers)

Each puzzle's solution, with the paper's listing it follows, checked the same way."""))
    sol = ",\n".join(f"    {p['n']}: {literal(p['solution'])}" for p in ps)
    cells.append(code(f"SOLUTIONS = {{\n{sol},\n}}\nsolved = {{n: brookgl.check_puzzle(n, s) for n, s in SOLUTIONS.items()}}\ndisplay(*solved.values())"))
    notes = "\n".join(f"- {p['n']}. {p['title']}: {p['note']}" for p in ps)
    cells.append(md(f"Where each solution comes from:\n\n{notes}"))
    cells.append(code(f"""# brookgl check: every starter fails, every solution passes
failed_starters = []
for n in range(1, {len(ps) + 1}):
    failed_starters.append(not (await globals()[f'check_{{n}}'].state_async())['pass'])
passed = [(await c.state_async())['pass'] for c in solved.values()]
for n, c in solved.items():
    r = await c.state_async()
    print(f"{{n:2}}. {{r['title']}}: solution {{'passes' if r['pass'] else 'FAILS'}}, starter {{'fails' if failed_starters[n - 1] else 'PASSES'}}")
print('brookgl check: ok' if all(failed_starters) and all(passed) else 'brookgl check: FAILED')"""))
    return cells


PUZZLES_NB = {"puzzles.ipynb": build}
