"""Dreadful Circus — what each seat sees: the public table, that seat's own screen and hand,
and the decision it owes now."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from engines.core import JSON, Seat
from engines.dreadful_circus.cards import CITIES
from engines.dreadful_circus.flow import wagons_at
from engines.dreadful_circus.goods import goods_view
from engines.dreadful_circus.model import State
from engines.dreadful_circus.table import (
    allowed_offers,
    next_scoring_slot,
    sellers,
)

if TYPE_CHECKING:
    from engines.dreadful_circus.rules import DreadfulCircus


def build_view(engine: DreadfulCircus, state: State, seat: Seat | None) -> JSON:
    """What `seat` sees (None = spectator): public table plus that seat's secrets."""
    n = state.num_players
    phase = state.phase
    seller_list = sellers(state)
    simultaneous = phase in ("draft", "first_attraction", "offer", "final")
    players = []
    for p in range(n):
        visible_wagon = seat is not None and (seat == p or seat in state.wagon_seen[p])
        players.append(
            {
                "seat": p,
                "area": list(state.areas[p]),
                "hand_size": len(state.hands[p]),
                "first_seller": p == state.first_seller,
                "second_seller": p == state.second_seller,
                "has_chosen": state.chosen[p] if simultaneous else None,
                "wagon_at": state.wagon_at[p],
                "wagon": goods_view(state.wagons[p]) if visible_wagon else None,
                "screen": goods_view(state.screens[p]) if state.revealed else None,
                "scoring_choices": dict(state.scoring_choices[p]),
            }
        )
    offers: list[JSON] = []
    if phase == "offer":
        offers = [{"seller": s, "card": None, "ready": state.chosen[s]} for s in seller_list]
    elif state.offers:
        offers = [
            {
                "seller": s,
                "card": state.offers[i],
                "winner": state.winners[i],
                "resolved": i < state.resolving,
            }
            for i, s in enumerate(seller_list)
        ]
    data: JSON = {
        "game": engine.spec.id,
        "seat": seat,
        "phase": phase,
        "round": state.round,
        "draft": state.draft,
        "to_act": sorted(engine.to_act(state)),
        "first_seller": state.first_seller,
        "second_seller": state.second_seller,
        "players": players,
        "offers": offers,
        "bag": sum(state.bag),
        "deck": len(state.deck),
        "discard": list(state.discard),
        "queue": [{"seat": q.seat, "card": q.card} for q in state.queue],
        "inspection": None,
        "performance": None,
        "you": None,
        "prompt": None,
        "scores": None,
        "outcome": None,
    }
    if phase == "inspect":
        data["inspection"] = {
            "offer": state.resolving,
            "seller": seller_list[state.resolving],
            "inspected": list(state.inspected),
            "inspecting": state.inspecting,
        }
    if state.prompt is not None:
        pr = state.prompt
        data["performance"] = {
            "seat": pr.seat,
            "card": pr.card,
            "kind": pr.kind,
            "targets": list(pr.targets),
        }
    if seat is not None:
        data["you"] = private_view(state, seat)
        data["prompt"] = prompt_view(engine, state, seat)
    if phase == "over":
        outcome = engine.outcome(state)
        assert outcome is not None
        data["scores"] = outcome.details["breakdown"]
        data["outcome"] = outcome.to_json()
    return data


def private_view(state: State, seat: Seat) -> JSON:
    """A seat's own screen, hand, wagon, pending pick and draft cards."""
    return {
        "screen": goods_view(state.screens[seat]),
        "hand": list(state.hands[seat]),
        "choice": state.choices[seat],
        "has_chosen": state.chosen[seat],
        "draft_packet": list(state.packets[seat]) if state.packets else [],
        "draft_picks": list(state.picks[seat]) if state.picks else [],
    }


def prompt_view(engine: DreadfulCircus, state: State, seat: Seat) -> JSON | None:
    """The decision `seat` owes now, with its options, for the screen to ask."""
    if seat not in engine.to_act(state):
        return None
    phase = state.phase
    if phase == "perform":
        pr = state.prompt
        assert pr is not None
        return {
            "kind": pr.kind,
            "card": pr.card,
            "targets": list(pr.targets),
            "index": pr.index,
            "drawn": dict(zip(CITIES, pr.drawn, strict=True)) if pr.drawn else None,
            "options": [engine.dump_action(a) for a in engine.prompt_actions(state)],
        }
    if phase == "scoring":
        slot = next_scoring_slot(state, seat)
        assert slot is not None
        return {"kind": "scoring_" + slot[1], "key": slot[0], "options": slot[2]}
    if phase == "inspect":
        if state.inspecting is None:
            waiting = wagons_at(state, state.resolving)
            return {
                "kind": "inspect",
                "options": [b for b in waiting if b not in state.inspected],
            }
        return {"kind": "accept_or_refuse", "bidder": state.inspecting}
    if phase == "bid":
        return {"kind": "bid", "offers": allowed_offers(state, seat)}
    return {"kind": phase}


def view_key(engine: DreadfulCircus, state: State, seat: Seat) -> Hashable:
    """What `build_view(engine, state, seat)` and the view's header are made of, as plain
    values (the hard bot's tree key, see `Engine.information_key`): equal exactly when the
    views are. Goods as their eight counts (the view's dictionaries of them are the same
    counts by name); the view itself once the game is over (the scores, rarely keyed)."""
    if state.phase == "over":
        return repr(engine.view(state, seat))
    phase = state.phase
    seller_list = sellers(state)
    simultaneous = phase in ("draft", "first_attraction", "offer", "final")
    revealed = state.revealed
    players = tuple(
        (
            tuple(state.areas[p]),
            len(state.hands[p]),
            state.chosen[p] if simultaneous else None,
            state.wagon_at[p],
            tuple(state.wagons[p]) if seat == p or seat in state.wagon_seen[p] else None,
            tuple(state.screens[p]) if revealed else None,
            tuple(state.scoring_choices[p].items()),
        )
        for p in range(state.num_players)
    )
    offers: tuple[Any, ...] = ()
    if phase == "offer":
        offers = tuple(state.chosen[s] for s in seller_list)
    elif state.offers:
        offers = tuple(
            (state.offers[i], state.winners[i], i < state.resolving)
            for i in range(len(seller_list))
        )
    inspection = None
    if phase == "inspect":
        inspection = (
            state.resolving,
            seller_list[state.resolving],
            tuple(state.inspected),
            state.inspecting,
        )
    pr = state.prompt
    performance = None if pr is None else (pr.seat, pr.card, pr.kind, tuple(pr.targets))
    you = (
        tuple(state.screens[seat]),
        tuple(state.hands[seat]),
        state.choices[seat],
        state.chosen[seat],
        tuple(state.packets[seat]) if state.packets else (),
        tuple(state.picks[seat]) if state.picks else (),
    )
    prompt = prompt_view(engine, state, seat)
    return (
        tuple(sorted(engine.to_act(state))),
        tuple(sorted(engine.chosen(state))),
        phase,
        state.round,
        state.draft,
        state.first_seller,
        state.second_seller,
        players,
        offers,
        sum(state.bag),
        len(state.deck),
        tuple(state.discard),
        tuple((q.seat, q.card) for q in state.queue),
        inspection,
        performance,
        you,
        None if prompt is None else repr(prompt),
    )
