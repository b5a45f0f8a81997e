"""Karmaka — what each seat sees: a player's public area, the card in play, the Karmic Ladder,
the pending decision for the player who owes it and for everybody else.

`Karmaka.game_view` (`rules.py`) puts these pieces together; which cards a seat may see at all
is settled in `hidden.py`; the words of a decision are in `prompts.py`.
"""

from __future__ import annotations

from engines.core import JSON, Seat
from engines.karmaka.abilities import OPTIONAL_PROMPTS, prompt_options
from engines.karmaka.cards import LADDER, SCORED_COLOURS
from engines.karmaka.model import Choose, Done, Draw, Pick, Prompt, State, Target
from engines.karmaka.prompts import prompt_public_text, prompt_text
from engines.karmaka.table import (
    card_json,
    cards_json,
    colour_totals,
    kind_info,
    team_of,
    threshold,
)


def relation(state: State, viewer: Seat | None, seat: Seat) -> str | None:
    """`you`, `partner` or `rival` as seen from `viewer` (None for a spectator)."""
    if viewer is None:
        return None
    if viewer == seat:
        return "you"
    return "partner" if seat in team_of(state, viewer) else "rival"


def player_view(state: State, seat: Seat, viewer: Seat | None, over: bool) -> JSON:
    """One player's public area (and, at game end, all their cards)."""
    player = state.players[seat]
    totals = colour_totals(player.deeds)
    best = max(totals["red"], totals["green"], totals["blue"])
    score = best + totals["mosaic"]
    need = threshold(player.rung)
    short = None if need is None else max(0, need - score)
    entry: JSON = {
        "seat": seat,
        "team": team_of(state, seat),
        "relation": relation(state, viewer, seat),
        "rung": player.rung,
        "rung_id": LADDER[player.rung].id,
        "rung_name": LADDER[player.rung].name,
        "threshold": need,
        "rings": player.rings,
        "hand_count": len(player.hand),
        "deck_count": len(player.deck),
        "future_count": len(player.future),
        "deeds": cards_json(player.deeds),
        "exposed": card_json(player.deeds[-1]) if player.deeds else None,
        "totals": totals,
        "best_colours": [c for c in SCORED_COLOURS if totals[c] == best and best > 0],
        "card_score": score,
        "reaches_threshold": need is not None and score >= need,
        "rings_to_move_up": short if short is not None and short <= player.rings else None,
    }
    if over:
        entry["hand"] = cards_json(player.hand)
        entry["deck"] = cards_json(player.deck)
        entry["future_life"] = cards_json(player.future)
    return entry


def ladder_json() -> list[JSON]:
    """The rungs of the Karmic Ladder, bottom first, as the screen draws them."""
    return [
        {"rung": i, "id": r.id, "name": r.name, "threshold": r.threshold}
        for i, r in enumerate(LADDER)
    ]


def chain_view(state: State) -> JSON | None:
    """The card in play, who played it and whom it affected so far."""
    chain = state.chain
    if chain is None:
        return None
    return {
        "card": card_json(chain.card),
        "actor": chain.actor,
        "target": chain.target,
        # The abilities copied so far, by kind only: a copied Deed may since have gone into
        # a Hand (Mimic copying a rival's Thievery takes that very card), and a Hand's cards
        # are named to no one else.
        "copied": [
            {k: v for k, v in c.items() if k != "id"} for c in cards_json(chain.used_sources)
        ],
        "offer_to": list(chain.offer_to) if state.phase == "offer" else [],
    }


def prompt_view(state: State, prompt: Prompt) -> JSON:
    """The pending decision as its player sees it, with every possible answer."""
    options = prompt_options(state)
    return {
        "kind": prompt.kind,
        "ability": prompt.ability,
        "ability_name": kind_info(prompt.ability).name,
        "text": prompt_text(prompt).to_json(),
        "optional": prompt.kind in OPTIONAL_PROMPTS,
        "target": prompt.target,
        "count": prompt.count,
        "limit": prompt.limit,
        "seats": [a.seat for a in options if isinstance(a, Target)],
        "cards": [card_json(a.card) for a in options if isinstance(a, Choose)],
        "row_size": len(prompt.row),
        "positions": [a.position for a in options if isinstance(a, Pick)],
        "can_draw": any(isinstance(a, Draw) for a in options),
        "can_stop": any(isinstance(a, Done) for a in options),
    }


def waiting_view(prompt: Prompt) -> JSON:
    """What everybody may know about the pending decision."""
    public_cards = prompt.kind in ("recycle", "salvage")
    return {
        "seat": prompt.seat,
        "kind": prompt.kind,
        "ability": prompt.ability,
        "text": prompt_public_text(prompt).to_json(),
        "target": prompt.target,
        "count": prompt.count,
        "limit": prompt.limit,
        "cards_count": len(prompt.cards),
        "cards": cards_json(prompt.cards) if public_cards else None,
        "row_size": len(prompt.row),
        "picked": list(prompt.picked),
    }
