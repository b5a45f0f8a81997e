"""Ganges: Cards & Karma — finding the triples in a display and their resolution sets.

Rule source: docs/rules/ganges.md ("The settle step", "Candidate triples"). A symbol is one
building, goods item or ship on a display card. Candidates: same building type (3+), a minimal
set of building cards showing all building types, same good (3+, anywhere), a minimal set of
cards showing all goods, and 3+ ships. A resolution set is a maximal set of candidates that share
no symbol; a card serving two triples through different symbols is discarded once.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from engines.core import Phrase, tr
from engines.ganges.cards import (
    BUILDING_TYPES,
    BUILDING_WORDS,
    CARDS,
    GOOD_WORDS,
    GOODS_TYPES,
    TRIPLE,
    card_words,
    word,
)
from engines.ganges.state import Player, Resolution, Triple


@dataclass(frozen=True)
class Symbol:
    """One symbol on a display card: `kind` is building, goods or ship."""

    key: str
    card: str
    kind: str
    type: str = ""
    value: int = 0


def card_symbols(card_id: str, row: str) -> list[Symbol]:
    """The symbols a card shows while it lies in the display row `row`."""
    c = CARDS[card_id]
    out = [Symbol(f"{card_id}/b{i}", card_id, "building", t) for i, t in enumerate(c.buildings)]
    if row == "ships":
        out.append(Symbol(f"{card_id}/s", card_id, "ship"))
    out += [
        Symbol(f"{card_id}/g{i}", card_id, "goods", g.good, g.value) for i, g in enumerate(c.goods)
    ]
    return out


def display_symbols(player: Player) -> list[Symbol]:
    """Every symbol in a player's display, rows in order."""
    out: list[Symbol] = []
    for row, cards in (
        ("buildings", player.buildings),
        ("ships", player.ships),
        ("goods", player.goods),
    ):
        for card_id in cards:
            out += card_symbols(card_id, row)
    return out


def goods_symbol_count(player: Player) -> int:
    """Goods symbols in the display, wherever they are (palace 4)."""
    return sum(1 for s in display_symbols(player) if s.kind == "goods")


def _triple(kind: str, label: str, used: list[Symbol], admins: int = 0, coins: int = 0) -> Triple:
    cards = list(dict.fromkeys(s.card for s in used))
    return Triple.model_validate(
        {
            "kind": kind,
            "label": label,
            "symbols": [s.key for s in used],
            "cards": cards,
            "admins": admins,
            "coins": coins,
        }
    )


def _minimal_covers(by_card: dict[str, list[Symbol]], types: tuple[str, ...]) -> list[list[str]]:
    """Sets of cards that together show every type and from which no card can be left out."""
    bit = {t: 1 << i for i, t in enumerate(types)}
    masks: dict[str, int] = {}
    for c, syms in by_card.items():
        mask = 0
        for s in syms:
            mask |= bit.get(s.type, 0)
        if mask:
            masks[c] = mask
    cards = list(masks)
    full = (1 << len(types)) - 1
    covers: list[list[str]] = []

    def shows_all(group: tuple[str, ...]) -> bool:
        """Whether the cards together show every type."""
        mask = 0
        for c in group:
            mask |= masks[c]
        return mask == full

    for size in range(1, len(types) + 1):
        for group in combinations(cards, size):
            if shows_all(group) and not any(
                shows_all(group[:i] + group[i + 1 :]) for i in range(len(group))
            ):
                covers.append(list(group))
    return covers


def too_few_symbols(player: Player) -> bool:
    """Whether the display shows too few symbols of every kind for any triple (counted from
    the card data alone: the settle step asks after every action)."""
    display = [*player.buildings, *player.ships, *player.goods]
    buildings = sum(len(CARDS[c].buildings) for c in display)
    goods = sum(len(CARDS[c].goods) for c in display)
    return (
        buildings < min(TRIPLE, len(BUILDING_TYPES))
        and goods < min(TRIPLE, len(GOODS_TYPES))
        and len(player.ships) < TRIPLE
    )


