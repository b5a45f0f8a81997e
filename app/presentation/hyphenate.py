"""Soft hyphens in long words, by the rules of the reader's language (Pyphen's dictionaries),
so a narrow card breaks "Przezna-czenie" where Polish allows it and shows the hyphen — CSS
`hyphens: auto` depends on dictionaries a browser may not have, and without them a long name
broke anywhere. Only Polish words are hyphenated: English names on cards fit."""

from __future__ import annotations

from functools import lru_cache

import pyphen

from app import i18n

SOFT_HYPHEN = "\u00ad"
_LANGUAGES = {"pl": "pl_PL"}
_SHORTEST = 8
"""Words shorter than this are never broken."""


@lru_cache(maxsize=8)
def _dictionary(lang: str) -> pyphen.Pyphen | None:
    code = _LANGUAGES.get(lang)
    return pyphen.Pyphen(lang=code) if code else None


@lru_cache(maxsize=4096)
def _hyphenated(text: str, lang: str) -> str:
    dic = _dictionary(lang)
    if dic is None:
        return text
    return " ".join(
        dic.inserted(word, hyphen=SOFT_HYPHEN) if len(word) >= _SHORTEST else word
        for word in text.split(" ")
    )


def hyphenate(text: object) -> str:
    """`text` with soft hyphens where the current language may break its long words."""
    return _hyphenated(str(text), i18n.current())
