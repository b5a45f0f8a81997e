"""Karmaka — hidden information: which cards a seat can see, and the re-deal of the others that
`Karmaka.determinize` (`rules.py`) makes (canonical renaming, a seeded permutation, the face-down
Swindle/Spite row re-shuffled).

Rule source: docs/rules/karmaka.md ("Hidden information").
"""

from __future__ import annotations

from engines.core import Rng, Seat
from engines.karmaka.flow import is_over
from engines.karmaka.model import State


def visible_cards(state: State, seat: Seat | None) -> set[int]:
    """Every card whose identity and place `seat` (None = spectator) can see now."""
    seen: set[int] = set(state.ruins)
    over = is_over(state)
    for player in state.players:
        seen.update(player.deeds)
        if over:  # the end of the game shows every Hand, Deck and Future Life
            seen.update(player.hand, player.deck, player.future)
    if over:  # ... and the Well
        seen.update(state.well)
    if state.chain is not None:
        seen.add(state.chain.card)
        seen.update(state.chain.used_sources)
    prompt = state.prompt
    if prompt is not None and prompt.kind in ("recycle", "salvage"):
        seen.update(prompt.cards)
    if seat is None:
        return seen
    me = state.players[seat]
    seen.update(me.hand)
    seen.update(me.future)
    for reveal in state.reveals:
        if reveal.seat == seat:
            seen.update(reveal.cards)
    if prompt is not None and prompt.seat == seat:
        seen.update(prompt.cards)
    return seen


def random_permutation(items: list[int], seed: int) -> list[int]:
    """The items in a random order drawn from one 64-bit seed.

    Sorting by a SplitMix64 hash of (seed, item) is a uniform shuffle for our purposes and costs
    one hash per item instead of one `Rng.randbelow` per item: determinize runs very often.
    """

    def key(item: int) -> int:
        z = (seed + (item + 1) * 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    return sorted(items, key=key)


_MASK64 = (1 << 64) - 1


def card_places(state: State) -> list[int]:
    """Every card id in the state, in the fixed order of their places (repeats included).

    The order is the one `remap_cards` walks; it is what a canonical renaming is built from.
    """
    out: list[int] = []
    for player in state.players:
        for pile in (player.hand, player.deck, player.future, player.deeds):
            out += pile
    out += state.well
    out += state.ruins
    if state.chain is not None:
        out.append(state.chain.card)
        out += state.chain.used_sources
    if state.prompt is not None:
        out += state.prompt.cards
        out += state.prompt.row
    for reveal in state.reveals:
        out += reveal.cards
    return out


def reshuffle_row(state: State, rng: Rng) -> None:
    """Re-shuffle the face-down row of a Swindle/Spite: its order is secret to everybody.

    Only the places still holding a card of the target's Hand move (a Spite pick is ruined and
    stays put); they are sorted first so that the real order cannot show through.
    """
    prompt = state.prompt
    if prompt is None or not prompt.row or prompt.target is None:
        return
    hand = set(state.players[prompt.target].hand)
    places = [i for i, c in enumerate(prompt.row) if c in hand]
    cards = rng.shuffled(sorted(prompt.row[i] for i in places))
    for i, c in zip(places, cards, strict=True):
        prompt.row[i] = c


def remap_cards(state: State, mapping: dict[int, int]) -> None:
    """Rename cards everywhere in a freshly cloned state (a re-deal of the renamed cards)."""

    def swap(cards: list[int]) -> None:
        cards[:] = [mapping.get(c, c) for c in cards]

    for player in state.players:
        for pile in (player.hand, player.deck, player.future, player.deeds):
            swap(pile)
    swap(state.well)
    swap(state.ruins)
    if state.chain is not None:
        state.chain.card = mapping.get(state.chain.card, state.chain.card)
        swap(state.chain.used_sources)
    if state.prompt is not None:
        swap(state.prompt.cards)
        swap(state.prompt.row)
    for reveal in state.reveals:
        swap(reveal.cards)
