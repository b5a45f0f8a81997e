"""Extract every message of the app and templates and update the catalogues:
`python -m scripts.i18n` (then translate the new Polish entries in app/locales/pl).

English is the source language; its catalogue is filled with the messages themselves so that
both catalogues are complete and the tests can check every entry of each.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "app" / "locales"
POT = LOCALES / "messages.pot"
LANGUAGES = ("en", "pl")
KEYWORDS = (
    "N_",  # app messages translated where they are shown
    "tr",  # game words and engine messages (engines.core.tr)
    "trc:1c,2",  # a game word with its context (engines.core.trc)
    "forms:1,2",  # engines.core.forms(singular, plural)
    "public",  # Event.public(message, …)
    "private:2",  # Event.private(seat, message, …)
    "others:3",  # Event.others(seat, num_players, message, …)
    "players_only",
    "public_except:3",  # karmaka: the public half of a private line
    "finish_nothing:2",  # karmaka: a copy that resolves nothing
    "finish_nothing_self:3",  # karmaka: a self ability that changes nothing
    "IllegalAction",
    "MalformedAction",
    "GameError",
)
"""What marks a message in Python besides gettext's own names (`-k` of `pybabel extract`)."""


def extract_args(output: Path) -> list[str]:
    """The `pybabel extract` arguments writing every current message to `output`, run from
    the repository's root (`run`): the catalogues name files relative to it, the same in
    every checkout."""
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    return [
        "extract",
        "-F",
        str(ROOT / "babel.cfg"),
        *keywords,
        "--no-wrap",
        "--sort-by-file",
        "--project",
        "Stolik",
        "-o",
        str(output),
        ".",
    ]


def run(*args: str) -> None:
    """`pybabel` with `args`, from the repository's root."""
    with contextlib.chdir(ROOT):
        CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]


def add_gendered(pot: Path) -> None:
    """Give each message of `app.gendered.GENDERED` one entry per choice in `pot` (its
    gettext context "she", "he", "neutral"): templates read them through a variable
    (`gendered(s.grammar, …)`), which no extractor can follow."""
    from app.gendered import GENDERED
    from app.i18n import GENDERS

    with pot.open("rb") as f:
        catalog = read_po(f)
    for message in GENDERED:
        for gender in GENDERS:
            catalog.add(message, context=gender, locations=[("app/gendered.py", 1)])
    with pot.open("wb") as f:
        write_po(f, catalog, width=0, sort_by_file=True)


def main() -> None:
    run(*extract_args(POT))
    add_gendered(POT)
    for lang in LANGUAGES:
        po = LOCALES / lang / "LC_MESSAGES" / "messages.po"
        if po.exists():
            run(
                "update",
                "-i",
                str(POT),
                "-o",
                str(po),
                "-l",
                lang,
                "--no-wrap",
                "--ignore-obsolete",
                "--no-fuzzy-matching",
            )
        else:
            run("init", "-i", str(POT), "-o", str(po), "-l", lang, "--no-wrap")
    en = LOCALES / "en" / "LC_MESSAGES" / "messages.po"
    with en.open("rb") as f:
        catalog = read_po(f, locale="en")
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(message.id)
        else:
            message.string = message.id
    with en.open("wb") as f:
        write_po(f, catalog, width=0, sort_by_file=True)
    with (LOCALES / "pl" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        pl = read_po(f, locale="pl")
    missing = [
        m.id
        for m in pl
        if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string)) or m.fuzzy)
    ]
    print(
        f"catalogues updated: {len(catalog) - 1} messages; Polish missing or fuzzy: {len(missing)}"
    )
    for m in missing:
        print("  ", m)


if __name__ == "__main__":
    main()
