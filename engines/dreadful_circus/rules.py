"""Dreadful Circus (Bruno Faidutti, Portal Games 2021): the rules engine.

Rule source: shared/rules/dreadful-circus.md, which restates the Polish seed rulebook
shared/seeds/004_8b802fb547e5b729.txt and settles what it leaves open. The card set is the
spec's provisional one (engines/dreadful_circus/cards.py).

Flow: (draft) → first Attraction (secret, simultaneous) → rounds of offer (secret, simultaneous
for the sellers) → bids (secret wagons) → inspection by the first then the second seller →
Attractions to areas → Performances resolved (prompts) → end check → final Attraction (secret,
simultaneous) → reveal → scoring choices from the first seller clockwise → scores.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engines.core import (
    JSON,
    Engine,
    Event,
    GameSpec,
    IllegalAction,
    Outcome,
    Rng,
    Seat,
    Step,
    copy_state,
    rank_by,
    who,
)
from engines.dreadful_circus.cards import (
    CITIES,
    COLLECTION_DESIGNS,
    CONTRACTS_PER_CITY,
    DESIGNS,
    ITEMS,
    METALS,
    START_COINS,
    START_CONTRACTS,
    CardDesign,
    deck_for,
    effect_of,
    hand_size,
    is_attraction,
    name_of,
)
from engines.dreadful_circus.model import (
    Accept,
    Action,
    Alchemy,
    Bid,
    ChooseCity,
    ChooseCopy,
    ChooseDesign,
    ChooseTargets,
    Decline,
    DraftPick,
    FinalAttraction,
    FirstAttraction,
    Inspect,
    Keep,
    MoveWagon,
    Offer,
    Options,
    Pending,
    Play,
    Prompt,
    Refuse,
    Resurrect,
    ReturnContracts,
    State,
    Steal,
    Swap,
    Take,
    TakeExtra,
)
from engines.dreadful_circus.scoring import (
    COPIERS,
    Tally,
    parse_copy,
    score_all,
    slot_keys,
    tie_break_key,
)

COPPER, SILVER, GOLD = 0, 1, 2
FIRST_CITY = 3
MIN_HAND_TO_SELL = 4
"""A player holding 3 or fewer cards is never made seller; the game ends at 3 in every hand."""
LOAD_COINS = ("bendy_marcella", "pickpocket_clowns", "fire_breather")
TARGET_COUNT = {"bendy_marcella": 1, "knife_thrower": 1, "human_cannonball": 2, "fire_breather": 2}

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


def goods_text(goods: list[int]) -> str:
    """Goods in words: `2 copper, 1 gold, 1 berlin`, or `nothing`."""
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


def secret_pair(state: State, seats: set[int], secret: str, public: str) -> list[Event]:
    """One text for `seats` only, another for every other seat and spectators."""
    everyone = frozenset(range(state.num_players))
    return [
        Event(secret, seats=frozenset(seats), spectators=False),
        Event(public, seats=everyone - seats, spectators=True),
    ]


# ---- small named rules ------------------------------------------------------------------------


def count_effect(state: State, seat: Seat, effect: str) -> int:
    """How many cards with this effect lie in a seat's area (permanent effects)."""
    return sum(1 for c in state.areas[seat] if effect_of(c) == effect)


def has_guard_dogs(state: State, seat: Seat) -> bool:
    """Guard Dogs: never a target of another player's Performance."""
    return count_effect(state, seat, "guard_dogs") > 0


def has_strongbox(state: State, seat: Seat) -> bool:
    """Iron Strongbox: other players' effects cannot take coins from this seat."""
    return count_effect(state, seat, "iron_strongbox") > 0


def neighbours(state: State, seat: Seat) -> list[Seat]:
    """Left then right neighbour."""
    n = state.num_players
    return [(seat + 1) % n, (seat - 1) % n]


def sellers(state: State) -> list[Seat]:
    """This round's sellers, first then second."""
    return [state.first_seller] + ([state.second_seller] if state.second_seller is not None else [])


def bidders(state: State) -> list[Seat]:
    """Who bids this round: everyone with two sellers, everyone but the seller with one."""
    if state.second_seller is None:
        return [s for s in range(state.num_players) if s != state.first_seller]
    return list(range(state.num_players))


def allowed_offers(state: State, seat: Seat) -> list[int]:
    """The offers a bidder may bid on: never their own; sellers must bid on the other one."""
    if state.second_seller is None:
        return [0]
    if seat == state.first_seller:
        return [1]
    if seat == state.second_seller:
        return [0]
    return [0, 1]


def is_legal_bid(state: State, seat: Seat, goods: list[int]) -> str | None:
    """Why a bid is illegal, or None: within the screen, and not empty if anything is held."""
    screen = state.screens[seat]
    if not covers(screen, goods):
        return "You cannot bid more than you hold behind your screen."
    if sum(goods) == 0 and sum(screen) > 0:
        return "A wagon must hold at least one coin or contract when you have any."
    return None


def canonical_coin_bids(screen: list[int]) -> list[list[int]]:
    """One coin combination per reachable total value, paying with the smallest coins first."""
    best: dict[int, list[int]] = {}
    for g in range(screen[GOLD] + 1):
        for s in range(screen[SILVER] + 1):
            for c in range(screen[COPPER] + 1):
                value = c + 2 * s + 3 * g
                if value and value not in best:
                    best[value] = [c, s, g]
    return [best[v] for v in sorted(best)]


