"""Karmaka — the small named rules and the flow of a turn: draw, the main play (pass or one of
the ways to play a card), the Karmic offer, the extra play, reincarnation and the end.

Rule source: docs/rules/karmaka.md ("Turn", "The Karmic offer", "Extra plays", "Reincarnation",
"End and winner").
The flow's helpers mutate the state in place; the engine (`rules.py`) only calls them on a fresh
copy. A card played for its ability goes on in `abilities.py`; the views are in `view.py`, the
re-deal of hidden cards in `hidden.py`, small table rules in `table.py`.
"""

from __future__ import annotations

from typing import Any

from engines.core import (
    Event,
    Forms,
    Phrase,
    Seat,
    Term,
    copy_state,
    english,
    forms,
    interned,
    tr,
    who,
)
from engines.karmaka.abilities import begin_ability
from engines.karmaka.cards import CARDS, LADDER, NEW_LIFE_CARDS, NUM_CARDS, SAFETY_ROUNDS
from engines.karmaka.model import (
    Accept,
    EndTurn,
    Pass,
    Play,
    Refuse,
    State,
    Way,
    new_chain,
    read_player,
)
from engines.karmaka.table import (
    FROM_DECK,
    TO_FUTURE_LIFE,
    card_event,
    card_score,
    card_term,
    has_transcended,
    hidden_move,
    left_of,
    offered,
    partner_of,
    ruin,
    ruin_all,
    seat_event,
    take_from_well,
    team_of,
    threshold,
)

MODE_PLAYERS: dict[str, tuple[int, ...]] = {
    "free_for_all": (2, 3, 4),
    "teams_2v2": (4,),
    "big_bad_wolf_2v1": (3,),
}


# ---- small named rules ------------------------------------------------------------------------


def can_pass(state: State, seat: Seat) -> bool:
    """Passing is legal only while the Deck still holds a card (counted after the draw)."""
    return state.phase == "play" and state.turn == seat and bool(state.players[seat].deck)


PLAYS: dict[tuple[int, Way], Play] = {
    (c, w): Play(card=c, way=w)
    for c in range(NUM_CARDS)
    for w in ("deed", "ability", "future", "partner")
}
"""Every way to play every card, built once (legal actions are listed at every playout step)."""
PASS, END_TURN, ACCEPT, REFUSE = (interned(k) for k in (Pass, EndTurn, Accept, Refuse))
"""The shared instances of the answers without fields (the ones `interned` gives)."""
ALONE: tuple[frozenset[Seat], ...] = tuple(frozenset({s}) for s in range(8))
"""`frozenset({seat})` per seat, made once: `to_act` is asked at every step of a playout."""
NOBODY: frozenset[Seat] = frozenset()


WAYS: tuple[Way, ...] = ("deed", "ability", "future")
TEAM_WAYS: tuple[Way, ...] = (*WAYS, "partner")
CARD_PLAYS: dict[tuple[Way, ...], tuple[tuple[Play, ...], ...]] = {
    ways: tuple(tuple(PLAYS[c, w] for w in ways) for c in range(NUM_CARDS))
    for ways in (WAYS, TEAM_WAYS)
}
"""By the ways to play (`ways_to_play`): every card's plays in those ways, in their order."""


def ways_to_play(state: State) -> tuple[Way, ...]:
    """A for points, B for the ability, C to your Future Life, D (teams_2v2) to your partner's."""
    return TEAM_WAYS if state.mode == "teams_2v2" else WAYS


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == "over"


def acting_seat(state: State) -> Seat | None:
    """The one seat that must act now (`to_act`), None when the game is over."""
    phase = state.phase
    if phase == "over":
        return None
    if phase == "ability" and state.prompt is not None:
        return state.prompt.seat
    if phase == "offer" and state.chain is not None:
        return state.chain.offer_to[0]
    return state.turn


def card_label(card: int) -> str:
    """`peek#4`: a card id with its kind, for the text form of actions."""
    return f"{CARDS[card].id}#{card}" if 0 <= card < NUM_CARDS else f"#{card}"


