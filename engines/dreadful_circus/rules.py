"""Dreadful Circus (Bruno Faidutti, Portal Games 2021): the rules engine.

Rule source: docs/rules/dreadful-circus.md, which restates the Polish seed rulebook
and settles what it leaves open. The card set is the
spec's provisional one (engines/dreadful_circus/cards.py).

Flow: (draft) → first Attraction (secret, simultaneous) → rounds of offer (secret, simultaneous
for the sellers) → bids (secret wagons) → inspection by the first then the second seller →
Attractions to areas → Performances resolved (prompts) → end check → final Attraction (secret,
simultaneous) → reveal → scoring choices from the first seller clockwise → scores.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
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
    interned,
    rank_by,
    tr,
)
from engines.dreadful_circus.cards import (
    CITIES,
    CONTRACTS_PER_CITY,
    DESIGNS,
    ITEMS,
    START_COINS,
    START_CONTRACTS,
    CardDesign,
    deck_for,
    hand_size,
    is_attraction,
)
from engines.dreadful_circus.flow import redeal_without_attraction, wagons_at
from engines.dreadful_circus.goods import (
    COPPER,
    FIRST_CITY,
    contracts_text,
    draw_contracts,
    empty_goods,
    give_contracts,
    goods_text,
)
from engines.dreadful_circus.handlers import handle
from engines.dreadful_circus.hidden import redeal_hidden_cards, redeal_hidden_goods
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
    Events,
    FinalAttraction,
    FirstAttraction,
    Inspect,
    Keep,
    MoveWagon,
    Offer,
    Options,
    Play,
    Refuse,
    Resurrect,
    ReturnContracts,
    State,
    Steal,
    Swap,
    Take,
    TakeExtra,
)
from engines.dreadful_circus.scoring import parse_copy, score_all, tie_break_key
from engines.dreadful_circus.table import (
    allowed_offers,
    bid_menu_of,
    bidders,
    keep_options,
    next_scoring_slot,
    sellers,
    steal_options,
    swap_options,
    take_options,
    tallies,
)
from engines.dreadful_circus.view import build_view, view_key

# ---- the engine -------------------------------------------------------------------------------


class DreadfulCircus(Engine[State, Any, Options]):
    """Dreadful Circus for 4–8 players, optionally with the draft variant."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="dreadful_circus",
        title=tr("Dreadful Circus"),
        min_players=4,
        max_players=8,
        options=Options,
        hidden_information=True,
        simultaneous=True,
        summary=tr("Sell circus acts for secret bids of coins and contracts; build the best show."),
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
            raise IllegalAction("Dreadful Circus needs 4 to 8 players, not %(count)s.", count=n)
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
        """Every seat that still owes a choice now (several in the simultaneous phases).
        The bidders are everyone but a lone seller (`bidders`), read in one pass: a bot asks
        this at every step of its playouts."""
        phase = state.phase
        if phase == "bid":
            lone = state.first_seller if state.second_seller is None else -1
            return frozenset([s for s, at in enumerate(state.wagon_at) if at is None and s != lone])
        if phase == "inspect":
            return frozenset((sellers(state)[state.resolving],))
        if phase in ("draft", "first_attraction", "final"):
            return frozenset([s for s, done in enumerate(state.chosen) if not done])
        if phase == "offer":
            return frozenset(s for s in sellers(state) if not state.chosen[s])
        if phase == "perform" and state.prompt is not None:
            return frozenset((state.prompt.seat,))
        if phase == "scoring" and state.chooser is not None:
            return frozenset((state.chooser,))
        return frozenset()

    # ---- legal actions -----------------------------------------------------------------------

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Every legal action of `seat`; bids are canonicalised (see `bid_menu`). Actions with
        plain fields are shared instances (`interned`): a bot lists them at every step."""
        if state.phase == "bid" and self._may_move(state, seat):
            return [interned(MoveWagon)]
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == "draft":
            return [interned(DraftPick, card=c) for c in dict.fromkeys(state.packets[seat])]
        if phase == "first_attraction":
            return [
                interned(FirstAttraction, card=c)
                for c in dict.fromkeys(state.hands[seat])
                if is_attraction(c)
            ]
        if phase == "offer":
            return [interned(Offer, card=c) for c in dict.fromkeys(state.hands[seat])]
        if phase == "bid":
            menu = bid_menu_of(tuple(state.screens[seat]))
            return [_bid(o, goods) for o in allowed_offers(state, seat) for goods in menu]
        if phase == "inspect":
            if state.inspecting is not None:
                return [interned(Accept), interned(Refuse)]
            return [
                interned(Inspect, bidder=b)
                for b in wagons_at(state, state.resolving)
                if b not in state.inspected
            ]
        if phase == "perform":
            return self.prompt_actions(state)
        if phase == "final":
            cards = [c for c in dict.fromkeys(state.hands[seat]) if is_attraction(c)]
            return [interned(FinalAttraction, card=c) for c in cards] + [
                interned(FinalAttraction, card=None)
            ]
        if phase == "scoring":
            slot = next_scoring_slot(state, seat)
            assert slot is not None
            _key, kind, options = slot
            if kind == "design":
                return [interned(ChooseDesign, design=d) for d in options]
            if kind == "city":
                return [interned(ChooseCity, city=c) for c in options]
            return [ChooseCopy(seat=parse_copy(o)[0], card=parse_copy(o)[1]) for o in options]
        return []

    def _may_move(self, state: State, seat: Seat) -> bool:
        """A placed bidder with a free choice may move their wagon until the last is placed."""
        return (
            state.wagon_at[seat] is not None
            and len(allowed_offers(state, seat)) == 2
            and bool(self.to_act(state))
        )

    def random_action(self, state: State, seat: Seat, rng: Rng) -> Any:
        """`legal_actions(state, seat)[rng.randbelow(n)]` (see `Engine.random_action`), building
        only the bid drawn when bidding: the bids are every allowed offer times the menu (a
        bidder whose wagon is still at home may not move it, see `_may_move`)."""
        if state.phase == "bid" and state.wagon_at[seat] is None and seat in self.to_act(state):
            offers = allowed_offers(state, seat)
            menu = bid_menu_of(tuple(state.screens[seat]))
            i = rng.randbelow(len(offers) * len(menu))
            return _bid(offers[i // len(menu)], menu[i % len(menu)])
        return super().random_action(state, seat, rng)

    def prompt_actions(self, state: State) -> list[Any]:
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
            extra: list[Any] = [interned(Decline)]
            for t in prompt.targets:
                for i, item in enumerate(ITEMS):
                    if state.wagons[t][i]:
                        extra.append(interned(TakeExtra, seat=t, item=item))
            return extra
        if kind == "steal":
            return [Steal(seat=p, card=c) for p, c in steal_options(state, seat)]
        if kind == "swap":
            swaps: list[Any] = [interned(Decline)]
            swaps += [Swap(card=m, seat=p, their_card=t) for m, p, t in swap_options(state, seat)]
            return swaps
        if kind == "encore":
            return [interned(Decline)] + [
                interned(Play, card=c) for c in dict.fromkeys(state.hands[seat])
            ]
        if kind == "resurrect":
            cards = [c for c in dict.fromkeys(state.discard) if is_attraction(c)]
            return [interned(Decline)] + [interned(Resurrect, card=c) for c in cards]
        if kind == "alchemy":
            return [
                interned(Alchemy, copper=k) for k in range(min(3, state.screens[seat][COPPER]) + 1)
            ]
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
        events: list[Event] = []
        return Step(self._run(state, seat, action, events), events)

    def play(self, state: State, seat: Seat, action: Any) -> State:
        """`apply(...).state` without making the events (a bot's playout reads none)."""
        return self._run(state, seat, action, None)

    def _run(self, state: State, seat: Seat, action: Any, events: Events) -> State:
        """The move on a copy of `state`; its events into `events` unless None."""
        if isinstance(action, MoveWagon) and state.phase == "bid":
            if not self._may_move(state, seat):
                raise IllegalAction(
                    "Only a placed wagon with a free choice may move, and only "
                    "until the last wagon is placed."
                )
        else:
            self.check_turn(state, seat)
        new = copy_state(state)
        handle(new, seat, action, events)
        return new

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
        return build_view(self, state, seat)

    def information_key(self, state: State, seat: Seat) -> Hashable:
        """What `seat`'s view is made of, as plain values (`view_key`)."""
        return view_key(self, state, seat)

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
            reason = tr("highest score")
        elif len(winners) == 1:
            reason = tr("tie on score broken by the seed's tie-break")
        else:
            reason = tr("shared win (tied through every tie-break)")
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


_BIDS: dict[tuple[int, tuple[int, ...]], Bid] = {}


def _bid(offer: int, goods: tuple[int, ...]) -> Bid:
    """The one shared `Bid` of these goods on this offer (actions are immutable)."""
    found = _BIDS.get((offer, goods))
    if found is None:
        found = _BIDS[(offer, goods)] = Bid(offer=offer, **dict(zip(ITEMS, goods, strict=True)))
    return found


# ---- text forms ------------------------------------------------------------------------------


def action_text(action: Any) -> str:
    """Short canonical text of an action: `bid 1: 2 copper, 1 berlin`, `inspect p2`, …"""
    match action:
        case DraftPick() | FirstAttraction() | Offer() | Play() | Resurrect():
            return f"{action.type} {action.card}"
        case Bid():
            return f"bid {action.offer}: {goods_text(action.goods())}"
        case Inspect():
            return f"inspect p{action.bidder}"
        case ChooseTargets():
            return "targets " + ",".join(f"p{s}" for s in action.seats)
        case Take():
            return "take " + ("+".join(action.items) if action.items else "nothing")
        case TakeExtra():
            return f"take_extra p{action.seat} {action.item}"
        case Steal():
            return f"steal p{action.seat} {action.card}"
        case Swap():
            return f"swap {action.card} p{action.seat} {action.their_card}"
        case Alchemy():
            return f"alchemy {action.copper}"
        case Keep():
            return "keep " + "+".join(action.cities)
        case ReturnContracts():
            return "return " + contracts_text(action.counts())
        case FinalAttraction():
            return f"final {action.card or 'none'}"
        case ChooseDesign():
            return f"design {action.design}"
        case ChooseCity():
            return f"city {action.city}"
        case ChooseCopy():
            return f"copy p{action.seat} {action.card}"
        case _:
            return str(action.type)