def bid_menu(screen: list[int]) -> list[list[int]]:
    """The canonical bids offered to bots: coins by value, one contract, or everything."""
    menu = [[*coins, 0, 0, 0, 0, 0] for coins in canonical_coin_bids(screen)]
    for ci in range(len(CITIES)):
        if screen[FIRST_CITY + ci]:
            goods = empty_goods()
            goods[FIRST_CITY + ci] = 1
            menu.append(goods)
    if sum(screen) and list(screen) not in menu:
        menu.append(list(screen))
    return menu or [empty_goods()]


def next_seller(state: State, holder: Seat, exclude: Seat | None) -> Seat | None:
    """Nearest seat clockwise from `holder` (wrapping to the holder) with more than 3 cards."""
    n = state.num_players
    for k in range(1, n + 1):
        seat = (holder + k) % n
        if len(state.hands[seat]) >= MIN_HAND_TO_SELL and seat != exclude:
            return seat
    return None


def is_game_over_check(state: State) -> bool:
    """End check (round step 8): no hand holds more than 3 cards."""
    return all(len(h) < MIN_HAND_TO_SELL for h in state.hands)


def coin_targets(state: State, seat: Seat) -> list[Seat]:
    """Other players that may be made to load their coins (no Guard Dogs, no Strongbox)."""
    return [
        p
        for p in range(state.num_players)
        if p != seat and not has_guard_dogs(state, p) and not has_strongbox(state, p)
    ]


def contract_targets(state: State, seat: Seat) -> list[Seat]:
    """Other players that may be made to load their contracts (no Guard Dogs)."""
    return [p for p in range(state.num_players) if p != seat and not has_guard_dogs(state, p)]


def load_targets(state: State, seat: Seat, card: str) -> list[Seat]:
    """Legal targets of a loading Performance."""
    if effect_of(card) in LOAD_COINS:
        return coin_targets(state, seat)
    return contract_targets(state, seat)


def take_options(card: str, wagon: list[int]) -> list[list[str]]:
    """What the resolver may take from one loaded wagon; [[]] when nothing can be taken."""
    effect = effect_of(card)
    options: list[list[str]] = []
    if effect == "bendy_marcella":
        options = [[m] for i, m in enumerate(METALS) if wagon[i]]
    elif effect == "fire_breather":
        options = [[m] for i, m in enumerate(METALS[:GOLD]) if wagon[i]]
    elif effect == "human_cannonball":
        options = [[c] for i, c in enumerate(CITIES) if wagon[FIRST_CITY + i]]
    elif effect == "knife_thrower":
        contracts = wagon[FIRST_CITY:]
        if sum(contracts) <= 2:
            options = [[c for i, c in enumerate(CITIES) for _ in range(contracts[i])]]
        else:
            present = [c for i, c in enumerate(CITIES) if contracts[i]]
            for a, b in combinations_with_replacement(present, 2):
                if a != b or contracts[CITIES.index(a)] >= 2:
                    options.append([a, b])
    return options or [[]]


def steal_options(state: State, seat: Seat) -> list[tuple[Seat, str]]:
    """Candy Thieves: (player, Collection card) pairs that may be moved into your area."""
    out = []
    for p in range(state.num_players):
        if p == seat or has_guard_dogs(state, p):
            continue
        for card in dict.fromkeys(state.areas[p]):
            if effect_of(card) == "collection":
                out.append((p, card))
    return out


def swap_options(state: State, seat: Seat) -> list[tuple[str, Seat, str]]:
    """Vanishing Cabinet: (your card, player, their card) swaps."""
    out = []
    for mine in dict.fromkeys(state.areas[seat]):
        for p in range(state.num_players):
            if p == seat or has_guard_dogs(state, p):
                continue
            for theirs in dict.fromkeys(state.areas[p]):
                out.append((mine, p, theirs))
    return out


def keep_options(drawn: list[int]) -> list[list[str]]:
    """Tightrope Walker: every pair of drawn contracts."""
    present = [c for i, c in enumerate(CITIES) if drawn[i]]
    return [
        [a, b]
        for a, b in combinations_with_replacement(present, 2)
        if a != b or drawn[CITIES.index(a)] >= 2
    ]


def copy_options(state: State, seat: Seat, copier: str) -> list[str]:
    """Copyable Attractions for Distorting Mirrors (neighbours) or Twisted Corridors (own)."""
    if effect_of(copier) == "distorting_mirrors":
        owners = list(dict.fromkeys(neighbours(state, seat)))
    else:
        owners = [seat]
    return [
        f"{p}:{card}"
        for p in owners
        for card in dict.fromkeys(state.areas[p])
        if DESIGNS[card].copyable
    ]


def next_scoring_slot(state: State, seat: Seat) -> tuple[str, str, list[str]] | None:
    """The next scoring-time choice (key, kind, options) a seat owes, or None."""
    made = state.scoring_choices[seat]
    for key, card in slot_keys(state.areas[seat]):
        effect = effect_of(card)
        if effect == "crystal_balls" and key not in made:
            return key, "design", list(COLLECTION_DESIGNS)
        if effect == "rainbow_bridge" and key not in made:
            return key, "city", list(CITIES)
        if effect in COPIERS:
            if key not in made:
                options = copy_options(state, seat, card)
                if options:
                    return key, "copy", options
                continue
            copied = parse_copy(made[key])[1]
            if effect_of(copied) == "rainbow_bridge" and key + ".city" not in made:
                return key + ".city", "city", list(CITIES)
    return None


