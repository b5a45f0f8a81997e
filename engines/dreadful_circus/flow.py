"""Dreadful Circus — the flow of a round and the Performances (mutating helpers, always
called on a fresh copy): rounds, offers, wagons, inspection, won cards, performances, the
end of the game and the final reveal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core import (
    Event,
    Seat,
    who,
)
from engines.dreadful_circus.cards import (
    ITEMS,
    effect_of,
    is_attraction,
    name_of,
)
from engines.dreadful_circus.goods import (
    COPPER,
    FIRST_CITY,
    LOAD_COINS,
    MIN_HAND_TO_SELL,
    SILVER,
    TARGET_COUNT,
    add_goods,
    contracts_text,
    draw_contracts,
    empty_goods,
    give_contracts,
    goods_text,
    secret_pair,
)
from engines.dreadful_circus.model import (
    Pending,
    Prompt,
    State,
)
from engines.dreadful_circus.table import (
    count_effect,
    has_strongbox,
    is_game_over_check,
    load_targets,
    neighbours,
    next_scoring_slot,
    next_seller,
    sellers,
    steal_options,
    swap_options,
)

# ---- the flow (mutating helpers, always called on a fresh copy) -------------------------------


def redeal_without_attraction(state: State, hands: list[list[str]], events: list[Event]) -> None:
    """Setup redeal: a hand with no Attraction is discarded face up and dealt again."""
    for seat, hand in enumerate(hands):
        while not any(is_attraction(c) for c in hand):
            if not any(is_attraction(c) for c in state.deck + state.discard):
                break  # only a custom card list could lack Attractions; never loop forever
            size = len(hand)
            state.discard += hand
            events.append(
                Event.public(
                    f"{who(seat)} has no Attraction and discards "
                    + ", ".join(name_of(c) for c in hand)
                    + " for a new hand."
                )
            )
            hand.clear()
            for _ in range(size):
                if not state.deck:
                    state.deck = state.rng.shuffled(state.discard)
                    state.discard = []
                hand.append(state.deck.pop())


def start_round(state: State, events: list[Event]) -> None:
    """A new round: sellers pick their offers secretly."""
    n = state.num_players
    state.round += 1
    state.phase = "offer"
    state.choices = [None] * n
    state.chosen = [False] * n
    state.offers, state.winners = [], []
    state.resolving, state.inspected, state.inspecting = 0, [], None
    if state.second_seller is None:
        events.append(Event.public(f"Round {state.round}: {who(state.first_seller)} sells."))
    else:
        events.append(
            Event.public(
                f"Round {state.round}: {who(state.first_seller)} is first seller, "
                f"{who(state.second_seller)} second seller."
            )
        )


def reveal_offers(state: State, events: list[Event]) -> None:
    """Every seller has picked: the offers are revealed together and bidding starts."""
    for seller in sellers(state):
        card = state.choices[seller]
        assert card is not None
        state.hands[seller].remove(card)
        state.offers.append(card)
        state.winners.append(None)
        events.append(Event.public(f"{who(seller)} offers {name_of(card)}."))
    state.choices = [None] * state.num_players
    state.chosen = [False] * state.num_players
    state.phase = "bid"


def return_wagon(state: State, seat: Seat) -> None:
    """A wagon goes home: its contents go back behind its owner's screen."""
    add_goods(state.screens[seat], state.wagons[seat])
    state.wagons[seat] = empty_goods()
    state.wagon_at[seat] = None
    state.wagon_seen[seat] = []


def wagons_at(state: State, offer: int) -> list[Seat]:
    """Seats whose wagon stands at an offer."""
    return [s for s, at in enumerate(state.wagon_at) if at == offer]


def start_resolution(state: State, events: list[Event]) -> None:
    """Move on to the next offer to resolve, or to steps 6–7 when all are resolved."""
    while state.resolving < len(state.offers):
        if wagons_at(state, state.resolving):
            state.phase = "inspect"
            return
        discard_offer(state, events)
        state.resolving += 1
    place_won_cards(state, events)


def discard_offer(state: State, events: list[Event]) -> None:
    """Every wagon refused: the offer goes to the discard pile and the seller gets nothing."""
    card = state.offers[state.resolving]
    state.discard.append(card)
    events.append(Event.public(f"Nobody bought {name_of(card)}; it is discarded."))


