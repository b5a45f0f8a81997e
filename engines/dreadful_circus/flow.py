"""Dreadful Circus — the flow of a round and the Performances (mutating helpers, always
called on a fresh copy): rounds, offers, wagons, inspection, won cards, performances, the
end of the game and the final reveal.
"""

from __future__ import annotations

from engines.core import (
    Event,
    Seat,
    tr,
    who,
)
from engines.dreadful_circus.cards import effect_of, is_attraction, name_of
from engines.dreadful_circus.goods import (
    COPPER,
    goods_words,
)
from engines.dreadful_circus.model import Events, Pending, State
from engines.dreadful_circus.performances import PERFORMANCE_EFFECTS
from engines.dreadful_circus.table import (
    count_effect,
    has_strongbox,
    is_game_over_check,
    neighbours,
    next_scoring_slot,
    next_seller,
    sellers,
)

# ---- the flow (mutating helpers, always called on a fresh copy) -------------------------------


def redeal_without_attraction(state: State, hands: list[list[str]], events: Events) -> None:
    """Setup redeal: a hand with no Attraction is discarded face up and dealt again."""
    for seat, hand in enumerate(hands):
        while not any(is_attraction(c) for c in hand):
            if not any(is_attraction(c) for c in state.deck + state.discard):
                break  # only a custom card list could lack Attractions; never loop forever
            size = len(hand)
            state.discard += hand
            if events is not None:
                events.append(
                    Event.public(
                        tr("%(who)s has no Attraction and discards %(cards)s for a new hand."),
                        who=who(seat),
                        cards=[name_of(c) for c in hand],
                    )
                )
            hand.clear()
            for _ in range(size):
                if not state.deck:
                    state.deck = state.rng.shuffled(state.discard)
                    state.discard = []
                hand.append(state.deck.pop())


def start_round(state: State, events: Events) -> None:
    """A new round: sellers pick their offers secretly."""
    n = state.num_players
    state.round += 1
    state.phase = "offer"
    state.choices = [None] * n
    state.chosen = [False] * n
    state.offers, state.winners = [], []
    state.resolving, state.inspected, state.inspecting = 0, [], None
    if state.second_seller is None:
        if events is not None:
            events.append(
                Event.public(
                    tr("Round %(round)s: %(first)s sells."),
                    round=state.round,
                    first=who(state.first_seller),
                )
            )
    else:
        if events is not None:
            events.append(
                Event.public(
                    tr("Round %(round)s: %(first)s is first seller, %(second)s second seller."),
                    round=state.round,
                    first=who(state.first_seller),
                    second=who(state.second_seller),
                )
            )


def reveal_offers(state: State, events: Events) -> None:
    """Every seller has picked: the offers are revealed together and bidding starts."""
    for seller in sellers(state):
        card = state.choices[seller]
        assert card is not None
        state.hands[seller].remove(card)
        state.offers.append(card)
        state.winners.append(None)
        if events is not None:
            events.append(
                Event.public(
                    tr("%(seller)s offers %(card)s."), seller=who(seller), card=name_of(card)
                )
            )
    state.choices = [None] * state.num_players
    state.chosen = [False] * state.num_players
    state.phase = "bid"


def wagons_at(state: State, offer: int) -> list[Seat]:
    """Seats whose wagon stands at an offer."""
    return [s for s, at in enumerate(state.wagon_at) if at == offer]


def start_resolution(state: State, events: Events) -> None:
    """Move on to the next offer to resolve, or to steps 6–7 when all are resolved."""
    while state.resolving < len(state.offers):
        if wagons_at(state, state.resolving):
            state.phase = "inspect"
            return
        discard_offer(state, events)
        state.resolving += 1
    place_won_cards(state, events)


def discard_offer(state: State, events: Events) -> None:
    """Every wagon refused: the offer goes to the discard pile and the seller gets nothing."""
    card = state.offers[state.resolving]
    state.discard.append(card)
    if events is not None:
        events.append(
            Event.public(tr("Nobody bought %(card)s; it is discarded."), card=name_of(card))
        )


def finish_offer(state: State, events: Events) -> None:
    """One offer is settled; the next seller resolves theirs."""
    state.resolving += 1
    state.inspected, state.inspecting = [], None
    start_resolution(state, events)