def tallies(state: State) -> list[Tally]:
    """Every player's final position for scoring."""
    return [
        Tally(
            coins=tuple(state.screens[s][:FIRST_CITY]),
            contracts=tuple(state.screens[s][FIRST_CITY:]),
            area=tuple(state.areas[s]),
            choices=dict(state.scoring_choices[s]),
        )
        for s in range(state.num_players)
    ]


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
        state, {seat}, f"You draw {contracts_text(drawn)}.",
        f"{who(seat)} draws {sum(drawn)} contracts.",
    )  # fmt: skip
    return False


def perform_tightrope_walker(state: State, seat: Seat, card: str, events: list[Event]) -> bool:
    """Tightrope Walker: draw 4, keep 2 of your choice (all if 2 or fewer were drawn)."""
    drawn = draw_contracts(state, 4)
    if sum(drawn) > 2:
        events += secret_pair(
            state, {seat}, f"You draw {contracts_text(drawn)}.",
            f"{who(seat)} draws {sum(drawn)} contracts.",
        )  # fmt: skip
        ask(state, "keep", seat, card, drawn=drawn)
        return True
    give_contracts(state, seat, drawn)
    events += secret_pair(
        state, {seat}, f"You draw and keep {contracts_text(drawn)}.",
        f"{who(seat)} draws and keeps {sum(drawn)} contracts.",
    )  # fmt: skip
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
            Event(f"{who(seat)} takes {took} from {who(t)}'s wagon.",
                  seats=frozenset({seat, t}), spectators=False)
        )  # fmt: skip
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


# ---- the engine -------------------------------------------------------------------------------


