"""People's display names as others will read them: one cleaning for the name page, the JSON
API and imported games.

Cleaning: NFC; whitespace collapsed; control, format (bidi overrides, zero-width), private-use
and blank-looking characters dropped; combining marks with nothing before them to sit on
dropped; `NAME_MAX_CHARS` at most. What is left must hold a letter, digit, punctuation mark or
symbol. Every refusal is 422 `bad_name` with a message saying what is wrong."""

from __future__ import annotations

import unicodedata

from app.errors import Refusal
from app.i18n import N_
from app.table.chat import clean_chat

NAME_MAX_CHARS = 24
"""The longest display name (characters); the name page's input says the same (`maxlength`)."""

BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that show as nothing (Hangul fillers, the blank Braille pattern)."""

NOT_TEXT = N_("That name holds characters that are not text.")
EMPTY = N_("Please enter a display name.")
NOTHING_VISIBLE = N_("A name needs at least one visible letter, digit or sign.")


def clean_name(raw: str) -> str:
    """`raw` cleaned (see the module docstring), or `Refusal` 422 `bad_name`: a lone
    surrogate (not valid Unicode text), an empty name, or one with nothing visible left."""
    if any(unicodedata.category(ch) == "Cs" for ch in raw):
        raise Refusal("bad_name", NOT_TEXT, 422)
    if not raw.strip():
        raise Refusal("bad_name", EMPTY, 422)
    kept = "".join(ch for ch in clean_chat(unicodedata.normalize("NFC", raw)) if ch not in BLANK)
    name = " ".join(kept.split())
    while name and (unicodedata.category(name[0]).startswith("M") or name[0] == " "):
        name = name[1:]  # a mark with no letter to sit on (it would sit on what precedes)
    name = name[:NAME_MAX_CHARS].strip()
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise Refusal("bad_name", NOTHING_VISIBLE, 422)
    return name


def imported_name(raw: object) -> str | None:
    """A player's name from an imported game file, cleaned like a typed one (characters that
    are not text are dropped rather than refused: the file is someone else's); None if
    nothing is left."""
    if not isinstance(raw, str):
        return None
    text = "".join(ch for ch in raw[:1000] if unicodedata.category(ch) != "Cs")
    try:
        return clean_name(text)
    except Refusal:
        return None