def accept_triggers(state: State, seller: Seat, winner: Seat, events: Events) -> None:
    """Barker's Booth (seller), Fortune-Telling Machine (winner), then Toll Gate, in that order."""
    for _ in range(count_effect(state, seller, "barkers_booth")):
        state.screens[seller][COPPER] += 1
        if events is not None:
            events.append(
                Event.public(tr("Barker's Booth: %(seller)s takes 1 copper."), seller=who(seller))
            )
    for _ in range(count_effect(state, winner, "fortune_machine")):
        state.screens[winner][COPPER] += 1
        if events is not None:
            events.append(
                Event.public(
                    tr("Fortune-Telling Machine: %(winner)s takes 1 copper."), winner=who(winner)
                )
            )
    n = state.num_players
    for k in range(n):
        owner = (winner + k) % n
        if owner == winner or winner not in neighbours(state, owner):
            continue
        for _ in range(count_effect(state, owner, "toll_gate")):
            if has_strongbox(state, winner):
                text = tr("Toll Gate: the Iron Strongbox of %(winner)s gives %(owner)s nothing.")
            elif state.screens[winner][COPPER]:
                state.screens[winner][COPPER] -= 1
                state.screens[owner][COPPER] += 1
                text = tr("Toll Gate: %(winner)s pays 1 copper to %(owner)s.")
            else:
                text = tr("Toll Gate: %(winner)s has no copper to pay %(owner)s.")
            if events is not None:
                events.append(Event.public(text, winner=who(winner), owner=who(owner)))


def place_won_cards(state: State, events: Events) -> None:
    """Step 6: Attractions won go to areas; step 7: Performances won queue up, in seller order."""
    for card, winner in zip(state.offers, state.winners, strict=True):
        if winner is not None and is_attraction(card):
            state.areas[winner].append(card)
            if events is not None:
                events.append(
                    Event.public(
                        tr("%(winner)s puts %(card)s into their area."),
                        winner=who(winner),
                        card=name_of(card),
                    )
                )
    for card, winner in zip(state.offers, state.winners, strict=True):
        if winner is not None and not is_attraction(card):
            state.queue.append(Pending(seat=winner, card=card))
    state.offers, state.winners = [], []
    state.phase = "perform"
    continue_performances(state, events)


def continue_performances(state: State, events: Events) -> None:
    """Resolve queued Performances until one needs a decision; then the end check."""
    while state.prompt is None:
        if not state.queue:
            end_round(state, events)
            return
        pending = state.queue.pop(0)
        start_performance(state, pending.seat, pending.card, events)


def performance_done(state: State, card: str, events: Events) -> None:
    """The common end of every Performance prompt: the card is done, the next one starts."""
    finish_performance(state, card, events)
    continue_performances(state, events)


def finish_performance(state: State, card: str, events: Events) -> None:
    """A Performance is done: it goes to the discard pile."""
    state.prompt = None
    state.discard.append(card)


def start_performance(state: State, seat: Seat, card: str, events: Events) -> None:
    """Resolve a Performance; it is discarded unless it waits for a decision (a prompt)."""
    if events is not None:
        events.append(
            Event.public(tr("%(who)s resolves %(card)s."), who=who(seat), card=name_of(card))
        )
    waiting = PERFORMANCE_EFFECTS[effect_of(card)](state, seat, card, events)
    if not waiting:
        finish_performance(state, card, events)


def end_round(state: State, events: Events) -> None:
    """Step 8: another round with the markers passed left, or the final steps."""
    if is_game_over_check(state):
        state.phase = "final"
        state.choices = [None] * state.num_players
        state.chosen = [False] * state.num_players
        if events is not None:
            events.append(
                Event.public("Every hand holds 3 cards: each player may place a last Attraction.")
            )
        return
    first = next_seller(state, state.first_seller, None)
    assert first is not None
    second = None
    if state.second_seller is not None:
        second = next_seller(state, state.second_seller, first)
        if second is None and events is not None:
            events.append(Event.public("From now on there is a single seller."))
    state.first_seller, state.second_seller = first, second
    start_round(state, events)


def reveal_final(state: State, events: Events) -> None:
    """Final step 1–2: last Attractions placed, hands discarded, screens revealed."""
    for seat in range(state.num_players):
        card = state.choices[seat]
        if card is not None:
            state.hands[seat].remove(card)
            state.areas[seat].append(card)
            if events is not None:
                events.append(
                    Event.public(tr("%(who)s places %(card)s."), who=who(seat), card=name_of(card))
                )
        else:
            if events is not None:
                events.append(Event.public(tr("%(who)s places no last Attraction."), who=who(seat)))
        if state.hands[seat] and events is not None:
            events.append(
                Event.public(
                    tr("%(who)s discards %(cards)s."),
                    who=who(seat),
                    cards=[name_of(c) for c in state.hands[seat]],
                )
            )
        state.discard += state.hands[seat]
        state.hands[seat] = []
    state.choices = [None] * state.num_players
    state.chosen = [False] * state.num_players
    state.revealed = True
    for seat in range(state.num_players):
        if events is not None:
            events.append(
                Event.public(
                    tr("%(who)s reveals %(goods)s."),
                    who=who(seat),
                    goods=goods_words(state.screens[seat]),
                )
            )
    state.phase = "scoring"
    state.choosers_done = 0
    advance_chooser(state, events)


def advance_chooser(state: State, events: Events) -> None:
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
    if events is not None:
        events.append(Event.public("The circus closes: final scores are in."))