class DreadfulCircus(Engine[State, Any, Options]):
    """Dreadful Circus for 4–8 players, optionally with the draft variant."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="dreadful_circus",
        title="Dreadful Circus",
        min_players=4,
        max_players=8,
        options=Options,
        hidden_information=True,
        simultaneous=True,
        summary="Sell circus acts for secret bids of coins and contracts; build the best show.",
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)
    designs: ClassVar[dict[str, CardDesign]] = DESIGNS
    """The card designs by id, for the screen: views carry card ids only."""

    def catalogue(self) -> Mapping[str, Any]:
        """The card designs by id, for the screen: views carry card ids only."""
        return {"designs": DESIGNS}

    # ---- setup -------------------------------------------------------------------------------

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """Coins, six random contracts each, hands dealt (redealt if Attraction-less), sellers."""
        opts = options
        events: list[Event] = []
        n = num_players
        if not self.spec.min_players <= n <= self.spec.max_players:
            raise IllegalAction(f"Dreadful Circus needs 4 to 8 players, not {n}.")
        rng = Rng.from_seed(seed)
        deck = rng.shuffled(deck_for(n))
        size = hand_size(n)
        hands = [deck[i * size : (i + 1) * size] for i in range(n)]
        state = State(
            num_players=n,
            draft=opts.draft,
            rng=rng,
            phase="draft" if opts.draft else "first_attraction",
            screens=[[*START_COINS, 0, 0, 0, 0, 0] for _ in range(n)],
            bag=[CONTRACTS_PER_CITY] * len(CITIES),
            hands=[[] for _ in range(n)],
            areas=[[] for _ in range(n)],
            deck=deck[n * size :],
            choices=[None] * n,
            chosen=[False] * n,
            first_seller=0,
            second_seller=None,
            wagons=[empty_goods() for _ in range(n)],
            wagon_at=[None] * n,
            wagon_seen=[[] for _ in range(n)],
            scoring_choices=[{} for _ in range(n)],
        )
        for seat in range(n):
            give_contracts(state, seat, draw_contracts(state, START_CONTRACTS))
        redeal_without_attraction(state, hands, events)
        if opts.draft:
            state.packets = hands
            state.picks = [[] for _ in range(n)]
        else:
            state.hands = hands
        state.first_seller = rng.randbelow(n)
        state.second_seller = (state.first_seller + n // 2) % n if n >= 5 else None
        return Step(state, events)

    # ---- whose move --------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[Seat]:
        """Every seat that still owes a choice now (several in the simultaneous phases)."""
        phase = state.phase
        if phase in ("draft", "first_attraction", "final"):
            return frozenset(s for s in range(state.num_players) if not state.chosen[s])
        if phase == "offer":
            return frozenset(s for s in sellers(state) if not state.chosen[s])
        if phase == "bid":
            return frozenset(s for s in bidders(state) if state.wagon_at[s] is None)
        if phase == "inspect":
            return frozenset({sellers(state)[state.resolving]})
        if phase == "perform" and state.prompt is not None:
            return frozenset({state.prompt.seat})
        if phase == "scoring" and state.chooser is not None:
            return frozenset({state.chooser})
        return frozenset()

    # ---- legal actions -----------------------------------------------------------------------

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Every legal action of `seat`; bids are canonicalised (see `bid_menu`)."""
        if state.phase == "bid" and self._may_move(state, seat):
            return [MoveWagon()]
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == "draft":
            return [DraftPick(card=c) for c in dict.fromkeys(state.packets[seat])]
        if phase == "first_attraction":
            return [
                FirstAttraction(card=c)
                for c in dict.fromkeys(state.hands[seat])
                if is_attraction(c)
            ]
        if phase == "offer":
            return [Offer(card=c) for c in dict.fromkeys(state.hands[seat])]
        if phase == "bid":
            menu = bid_menu(state.screens[seat])
            return [
                Bid(offer=o, **dict(zip(ITEMS, goods, strict=True)))
                for o in allowed_offers(state, seat)
                for goods in menu
            ]
        if phase == "inspect":
            if state.inspecting is not None:
                return [Accept(), Refuse()]
            return [
                Inspect(bidder=b)
                for b in wagons_at(state, state.resolving)
                if b not in state.inspected
            ]
        if phase == "perform":
            return self._prompt_actions(state)
        if phase == "final":
            cards = [c for c in dict.fromkeys(state.hands[seat]) if is_attraction(c)]
            return [FinalAttraction(card=c) for c in cards] + [FinalAttraction(card=None)]
        if phase == "scoring":
            slot = next_scoring_slot(state, seat)
            assert slot is not None
            _key, kind, options = slot
            if kind == "design":
                return [ChooseDesign(design=d) for d in options]
            if kind == "city":
                return [ChooseCity(city=c) for c in options]
            return [ChooseCopy(seat=parse_copy(o)[0], card=parse_copy(o)[1]) for o in options]
        return []

    def _may_move(self, state: State, seat: Seat) -> bool:
        """A placed bidder with a free choice may move their wagon until the last is placed."""
        return (
            state.wagon_at[seat] is not None
            and len(allowed_offers(state, seat)) == 2
            and bool(self.to_act(state))
        )

    def _prompt_actions(self, state: State) -> list[Any]:
        """The answers to the open Performance prompt."""
        prompt = state.prompt
        assert prompt is not None
        seat, kind = prompt.seat, prompt.kind
        if kind == "targets":
            if prompt.count == 1:
                return [ChooseTargets(seats=[t]) for t in prompt.targets]
            return [
                ChooseTargets(seats=[a, b])
                for i, a in enumerate(prompt.targets)
                for b in prompt.targets[i + 1 :]
            ]
        if kind == "take":
            wagon = state.wagons[prompt.targets[prompt.index]]
            return [Take(items=o) for o in take_options(prompt.card, wagon)]
        if kind == "extra":
            extra: list[Any] = [Decline()]
            for t in prompt.targets:
                for i, item in enumerate(ITEMS):
                    if state.wagons[t][i]:
                        extra.append(TakeExtra(seat=t, item=item))
            return extra
        if kind == "steal":
            return [Steal(seat=p, card=c) for p, c in steal_options(state, seat)]
        if kind == "swap":
            swaps: list[Any] = [Decline()]
            swaps += [Swap(card=m, seat=p, their_card=t) for m, p, t in swap_options(state, seat)]
            return swaps
        if kind == "encore":
            return [Decline()] + [Play(card=c) for c in dict.fromkeys(state.hands[seat])]
        if kind == "resurrect":
            cards = [c for c in dict.fromkeys(state.discard) if is_attraction(c)]
            return [Decline()] + [Resurrect(card=c) for c in cards]
        if kind == "alchemy":
            return [Alchemy(copper=k) for k in range(min(3, state.screens[seat][COPPER]) + 1)]
        if kind == "keep":
            return [Keep(cities=o) for o in keep_options(prompt.drawn)]
        # wheel: return nothing, one of a city, all of a city, or everything
        held = state.screens[seat][FIRST_CITY:]
        menus: list[list[int]] = [[0] * len(CITIES)]
        for ci, n in enumerate(held):
            for k in dict.fromkeys((1, n)):
                if n and k:
                    menus.append([k if i == ci else 0 for i in range(len(CITIES))])
        if list(held) not in menus:
            menus.append(list(held))
        return [ReturnContracts(**dict(zip(CITIES, m, strict=True))) for m in menus]

    # ---- apply -------------------------------------------------------------------------------

    def apply(self, state: State, seat: Seat, action: Any) -> Step[State]:
        """Validate and apply one action on a copy; raise a `GameError` when refused."""
        if isinstance(action, MoveWagon) and state.phase == "bid":
            if not self._may_move(state, seat):
                raise IllegalAction("Only a placed wagon with a free choice may move, and only "
                                    "until the last wagon is placed.")  # fmt: skip
        else:
            self.check_turn(state, seat)
        new = copy_state(state)
        events: list[Event] = []
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("That is not a Dreadful Circus action.")
        handler(new, seat, action, events)
        return Step(new, events)

    # ---- view --------------------------------------------------------------------------------

    def chosen(self, state: State) -> frozenset[Seat]:
        """Seats whose secret choice or wagon is in while others still decide."""
        phase = state.phase
        if phase in ("draft", "first_attraction", "final"):
            return frozenset(s for s in range(state.num_players) if state.chosen[s])
        if phase == "offer":
            return frozenset(s for s in sellers(state) if state.chosen[s])
        if phase == "bid":
            return frozenset(s for s in bidders(state) if state.wagon_at[s] is not None)
        return frozenset()

    def game_view(self, state: State, seat: Seat | None) -> JSON:
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
            "game": self.spec.id,
            "seat": seat,
            "phase": phase,
            "round": state.round,
            "draft": state.draft,
            "to_act": sorted(self.to_act(state)),
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
            data["performance"] = {"seat": pr.seat, "card": pr.card, "kind": pr.kind,
                                   "targets": list(pr.targets)}  # fmt: skip
        if seat is not None:
            data["you"] = self._private_view(state, seat)
            data["prompt"] = self._prompt_view(state, seat)
        if phase == "over":
            outcome = self.outcome(state)
            assert outcome is not None
            data["scores"] = outcome.details["breakdown"]
            data["outcome"] = outcome.to_json()
        return data

    def _private_view(self, state: State, seat: Seat) -> JSON:
        """A seat's own screen, hand, wagon, pending pick and draft cards."""
        return {
            "screen": goods_view(state.screens[seat]),
            "hand": list(state.hands[seat]),
            "choice": state.choices[seat],
            "has_chosen": state.chosen[seat],
            "draft_packet": list(state.packets[seat]) if state.packets else [],
            "draft_picks": list(state.picks[seat]) if state.picks else [],
        }

    def _prompt_view(self, state: State, seat: Seat) -> JSON | None:
        """The decision `seat` owes now, with its options, for the screen to ask."""
        if seat not in self.to_act(state):
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
                "options": [self.dump_action(a) for a in self._prompt_actions(state)],
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

    # ---- outcome -----------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        """Scores A–F; ties by Scales, Attractions, contracts, coins, first-seller marker."""
        if state.phase != "over":
            return None
        tl = tallies(state)
        breakdown = score_all(tl)
        scores = {s: breakdown[s]["total"] for s in range(state.num_players)}
        keys = {
            s: tie_break_key(scores[s], breakdown[s]["scales"], tl[s], s == state.first_seller)
            for s in range(state.num_players)
        }
        ranks = rank_by(keys)
        winners = frozenset(s for s, r in ranks.items() if r == 1)
        top = max(scores.values())
        tied = [s for s in scores if scores[s] == top]
        if len(tied) == 1:
            reason = "highest score"
        elif len(winners) == 1:
            reason = "tie on score broken by the seed's tie-break"
        else:
            reason = "shared win (tied through every tie-break)"
        return Outcome(scores, ranks, winners, reason, {"breakdown": breakdown})

    # ---- determinize -------------------------------------------------------------------------

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-deal everything `seat` cannot see: others' cards, the set-aside deck, others'
        screens and unseen wagons, the bag, and the RNG itself."""
        new = copy_state(state)
        new.rng = Rng.from_seed(rng.next_u64())
        redeal_hidden_cards(new, seat, rng)
        if not new.revealed:
            redeal_hidden_goods(new, seat, rng)
        return new

    def action_text(self, action: Any) -> str:
        """Short canonical text of an action."""
        return action_text(action)


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


# ---- action handlers (each validates, then mutates the fresh copy) -----------------------------


def _simultaneous_pick(state: State, seat: Seat, card: str | None, events: list[Event]) -> None:
    state.choices[seat] = card
    state.chosen[seat] = True
    events.append(Event.others(seat, state.num_players, f"{who(seat)} has chosen."))


def do_draft_pick(state: State, seat: Seat, action: DraftPick, events: list[Event]) -> None:
    """Draft: pick a card; when all have picked, pass the rest to the left."""
    if state.phase != "draft":
        raise IllegalAction("There is no draft now.")
    if action.card not in state.packets[seat]:
        raise IllegalAction("That card is not in your draft packet.")
    _simultaneous_pick(state, seat, action.card, events)
    events.append(Event.private(seat, f"You pick {name_of(action.card)}."))
    if not all(state.chosen):
        return
    n = state.num_players
    for p in range(n):
        card = state.choices[p]
        assert card is not None
        state.packets[p].remove(card)
        state.picks[p].append(card)
    state.packets = [state.packets[(p - 1) % n] for p in range(n)]
    state.choices, state.chosen = [None] * n, [False] * n
    if any(state.packets):
        events.append(Event.public("Everybody passes their remaining cards to the left."))
        return
    hands = state.picks
    redeal_without_attraction(state, hands, events)
    state.hands, state.packets, state.picks = hands, [], []
    state.phase = "first_attraction"
    events.append(Event.public("The draft is over: each player picks a first Attraction."))


def do_first_attraction(
    state: State, seat: Seat, action: FirstAttraction, events: list[Event]
) -> None:
    """Setup step 8: a secret first Attraction; revealed together when all have picked."""
    if state.phase != "first_attraction":
        raise IllegalAction("The first Attractions have been placed.")
    if action.card not in state.hands[seat] or not is_attraction(action.card):
        raise IllegalAction("Pick an Attraction from your hand.")
    _simultaneous_pick(state, seat, action.card, events)
    events.append(Event.private(seat, f"You pick {name_of(action.card)}."))
    if not all(state.chosen):
        return
    for p in range(state.num_players):
        card = state.choices[p]
        assert card is not None
        state.hands[p].remove(card)
        state.areas[p].append(card)
        events.append(Event.public(f"{who(p)} opens with {name_of(card)}."))
    start_round(state, events)


def do_offer(state: State, seat: Seat, action: Offer, events: list[Event]) -> None:
    """Round step 1: a seller's secret offer; revealed together."""
    if state.phase != "offer":
        raise IllegalAction("Offers are not being made now.")
    if action.card not in state.hands[seat]:
        raise IllegalAction("That card is not in your hand.")
    _simultaneous_pick(state, seat, action.card, events)
    events.append(Event.private(seat, f"You offer {name_of(action.card)}."))
    if all(state.chosen[s] for s in sellers(state)):
        reveal_offers(state, events)


