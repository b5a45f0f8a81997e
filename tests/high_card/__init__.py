"""High Card: a game defined only under tests/ (its rules in `tests/high_card/rules.py`, its
screen in `tests/high_card/templates/games/high_card/`), registered for the test session by
`tests/conftest.py` through `registered_for_tests`, and so run by every generic suite."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.high_card.rules import HighCard

ENGINE = HighCard()
TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The folder holding its screen, `games/high_card/board.html` and `me.html`."""


@contextmanager
def registered_for_tests() -> Iterator[HighCard]:
    """High Card registered as a game and its screen findable, then neither again."""
    from app.presentation.environment import add_template_folder, remove_template_folder
    from engines import registered

    add_template_folder(TEMPLATES)
    try:
        with registered(ENGINE):
            yield ENGINE
    finally:
        remove_template_folder(TEMPLATES)
