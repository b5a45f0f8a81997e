"""Dreadful Circus — the Performances: what each one does when its winner resolves it, the
prompts it asks, and loading and unloading wagons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import (
    Event,
    Phrase,
    Seat,
    tr,
    who,
)
from engines.dreadful_circus.cards import ITEMS, effect_of, is_attraction, name_of
from engines.dreadful_circus.goods import (
    COPPER,
    FIRST_CITY,
    LOAD_COINS,
    MIN_HAND_TO_SELL,
    SILVER,
    TARGET_COUNT,
    add_goods,
    contracts_words,
    draw_contracts,
    give_contracts,
    goods_words,
    return_wagon,
    secret_pair,
)
from engines.dreadful_circus.model import Events, Prompt, State
from engines.dreadful_circus.table import (
    count_effect,
    load_targets,
    steal_options,
    swap_options,
)

# ---- the flow (mutating helpers, always called on a fresh copy) -------------------------------


PerformanceEffect = Callable[[State, Seat, str, Events], bool]
"""Resolves a Performance; True when it waits for the resolver's decision."""


def ask(state: State, kind: Any, seat: Seat, card: str, **fields: Any) -> None:
    """Open a prompt for the resolver."""
    state.prompt = Prompt(kind=kind, seat=seat, card=card, **fields)


def ask_if(
    state: State,
    kind: Any,
    seat: Seat,
    card: str,
    possible: bool,
    otherwise: Event,
    events: Events,
) -> bool:
    """Ask the resolver to choose when a choice is `possible` (True: waiting), otherwise say
    why the Performance does nothing (False)."""
    if possible:
        ask(state, kind, seat, card)
        return True
    if events is not None:
        events.append(otherwise)
    return False