def do_bid(state: State, seat: Seat, action: Bid, events: list[Event]) -> None:
    """Round step 2: fill the wagon secretly and place it; contents are then fixed."""
    if state.phase != "bid":
        raise IllegalAction("Nobody is bidding now.")
    if action.offer not in allowed_offers(state, seat):
        raise IllegalAction("You may not bid on that offer (never your own; a seller must bid "
                            "on the other seller's offer).")  # fmt: skip
    goods = action.goods()
    problem = is_legal_bid(state, seat, goods)
    if problem:
        raise IllegalAction(problem)
    for i, n in enumerate(goods):
        state.screens[seat][i] -= n
    state.wagons[seat] = goods
    state.wagon_at[seat] = action.offer
    seller = sellers(state)[action.offer]
    card = name_of(state.offers[action.offer])
    events += secret_pair(
        state, {seat}, f"You bid {goods_text(goods)} on {card}.",
        f"{who(seat)} places a wagon at {who(seller)}'s {card}.",
    )  # fmt: skip
    if all(state.wagon_at[b] is not None for b in bidders(state)):
        events.append(Event.public("The last wagon is placed: the sellers resolve their offers."))
        state.resolving, state.inspected, state.inspecting = 0, [], None
        start_resolution(state, events)


def do_move_wagon(state: State, seat: Seat, action: MoveWagon, events: list[Event]) -> None:
    """Move a placed wagon to the other offer."""
    at = state.wagon_at[seat]
    if state.phase != "bid" or at is None:
        raise IllegalAction("Wagons can only be moved while bidding.")
    state.wagon_at[seat] = 1 - at
    card = name_of(state.offers[1 - at])
    events.append(Event.public(f"{who(seat)} moves their wagon to {card}."))


