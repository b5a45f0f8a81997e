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
    CITIES,
    CITY_WORDS,
    DC,
    DESIGN_WORDS,
    ITEMS,
    is_attraction,
    name_of,
    word,
)
from engines.dreadful_circus.flow import (
    accept_triggers,
    advance_chooser,
    continue_performances,
    discard_offer,
    finish_offer,
    finish_performance,
    performance_done,
    redeal_without_attraction,
    reveal_final,
    reveal_offers,
    start_resolution,
    start_round,
    wagons_at,
)
from engines.dreadful_circus.goods import (
    COPPER,
    FIRST_CITY,
    SILVER,
    add_goods,
    contracts_words,
    draw_contracts,
    empty_goods,
    give_contracts,
    goods_words,
    items_to_goods,
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
from engines.dreadful_circus.performances import after_takes, load_wagons, unload
from engines.dreadful_circus.table import (
    allowed_offers,
    bidders,
    is_legal_bid,
    keep_options,
    next_scoring_slot,
    sellers,
    steal_options,
    swap_options,
    take_options,
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


def _prompt(state: State, kind: str, what: str) -> Prompt:
    prompt = state.prompt
    if state.phase != "perform" or prompt is None or prompt.kind != kind:
        raise IllegalAction("There is no %(what)s to make now.", what=Term(what, DC))
    return prompt


def do_choose_targets(state: State, seat: Seat, action: ChooseTargets, events: Events) -> None:
    """Name the targets of a loading Performance."""
    prompt = _prompt(state, "targets", trc("dreadful_circus", "choice of targets"))
    chosen = action.seats
    if len(chosen) != prompt.count or len(set(chosen)) != len(chosen):
        if prompt.count == 1:
            raise IllegalAction("Choose one other player.")
        raise IllegalAction("Choose %(count)s different players.", count=prompt.count)
    if any(t not in prompt.targets for t in chosen):
        raise IllegalAction("That player is not a legal target.")
    if not load_wagons(state, seat, prompt.card, sorted(chosen), events):
        performance_done(state, prompt.card, events)


def do_take(state: State, seat: Seat, action: Take, events: Events) -> None:
    """Take what the card allows from the loaded wagon being looked at."""
    prompt = _prompt(state, "take", trc("dreadful_circus", "take"))
    target = prompt.targets[prompt.index]
    wagon = state.wagons[target]
    options = [sorted(o) for o in take_options(prompt.card, wagon)]
    if sorted(action.items) not in options:
        raise IllegalAction("You may not take that from this wagon.")
    goods = items_to_goods(action.items)
    for i, n in enumerate(goods):
        wagon[i] -= n
        state.screens[seat][i] += n
    if events is not None:
        events += secret_pair(
            state,
            {seat, target},
            Phrase(
                tr("%(who)s takes %(goods)s from %(target)s's wagon."),
                {"who": who(seat), "goods": goods_words(goods), "target": who(target)},
            ),
            Phrase(
                tr("%(who)s takes from %(target)s's wagon."),
                {"who": who(seat), "target": who(target)},
            ),
        )
    prompt.index += 1
    if prompt.index >= len(prompt.targets):
        if not after_takes(state, events):
            finish_performance(state, prompt.card, events)
        continue_performances(state, events)


def do_take_extra(state: State, seat: Seat, action: TakeExtra, events: Events) -> None:
    """Sticky-Fingered Monkey: one more item from one loaded wagon."""
    prompt = _prompt(state, "extra", trc("dreadful_circus", "Sticky-Fingered Monkey take"))
    if action.seat not in prompt.targets:
        raise IllegalAction("That wagon was not loaded for you.")
    i = ITEMS.index(action.item)
    if not state.wagons[action.seat][i]:
        raise IllegalAction("That wagon holds no such item.")
    state.wagons[action.seat][i] -= 1
    state.screens[seat][i] += 1
    if events is not None:
        events += secret_pair(
            state,
            {seat, action.seat},
            Phrase(
                tr("Sticky-Fingered Monkey: %(who)s takes %(item)s from %(target)s."),
                {
                    "who": who(seat),
                    "item": goods_words(items_to_goods([action.item])),
                    "target": who(action.seat),
                },
            ),
            Phrase(
                tr("Sticky-Fingered Monkey: %(who)s takes one more item from %(target)s."),
                {"who": who(seat), "target": who(action.seat)},
            ),
        )
    unload(state)
    performance_done(state, prompt.card, events)


def do_decline(state: State, seat: Seat, action: Decline, events: Events) -> None:
    """Decline a "may" effect (Monkey, Vanishing Cabinet, Encore!, Resurrection Show)."""
    prompt = state.prompt
    if state.phase != "perform" or prompt is None:
        raise IllegalAction("There is nothing to decline now.")
    if prompt.kind not in ("extra", "swap", "encore", "resurrect"):
        raise IllegalAction("This effect is compulsory.")
    if events is not None:
        events.append(Event.public(tr("%(who)s declines."), who=who(seat)))
    if prompt.kind == "extra":
        unload(state)
    performance_done(state, prompt.card, events)


def do_steal(state: State, seat: Seat, action: Steal, events: Events) -> None:
    """Candy Thieves: move a Collection card into your area."""
    prompt = _prompt(state, "steal", trc("dreadful_circus", "theft"))
    if (action.seat, action.card) not in steal_options(state, seat):
        raise IllegalAction("You cannot take that card.")
    state.areas[action.seat].remove(action.card)
    state.areas[seat].append(action.card)
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s takes %(card)s from %(target)s's area."),
                who=who(seat),
                card=name_of(action.card),
                target=who(action.seat),
            )
        )
    performance_done(state, prompt.card, events)


