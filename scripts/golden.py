"""Write the golden playthrough file of one or more engines: `python scripts/golden.py ID…`.

The file is the expected output of `engines.playthrough.golden_lines`; review its diff
whenever a rule changes on purpose.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import REGISTRY
from engines.playthrough import golden_lines

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "engines" / "golden"
MAX_STEPS = 60


def main(ids: list[str]) -> None:
    """Regenerate the golden files of the named engines (all when none is named)."""
    for game_id in ids or sorted(REGISTRY):
        engine = REGISTRY[game_id]
        lines = golden_lines(engine, engine.spec.min_players, 2026, {}, MAX_STEPS)
        path = GOLDEN_DIR / f"{game_id}.txt"
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path} ({len(lines)} lines)")


if __name__ == "__main__":
    main(sys.argv[1:])