# ---- the flow of a turn (mutating helpers, always called on a fresh copy) ------------------------


TURN_FIELDS = frozenset({"turns_started", "turn", "phase"})
END_FIELDS = frozenset({"chain", "prompt", "reveals"})
"""The fields `start_turn` and `end_turn` set (written to the state's dict, and added to its
fields set, as `state.field = value` would)."""


def start_turn(state: State, seat: Seat, events: list[Event]) -> None:
    """Begin `seat`'s turn: reincarnate if Hand and Deck are empty, else draw from the Deck."""
    data = state.__dict__
    while True:
        started = data["turns_started"]
        if started >= SAFETY_ROUNDS * state.num_players:
            reason = tr("%(count)s full rounds passed without a winner")
            end_game(state, [], reason, events, count=SAFETY_ROUNDS)
            return
        if started % state.num_players == 0:
            # A new list, not an append: `copy_for_apply` shares this one with the state copied.
            state.rung_history = [*state.rung_history, tuple(p.rung for p in state.players)]
        data["turns_started"] = started + 1
        data["turn"] = seat
        data["phase"] = "play"
        state.__pydantic_fields_set__.update(TURN_FIELDS)
        # Only read here: a turn with an empty Deck and a Hand changes nothing of its player.
        player = read_player(state.players, seat)
        if not player.hand and not player.deck:
            # A turn is a reincarnation when the Hand and the Deck are both empty at its start.
            events.append(seat_event(tr("%(who)s has no cards left: reincarnation."), seat))
            if player.rings:
                state.phase = "reincarnate"
                return
            reincarnate(state, seat, 0, events)
            if is_over(state):
                return
            seat = left_of(state, seat)
            continue
        events.append(seat_event(tr("%(who)s's turn."), seat))
        if player.deck:
            player = state.players[seat]
            card = player.deck.pop()
            player.hand.append(card)
            hidden_move(state, seat, card, *FROM_DECK, events)
        return


def end_turn(state: State, events: list[Event]) -> None:
    """The turn ends; what was shown to the player is forgotten; the left player goes next."""
    data = state.__dict__
    data["chain"] = None
    data["prompt"] = None
    data["reveals"] = []
    state.__pydantic_fields_set__.update(END_FIELDS)
    start_turn(state, left_of(state, data["turn"]), events)


def play_card(state: State, seat: Seat, card: int, way: Way, events: list[Event]) -> None:
    """Play a Hand card in one of the ways; only way B leads to an ability and an offer."""
    player = state.players[seat]
    player.hand.remove(card)
    if way == "deed":
        player.deeds.append(card)
        events.append(card_event(tr("%(who)s plays %(card)s as a Deed."), seat, card))
        end_turn(state, events)
    elif way == "future":
        player.future.append(card)
        hidden_move(state, seat, card, *TO_FUTURE_LIFE, events)
        end_turn(state, events)
    elif way == "partner":
        partner = partner_of(state, seat)
        assert partner is not None
        state.players[partner].future.append(card)
        pair = frozenset({seat, partner})
        events.append(
            Event(
                tr("%(who)s puts %(card)s on %(partner)s's Future Life."),
                seats=pair,
                spectators=False,
                params={"who": who(seat), "card": card_term(card), "partner": who(partner)},
            )
        )
        events.append(
            Event(
                tr("%(who)s puts a card on %(partner)s's Future Life."),
                seats=frozenset(range(state.num_players)) - pair,
                params={"who": who(seat), "partner": who(partner)},
            )
        )
        end_turn(state, events)
    else:
        state.chain = new_chain(card, seat)
        events.append(card_event(tr("%(who)s plays %(card)s for its ability."), seat, card))
        begin_ability(state, CARDS[card].id, events)


