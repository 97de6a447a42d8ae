import sys
from pathlib import Path

# the package from this checkout (its widget built by `npm run build`)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
