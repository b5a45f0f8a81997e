"""Dreadful Circus — determinization: re-dealing what a seat cannot see (hands, the deck,
screens) from its view and an rng only.
"""

from __future__ import annotations

from engines.core import (
    Rng,
    Seat,
)
from engines.dreadful_circus.cards import CITIES, ITEMS, is_attraction
from engines.dreadful_circus.goods import FIRST_CITY
from engines.dreadful_circus.model import State

# ---- determinization ---------------------------------------------------------------------------


def redeal_hidden_cards(state: State, seat: Seat | None, rng: Rng) -> None:
    """Shuffle the cards `seat` cannot see back into the same hidden places.

    The pool is sorted before the shuffle, so the result never depends on where each hidden
    card really is.
    """
    others = [p for p in range(state.num_players) if p != seat]
    containers: list[list[str]] = [state.deck]
    needs_attraction: list[bool] = [False]
    for p in others:
        hand_needs = state.phase == "first_attraction" or (
            state.phase == "final" and state.chosen[p] and state.choices[p] is not None
        )
        containers.append(state.hands[p])
        needs_attraction.append(hand_needs)
        if state.packets:
            containers += [state.packets[p], state.picks[p]]
            needs_attraction += [False, False]
    pool = rng.shuffled(sorted(c for box in containers for c in box))
    sizes = [len(box) for box in containers]
    for box in containers:
        box.clear()
    for box, size, need in zip(containers, sizes, needs_attraction, strict=True):
        if need and size:
            i = next(i for i, c in enumerate(pool) if is_attraction(c))
            box.append(pool.pop(i))
    for box, size in zip(containers, sizes, strict=True):
        while len(box) < size:
            box.append(pool.pop())
    for p in others:
        if not state.chosen[p] or state.choices[p] is None:
            continue
        if state.phase == "draft":
            state.choices[p] = rng.choice(state.packets[p])
        elif state.phase in ("first_attraction", "final"):
            state.choices[p] = rng.choice([c for c in state.hands[p] if is_attraction(c)])
        elif state.phase == "offer":
            state.choices[p] = rng.choice(state.hands[p])


def redeal_hidden_goods(state: State, seat: Seat | None, rng: Rng) -> None:
    """Shuffle hidden coins among hidden screens/wagons, and hidden contracts there and in the
    bag, keeping how many coins and contracts each hidden place holds (pools sorted first)."""
    boxes: list[list[int]] = []
    for p in range(state.num_players):
        if p != seat:
            boxes.append(state.screens[p])
            if seat not in state.wagon_seen[p]:
                boxes.append(state.wagons[p])
    prompt = state.prompt
    drawn = prompt.drawn if prompt is not None and prompt.drawn and prompt.seat != seat else None
    coin_pool: list[int] = []
    contract_pool: list[int] = []
    for box in boxes:
        for i in range(FIRST_CITY):
            coin_pool += [i] * box[i]
        for i in range(FIRST_CITY, len(ITEMS)):
            contract_pool += [i] * box[i]
    for extra in (state.bag, drawn or []):
        for ci, n in enumerate(extra):
            contract_pool += [FIRST_CITY + ci] * n
    coin_pool = rng.shuffled(sorted(coin_pool))
    contract_pool = rng.shuffled(sorted(contract_pool))
    coin_at = contract_at = 0
    for box in boxes:
        coins, contracts = sum(box[:FIRST_CITY]), sum(box[FIRST_CITY:])
        dealt = (
            coin_pool[coin_at : coin_at + coins]
            + contract_pool[contract_at : contract_at + contracts]
        )
        coin_at += coins
        contract_at += contracts
        box[:] = [dealt.count(i) for i in range(len(ITEMS))]
    for extra in [state.bag] if drawn is None else [drawn, state.bag]:
        size = sum(extra)
        rest = contract_pool[contract_at : contract_at + size]
        contract_at += size
        extra[:] = [rest.count(FIRST_CITY + ci) for ci in range(len(CITIES))]
