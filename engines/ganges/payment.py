"""Ganges: Cards & Karma — paying for buildings, ships and palace cards.

Rule source: docs/rules/ganges.md ("Paying"). Buildings: dice of the cost colour whose total
reaches the minimum sum, every paying card needed; karma only raises and then must hit the sum
exactly. Ships and palace cards: exactly one die of the exact value, karma bridging the gap.
An administrator may stand in for a die as a joker with a declared value (never with karma).

`check_*` accept every valid payment; `*_payments` list one canonical payment per distinct
choice (cards of equal colour and value are interchangeable) so bots get a short list.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

from engines.core import IllegalAction
from engines.ganges.cards import CARDS, DIE_VALUES, Card, colour_word

MAX_DIE = max(DIE_VALUES)
MIN_DIE = min(DIE_VALUES)


class Die(NamedTuple):
    """A hand card seen as a die (a named tuple: hands are read as dice at every step)."""

    card: str
    colour: str
    value: int


@dataclass(frozen=True)
class Payment:
    """Hand cards paid, joker values declared and karma tokens spent."""

    cards: tuple[str, ...] = ()
    jokers: tuple[int, ...] = ()
    karma: int = 0


def check_common(
    hand: list[Die],
    pay: list[str],
    jokers: list[int],
    karma: int,
    karma_held: int,
    admins_held: int,
) -> list[Die]:
    """Cards in hand and distinct, jokers and karma available; the paying dice."""
    by_id = {d.card: d for d in hand}
    if len(set(pay)) != len(pay):
        raise IllegalAction("A card can be paid only once.")
    missing = [c for c in pay if c not in by_id]
    if missing:
        raise IllegalAction("That die card is not in your hand.")
    if len(jokers) > admins_held:
        raise IllegalAction("Each joker needs an administrator card, and you have too few.")
    if any(not MIN_DIE <= v <= MAX_DIE for v in jokers):
        raise IllegalAction("A joker's declared value must be between 1 and 6.")
    if karma < 0 or karma > karma_held:
        raise IllegalAction(
            "You cannot spend %(karma)s karma; you have %(held)s.", karma=karma, held=karma_held
        )
    if not pay and not jokers:
        raise IllegalAction("This card must be paid for.")
    return [by_id[c] for c in pay]


def check_building_payment(building: Card, dice: list[Die], jokers: list[int], karma: int) -> None:
    """Dice of the cost colour reaching the minimum sum, no card superfluous, karma exact."""
    wrong = sorted({d.colour for d in dice if d.colour != building.cost_colour})
    if wrong:
        raise IllegalAction(
            "This building is paid with %(colour)s dice only; %(wrong)s dice are not %(colour)s.",
            colour=colour_word(building.cost_colour),
            wrong=[colour_word(c) for c in wrong],
        )
    values = [d.value for d in dice] + list(jokers)
    total = sum(values)
    if karma == 0:
        if total < building.min_sum:
            raise IllegalAction(
                "The dice total %(total)s, below the cost %(cost)s.",
                total=total,
                cost=building.min_sum,
            )
        if total - min(values) >= building.min_sum:
            raise IllegalAction("Every paying card must be needed; leave out the superfluous one.")
        return
    if not dice:
        raise IllegalAction("Karma changes dice cards, not administrator jokers.")
    if karma > sum(MAX_DIE - d.value for d in dice):
        raise IllegalAction("Karma can never raise a die above 6.")
    if total + karma != building.min_sum:
        raise IllegalAction(
            "With karma the total must equal the cost %(cost)s exactly "
            "(dice %(total)s + karma %(karma)s).",
            cost=building.min_sum,
            total=total,
            karma=karma,
        )


def check_exact_payment(target: Card, dice: list[Die], jokers: list[int], karma: int) -> None:
    """One die (or one joker) of exactly the cost value; karma spent equals the gap."""
    cost = target.cost_value
    if len(dice) + len(jokers) != 1:
        raise IllegalAction(
            "This card is paid with exactly one die of value %(cost)s; dice cannot be combined.",
            cost=cost,
        )
    if jokers:
        if jokers[0] != cost:
            raise IllegalAction("The joker must be declared as a %(cost)s.", cost=cost)
        if karma:
            raise IllegalAction("Karma changes dice cards, not administrator jokers.")
        return
    gap = abs(dice[0].value - cost)
    if karma != gap:
        raise IllegalAction(
            "The %(colour)s die shows %(value)s; paying %(cost)s takes exactly %(karma)s karma.",
            colour=colour_word(dice[0].colour),
            value=dice[0].value,
            cost=cost,
            karma=gap,
        )


def building_payments(building: Card, hand: list[Die], karma: int, admins: int) -> list[Payment]:
    """Canonical payments for a building: plain, or completed by jokers and/or karma.

    Equal dice are merged (the first such cards in hand order are named); jokers are declared
    6 except the last, which takes what is left, so every listed payment hits the sum exactly.
    """
    groups: dict[int, list[str]] = {}
    for d in hand:
        if d.colour == building.cost_colour:
            groups.setdefault(d.value, []).append(d.card)
    return grouped_payments(building.min_sum, groups, karma, admins)


def grouped_payments(
    cost: int, groups: dict[int, list[str]], karma: int, admins: int
) -> list[Payment]:
    """`building_payments` for a cost of `cost` from the dice of its colour grouped by value
    (each group's cards in hand order)."""
    return [
        Payment(tuple(cards), tuple(jokers), spent)
        for cards, jokers, spent in building_payment_parts(cost, groups, karma, admins)
    ]


def building_payment_parts(
    cost: int, groups: dict[int, list[str]], karma: int, admins: int
) -> list[tuple[list[str], list[int], int]]:
    """`grouped_payments` as (cards, jokers, karma) lists, from the kept counting template."""
    values, template = building_template(cost, groups, karma, admins)
    return [
        (template_cards(values, groups, taken), list(jokers), spent)
        for taken, jokers, spent in template
    ]


Template = tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]
"""Building payments as (dice taken per value held, jokers declared, karma spent)."""