def do_inspect(state: State, seat: Seat, action: Inspect, events: list[Event]) -> None:
    """Round steps 3–4: the seller picks up one wagon at their offer and looks inside."""
    if state.phase != "inspect":
        raise IllegalAction("No offer is being resolved now.")
    if state.inspecting is not None:
        raise IllegalAction("Accept or refuse the wagon you are looking at first.")
    b = action.bidder
    if b not in wagons_at(state, state.resolving) or b in state.inspected:
        raise IllegalAction("Pick a wagon at your offer that you have not inspected yet.")
    state.inspecting = b
    state.wagon_seen[b] = [seat]
    events.append(Event.public(f"{who(seat)} inspects {who(b)}'s wagon."))
    events.append(Event.private(seat, f"{who(b)}'s wagon holds {goods_text(state.wagons[b])}."))


def do_accept(state: State, seat: Seat, action: Accept, events: list[Event]) -> None:
    """Accept: the seller takes the contents; the bidder wins; other wagons go home unopened."""
    b = state.inspecting
    if state.phase != "inspect" or b is None:
        raise IllegalAction("Inspect a wagon first.")
    price = goods_text(state.wagons[b])
    add_goods(state.screens[seat], state.wagons[b])
    state.wagons[b] = empty_goods()
    state.wagon_at[b], state.wagon_seen[b] = None, []
    state.winners[state.resolving] = b
    card = name_of(state.offers[state.resolving])
    events += secret_pair(
        state, {seat, b}, f"{who(seat)} accepts {who(b)}'s wagon ({price}) for {card}.",
        f"{who(seat)} accepts {who(b)}'s wagon: {who(b)} wins {card}.",
    )  # fmt: skip
    accept_triggers(state, seat, b, events)
    for other in wagons_at(state, state.resolving):
        return_wagon(state, other)
        events.append(Event.public(f"{who(other)}'s wagon goes back unopened."))
    finish_offer(state, events)


def do_refuse(state: State, seat: Seat, action: Refuse, events: list[Event]) -> None:
    """Refuse: the wagon goes back with its contents, for good."""
    b = state.inspecting
    if state.phase != "inspect" or b is None:
        raise IllegalAction("Inspect a wagon first.")
    return_wagon(state, b)
    state.inspected.append(b)
    state.inspecting = None
    events.append(Event.public(f"{who(seat)} refuses {who(b)}'s wagon."))
    if not wagons_at(state, state.resolving):
        discard_offer(state, events)
        finish_offer(state, events)


def _prompt(state: State, kind: str, what: str) -> Prompt:
    prompt = state.prompt
    if state.phase != "perform" or prompt is None or prompt.kind != kind:
        raise IllegalAction(f"There is no {what} to make now.")
    return prompt


def do_choose_targets(state: State, seat: Seat, action: ChooseTargets, events: list[Event]) -> None:
    """Name the targets of a loading Performance."""
    prompt = _prompt(state, "targets", "choice of targets")
    chosen = action.seats
    if len(chosen) != prompt.count or len(set(chosen)) != len(chosen):
        raise IllegalAction(f"Choose {prompt.count} different player(s).")
    if any(t not in prompt.targets for t in chosen):
        raise IllegalAction("That player is not a legal target.")
    if not load_wagons(state, seat, prompt.card, sorted(chosen), events):
        finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_take(state: State, seat: Seat, action: Take, events: list[Event]) -> None:
    """Take what the card allows from the loaded wagon being looked at."""
    prompt = _prompt(state, "take", "take")
    target = prompt.targets[prompt.index]
    wagon = state.wagons[target]
    options = [sorted(o) for o in take_options(prompt.card, wagon)]
    if sorted(action.items) not in options:
        raise IllegalAction("You may not take that from this wagon.")
    goods = items_to_goods(action.items)
    for i, n in enumerate(goods):
        wagon[i] -= n
        state.screens[seat][i] += n
    events += secret_pair(
        state, {seat, target}, f"{who(seat)} takes {goods_text(goods)} from {who(target)}'s wagon.",
        f"{who(seat)} takes from {who(target)}'s wagon.",
    )  # fmt: skip
    prompt.index += 1
    if prompt.index >= len(prompt.targets):
        if not after_takes(state, events):
            finish_performance(state, prompt.card, events)
        continue_performances(state, events)


