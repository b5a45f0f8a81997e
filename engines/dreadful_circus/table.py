"""Dreadful Circus — small named rules: who sells and bids, what may be offered, bid and
target menus, the next scoring slot. Pure queries on a state.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement

from engines.core import (
    Seat,
    tr,
)
from engines.dreadful_circus.cards import CITIES, COLLECTION_DESIGNS, DESIGNS, METALS, effect_of
from engines.dreadful_circus.goods import (
    COPPER,
    FIRST_CITY,
    GOLD,
    LOAD_COINS,
    MIN_HAND_TO_SELL,
    SILVER,
    covers,
    empty_goods,
)
from engines.dreadful_circus.model import State
from engines.dreadful_circus.scoring import COPIERS, Tally, parse_copy, slot_keys

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
        return tr("You cannot bid more than you hold behind your screen.")
    if sum(goods) == 0 and sum(screen) > 0:
        return tr("A wagon must hold at least one coin or contract when you have any.")
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


@lru_cache(maxsize=4096)
def bid_menu_of(screen: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """`bid_menu` of a screen given as a tuple, kept once made (a bot's playouts list the
    bids at every bidding step, and screens repeat)."""
    return tuple(tuple(goods) for goods in bid_menu(list(screen)))


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
