"""Dreadful Circus — the handlers of a Performance's choices once it is being resolved: its
targets, what is taken from a wagon, steals, swaps, plays, resurrections, alchemy, what is kept
and contracts returned (each validates, then mutates the fresh copy; `handlers.handle`
dispatches to them)."""

from __future__ import annotations

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
    DC,
    ITEMS,
    is_attraction,
    name_of,
)
from engines.dreadful_circus.flow import (
    continue_performances,
    finish_performance,
    performance_done,
)
from engines.dreadful_circus.goods import (
    COPPER,
    FIRST_CITY,
    SILVER,
    contracts_words,
    draw_contracts,
    give_contracts,
    goods_words,
    items_to_goods,
    secret_pair,
)
from engines.dreadful_circus.model import (
    Alchemy,
    ChooseTargets,
    Decline,
    Events,
    Keep,
    Pending,
    Play,
    Prompt,
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
    keep_options,
    steal_options,
    swap_options,
    take_options,
)


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
