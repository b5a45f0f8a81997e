"""People's names are shown exactly as typed: no template re-cases them (issue 13: Karmaka
showed "Ania żółć wins!")."""

from __future__ import annotations

import re

from app.core.config import ROOT
from app.presentation.environment import first_upper, templates


def test_first_upper_changes_only_the_first_letter() -> None:
    assert first_upper("ania Żółć decides") == "Ania Żółć decides"
    assert first_upper("Łucja McDonald-ÓRA") == "Łucja McDonald-ÓRA"
    assert first_upper("") == ""


def test_a_name_in_a_sentence_start_keeps_its_case() -> None:
    page = templates.env.from_string("{{ name|first_upper }} wins!").render(name="ania Żółć")
    assert page == "Ania Żółć wins!"


def test_no_template_recases_what_may_hold_a_name() -> None:
    """No `{{ … }}` that can hold a person's name (names[…], who(…), seat_name, a reason or
    a filled-in sentence) goes through `capitalize`/`title`/`lower`/`upper`, which re-case the
    whole text. Game terms (cities, abilities) may."""
    holders = ("names", "who(", "seat_name", "reason", "fill(")
    found = []
    for path in (ROOT / "templates").rglob("*.html"):
        for m in re.finditer(r"\{\{(.*?)\}\}", path.read_text(), re.S):
            expr = m.group(1)
            if re.search(r"\|\s*(capitalize|title|lower|upper)\b", expr) and any(
                h in expr for h in holders
            ):
                found.append(f"{path.relative_to(ROOT)}: {expr.strip()}")
    assert not found, found
