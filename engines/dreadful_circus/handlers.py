"""Dreadful Circus — one handler per action type (each validates, then mutates the fresh
copy), dispatched with `match` in `handle`.
"""

from __future__ import annotations

from typing import Any

from engines.core import (
    Event,
    IllegalAction,
    Phrase,
    Seat,
    Term,
    tr,
    trc,
    who,
)
from engines.dreadful_circus.cards import (
    CITY_WORDS,
    DC,
    DESIGN_WORDS,
    is_attraction,
    name_of,
    word,
)
from engines.dreadful_circus.effects import (
    do_alchemy,
    do_choose_targets,
    do_decline,
    do_keep,
    do_play,
    do_resurrect,
    do_return_contracts,
    do_steal,
    do_swap,
    do_take,
    do_take_extra,
)
from engines.dreadful_circus.flow import (
    accept_triggers,
    advance_chooser,
    discard_offer,
    finish_offer,
    redeal_without_attraction,
    reveal_final,
    reveal_offers,
    start_resolution,
    start_round,
    wagons_at,
)
from engines.dreadful_circus.goods import (
    add_goods,
    empty_goods,
    goods_words,
    return_wagon,
    secret_pair,
)
from engines.dreadful_circus.model import (
    Accept,
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
from engines.dreadful_circus.table import (
    allowed_offers,
    bidders,
    is_legal_bid,
    next_scoring_slot,
    sellers,
)

# ---- action handlers (each validates, then mutates the fresh copy) -----------------------------


def _simultaneous_pick(
    state: State, seat: Seat, card: str | None, events: Events, mine: str | None = None
) -> None:
    """Record `seat`'s secret choice: the others are told only that it has chosen, `seat`
    itself what (`mine`, with the card's name), unless `mine` is None."""
    state.choices[seat] = card
    state.chosen[seat] = True
    if events is not None:
        events.append(
            Event.others(seat, state.num_players, tr("%(who)s has chosen."), who=who(seat))
        )
    if mine is not None:
        assert card is not None
        if events is not None:
            events.append(Event.private(seat, mine, card=name_of(card)))


def do_draft_pick(state: State, seat: Seat, action: DraftPick, events: Events) -> None:
    """Draft: pick a card; when all have picked, pass the rest to the left."""
    if action.card not in state.packets[seat]:
        raise IllegalAction("That card is not in your draft packet.")
    _simultaneous_pick(state, seat, action.card, events, tr("You pick %(card)s."))
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
        if events is not None:
            events.append(Event.public("Everybody passes their remaining cards to the left."))
        return
    hands = state.picks
    redeal_without_attraction(state, hands, events)
    state.hands, state.packets, state.picks = hands, [], []
    state.phase = "first_attraction"
    if events is not None:
        events.append(Event.public("The draft is over: each player picks a first Attraction."))


def do_first_attraction(state: State, seat: Seat, action: FirstAttraction, events: Events) -> None:
    """Setup step 8: a secret first Attraction; revealed together when all have picked."""
    if action.card not in state.hands[seat] or not is_attraction(action.card):
        raise IllegalAction("Pick an Attraction from your hand.")
    _simultaneous_pick(state, seat, action.card, events, tr("You pick %(card)s."))
    if not all(state.chosen):
        return
    for p in range(state.num_players):
        card = state.choices[p]
        assert card is not None
        state.hands[p].remove(card)
        state.areas[p].append(card)
        if events is not None:
            events.append(
                Event.public(tr("%(who)s opens with %(card)s."), who=who(p), card=name_of(card))
            )
    start_round(state, events)


def do_offer(state: State, seat: Seat, action: Offer, events: Events) -> None:
    """Round step 1: a seller's secret offer; revealed together."""
    if action.card not in state.hands[seat]:
        raise IllegalAction("That card is not in your hand.")
    _simultaneous_pick(state, seat, action.card, events, tr("You offer %(card)s."))
    if all(state.chosen[s] for s in sellers(state)):
        reveal_offers(state, events)


def do_bid(state: State, seat: Seat, action: Bid, events: Events) -> None:
    """Round step 2: fill the wagon secretly and place it; contents are then fixed."""
    if action.offer not in allowed_offers(state, seat):
        raise IllegalAction(
            "You may not bid on that offer (never your own; a seller must bid "
            "on the other seller's offer)."
        )
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
    if events is not None:
        events += secret_pair(
            state,
            {seat},
            Phrase(
                tr("You bid %(goods)s on %(card)s."), {"goods": goods_words(goods), "card": card}
            ),
            Phrase(
                tr("%(who)s places a wagon at %(seller)s's %(card)s."),
                {"who": who(seat), "seller": who(seller), "card": card},
            ),
        )
    if all(state.wagon_at[b] is not None for b in bidders(state)):
        if events is not None:
            events.append(
                Event.public("The last wagon is placed: the sellers resolve their offers.")
            )
        state.resolving, state.inspected, state.inspecting = 0, [], None
        start_resolution(state, events)


def do_move_wagon(state: State, seat: Seat, action: MoveWagon, events: Events) -> None:
    """Move a placed wagon to the other offer."""
    at = state.wagon_at[seat]
    if state.phase != "bid" or at is None:
        raise IllegalAction("Wagons can only be moved while bidding.")
    state.wagon_at[seat] = 1 - at
    card = name_of(state.offers[1 - at])
    if events is not None:
        events.append(
            Event.public(tr("%(who)s moves their wagon to %(card)s."), who=who(seat), card=card)
        )


def do_inspect(state: State, seat: Seat, action: Inspect, events: Events) -> None:
    """Round steps 3–4: the seller picks up one wagon at their offer and looks inside."""
    if state.inspecting is not None:
        raise IllegalAction("Accept or refuse the wagon you are looking at first.")
    b = action.bidder
    if b not in wagons_at(state, state.resolving) or b in state.inspected:
        raise IllegalAction("Pick a wagon at your offer that you have not inspected yet.")
    state.inspecting = b
    state.wagon_seen[b] = [seat]
    if events is not None:
        events.append(
            Event.public(tr("%(who)s inspects %(bidder)s's wagon."), who=who(seat), bidder=who(b))
        )
        events.append(
            Event.private(
                seat,
                tr("%(bidder)s's wagon holds %(goods)s."),
                bidder=who(b),
                goods=goods_words(state.wagons[b]),
            )
        )


def do_accept(state: State, seat: Seat, action: Accept, events: Events) -> None:
    """Accept: the seller takes the contents; the bidder wins; other wagons go home unopened."""
    b = state.inspecting
    if state.phase != "inspect" or b is None:
        raise IllegalAction("Inspect a wagon first.")
    paid = state.wagons[b]
    add_goods(state.screens[seat], paid)
    state.wagons[b] = empty_goods()
    state.wagon_at[b], state.wagon_seen[b] = None, []
    state.winners[state.resolving] = b
    card = name_of(state.offers[state.resolving])
    if events is not None:
        events += secret_pair(
            state,
            {seat, b},
            Phrase(
                tr("%(who)s accepts %(bidder)s's wagon (%(price)s) for %(card)s."),
                {"who": who(seat), "bidder": who(b), "price": goods_words(paid), "card": card},
            ),
            Phrase(
                tr("%(who)s accepts %(bidder)s's wagon: %(bidder)s wins %(card)s."),
                {"who": who(seat), "bidder": who(b), "card": card},
            ),
        )
    accept_triggers(state, seat, b, events)
    for other in wagons_at(state, state.resolving):
        return_wagon(state, other)
        if events is not None:
            events.append(
                Event.public(tr("%(other)s's wagon goes back unopened."), other=who(other))
            )
    finish_offer(state, events)


def do_refuse(state: State, seat: Seat, action: Refuse, events: Events) -> None:
    """Refuse: the wagon goes back with its contents, for good."""
    b = state.inspecting
    if state.phase != "inspect" or b is None:
        raise IllegalAction("Inspect a wagon first.")
    return_wagon(state, b)
    state.inspected.append(b)
    state.inspecting = None
    if events is not None:
        events.append(
            Event.public(tr("%(who)s refuses %(bidder)s's wagon."), who=who(seat), bidder=who(b))
        )
    if not wagons_at(state, state.resolving):
        discard_offer(state, events)
        finish_offer(state, events)


def do_final_attraction(state: State, seat: Seat, action: FinalAttraction, events: Events) -> None:
    """Final step 1: a secret last Attraction (or none); revealed together."""
    if action.card is not None and (
        action.card not in state.hands[seat] or not is_attraction(action.card)
    ):
        raise IllegalAction("Pick an Attraction from your hand, or none.")
    _simultaneous_pick(state, seat, action.card, events)
    if all(state.chosen):
        reveal_final(state, events)


def _slot(state: State, seat: Seat, kind: str) -> tuple[str, list[str]]:
    slot = next_scoring_slot(state, seat)
    assert slot is not None
    key, want, options = slot
    if want != kind:
        raise IllegalAction(
            "Your next scoring choice is a %(want)s, not a %(kind)s.",
            want=Term(SLOT_WORDS[want], DC),
            kind=Term(SLOT_WORDS[kind], DC),
        )
    return key, options


SLOT_WORDS: dict[str, str] = {
    "design": trc("dreadful_circus", "Collection design"),
    "city": trc("dreadful_circus", "contract type"),
    "copy": trc("dreadful_circus", "card to copy"),
}
"""The kinds of end-of-game scoring choice, in words."""


def _record_choice(
    state: State, seat: Seat, key: str, value: str, text: Phrase, events: Events
) -> None:
    state.scoring_choices[seat][key] = value
    if events is not None:
        events.append(Event.public(tr("%(who)s: %(choice)s."), who=who(seat), choice=text))
    if next_scoring_slot(state, seat) is None:
        state.choosers_done += 1
        advance_chooser(state, events)


def do_choose_design(state: State, seat: Seat, action: ChooseDesign, events: Events) -> None:
    """Crystal Balls counts as a Collection card of this design."""
    key, options = _slot(state, seat, "design")
    if action.design not in options:
        raise IllegalAction("Choose one of the four Collection designs.")
    text = Phrase(
        tr("Crystal Balls counts as %(design)s"), {"design": word(DESIGN_WORDS, action.design)}
    )
    _record_choice(state, seat, key, action.design, text, events)


def do_choose_city(state: State, seat: Seat, action: ChooseCity, events: Events) -> None:
    """Rainbow Bridge (or a copy of it) counts as a contract of this type."""
    key, _ = _slot(state, seat, "city")
    text = Phrase(
        tr("Rainbow Bridge counts as a %(city)s contract"), {"city": word(CITY_WORDS, action.city)}
    )
    _record_choice(state, seat, key, action.city, text, events)


def do_choose_copy(state: State, seat: Seat, action: ChooseCopy, events: Events) -> None:
    """Distorting Mirrors / Twisted Corridors copies this Attraction's scoring effect."""
    key, options = _slot(state, seat, "copy")
    value = f"{action.seat}:{action.card}"
    if value not in options:
        raise IllegalAction("That card cannot be copied.")
    copier = name_of(key.split("#", 1)[0])
    text = Phrase(
        tr("%(copier)s copies %(card)s of %(owner)s"),
        {"copier": copier, "card": name_of(action.card), "owner": who(action.seat)},
    )
    _record_choice(state, seat, key, value, text, events)


PHASE_OF: dict[type[Any], tuple[str, str]] = {
    DraftPick: ("draft", tr("There is no draft now.")),
    FirstAttraction: ("first_attraction", tr("The first Attractions have been placed.")),
    Offer: ("offer", tr("Offers are not being made now.")),
    Bid: ("bid", tr("Nobody is bidding now.")),
    Inspect: ("inspect", tr("No offer is being resolved now.")),
    FinalAttraction: ("final", tr("The last Attractions are not being placed now.")),
    **dict.fromkeys(
        (ChooseDesign, ChooseCity, ChooseCopy),
        ("scoring", tr("Scoring choices are made at the end of the game.")),
    ),
}
"""The phase each of these actions is taken in, and the refusal outside it (`handle` checks it
first; the other actions' handlers check their own, more particular, moment)."""


def handle(state: State, seat: Seat, action: Any, events: Events) -> None:
    """Apply `action` for `seat` on the fresh copy `state` (one handler per action type)."""
    phase = PHASE_OF.get(type(action))
    if phase is not None and state.phase != phase[0]:
        raise IllegalAction(phase[1])
    match action:
        case DraftPick():
            do_draft_pick(state, seat, action, events)
        case FirstAttraction():
            do_first_attraction(state, seat, action, events)
        case Offer():
            do_offer(state, seat, action, events)
        case Bid():
            do_bid(state, seat, action, events)
        case MoveWagon():
            do_move_wagon(state, seat, action, events)
        case Inspect():
            do_inspect(state, seat, action, events)
        case Accept():
            do_accept(state, seat, action, events)
        case Refuse():
            do_refuse(state, seat, action, events)
        case ChooseTargets():
            do_choose_targets(state, seat, action, events)
        case Take():
            do_take(state, seat, action, events)
        case TakeExtra():
            do_take_extra(state, seat, action, events)
        case Decline():
            do_decline(state, seat, action, events)
        case Steal():
            do_steal(state, seat, action, events)
        case Swap():
            do_swap(state, seat, action, events)
        case Play():
            do_play(state, seat, action, events)
        case Resurrect():
            do_resurrect(state, seat, action, events)
        case Alchemy():
            do_alchemy(state, seat, action, events)
        case Keep():
            do_keep(state, seat, action, events)
        case ReturnContracts():
            do_return_contracts(state, seat, action, events)
        case FinalAttraction():
            do_final_attraction(state, seat, action, events)
        case ChooseDesign():
            do_choose_design(state, seat, action, events)
        case ChooseCity():
            do_choose_city(state, seat, action, events)
        case ChooseCopy():
            do_choose_copy(state, seat, action, events)
        case _:
            raise IllegalAction("That is not a Dreadful Circus action.")
