"""Polish card names carry soft hyphens where Polish breaks words, so a narrow card breaks
"Przezna-czenie" with a hyphen, never anywhere; English text is left as it is."""

from __future__ import annotations

from app import i18n
from app.presentation.hyphenate import SOFT_HYPHEN, hyphenate


def test_long_polish_words_get_soft_hyphens_at_syllables() -> None:
    with i18n.use("pl"):
        text = hyphenate("Przeznaczenie i Wędrówka dusz")
    assert text.replace(SOFT_HYPHEN, "") == "Przeznaczenie i Wędrówka dusz"
    assert text.split(" ")[0] == SOFT_HYPHEN.join(["Prze", "zna", "cze", "nie"])
    assert text.split(" ")[-1] == "dusz"  # short words stay whole


def test_english_is_left_alone() -> None:
    with i18n.use("en"):
        assert hyphenate("Reincarnation") == "Reincarnation"