def do_swap(state: State, seat: Seat, action: Swap, events: Events) -> None:
    """Vanishing Cabinet: swap two Attractions between areas."""
    prompt = _prompt(state, "swap", trc("dreadful_circus", "swap"))
    if (action.card, action.seat, action.their_card) not in swap_options(state, seat):
        raise IllegalAction("You cannot swap those cards.")
    mine, theirs = state.areas[seat], state.areas[action.seat]
    mine[mine.index(action.card)] = action.their_card
    theirs[theirs.index(action.their_card)] = action.card
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s swaps %(card)s for %(target)s's %(their_card)s."),
                who=who(seat),
                card=name_of(action.card),
                target=who(action.seat),
                their_card=name_of(action.their_card),
            )
        )
    performance_done(state, prompt.card, events)


def do_play(state: State, seat: Seat, action: Play, events: Events) -> None:
    """Encore!: play a card from hand (Attraction to the area, Performance resolved at once)."""
    prompt = _prompt(state, "encore", trc("dreadful_circus", "Encore! play"))
    hand = state.hands[seat]
    if action.card not in hand:
        raise IllegalAction("That card is not in your hand.")
    hand.remove(action.card)
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s plays %(card)s from hand."), who=who(seat), card=name_of(action.card)
            )
        )
    finish_performance(state, prompt.card, events)
    if is_attraction(action.card):
        state.areas[seat].append(action.card)
    else:
        state.queue.insert(0, Pending(seat=seat, card=action.card))
    continue_performances(state, events)


def do_resurrect(state: State, seat: Seat, action: Resurrect, events: Events) -> None:
    """Resurrection Show: an Attraction from the discard pile into your area."""
    prompt = _prompt(state, "resurrect", trc("dreadful_circus", "Resurrection Show choice"))
    if action.card not in state.discard or not is_attraction(action.card):
        raise IllegalAction("Pick an Attraction from the discard pile.")
    state.discard.remove(action.card)
    state.areas[seat].append(action.card)
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s brings back %(card)s."), who=who(seat), card=name_of(action.card)
            )
        )
    performance_done(state, prompt.card, events)


def do_alchemy(state: State, seat: Seat, action: Alchemy, events: Events) -> None:
    """Alchemist: 0–3 copper become silver, then 1 copper."""
    prompt = _prompt(state, "alchemy", trc("dreadful_circus", "Alchemist choice"))
    screen = state.screens[seat]
    if action.copper > screen[COPPER]:
        raise IllegalAction("You do not have that many copper coins.")
    screen[COPPER] -= action.copper
    screen[SILVER] += action.copper
    screen[COPPER] += 1
    if events is not None:
        events.append(
            Event.public(
                tr("%(who)s turns %(copper)s copper into silver and takes 1 copper."),
                who=who(seat),
                copper=action.copper,
            )
        )
    performance_done(state, prompt.card, events)


def do_keep(state: State, seat: Seat, action: Keep, events: Events) -> None:
    """Tightrope Walker: keep 2 of the drawn contracts, return the others."""
    prompt = _prompt(state, "keep", trc("dreadful_circus", "Tightrope Walker choice"))
    if sorted(action.cities) not in [sorted(o) for o in keep_options(prompt.drawn)]:
        raise IllegalAction("Keep two of the contracts you drew.")
    kept = [0] * len(CITIES)
    for c in action.cities:
        kept[CITIES.index(c)] += 1
    give_contracts(state, seat, kept)
    for ci in range(len(CITIES)):
        state.bag[ci] += prompt.drawn[ci] - kept[ci]
    if events is not None:
        events += secret_pair(
            state,
            {seat},
            Phrase(tr("You keep %(contracts)s."), {"contracts": contracts_words(kept)}),
            Phrase(
                tr("%(who)s keeps 2 contracts and returns %(count)s to the bag."),
                {"who": who(seat), "count": sum(prompt.drawn) - 2},
            ),
        )
    prompt.drawn = []
    performance_done(state, prompt.card, events)


def do_return_contracts(state: State, seat: Seat, action: ReturnContracts, events: Events) -> None:
    """Wheel of Fortune: return contracts, draw as many plus one."""
    prompt = _prompt(state, "wheel", trc("dreadful_circus", "Wheel of Fortune choice"))
    counts = action.counts()
    screen = state.screens[seat]
    if any(screen[FIRST_CITY + ci] < n for ci, n in enumerate(counts)):
        raise IllegalAction("You cannot return contracts you do not hold.")
    for ci, n in enumerate(counts):
        screen[FIRST_CITY + ci] -= n
        state.bag[ci] += n
    drawn = draw_contracts(state, sum(counts) + 1)
    give_contracts(state, seat, drawn)
    if events is not None:
        events += secret_pair(
            state,
            {seat},
            Phrase(
                tr("You return %(contracts)s and draw %(contracts2)s."),
                {"contracts": contracts_words(counts), "contracts2": contracts_words(drawn)},
            ),
            Phrase(
                tr("%(who)s returns %(count)s contracts and draws %(count2)s."),
                {"who": who(seat), "count": sum(counts), "count2": sum(drawn)},
            ),
        )
    performance_done(state, prompt.card, events)


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
