"""Account names: unique among accounts case- and accent-insensitively ("Żaneta" and
"zaneta" clash), while guests keep free names; and the name a deleted account leaves on its
games ("deleted player" in the reader's language)."""

from __future__ import annotations

import unicodedata

from app import i18n
from app.i18n import N_

DELETED_NAME = "\x7f"
"""What a deleted account's name becomes in the database: a control character, which
`app.names.clean_name` never lets through, so no person can be called that."""
DELETED = N_("deleted player")

_UNFOLDED = str.maketrans(
    {"ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ı": "i", "æ": "ae", "œ": "oe"}
)
"""Letters that carry their accent in the letter itself (no combining mark to drop)."""


def name_key(name: str) -> str:
    """`name` as compared between accounts: case folded, accents dropped, spaces single."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_UNFOLDED))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().translate(_UNFOLDED).split())[:64]


def shown(name: str) -> str:
    """A stored person's name as people read it: a deleted account's in the reader's
    language, any other exactly as typed."""
    return i18n.gettext(DELETED) if name == DELETED_NAME else name
