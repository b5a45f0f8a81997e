"""The shared screen kit renders every ending: a sole winner, a shared win (two or three
winners, names exactly as typed), nobody — in both languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app import i18n
from app.presentation.environment import templates
from app.presentation.messages import standing_names, table_info
from bench.pages import offline_table, positions
from engines import ENGINES

BANNER = (
    '{% from "partials/kit.html" import result_banner %}'
    '{% call result_banner(winners, names, "x") %}standings{% endcall %}'
)
NAMES = {0: "Ala Żółć", 1: "bartek", 2: "Celina"}


@pytest.mark.parametrize(
    ("winners", "lang", "text"),
    [
        ([1], "en", "bartek wins!"),
        ([0, 2], "en", "Shared win: Ala Żółć and Celina!"),
        ([0, 1, 2], "en", "Shared win: Ala Żółć, bartek and Celina!"),
        ([], "en", "No winner!"),
        ([0, 2], "pl", "Ala Żółć"),
    ],
)
def test_result_banner(winners: list[int], lang: str, text: str) -> None:
    with i18n.use(lang):
        html = templates.env.from_string(BANNER).render(winners=winners, names=NAMES, seat=None)
    assert text in html and "standings" in html


def test_a_templates_indentation_is_collapsed_and_what_it_prints_is_not() -> None:
    """The line breaks of a template's own text, with the indentation around them, are one
    line break each (a page reads the same, a push is smaller); what an expression prints is
    printed as it is, and spaces within a line stay."""
    source = "<ul>\n    <li>{{ a }}</li>\n    <li>x</li>  <li>y</li>  \n\n  </ul>\n"
    html = templates.env.from_string(source).render(a="one\n    two")
    assert html == "<ul>\n<li>one\n    two</li>\n<li>x</li>  <li>y</li>\n</ul>"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.spec.id)
def test_every_board_reads_the_same_as_from_its_indented_source(engine: Any) -> None:
    """Each game's board drawn from its templates as written (indentation kept) and as
    served: the same tags and text once every run of white space is read as one space (as a
    browser reads it), and the served one smaller."""
    as_written = templates.env.overlay()
    collapse = next(k for k, v in as_written.extensions.items() if "Collapse" in type(v).__name__)
    del as_written.extensions[collapse]
    players = engine.spec.min_players
    for state in positions(engine, players, seed=2, samples=4):
        hub = offline_table(engine, state, players)
        game = hub.game
        assert game is not None
        ctx = {
            "room": table_info(hub.snapshot(), None),
            "catalogue": engine.catalogue(),
            "version": game.version,
            "view": game.view(None),
            "names": standing_names(hub.snapshot()),
        }
        name = f"games/{engine.spec.id}/board.html"
        with i18n.use("pl"):
            served = templates.env.get_template(name).render(ctx)
            indented = as_written.get_template(name).render(ctx)
        assert len(served) < len(indented)
        assert re.sub(r"\s+", " ", served) == re.sub(r"\s+", " ", indented)