def finish_offer(state: State, events: list[Event]) -> None:
    """One offer is settled; the next seller resolves theirs."""
    state.resolving += 1
    state.inspected, state.inspecting = [], None
    start_resolution(state, events)


def accept_triggers(state: State, seller: Seat, winner: Seat, events: list[Event]) -> None:
    """Barker's Booth (seller), Fortune-Telling Machine (winner), then Toll Gate, in that order."""
    for _ in range(count_effect(state, seller, "barkers_booth")):
        state.screens[seller][COPPER] += 1
        events.append(Event.public(f"Barker's Booth: {who(seller)} takes 1 copper."))
    for _ in range(count_effect(state, winner, "fortune_machine")):
        state.screens[winner][COPPER] += 1
        events.append(Event.public(f"Fortune-Telling Machine: {who(winner)} takes 1 copper."))
    n = state.num_players
    for k in range(n):
        owner = (winner + k) % n
        if owner == winner or winner not in neighbours(state, owner):
            continue
        for _ in range(count_effect(state, owner, "toll_gate")):
            if has_strongbox(state, winner):
                text = f"Toll Gate: the Iron Strongbox of {who(winner)} gives {who(owner)} nothing."
            elif state.screens[winner][COPPER]:
                state.screens[winner][COPPER] -= 1
                state.screens[owner][COPPER] += 1
                text = f"Toll Gate: {who(winner)} pays 1 copper to {who(owner)}."
            else:
                text = f"Toll Gate: {who(winner)} has no copper to pay {who(owner)}."
            events.append(Event.public(text))


def place_won_cards(state: State, events: list[Event]) -> None:
    """Step 6: Attractions won go to areas; step 7: Performances won queue up, in seller order."""
    for card, winner in zip(state.offers, state.winners, strict=True):
        if winner is not None and is_attraction(card):
            state.areas[winner].append(card)
            events.append(Event.public(f"{who(winner)} puts {name_of(card)} into their area."))
    for card, winner in zip(state.offers, state.winners, strict=True):
        if winner is not None and not is_attraction(card):
            state.queue.append(Pending(seat=winner, card=card))
    state.offers, state.winners = [], []
    state.phase = "perform"
    continue_performances(state, events)


def continue_performances(state: State, events: list[Event]) -> None:
    """Resolve queued Performances until one needs a decision; then the end check."""
    while state.prompt is None:
        if not state.queue:
            end_round(state, events)
            return
        pending = state.queue.pop(0)
        start_performance(state, pending.seat, pending.card, events)


def performance_done(state: State, card: str, events: list[Event]) -> None:
    """The common end of every Performance prompt: the card is done, the next one starts."""
    finish_performance(state, card, events)
    continue_performances(state, events)


def finish_performance(state: State, card: str, events: list[Event]) -> None:
    """A Performance is done: it goes to the discard pile."""
    state.prompt = None
    state.discard.append(card)


def ask(state: State, kind: Any, seat: Seat, card: str, **fields: Any) -> None:
    """Open a prompt for the resolver."""
    state.prompt = Prompt(kind=kind, seat=seat, card=card, **fields)


def start_performance(state: State, seat: Seat, card: str, events: list[Event]) -> None:
    """Resolve a Performance; it is discarded unless it waits for a decision (a prompt)."""
    events.append(Event.public(f"{who(seat)} resolves {name_of(card)}."))
    waiting = PERFORMANCE_EFFECTS[effect_of(card)](state, seat, card, events)
    if not waiting:
        finish_performance(state, card, events)


