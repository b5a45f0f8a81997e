"""Karmaka — the words of a pending ability decision: what its player is asked, and what
everybody else is told about it (shown by `view.py`, quoted by refusals in `rules.py` and
`abilities_resolve.py`)."""

from __future__ import annotations

from engines.core import Phrase, Term, tr, who
from engines.karmaka.cards import DESTINY_KEEP
from engines.karmaka.model import Prompt, PromptKind
from engines.karmaka.table import kind_info


def prompt_text(p: Prompt) -> Phrase:
    """What the answering player is asked (a message with its parameters)."""
    ability = Term(kind_info(p.ability).name, "karmaka")
    progress = {"count": p.count, "limit": p.limit, "keep": DESTINY_KEEP, "picked": len(p.picked)}
    texts: dict[PromptKind, str] = {
        "target": tr("%(ability)s: choose a player to target."),
        "mimic_source": tr("Mimic: choose whose Exposed Deed to copy."),
        "denial": tr("Denial: choose a card of your Hand to ruin; you then use its ability."),
        "embody": tr("Embody: choose one of your Deeds; you use its ability."),
        "transmigrate": tr(
            "Transmigrate: choose a card of your Future Life to take into your Hand."
        ),
        "destiny_keep": tr(
            "Destiny: put a card on your Future Life (%(count)s of %(keep)s so far), or stop."
        ),
        "destiny_return": tr("Destiny: choose the next card to put back on the Well (last = top)."),
        "recycle": tr("Recycle: choose a Ruins card to put on your Future Life."),
        "salvage": tr("Salvage: choose a Ruins card to take into your Hand."),
        "sowing": tr("Sowing: choose a card to put on your Future Life (%(count)s of %(limit)s)."),
        "jubilee": tr(
            "Jubilee: add a card to your Deeds (%(count)s of %(limit)s so far), or stop."
        ),
        "dwindle": tr("Dwindle: choose a card of your Hand to ruin."),
        "crisis": tr("Crisis: choose one of your Deeds to ruin."),
        "roulette_ruin": tr(
            "Roulette: ruin a card of your Hand (%(count)s of %(limit)s), or stop."
        ),
        "roulette_draw": tr("Roulette: draw a card (%(count)s of at most %(limit)s), or stop."),
        "swindle_pick": tr("Swindle: pick a face-down card (%(picked)s of %(limit)s)."),
        "swindle_keep": tr("Swindle: choose the card to keep; the others go back."),
        "spite_pick": tr("Spite: pick a face-down card to ruin (%(picked)s of %(limit)s)."),
    }
    message = texts[p.kind]
    params = {k: v for k, v in {"ability": ability, **progress}.items() if f"%({k})s" in message}
    return Phrase(message, params)


def prompt_public_text(p: Prompt) -> Phrase:
    """What everybody else is told about the pending decision."""
    ability = Term(kind_info(p.ability).name, "karmaka")
    if p.kind in ("dwindle", "crisis"):
        return Phrase(
            tr("%(who)s chooses a card to ruin (%(ability)s)."),
            {"who": who(p.seat), "ability": ability},
        )
    return Phrase(tr("%(who)s is resolving %(ability)s."), {"who": who(p.seat), "ability": ability})