def do_take_extra(state: State, seat: Seat, action: TakeExtra, events: list[Event]) -> None:
    """Sticky-Fingered Monkey: one more item from one loaded wagon."""
    prompt = _prompt(state, "extra", "Sticky-Fingered Monkey take")
    if action.seat not in prompt.targets:
        raise IllegalAction("That wagon was not loaded for you.")
    i = ITEMS.index(action.item)
    if not state.wagons[action.seat][i]:
        raise IllegalAction("That wagon holds no such item.")
    state.wagons[action.seat][i] -= 1
    state.screens[seat][i] += 1
    events += secret_pair(
        state, {seat, action.seat},
        f"Sticky-Fingered Monkey: {who(seat)} takes 1 {action.item} from {who(action.seat)}.",
        f"Sticky-Fingered Monkey: {who(seat)} takes one more item from {who(action.seat)}.",
    )  # fmt: skip
    unload(state)
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_decline(state: State, seat: Seat, action: Decline, events: list[Event]) -> None:
    """Decline a "may" effect (Monkey, Vanishing Cabinet, Encore!, Resurrection Show)."""
    prompt = state.prompt
    if state.phase != "perform" or prompt is None:
        raise IllegalAction("There is nothing to decline now.")
    if prompt.kind not in ("extra", "swap", "encore", "resurrect"):
        raise IllegalAction("This effect is compulsory.")
    events.append(Event.public(f"{who(seat)} declines."))
    if prompt.kind == "extra":
        unload(state)
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_steal(state: State, seat: Seat, action: Steal, events: list[Event]) -> None:
    """Candy Thieves: move a Collection card into your area."""
    prompt = _prompt(state, "steal", "theft")
    if (action.seat, action.card) not in steal_options(state, seat):
        raise IllegalAction("You cannot take that card.")
    state.areas[action.seat].remove(action.card)
    state.areas[seat].append(action.card)
    events.append(
        Event.public(f"{who(seat)} takes {name_of(action.card)} from {who(action.seat)}'s area.")
    )
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_swap(state: State, seat: Seat, action: Swap, events: list[Event]) -> None:
    """Vanishing Cabinet: swap two Attractions between areas."""
    prompt = _prompt(state, "swap", "swap")
    if (action.card, action.seat, action.their_card) not in swap_options(state, seat):
        raise IllegalAction("You cannot swap those cards.")
    mine, theirs = state.areas[seat], state.areas[action.seat]
    mine[mine.index(action.card)] = action.their_card
    theirs[theirs.index(action.their_card)] = action.card
    events.append(
        Event.public(
            f"{who(seat)} swaps {name_of(action.card)} for {who(action.seat)}'s "
            f"{name_of(action.their_card)}."
        )
    )
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_play(state: State, seat: Seat, action: Play, events: list[Event]) -> None:
    """Encore!: play a card from hand (Attraction to the area, Performance resolved at once)."""
    prompt = _prompt(state, "encore", "Encore! play")
    hand = state.hands[seat]
    if action.card not in hand:
        raise IllegalAction("That card is not in your hand.")
    hand.remove(action.card)
    events.append(Event.public(f"{who(seat)} plays {name_of(action.card)} from hand."))
    finish_performance(state, prompt.card, events)
    if is_attraction(action.card):
        state.areas[seat].append(action.card)
    else:
        state.queue.insert(0, Pending(seat=seat, card=action.card))
    continue_performances(state, events)


def do_resurrect(state: State, seat: Seat, action: Resurrect, events: list[Event]) -> None:
    """Resurrection Show: an Attraction from the discard pile into your area."""
    prompt = _prompt(state, "resurrect", "Resurrection Show choice")
    if action.card not in state.discard or not is_attraction(action.card):
        raise IllegalAction("Pick an Attraction from the discard pile.")
    state.discard.remove(action.card)
    state.areas[seat].append(action.card)
    events.append(Event.public(f"{who(seat)} brings back {name_of(action.card)}."))
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_alchemy(state: State, seat: Seat, action: Alchemy, events: list[Event]) -> None:
    """Alchemist: 0–3 copper become silver, then 1 copper."""
    prompt = _prompt(state, "alchemy", "Alchemist choice")
    screen = state.screens[seat]
    if action.copper > screen[COPPER]:
        raise IllegalAction("You do not have that many copper coins.")
    screen[COPPER] -= action.copper
    screen[SILVER] += action.copper
    screen[COPPER] += 1
    events.append(
        Event.public(f"{who(seat)} turns {action.copper} copper into silver and takes 1 copper.")
    )
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_keep(state: State, seat: Seat, action: Keep, events: list[Event]) -> None:
    """Tightrope Walker: keep 2 of the drawn contracts, return the others."""
    prompt = _prompt(state, "keep", "Tightrope Walker choice")
    if sorted(action.cities) not in [sorted(o) for o in keep_options(prompt.drawn)]:
        raise IllegalAction("Keep two of the contracts you drew.")
    kept = [0] * len(CITIES)
    for c in action.cities:
        kept[CITIES.index(c)] += 1
    give_contracts(state, seat, kept)
    for ci in range(len(CITIES)):
        state.bag[ci] += prompt.drawn[ci] - kept[ci]
    events += secret_pair(
        state, {seat}, f"You keep {contracts_text(kept)}.",
        f"{who(seat)} keeps 2 contracts and returns {sum(prompt.drawn) - 2} to the bag.",
    )  # fmt: skip
    prompt.drawn = []
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_return_contracts(
    state: State, seat: Seat, action: ReturnContracts, events: list[Event]
) -> None:
    """Wheel of Fortune: return contracts, draw as many plus one."""
    prompt = _prompt(state, "wheel", "Wheel of Fortune choice")
    counts = action.counts()
    screen = state.screens[seat]
    if any(screen[FIRST_CITY + ci] < n for ci, n in enumerate(counts)):
        raise IllegalAction("You cannot return contracts you do not hold.")
    for ci, n in enumerate(counts):
        screen[FIRST_CITY + ci] -= n
        state.bag[ci] += n
    drawn = draw_contracts(state, sum(counts) + 1)
    give_contracts(state, seat, drawn)
    events += secret_pair(
        state, {seat},
        f"You return {contracts_text(counts)} and draw {contracts_text(drawn)}.",
        f"{who(seat)} returns {sum(counts)} contracts and draws {sum(drawn)}.",
    )  # fmt: skip
    finish_performance(state, prompt.card, events)
    continue_performances(state, events)