def building_template(
    cost: int, groups: dict[int, list[str]], karma: int, admins: int
) -> tuple[list[int], Template]:
    """The values held (ascending) and the kept template of every canonical payment of a
    building of `cost` from `groups` (one entry per payment; the cards come from
    `template_cards`, so counting the payments names no card)."""
    values, shape = held_shape(groups)
    return values, shaped_template(cost, values, shape, karma, admins)


def held_shape(groups: dict[int, list[str]]) -> tuple[list[int], tuple[int, ...]]:
    """The values held (ascending) and `(*values, 0, *counts)`: what a building's payments
    from `groups` depend on besides its cost, karma and administrators."""
    values = sorted(groups)
    return values, (*values, 0, *[len(groups[v]) for v in values])


def shaped_template(
    cost: int, values: list[int], shape: tuple[int, ...], karma: int, admins: int
) -> Template:
    """`building_template`'s template from the `held_shape` of the groups (worked out once
    for all the buildings of a colour)."""
    key = (cost, *shape, min(karma, cost), min(admins, -(-cost // MAX_DIE)))
    template = _TEMPLATES.get(key)
    if template is None:
        if len(_TEMPLATES) >= _TEMPLATES_LIMIT:
            _TEMPLATES.clear()
        counts = shape[len(values) + 1 :]
        template = _TEMPLATES[key] = _template(cost, values, counts, key[-2], key[-1])
    return template


def template_cards(
    values: list[int], groups: dict[int, list[str]], taken: tuple[int, ...]
) -> list[str]:
    """The cards a template entry pays: the first `n` cards (hand order) of each value."""
    return [c for v, n in zip(values, taken, strict=True) for c in groups[v][:n]]


_TEMPLATES: dict[tuple[int, ...], Template] = {}
"""Building payments as dice counts per value, by (cost, values held, counts held, karma and
administrators that matter): plain numbers, so the collector skips them."""
_TEMPLATES_LIMIT = 50_000


def _template(
    cost: int, values: list[int], held: tuple[int, ...], karma: int, admins: int
) -> Template:
    """Every canonical building payment as (dice taken per value, jokers, karma).

    Equal dice are merged (the first such cards in hand order are named); jokers are declared
    6 except the last, which takes what is left, so every listed payment hits the sum exactly.
    Karma only matters up to the cost and administrators up to the jokers the cost could
    take, which is why the key caps them.
    """
    out: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
    for counts in product(*(range(n + 1) for n in held)):
        total = number = 0
        lowest = MAX_DIE
        for v, n in zip(values, counts, strict=True):
            if n:
                total += v * n
                number += n
                if v < lowest:
                    lowest = v
        if number and total >= cost:
            if total - lowest < cost:
                out.append((counts, (), 0))
            continue
        gap = cost - total
        needed = -(-gap // MAX_DIE)
        if needed <= admins:
            jokers = (MAX_DIE,) * (needed - 1) + (gap - MAX_DIE * (needed - 1),)
            out.append((counts, jokers, 0))
        if not number:
            continue
        # Karma closes the rest of the gap, alone or after jokers declared 6 (fewer jokers
        # than `needed`, so the administrators saved are the trade-off).
        room = MAX_DIE * number - total
        for j in range(min(admins, needed - 1) + 1):
            rest = gap - MAX_DIE * j
            if rest <= min(karma, room):
                out.append((counts, (MAX_DIE,) * j, rest))
    return tuple(out)


def exact_payments(target: Card, hand: list[Die], karma: int, admins: int) -> list[Payment]:
    """Canonical payments for a ship or palace card: one die per colour and value, or a joker."""
    cost = target.cost_value
    out: list[Payment] = []
    seen: set[tuple[str, int]] = set()
    for d in hand:
        if (d.colour, d.value) in seen:
            continue
        seen.add((d.colour, d.value))
        gap = abs(d.value - cost)
        if gap <= karma:
            out.append(Payment((d.card,), karma=gap))
    if admins:
        out.append(Payment(jokers=(cost,)))
    return out


def payments_for(card_id: str, hand: list[Die], karma: int, admins: int) -> list[Payment]:
    """Canonical payments for any paid card on the table."""
    target = CARDS[card_id]
    if target.kind == "building":
        return building_payments(target, hand, karma, admins)
    return exact_payments(target, hand, karma, admins)
