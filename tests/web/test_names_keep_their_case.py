"""People's names are shown exactly as typed: no template re-cases them (issue 13: Karmaka
showed "Ania żółć wins!")."""

from __future__ import annotations

import re

from app.core.config import ROOT
from app.render import first_upper, templates


def test_first_upper_changes_only_the_first_letter() -> None:
    assert first_upper("ania Żółć decides") == "Ania Żółć decides"
    assert first_upper("Łucja McDonald-ÓRA") == "Łucja McDonald-ÓRA"
    assert first_upper("") == ""


def test_a_name_in_a_sentence_start_keeps_its_case() -> None:
    page = templates.env.from_string("{{ name|first_upper }} wins!").render(name="ania Żółć")
    assert page == "Ania Żółć wins!"


def test_no_template_capitalizes_what_may_hold_a_name() -> None:
    """`capitalize`/`title`/`lower` re-case the whole text; only fixed words (bot levels) may
    go through them."""
    allowed = {"level|capitalize"}
    found = []
    for path in (ROOT / "templates").rglob("*.html"):
        for m in re.finditer(r"([\w.\]\)]+)\s*\|\s*(capitalize|title|lower)\b", path.read_text()):
            if f"{m.group(1)}|{m.group(2)}" not in allowed:
                found.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert not found, found