def perform_loading(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Bendy Marcella, Knife Thrower, Human Cannonball, Fire-Breather: name targets, load."""
    legal = load_targets(state, seat, card)
    if not legal:
        events.append(Event.public(f"{name_of(card)} has no legal target."))
        return False
    need = min(TARGET_COUNT[effect_of(card)], len(legal))
    if need == len(legal):
        return load_wagons(state, seat, card, legal, events)
    ask(state, "targets", seat, card, targets=legal, count=need)
    return True


def perform_pickpocket(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Pickpocket Clowns: every legal other player loads coins; 1 copper from each wagon."""
    legal = load_targets(state, seat, card)
    if not legal:
        events.append(Event.public(f"{name_of(card)} has no legal target."))
        return False
    return load_wagons(state, seat, card, legal, events)


def perform_candy_thieves(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Candy Thieves: compulsory choice of a Collection card to move, if any can be."""
    if steal_options(state, seat):
        ask(state, "steal", seat, card)
        return True
    events.append(Event.public("Nobody has a Collection card that can be taken."))
    return False


def supply_gain(gain: list[int], text: str) -> PerformanceEffect:
    """A yellow Performance that only takes coins from the supply."""

    def effect(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
        """Take the fixed coins."""
        add_goods(state.screens[seat], gain)
        events.append(Event.public(f"{who(seat)} takes {text}."))
        return False

    return effect


def perform_alchemist(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Alchemist: always asks how many copper to turn into silver (0 is allowed)."""
    ask(state, "alchemy", seat, card)
    return True


def perform_rain_of_coins(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Rain of Coins: 1 copper to every player from the resolver clockwise, then 1 silver."""
    n = state.num_players
    for k in range(n):
        state.screens[(seat + k) % n][COPPER] += 1
    state.screens[seat][SILVER] += 1
    events.append(Event.public(f"Every player takes 1 copper; then {who(seat)} takes 1 silver."))
    return False


def perform_sleight_of_hand(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Sleight of Hand: draw 3 contracts (how many is public, the types are not)."""
    drawn = draw_contracts(state, 3)
    give_contracts(state, seat, drawn)
    events += secret_pair(
        state,
        {seat},
        f"You draw {contracts_text(drawn)}.",
        f"{who(seat)} draws {sum(drawn)} contracts.",
    )
    return False


def perform_tightrope_walker(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Tightrope Walker: draw 4, keep 2 of your choice (all if 2 or fewer were drawn)."""
    drawn = draw_contracts(state, 4)
    if sum(drawn) > 2:
        events += secret_pair(
            state,
            {seat},
            f"You draw {contracts_text(drawn)}.",
            f"{who(seat)} draws {sum(drawn)} contracts.",
        )
        ask(state, "keep", seat, card, drawn=drawn)
        return True
    give_contracts(state, seat, drawn)
    events += secret_pair(
        state,
        {seat},
        f"You draw and keep {contracts_text(drawn)}.",
        f"{who(seat)} draws and keeps {sum(drawn)} contracts.",
    )
    return False


def perform_vanishing_cabinet(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Vanishing Cabinet: may swap, when any swap is possible."""
    if swap_options(state, seat):
        ask(state, "swap", seat, card)
        return True
    events.append(Event.public("There is nothing to swap."))
    return False


def perform_encore(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Encore!: may play a card, only from a hand of 4 or more."""
    if len(state.hands[seat]) >= MIN_HAND_TO_SELL:
        ask(state, "encore", seat, card)
        return True
    events.append(Event.public(f"{who(seat)} holds fewer than 4 cards: Encore! does nothing."))
    return False


def perform_resurrection(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Resurrection Show: may take an Attraction from the discard pile, if there is one."""
    if any(is_attraction(c) for c in state.discard):
        ask(state, "resurrect", seat, card)
        return True
    events.append(Event.public("There is no Attraction in the discard pile."))
    return False


def perform_grand_parade(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Grand Parade: every player draws 1 contract from the resolver clockwise, then 1 more."""
    n = state.num_players
    for p in [(seat + k) % n for k in range(n)] + [seat]:
        drawn = draw_contracts(state, 1)
        give_contracts(state, p, drawn)
        events.append(Event.private(p, f"You draw {contracts_text(drawn)}."))
    events.append(Event.public(f"Every player draws a contract; then {who(seat)} draws one more."))
    return False


def perform_wheel_of_fortune(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Wheel of Fortune: always asks which contracts to return (none is allowed)."""
    ask(state, "wheel", seat, card)
    return True


PerformanceEffect = Callable[[State, Seat, str, list[Event]], bool]
"""Resolves a Performance; True when it waits for the resolver's decision."""

PERFORMANCE_EFFECTS: dict[str, PerformanceEffect] = {
    "bendy_marcella": perform_loading,
    "knife_thrower": perform_loading,
    "human_cannonball": perform_loading,
    "fire_breather": perform_loading,
    "pickpocket_clowns": perform_pickpocket,
    "candy_thieves": perform_candy_thieves,
    "coin_juggler": supply_gain([1, 1, 0, 0, 0, 0, 0, 0], "1 silver and 1 copper"),
    "golden_trapeze": supply_gain([0, 0, 1, 0, 0, 0, 0, 0], "1 gold"),
    "strongman": supply_gain([3, 0, 0, 0, 0, 0, 0, 0], "3 copper"),
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


def load_wagons(
    state: State, seat: Seat, card: str, targets: list[Seat], events: list[Event]
) -> bool:
    """Load the wagon: each target puts all coins (or contracts) into their wagon for `seat`.
    True while the resolver still has to take (or may take with the Monkey)."""
    coins = effect_of(card) in LOAD_COINS
    kind = "coins" if coins else "contracts"
    span = range(0, FIRST_CITY) if coins else range(FIRST_CITY, len(ITEMS))
    for t in targets:
        for i in span:
            state.wagons[t][i] += state.screens[t][i]
            state.screens[t][i] = 0
        state.wagon_seen[t] = [seat]
        events.append(Event.public(f"{who(t)} loads all their {kind} for {who(seat)}."))
    if effect_of(card) != "pickpocket_clowns":
        ask(state, "take", seat, card, targets=targets, index=0)
        return True
    for t in targets:
        took = "nothing"
        if state.wagons[t][COPPER]:
            state.wagons[t][COPPER] -= 1
            state.screens[seat][COPPER] += 1
            took = "1 copper"
        events.append(
            Event(
                f"{who(seat)} takes {took} from {who(t)}'s wagon.",
                seats=frozenset({seat, t}),
                spectators=False,
            )
        )
    events.append(Event.public(f"{who(seat)} takes copper from the loaded wagons."))
    ask(state, "take", seat, card, targets=targets, index=len(targets))
    return after_takes(state, events)


def after_takes(state: State, events: list[Event]) -> bool:
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


def end_round(state: State, events: list[Event]) -> None:
    """Step 8: another round with the markers passed left, or the final steps."""
    if is_game_over_check(state):
        state.phase = "final"
        state.choices = [None] * state.num_players
        state.chosen = [False] * state.num_players
        events.append(
            Event.public("Every hand holds 3 cards: each player may place a last Attraction.")
        )
        return
    first = next_seller(state, state.first_seller, None)
    assert first is not None
    second = None
    if state.second_seller is not None:
        second = next_seller(state, state.second_seller, first)
        if second is None:
            events.append(Event.public("From now on there is a single seller."))
    state.first_seller, state.second_seller = first, second
    start_round(state, events)


def reveal_final(state: State, events: list[Event]) -> None:
    """Final step 1–2: last Attractions placed, hands discarded, screens revealed."""
    for seat in range(state.num_players):
        card = state.choices[seat]
        if card is not None:
            state.hands[seat].remove(card)
            state.areas[seat].append(card)
            events.append(Event.public(f"{who(seat)} places {name_of(card)}."))
        else:
            events.append(Event.public(f"{who(seat)} places no last Attraction."))
        if state.hands[seat]:
            events.append(
                Event.public(
                    f"{who(seat)} discards "
                    + ", ".join(name_of(c) for c in state.hands[seat])
                    + "."
                )
            )
        state.discard += state.hands[seat]
        state.hands[seat] = []
    state.choices = [None] * state.num_players
    state.chosen = [False] * state.num_players
    state.revealed = True
    for seat in range(state.num_players):
        events.append(Event.public(f"{who(seat)} reveals {goods_text(state.screens[seat])}."))
    state.phase = "scoring"
    state.choosers_done = 0
    advance_chooser(state, events)


def advance_chooser(state: State, events: list[Event]) -> None:
    """Scoring choices go from the first seller clockwise; the game ends after the last."""
    n = state.num_players
    while state.choosers_done < n:
        seat = (state.first_seller + state.choosers_done) % n
        if next_scoring_slot(state, seat) is not None:
            state.chooser = seat
            return
        state.choosers_done += 1
    state.chooser = None
    state.phase = "over"
    events.append(Event.public("The circus closes: final scores are in."))
