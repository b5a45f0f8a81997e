"""Dreadful Circus — goods (coins by metal, contracts by city) and secret log lines.

Rule source: docs/rules/dreadful-circus.md ("Components", "Goods").
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import (
    JSON,
    Event,
    Forms,
    Phrase,
    Seat,
    forms,
    tr,
)
from engines.dreadful_circus.cards import CITIES, ITEMS, METALS
from engines.dreadful_circus.model import State

COPPER, SILVER, GOLD = 0, 1, 2
FIRST_CITY = 3
MIN_HAND_TO_SELL = 4
"""A player holding 3 or fewer cards is never made seller; the game ends at 3 in every hand."""
LOAD_COINS = ("bendy_marcella", "pickpocket_clowns", "fire_breather")
TARGET_COUNT = {"bendy_marcella": 1, "knife_thrower": 1, "human_cannonball": 2, "fire_breather": 2}
"""How many players a loading Performance names (Pickpocket Clowns names none: all load)."""


# ---- goods ------------------------------------------------------------------------------------


def empty_goods() -> list[int]:
    """Eight zero counts."""
    return [0] * len(ITEMS)


def add_goods(into: list[int], goods: list[int]) -> None:
    """Add `goods` into a screen or wagon, in place."""
    for i, n in enumerate(goods):
        into[i] += n


def covers(have: list[int], want: list[int]) -> bool:
    """Whether `have` holds at least `want` of every item."""
    return all(h >= w for h, w in zip(have, want, strict=True))


ITEM_FORMS: tuple[Forms, ...] = (
    forms("%(count)s copper", "%(count)s copper"),
    forms("%(count)s silver", "%(count)s silver"),
    forms("%(count)s gold", "%(count)s gold"),
    forms("%(count)s Berlin contract", "%(count)s Berlin contracts"),
    forms("%(count)s Paris contract", "%(count)s Paris contracts"),
    forms("%(count)s Vegas contract", "%(count)s Vegas contracts"),
    forms("%(count)s Prague contract", "%(count)s Prague contracts"),
    forms("%(count)s London contract", "%(count)s London contracts"),
)
"""Each kind of goods counted, in the order of ITEMS."""


def goods_words(goods: list[int]) -> list[Phrase]:
    """Goods for a log line, in the reader's language: `2 copper, 1 Berlin contract`."""
    parts = [Phrase.of(ITEM_FORMS[i], count=n) for i, n in enumerate(goods) if n]
    return parts or [Phrase(tr("nothing"))]


def contracts_words(drawn: list[int]) -> list[Phrase]:
    """Contracts by city for a log line."""
    return goods_words([0, 0, 0, *drawn])


def goods_text(goods: list[int]) -> str:
    """Goods in the short notation of action texts: `2 copper, 1 gold, 1 berlin`."""
    parts = [f"{n} {ITEMS[i]}" for i, n in enumerate(goods) if n]
    return ", ".join(parts) if parts else "nothing"


def goods_view(goods: list[int]) -> JSON:
    """Goods for the screen: coins by metal and contracts by city."""
    return {
        "coins": dict(zip(METALS, goods[:FIRST_CITY], strict=True)),
        "contracts": dict(zip(CITIES, goods[FIRST_CITY:], strict=True)),
    }


def items_to_goods(items: Sequence[str]) -> list[int]:
    """A list of item names as eight counts."""
    goods = empty_goods()
    for item in items:
        goods[ITEMS.index(item)] += 1
    return goods


def draw_contracts(state: State, count: int) -> list[int]:
    """Draw up to `count` contracts from the bag at random (all that are left if fewer)."""
    drawn = [0] * len(CITIES)
    for _ in range(count):
        total = sum(state.bag)
        if total == 0:
            break
        r = state.rng.randbelow(total)
        for ci, n in enumerate(state.bag):
            if r < n:
                state.bag[ci] -= 1
                drawn[ci] += 1
                break
            r -= n
    return drawn


def give_contracts(state: State, seat: Seat, drawn: list[int]) -> None:
    """Put drawn contracts behind a screen."""
    for ci, n in enumerate(drawn):
        state.screens[seat][FIRST_CITY + ci] += n


def contracts_text(drawn: list[int]) -> str:
    """Contracts by city in words."""
    return goods_text([0, 0, 0, *drawn])


# ---- events -----------------------------------------------------------------------------------


def secret_pair(state: State, seats: set[int], secret: Phrase, public: Phrase) -> list[Event]:
    """One line for `seats` only, another for every other seat and spectators."""
    everyone = frozenset(range(state.num_players))
    return [
        Event.make(_forms(secret), frozenset(seats), False, secret.params),
        Event.make(_forms(public), everyone - seats, True, public.params),
    ]


def _forms(p: Phrase) -> str | Forms:
    return p.message if p.plural is None else Forms(p.message, p.plural)


def return_wagon(state: State, seat: Seat) -> None:
    """A wagon goes home: its contents go back behind its owner's screen."""
    add_goods(state.screens[seat], state.wagons[seat])
    state.wagons[seat] = empty_goods()
    state.wagon_at[seat] = None
    state.wagon_seen[seat] = []
