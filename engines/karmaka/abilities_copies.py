"""Karmaka — the copy abilities: Denial (ruin a Hand card, use its ability), Embody (use one of
your Deeds), Mimic (use a player's Exposed Deed), and how a copy chain stops.

Rule source: docs/rules/karmaka.md ("Copy abilities: Denial, Embody, Mimic").
The copied ability resolves through `begin_ability` (`abilities_resolve.py`); the map of every
ability to its module is in `abilities.py`.
"""

from __future__ import annotations

from engines.core import Event, who
from engines.karmaka.abilities_resolve import (
    begin_ability,
    chain_of,
    chosen_card,
    finish_nothing,
    prompt_of,
)
from engines.karmaka.cards import kind
from engines.karmaka.model import AnyAction, State, Target, read_player
from engines.karmaka.table import card_term, ruin_from


def answer_denial(state: State, action: AnyAction, events: list[Event]) -> None:
    """Denial: ruin the chosen Hand card first, then resolve its ability."""
    actor = prompt_of(state).seat
    card = chosen_card(action)
    ruin_from(state, state.players[actor].hand, card)
    events.append(
        Event.public(
            "%(actor)s ruins %(card)s from their Hand and uses it.",
            actor=who(actor),
            card=card_term(card),
        )
    )
    begin_ability(state, kind(card).id, events)


def answer_embody(state: State, action: AnyAction, events: list[Event]) -> None:
    """Embody: resolve the chosen Deed of your own."""
    copy_deed(state, chosen_card(action), "embody", events)


def answer_mimic_source(state: State, action: AnyAction, events: list[Event]) -> None:
    """Mimic: resolve the Exposed Deed of the chosen player."""
    assert isinstance(action, Target)
    deeds = read_player(state.players, action.seat).deeds
    actor = prompt_of(state).seat
    events.append(
        Event.public(
            "%(actor)s copies the Exposed Deed of %(who)s.", actor=who(actor), who=who(action.seat)
        )
    )
    if not deeds:
        finish_nothing(
            state, "%(who)s has no Deeds: Mimic does nothing.", events, who=who(action.seat)
        )
        return
    copy_deed(state, deeds[-1], "mimic", events)


def copy_deed(state: State, deed: int, copier: str, events: list[Event]) -> None:
    """Resolve a Deed's ability as a copy, unless it is the same copy card or already used."""
    chain = chain_of(state)
    deed_kind = kind(deed).id
    if deed_kind == copier:
        finish_nothing(
            state, "%(card)s copying %(card)s does nothing.", events, card=card_term(deed)
        )
        return
    if deed in chain.used_sources:
        finish_nothing(
            state,
            "%(card)s was already copied in this chain: it stops.",
            events,
            card=card_term(deed),
        )
        return
    chain.used_sources.append(deed)
    events.append(
        Event.public(
            "%(actor)s uses the ability of the %(card)s.",
            actor=who(chain.actor),
            card=card_term(deed),
        )
    )
    begin_ability(state, deed_kind, events)
