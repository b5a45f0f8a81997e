"""Grammatical gender (issue 33): a person chooses how the site speaks of them, and each
message that names a person's act or state has a form per choice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import i18n
from app.gendered import GENDERED

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _catalogue(lang: str) -> dict[tuple[str | None, str], str]:
    with (i18n.LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {
            (m.context, m.id): str(m.string)
            for m in read_po(f, locale=lang)
            if m.id and isinstance(m.id, str) and not m.fuzzy
        }


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_every_gendered_message_has_a_form_per_choice(lang: str) -> None:
    entries = _catalogue(lang)
    for message in GENDERED:
        wanted = set(PLACEHOLDER.findall(message))
        for gender in i18n.GENDERS:
            form = entries.get((gender, message))
            assert form, f"{lang}: no {gender!r} form of {message!r}"
            assert set(PLACEHOLDER.findall(form)) == wanted, f"{lang}: {form!r}"
        # Read without a person (old code paths, history): the neutral wording.
        assert entries.get((None, message)) == entries[("neutral", message)], message


def test_polish_forms_differ_for_a_woman_and_a_man() -> None:
    entries = _catalogue("pl")
    for message in GENDERED:
        she, he, neutral = (entries[(g, message)] for g in i18n.GENDERS)
        assert she != he, message
        # The neutral wording brackets nobody: no "poddał(a)", no "-aś".
        for form in (she, he, neutral):
            assert not re.search(r"\(a\)|\(-a|\(-ęła\)", form), form
    # No Polish message anywhere says a person's act in the bracketed both-ways form.
    bracketed = [(k, v) for k, v in entries.items() if re.search(r"\w\((a|-aś|-a|-ęła)\)", v)]
    assert not bracketed, bracketed


def test_every_gendered_call_names_a_listed_message() -> None:
    """`gendered(x, "…")` in a template or `i18n.gendered(x, "…")` in the app reads a message of
    app/gendered.py (else it would have no forms)."""
    call = re.compile(r"gendered\([^,()]+,\s*(['\"])(.+?)\1")
    used = set()
    for path in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("app/**/*.py")]:
        used |= {m[1] for m in call.findall(path.read_text())}
    assert used, "no gendered() call found"
    assert used <= set(GENDERED), used - set(GENDERED)


@pytest.mark.parametrize(
    ("gender", "text"),
    [("she", "poddała się"), ("he", "poddał się"), ("neutral", "rezygnacja"), (None, "rezygnacja")],
)
def test_gendered_reads_the_persons_form(gender: str | None, text: str) -> None:
    with i18n.use("pl"):
        assert i18n.gendered(gender, "resigned") == text
        # A message without forms per person reads as it is.
        assert i18n.gendered(gender, "Close table") == i18n.gettext("Close table")