def answer_offer(state: State, take: bool, events: list[Event]) -> None:
    """The asked player takes the card onto their Future Life, or the next one is asked."""
    chain = state.chain
    assert chain is not None
    asked = chain.offer_to[0]
    if take:
        state.players[asked].future.append(chain.card)
        events.append(
            card_event(tr("%(who)s takes the %(card)s onto their Future Life."), asked, chain.card)
        )
        after_offer(state, events)
        return
    events.append(card_event(tr("%(who)s refuses the %(card)s."), asked, chain.card))
    if len(chain.offer_to) > 1:
        # `copy_for_apply` shares the card in play with the state copied during an offer.
        chain = copy_state(chain)
        state.__dict__["chain"] = chain
        chain.offer_to.pop(0)
        events.append(offered(chain.offer_to[0], chain.card))
        return
    ruin(state, chain.card)
    events.append(Event.public("The %(card)s goes to the Ruins.", card=card_term(chain.card)))
    after_offer(state, events)


def after_offer(state: State, events: list[Event]) -> None:
    """With the offer settled: the extra play if granted and the Hand holds a card, else the end."""
    chain = state.chain
    assert chain is not None
    state.chain = None
    if chain.extra and read_player(state.players, chain.actor).hand:
        state.phase = "extra"
        events.append(seat_event(tr("%(who)s may play another card."), chain.actor))
        return
    end_turn(state, events)


REINCARNATION: dict[tuple[bool, bool], str | Forms] = {
    (True, True): forms(
        "%(who)s scores %(score)s and %(count)s ring (needs %(need)s) and is reborn as %(rung)s.",
        "%(who)s scores %(score)s and %(count)s rings (needs %(need)s) and is reborn as %(rung)s.",
    ),
    (True, False): tr("%(who)s scores %(score)s (needs %(need)s) and is reborn as %(rung)s."),
    (False, True): forms(
        "%(who)s scores %(score)s and %(count)s ring (needs %(need)s), "
        "stays %(rung)s and gains a Karmic Ring.",
        "%(who)s scores %(score)s and %(count)s rings (needs %(need)s), "
        "stays %(rung)s and gains a Karmic Ring.",
    ),
    (False, False): tr(
        "%(who)s scores %(score)s (needs %(need)s), stays %(rung)s and gains a Karmic Ring."
    ),
}
"""The line a reincarnation is told with, by (reborn one rung up, rings spent)."""


def reincarnate(state: State, seat: Seat, spend: int, events: list[Event]) -> None:
    """Score the Deeds (+ spent rings), move up one rung or gain a ring, start the next life."""
    player = state.players[seat]
    score = card_score(player.deeds)
    need = threshold(player.rung)
    assert need is not None
    player.rings -= spend
    params = {"who": who(seat), "score": score, "count": spend, "need": need}
    reborn = score + spend >= need
    if reborn:
        player.rung += 1
    else:
        player.rings += 1
    params["rung"] = Term(LADDER[player.rung].name, "karmaka")
    events.append(Event.public(REINCARNATION[reborn, bool(spend)], **params))
    if has_transcended(state, seat):
        reason = tr("%(who)s reached Transcendence")
        end_game(state, team_of(state, seat), reason, events, who=who(seat))
        return
    ruin_all(state, player.deeds)
    player.deeds = []
    player.hand = player.future
    player.future = []
    for _ in range(NEW_LIFE_CARDS - len(player.hand)):
        card = take_from_well(state, events)
        if card is None:
            break
        player.deck.append(card)
    events.append(
        Event.public(
            forms(
                "%(who)s begins a new life with %(count)s card in Hand and %(deck)s in the Deck.",
                "%(who)s begins a new life with %(count)s cards in Hand and %(deck)s in the Deck.",
            ),
            who=who(seat),
            count=len(player.hand),
            deck=len(player.deck),
        )
    )


def end_game(
    state: State, winners: list[Seat], reason: str, events: list[Event], **params: Any
) -> None:
    """The game is over; every card is revealed. `reason` is a message with `params`."""
    state.phase = "over"
    state.winners = sorted(winners)
    why = Phrase(reason, params)
    state.end_reason = english(reason, None, params)
    state.end_phrase = why.to_json()
    state.prompt = None
    events.append(Event.public("Game over: %(reason)s.", reason=why))
