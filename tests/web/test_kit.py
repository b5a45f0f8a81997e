"""The shared screen kit renders every ending: a sole winner, a shared win (two or three
winners, names exactly as typed), nobody — in both languages."""

from __future__ import annotations

import pytest

from app import i18n
from app.render import templates

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
