"""Dreadful Circus final scoring (docs/rules/dreadful-circus.md, "Scoring" and "Ties").

Pure functions over plain data: each player's coins, contract tokens, area and scoring-time
choices. The seed rulebook (the publisher's Polish rulebook) gives the coin values, the
majority split, sets of 4 types, the Collection table, The Loop and the tie-break order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

from engines.dreadful_circus.cards import (
    CITIES,
    COIN_VALUES,
    COLLECTION_DESIGNS,
    COLLECTION_VP,
    DESIGNS,
)

MAJORITY_VP = 4
SET4_VP = 8
SET5_VP = 11
FLAMING_ARROW_VP = 3
COPIERS = ("distorting_mirrors", "twisted_corridors")


@dataclass(frozen=True)
class Tally:
    """One player's final position: coins by metal, contract tokens by city, area, choices."""

    coins: tuple[int, ...]
    contracts: tuple[int, ...]
    area: tuple[str, ...]
    choices: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoringEffect:
    """One scoring-time effect a player benefits from: a card's own, or a copy of one."""

    card: str
    via: str | None
    choice: str | None


def slot_keys(area: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """(choice key, card) for every card of an area: the key tells copies of a design apart."""
    seen: dict[str, int] = {}
    keys = []
    for card in area:
        k = seen.get(card, 0)
        seen[card] = k + 1
        keys.append((f"{card}#{k}", card))
    return keys


def parse_copy(value: str) -> tuple[int, str]:
    """A copy choice is stored as `seat:card`."""
    seat, card = value.split(":", 1)
    return int(seat), card


def scoring_effects(tally: Tally) -> list[ScoringEffect]:
    """The effects of the area's cards, copies resolved to the copied card's effect."""
    out = []
    for key, card in slot_keys(tally.area):
        if DESIGNS[card].effect in COPIERS:
            value = tally.choices.get(key)
            if value:
                _, copied = parse_copy(value)
                out.append(ScoringEffect(copied, card, tally.choices.get(key + ".city")))
        else:
            out.append(ScoringEffect(card, None, tally.choices.get(key)))
    return out


def counted_as(effects: list[ScoringEffect], kinds: tuple[str, ...], wild: str) -> list[int]:
    """Cards that count as one of `kinds` (cities or Collection designs), per kind: the cards
    printed with one (`city`, `collection`) and the `wild` card by its owner's choice."""
    counts = [0] * len(kinds)
    for e in effects:
        design = DESIGNS[e.card]
        printed = design.city or design.collection  # only contract and Collection cards
        if printed in kinds:
            counts[kinds.index(printed)] += 1
        elif design.effect == wild and e.choice in kinds:
            counts[kinds.index(e.choice)] += 1
    return counts


def effective_contracts(tally: Tally, effects: list[ScoringEffect]) -> list[int]:
    """Tokens plus contract-colour cards, Rainbow Bridge and copies of them, per city."""
    cards = counted_as(effects, CITIES, "rainbow_bridge")
    return [tokens + n for tokens, n in zip(tally.contracts, cards, strict=True)]


def effective_collections(effects: list[ScoringEffect]) -> list[int]:
    """Collection cards per design: orange cards, Crystal Balls' choice and copies."""
    return counted_as(effects, COLLECTION_DESIGNS, "crystal_balls")


def has_effect(effects: list[ScoringEffect], effect: str) -> bool:
    """Whether a player benefits from an effect (card or copy); a second copy adds nothing."""
    return any(DESIGNS[e.card].effect == effect for e in effects)


def sets_of_four(counts: list[int]) -> int:
    """The most disjoint sets of 4 different types: largest k with sum(min(c, k)) >= 4k."""
    k = 0
    while sum(min(c, k + 1) for c in counts) >= 4 * (k + 1):
        k += 1
    return k


def contract_sets(counts: list[int], loop: bool) -> tuple[int, int, int]:
    """(VP, sets of 5, sets of 4) for the best grouping; sets of 5 only with The Loop."""
    best = (SET4_VP * sets_of_four(counts), 0, sets_of_four(counts))
    if loop:
        for a in range(1, min(counts) + 1):
            b = sets_of_four([c - a for c in counts])
            vp = SET5_VP * a + SET4_VP * b
            if vp > best[0]:
                best = (vp, a, b)
    return best


@lru_cache(maxsize=4096)
def best_collections(counts: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Best split of Collection cards into sets of 1–3 different designs: (VP, sets)."""
    present = [i for i, c in enumerate(counts) if c > 0]
    if not present:
        return 0, ()
    best: tuple[int, tuple[tuple[int, ...], ...]] = (-1, ())
    for size in (3, 2, 1):
        for group in combinations(present, size):
            rest = list(counts)
            for i in group:
                rest[i] -= 1
            vp, sets = best_collections(tuple(rest))
            vp += COLLECTION_VP[size]
            if vp > best[0]:
                best = (vp, (group, *sets))
    return best


def effect_vp(effect: ScoringEffect, tally: Tally) -> int:
    """VP of an added scoring effect (Flaming Arrow, Gilded Cage, Penny Arcade, Pickled Things)."""
    copper, silver, gold = tally.coins
    key = DESIGNS[effect.card].effect
    if key == "flaming_arrow":
        return FLAMING_ARROW_VP * min(copper, silver, gold)
    if key == "gilded_cage":
        return gold
    if key == "penny_arcade":
        return copper // 2
    if key == "pickled_things":
        return len({DESIGNS[c].colour for c in tally.area})
    return 0


def majority_points(counts: list[int], scales: list[bool]) -> list[int]:
    """The 4 VP of one contract type among the leaders (count >= 1), Scales winning ties."""
    top = max(counts)
    points = [0] * len(counts)
    if top < 1:
        return points
    leaders = [s for s, c in enumerate(counts) if c == top]
    with_scales = [s for s in leaders if scales[s]]
    sharing = with_scales if with_scales else leaders
    for s in sharing:
        points[s] = MAJORITY_VP // len(sharing)
    return points


def score_all(tallies: list[Tally]) -> list[dict[str, Any]]:
    """Every player's score breakdown (A–F of the spec) and total."""
    effects = [scoring_effects(t) for t in tallies]
    contracts = [effective_contracts(t, e) for t, e in zip(tallies, effects, strict=True)]
    scales = [has_effect(e, "scales_of_themis") for e in effects]
    majorities: list[dict[str, int]] = [{} for _ in tallies]
    for ci, city in enumerate(CITIES):
        points = majority_points([c[ci] for c in contracts], scales)
        for seat, vp in enumerate(points):
            majorities[seat][city] = vp
    out = []
    for seat, tally in enumerate(tallies):
        coins = sum(n * v for n, v in zip(tally.coins, COIN_VALUES, strict=True))
        loop = has_effect(effects[seat], "the_loop")
        sets_vp, sets5, sets4 = contract_sets(contracts[seat], loop)
        printed = sum(DESIGNS[c].vp for c in tally.area)
        collection_counts = effective_collections(effects[seat])
        collections_vp, groups = best_collections(tuple(collection_counts))
        extras: list[dict[str, Any]] = []
        for e in effects[seat]:
            vp = effect_vp(e, tally)
            if DESIGNS[e.card].effect in (
                "flaming_arrow",
                "gilded_cage",
                "penny_arcade",
                "pickled_things",
            ):
                extras.append({"card": e.card, "via": e.via, "vp": vp})
        majority_vp = sum(majorities[seat].values())
        effects_vp = sum(int(x["vp"]) for x in extras)
        total = coins + majority_vp + sets_vp + printed + collections_vp + effects_vp
        out.append(
            {
                "coins": coins,
                "majorities": majorities[seat],
                "majority_total": majority_vp,
                "sets": sets_vp,
                "sets_of_5": sets5,
                "sets_of_4": sets4,
                "printed": printed,
                "collections": collections_vp,
                "collection_sets": [[COLLECTION_DESIGNS[i] for i in g] for g in groups],
                "effects": extras,
                "effects_total": effects_vp,
                "effective_contracts": dict(zip(CITIES, contracts[seat], strict=True)),
                "effective_collections": dict(
                    zip(COLLECTION_DESIGNS, collection_counts, strict=True)
                ),
                "scales": scales[seat],
                "loop": loop,
                "total": total,
            }
        )
    return out


def tie_break_key(total: int, scales: bool, tally: Tally, first_seller: bool) -> tuple[int, ...]:
    """The seed's tie-break order as a sort key: total, Scales, Attractions, contracts, coins,
    first-seller marker. Equal keys share the rank (and the win)."""
    return (
        total,
        int(scales),
        len(tally.area),
        sum(tally.contracts),
        sum(tally.coins),
        int(first_seller),
    )