def perform_loading(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Bendy Marcella, Knife Thrower, Human Cannonball, Fire-Breather: name targets, who load;
    Pickpocket Clowns: every legal other player loads, nobody is named."""
    legal = load_targets(state, seat, card)
    if not legal:
        if events is not None:
            events.append(Event.public(tr("%(card)s has no legal target."), card=name_of(card)))
        return False
    need = min(TARGET_COUNT.get(effect_of(card), len(legal)), len(legal))
    if need == len(legal):
        return load_wagons(state, seat, card, legal, events)
    ask(state, "targets", seat, card, targets=legal, count=need)
    return True


def perform_candy_thieves(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Candy Thieves: compulsory choice of a Collection card to move, if any can be."""
    nobody = Event.public("Nobody has a Collection card that can be taken.")
    return ask_if(state, "steal", seat, card, bool(steal_options(state, seat)), nobody, events)


def supply_gain(gain: list[int]) -> PerformanceEffect:
    """A yellow Performance that only takes coins from the supply."""

    def effect(state: State, seat: Seat, card: str, events: Events) -> bool:
        """Take the fixed coins."""
        add_goods(state.screens[seat], gain)
        if events is not None:
            events.append(
                Event.public(tr("%(who)s takes %(goods)s."), who=who(seat), goods=goods_words(gain))
            )
        return False

    return effect


def perform_alchemist(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Alchemist: always asks how many copper to turn into silver (0 is allowed)."""
    ask(state, "alchemy", seat, card)
    return True


def perform_rain_of_coins(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Rain of Coins: 1 copper to every player from the resolver clockwise, then 1 silver."""
    n = state.num_players
    for k in range(n):
        state.screens[(seat + k) % n][COPPER] += 1
    state.screens[seat][SILVER] += 1
    if events is not None:
        events.append(
            Event.public(
                tr("Every player takes 1 copper; then %(who)s takes 1 silver."), who=who(seat)
            )
        )
    return False


def perform_sleight_of_hand(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Sleight of Hand: draw 3 contracts (how many is public, the types are not)."""
    drawn = draw_contracts(state, 3)
    give_contracts(state, seat, drawn)
    if events is not None:
        events += secret_pair(
            state,
            {seat},
            Phrase(tr("You draw %(contracts)s."), {"contracts": contracts_words(drawn)}),
            Phrase(
                tr("%(who)s draws %(count)s contracts."), {"who": who(seat), "count": sum(drawn)}
            ),
        )
    return False


def perform_tightrope_walker(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Tightrope Walker: draw 4, keep 2 of your choice (all if 2 or fewer were drawn)."""
    drawn = draw_contracts(state, 4)
    if sum(drawn) > 2:
        if events is not None:
            events += secret_pair(
                state,
                {seat},
                Phrase(tr("You draw %(contracts)s."), {"contracts": contracts_words(drawn)}),
                Phrase(
                    tr("%(who)s draws %(count)s contracts."),
                    {"who": who(seat), "count": sum(drawn)},
                ),
            )
        ask(state, "keep", seat, card, drawn=drawn)
        return True
    give_contracts(state, seat, drawn)
    if events is not None:
        events += secret_pair(
            state,
            {seat},
            Phrase(tr("You draw and keep %(contracts)s."), {"contracts": contracts_words(drawn)}),
            Phrase(
                tr("%(who)s draws and keeps %(count)s contracts."),
                {"who": who(seat), "count": sum(drawn)},
            ),
        )
    return False


def perform_vanishing_cabinet(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Vanishing Cabinet: may swap, when any swap is possible."""
    nothing = Event.public("There is nothing to swap.")
    return ask_if(state, "swap", seat, card, bool(swap_options(state, seat)), nothing, events)


def perform_encore(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Encore!: may play a card, only from a hand of 4 or more."""
    few = Event.public(tr("%(who)s holds fewer than 4 cards: Encore! does nothing."), who=who(seat))
    enough = len(state.hands[seat]) >= MIN_HAND_TO_SELL
    return ask_if(state, "encore", seat, card, enough, few, events)


def perform_resurrection(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Resurrection Show: may take an Attraction from the discard pile, if there is one."""
    none = Event.public("There is no Attraction in the discard pile.")
    possible = any(is_attraction(c) for c in state.discard)
    return ask_if(state, "resurrect", seat, card, possible, none, events)


def perform_grand_parade(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Grand Parade: every player draws 1 contract from the resolver clockwise, then 1 more."""
    n = state.num_players
    for p in [(seat + k) % n for k in range(n)] + [seat]:
        drawn = draw_contracts(state, 1)
        give_contracts(state, p, drawn)
        if events is not None:
            events.append(
                Event.private(p, tr("You draw %(contracts)s."), contracts=contracts_words(drawn))
            )
    if events is not None:
        events.append(
            Event.public(
                tr("Every player draws a contract; then %(who)s draws one more."), who=who(seat)
            )
        )
    return False


def perform_wheel_of_fortune(state: State, seat: Seat, card: str, events: Events) -> bool:
    """Wheel of Fortune: always asks which contracts to return (none is allowed)."""
    ask(state, "wheel", seat, card)
    return True


PERFORMANCE_EFFECTS: dict[str, PerformanceEffect] = {
    "bendy_marcella": perform_loading,
    "knife_thrower": perform_loading,
    "human_cannonball": perform_loading,
    "fire_breather": perform_loading,
    "pickpocket_clowns": perform_loading,
    "candy_thieves": perform_candy_thieves,
    "coin_juggler": supply_gain([1, 1, 0, 0, 0, 0, 0, 0]),
    "golden_trapeze": supply_gain([0, 0, 1, 0, 0, 0, 0, 0]),
    "strongman": supply_gain([3, 0, 0, 0, 0, 0, 0, 0]),
    "alchemist": perform_alchemist,
    "rain_of_coins": perform_rain_of_coins,
    "sleight_of_hand": perform_sleight_of_hand,
    "tightrope_walker": perform_tightrope_walker,
    "vanishing_cabinet": perform_vanishing_cabinet,
    "encore": perform_encore,
    "resurrection_show": perform_resurrection,
    "grand_parade": perform_grand_parade,
    "wheel_of_fortune": perform_wheel_of_fortune,
}


def load_wagons(state: State, seat: Seat, card: str, targets: list[Seat], events: Events) -> bool:
    """Load the wagon: each target puts all coins (or contracts) into their wagon for `seat`.
    True while the resolver still has to take (or may take with the Monkey)."""
    coins = effect_of(card) in LOAD_COINS
    span = range(0, FIRST_CITY) if coins else range(FIRST_CITY, len(ITEMS))
    for t in targets:
        for i in span:
            state.wagons[t][i] += state.screens[t][i]
            state.screens[t][i] = 0
        state.wagon_seen[t] = [seat]
        message = (
            tr("%(target)s loads all their coins for %(who)s.")
            if coins
            else tr("%(target)s loads all their contracts for %(who)s.")
        )
        if events is not None:
            events.append(Event.public(message, target=who(t), who=who(seat)))
    if effect_of(card) != "pickpocket_clowns":
        ask(state, "take", seat, card, targets=targets, index=0)
        return True
    for t in targets:
        took = [0] * len(ITEMS)
        if state.wagons[t][COPPER]:
            state.wagons[t][COPPER] -= 1
            state.screens[seat][COPPER] += 1
            took[COPPER] = 1
        if events is not None:
            events.append(
                Event.make(
                    tr("%(who)s takes %(took)s from %(target)s's wagon."),
                    frozenset({seat, t}),
                    False,
                    {"who": who(seat), "took": goods_words(took), "target": who(t)},
                )
            )
    if events is not None:
        events.append(
            Event.public(tr("%(who)s takes copper from the loaded wagons."), who=who(seat))
        )
    ask(state, "take", seat, card, targets=targets, index=len(targets))
    return after_takes(state, events)


def after_takes(state: State, events: Events) -> bool:
    """All takes done: the Sticky-Fingered Monkey may take one more item (True: it is asked);
    otherwise the wagons go back."""
    prompt = state.prompt
    assert prompt is not None
    if count_effect(state, prompt.seat, "sticky_monkey"):
        prompt.kind = "extra"
        return True
    unload(state)
    return False


def unload(state: State) -> None:
    """Loaded wagons go back; what is left returns behind the owners' screens."""
    prompt = state.prompt
    assert prompt is not None
    for t in prompt.targets:
        return_wagon(state, t)