def candidates(player: Player) -> list[Triple]:
    """Every candidate triple in the display, in a fixed order."""
    if too_few_symbols(player):
        return []
    symbols = display_symbols(player)
    buildings = [s for s in symbols if s.kind == "building"]
    goods = [s for s in symbols if s.kind == "goods"]
    ships = [s for s in symbols if s.kind == "ship"]
    out: list[Triple] = []
    for t in BUILDING_TYPES:
        same = [s for s in buildings if s.type == t]
        if len(same) >= TRIPLE:
            out.append(_triple("same_buildings", t, same, admins=1))
    by_card: dict[str, list[Symbol]] = {}
    for s in buildings:
        by_card.setdefault(s.card, []).append(s)
    for group in _minimal_covers(by_card, BUILDING_TYPES):
        used = [s for c in group for s in by_card[c]]
        out.append(_triple("different_buildings", "", used, admins=1))
    for g in GOODS_TYPES:
        same = [s for s in goods if s.type == g]
        if len(same) >= TRIPLE:
            out.append(_triple("same_goods", g, same, coins=sum(s.value for s in same)))
    by_card = {}
    for s in goods:
        by_card.setdefault(s.card, []).append(s)
    for group in _minimal_covers(by_card, GOODS_TYPES):
        used = [s for c in group for s in by_card[c]]
        coins = sum(max(s.value for s in used if s.type == g) for g in GOODS_TYPES)
        out.append(_triple("different_goods", "", used, coins=coins))
    if len(ships) >= TRIPLE:
        out.append(_triple("ships", "", ships, admins=1))
    return out


def triple_words(t: Triple) -> Phrase:
    """A triple in words: "3 red buildings", "3 different goods (…cards…)", "3 ships"."""
    cards = [card_words(c) for c in t.cards]
    if t.kind == "same_buildings":
        return Phrase(tr("3 %(type)s buildings"), {"type": word(BUILDING_WORDS, t.label)})
    if t.kind == "same_goods":
        return Phrase(tr("3 × %(good)s"), {"good": word(GOOD_WORDS, t.label)})
    if t.kind == "different_buildings":
        return Phrase(tr("3 different buildings (%(cards)s)"), {"cards": cards})
    if t.kind == "different_goods":
        return Phrase(tr("3 different goods (%(cards)s)"), {"cards": cards})
    return Phrase(tr("3 ships"))


def _maximal_disjoint(cands: list[Triple]) -> list[list[int]]:
    """Index sets of candidates sharing no symbol that no further candidate can join."""
    symbols = [set(c.symbols) for c in cands]
    result: list[list[int]] = []

    def grow(i: int, chosen: list[int], used: set[str]) -> None:
        """Decide candidate `i` (take it if it fits, or leave it out), then the rest."""
        if i == len(cands):
            if all(j in chosen or symbols[j] & used for j in range(len(cands))):
                result.append(list(chosen))
            return
        if not symbols[i] & used:
            grow(i + 1, [*chosen, i], used | symbols[i])
        grow(i + 1, chosen, used)

    grow(0, [], set())
    return result


def resolutions(player: Player) -> list[Resolution]:
    """The distinct resolution sets (different discards or rewards), in a fixed order.

    The settle step asks after every action, and most displays have none: such displays are
    remembered (`_NONE`, plain tuples of card ids, which the collector skips) so the next ask
    costs a look-up."""
    key = (*player.buildings, "", *player.ships, "", *player.goods)
    if key in _NONE:
        return []
    found = _resolutions(player)
    if not found:
        if len(_NONE) >= _NONE_LIMIT:
            _NONE.clear()
        _NONE.add(key)
    return found


_NONE: set[tuple[str, ...]] = set()
_NONE_LIMIT = 50_000
"""Displays without any resolution set kept before the memory starts again."""


def _resolutions(player: Player) -> list[Resolution]:
    """`resolutions`, worked out."""
    cands = candidates(player)
    if not cands:
        return []
    order = {c: i for i, c in enumerate(display_order(player))}
    seen: dict[tuple[tuple[str, ...], int, int], Resolution] = {}
    for indices in _maximal_disjoint(cands):
        triples = [cands[i] for i in indices]
        discard = sorted({c for t in triples for c in t.cards}, key=order.__getitem__)
        res = Resolution(
            triples=triples,
            discard=discard,
            admins=sum(t.admins for t in triples),
            coins=sum(t.coins for t in triples),
        )
        seen.setdefault((tuple(discard), res.admins, res.coins), res)
    return list(seen.values())


def display_order(player: Player) -> list[str]:
    """Display cards: building row, ship row, goods row."""
    return [*player.buildings, *player.ships, *player.goods]