def do_final_attraction(
    state: State, seat: Seat, action: FinalAttraction, events: list[Event]
) -> None:
    """Final step 1: a secret last Attraction (or none); revealed together."""
    if state.phase != "final":
        raise IllegalAction("The last Attractions are not being placed now.")
    if action.card is not None and (
        action.card not in state.hands[seat] or not is_attraction(action.card)
    ):
        raise IllegalAction("Pick an Attraction from your hand, or none.")
    _simultaneous_pick(state, seat, action.card, events)
    if all(state.chosen):
        reveal_final(state, events)


def _slot(state: State, seat: Seat, kind: str) -> tuple[str, list[str]]:
    if state.phase != "scoring":
        raise IllegalAction("Scoring choices are made at the end of the game.")
    slot = next_scoring_slot(state, seat)
    assert slot is not None
    key, want, options = slot
    if want != kind:
        raise IllegalAction(f"Your next scoring choice is a {want}, not a {kind}.")
    return key, options


def _record_choice(state: State, seat: Seat, key: str, value: str, text: str,
                   events: list[Event]) -> None:  # fmt: skip
    state.scoring_choices[seat][key] = value
    events.append(Event.public(f"{who(seat)}: {text}."))
    if next_scoring_slot(state, seat) is None:
        state.choosers_done += 1
        advance_chooser(state, events)


def do_choose_design(state: State, seat: Seat, action: ChooseDesign, events: list[Event]) -> None:
    """Crystal Balls counts as a Collection card of this design."""
    key, options = _slot(state, seat, "design")
    if action.design not in options:
        raise IllegalAction("Choose one of the four Collection designs.")
    text = f"Crystal Balls counts as {action.design.replace('_', ' ')}"
    _record_choice(state, seat, key, action.design, text, events)


def do_choose_city(state: State, seat: Seat, action: ChooseCity, events: list[Event]) -> None:
    """Rainbow Bridge (or a copy of it) counts as a contract of this type."""
    key, _ = _slot(state, seat, "city")
    text = f"Rainbow Bridge counts as a {action.city.title()} contract"
    _record_choice(state, seat, key, action.city, text, events)


def do_choose_copy(state: State, seat: Seat, action: ChooseCopy, events: list[Event]) -> None:
    """Distorting Mirrors / Twisted Corridors copies this Attraction's scoring effect."""
    key, options = _slot(state, seat, "copy")
    value = f"{action.seat}:{action.card}"
    if value not in options:
        raise IllegalAction("That card cannot be copied.")
    copier = name_of(key.split("#", 1)[0])
    text = f"{copier} copies {name_of(action.card)} of {who(action.seat)}"
    _record_choice(state, seat, key, value, text, events)


_HANDLERS: dict[type, Any] = {
    DraftPick: do_draft_pick,
    FirstAttraction: do_first_attraction,
    Offer: do_offer,
    Bid: do_bid,
    MoveWagon: do_move_wagon,
    Inspect: do_inspect,
    Accept: do_accept,
    Refuse: do_refuse,
    ChooseTargets: do_choose_targets,
    Take: do_take,
    TakeExtra: do_take_extra,
    Decline: do_decline,
    Steal: do_steal,
    Swap: do_swap,
    Play: do_play,
    Resurrect: do_resurrect,
    Alchemy: do_alchemy,
    Keep: do_keep,
    ReturnContracts: do_return_contracts,
    FinalAttraction: do_final_attraction,
    ChooseDesign: do_choose_design,
    ChooseCity: do_choose_city,
    ChooseCopy: do_choose_copy,
}


# ---- text forms -------------------------------------------------------------------------------


def action_text(action: Any) -> str:
    """Short canonical text of an action: `bid 1: 2 copper, 1 berlin`, `inspect p2`, …"""
    t = action.type
    if isinstance(action, DraftPick | FirstAttraction | Offer | Play | Resurrect):
        return f"{t} {action.card}"
    if isinstance(action, Bid):
        return f"bid {action.offer}: {goods_text(action.goods())}"
    if isinstance(action, Inspect):
        return f"inspect p{action.bidder}"
    if isinstance(action, ChooseTargets):
        return "targets " + ",".join(f"p{s}" for s in action.seats)
    if isinstance(action, Take):
        return "take " + ("+".join(action.items) if action.items else "nothing")
    if isinstance(action, TakeExtra):
        return f"take_extra p{action.seat} {action.item}"
    if isinstance(action, Steal):
        return f"steal p{action.seat} {action.card}"
    if isinstance(action, Swap):
        return f"swap {action.card} p{action.seat} {action.their_card}"
    if isinstance(action, Alchemy):
        return f"alchemy {action.copper}"
    if isinstance(action, Keep):
        return "keep " + "+".join(action.cities)
    if isinstance(action, ReturnContracts):
        return "return " + contracts_text(action.counts())
    if isinstance(action, FinalAttraction):
        return f"final {action.card or 'none'}"
    if isinstance(action, ChooseDesign):
        return f"design {action.design}"
    if isinstance(action, ChooseCity):
        return f"city {action.city}"
    if isinstance(action, ChooseCopy):
        return f"copy p{action.seat} {action.card}"
    return str(t)
