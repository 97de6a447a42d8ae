"""Writes the worked notebooks of this folder (quickstart, one per paper, the puzzle book) without outputs:
python3 make_notebooks.py [names...]. Their outputs are then made by running them headless in
JupyterLab: `node scripts/jupyter.mjs --save` (the repository's docs/notebooks.md)."""
import sys

import nbformat as nbf

from cells_papers import PAPERS
from cells_quickstart import QUICKSTART
from cells_puzzles import PUZZLES_NB


def save(name, cells):
    nb = nbf.v4.new_notebook()
    nb.cells = cells
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    }
    nbf.write(nb, name)


NOTEBOOKS = {"quickstart.ipynb": QUICKSTART, **PAPERS, **PUZZLES_NB}

if __name__ == "__main__":
    wanted = sys.argv[1:] or list(NOTEBOOKS)
    for name in wanted:
        cells = NOTEBOOKS[name]
        save(name, cells() if callable(cells) else cells)
        print("wrote", name)
