"""Karmaka's small named rules: seats and teams, legal targets, the Well, the Ruins, scoring.

Rule source: docs/rules/karmaka.md ("Targets", "The Well runs out", "Reincarnation").
The helpers that change a state mutate it in place; the engine only calls them on a fresh copy.
"""

from __future__ import annotations

from engines.core import JSON, Event, Rng, Seat, Term, copy_state, forms, tr, who
from engines.karmaka.cards import (
    KIND_BY_ID,
    LADDER,
    NUM_CARDS,
    RUINS_KEPT_ON_REFILL,
    SCORED_COLOURS,
    TRANSCENDENCE,
    CardKind,
    kind,
)
from engines.karmaka.model import Pile, Reveal, State

# ---- seats and teams ----------------------------------------------------------------------------


def left_of(state: State, seat: Seat) -> Seat:
    """The next seat clockwise (the player on your left)."""
    return (seat + 1) % state.num_players


def team_of(state: State, seat: Seat) -> list[Seat]:
    """The seats that win together with `seat` (just `seat` in free_for_all)."""
    if state.mode == "teams_2v2":
        return [s for s in range(state.num_players) if s % 2 == seat % 2]
    if state.mode == "big_bad_wolf_2v1":
        return [0] if seat == 0 else [1, 2]
    return [seat]


def partner_of(state: State, seat: Seat) -> Seat | None:
    """Your team-mate in the team modes, else None."""
    mates = [s for s in team_of(state, seat) if s != seat]
    return mates[0] if mates else None


def rivals_clockwise(state: State, seat: Seat) -> list[Seat]:
    """Your rivals, starting with the first one on your left."""
    team = team_of(state, seat)
    order = [(seat + i) % state.num_players for i in range(1, state.num_players)]
    return [s for s in order if s not in team]


def is_opposite(state: State, seat: Seat, other: Seat) -> bool:
    """Whether `other` sits opposite `seat` at a 4-player table."""
    return state.num_players == 4 and (seat + 2) % 4 == other


def adjacency_applies(state: State) -> bool:
    """4-player free_for_all: abilities may not target the player opposite (seed)."""
    return state.num_players == 4 and state.mode == "free_for_all"


def legal_targets(state: State, actor: Seat, card_kind: str) -> list[Seat]:
    """Who the ability of `card_kind`, resolved by `actor`, may name, self first then clockwise."""
    info = kind_info(card_kind)
    out: list[Seat] = [actor] if info.targeting == "any" else []
    partner = partner_of(state, actor)
    for i in range(1, state.num_players):
        seat = (actor + i) % state.num_players
        if seat == partner:
            if not info.destructive:
                out.append(seat)
            continue
        if adjacency_applies(state) and is_opposite(state, actor, seat):
            continue
        out.append(seat)
    return out


def mimic_sources(state: State, actor: Seat) -> list[Seat]:
    """Whose Exposed Deed Mimic may copy: any rival (the one opposite too), or a partner."""
    return [(actor + i) % state.num_players for i in range(1, state.num_players)]


def offer_candidates(state: State, actor: Seat, target: Seat | None) -> list[Seat]:
    """Who is offered a played card: the targeted rival, else every rival clockwise."""
    rivals = rivals_clockwise(state, actor)
    if target is not None and target in rivals:
        return [target]
    return rivals


def kind_info(card_kind: str) -> CardKind:
    """The static data of a card kind by its id."""
    return KIND_BY_ID[card_kind]


# ---- piles --------------------------------------------------------------------------------------


def refill_well(state: State, events: list[Event]) -> None:
    """Shuffle all Ruins but the top 3 into the empty Well (nothing moves with 3 or fewer)."""
    if state.well or len(state.ruins) <= RUINS_KEPT_ON_REFILL:
        return
    moving = state.ruins[:-RUINS_KEPT_ON_REFILL]
    state.ruins = state.ruins[-RUINS_KEPT_ON_REFILL:]
    state.well = own_rng(state).shuffled(moving)
    events.append(
        Event.public(
            forms(
                "The Well is empty: %(count)s card of the Ruins is shuffled into a new Well; "
                "the top %(kept)s stay.",
                "The Well is empty: %(count)s cards of the Ruins are shuffled into a new Well; "
                "the top %(kept)s stay.",
            ),
            count=len(moving),
            kept=RUINS_KEPT_ON_REFILL,
        )
    )


def take_from_well(state: State, events: list[Event]) -> int | None:
    """The top card of the Well, refilling it first when empty; None if there is none. The
    Well left is a new list (`copy_for_apply` shares the Well with the state copied)."""
    if not state.well:
        refill_well(state, events)
    well = state.well
    if not well:
        return None
    state.__dict__["well"] = well[:-1]
    return well[-1]


def put_on_well(state: State, card: int) -> None:
    """Put a card on top of the Well (a new list, as in `take_from_well`)."""
    state.__dict__["well"] = [*state.well, card]


def own_rng(state: State) -> Rng:
    """The state's RNG, copied first: `copy_for_apply` shares it with the state copied (most
    steps draw nothing from it), so a step that shuffles draws from its own copy."""
    rng: Rng = copy_state(state.rng)
    state.__dict__["rng"] = rng
    return rng


def reveal(state: State, shown: Reveal) -> None:
    """Add to the cards shown this turn (a new list: `copy_for_apply` shares it)."""
    state.__dict__["reveals"] = [*state.reveals, shown]


FROM_DECK = (tr("You draw %(card)s from your Deck."), tr("%(who)s draws from their Deck."))
"""`hidden_move`'s two lines for the card a player draws from their Deck."""
TO_FUTURE_LIFE = (
    tr("You put %(card)s on your Future Life."),
    tr("%(who)s puts a card on their Future Life."),
)
"""`hidden_move`'s two lines for a Hand card put face down on its owner's Future Life."""


def hidden_move(
    state: State, seat: Seat, card: int, mine: str, theirs: str, events: list[Event]
) -> None:
    """A card moved face down: `seat` is told which (`mine`, with `card`), every other seat
    and spectators only that it moved (`theirs`, with `who`). The two events are made once per
    (lines, table size, seat, card) and shared (see `seat_event`)."""
    key = (mine, theirs, state.num_players, seat, card)
    pair = _HIDDEN_MOVES.get(key)
    if pair is None:
        pair = _HIDDEN_MOVES[key] = (
            Event.private(seat, mine, card=card_term(card)),
            Event.others(seat, state.num_players, theirs, who=who(seat)),
        )
    events += pair


_HIDDEN_MOVES: dict[tuple[str, str, int, Seat, int], tuple[Event, Event]] = {}
_SEAT_EVENTS: dict[tuple[str, Seat], Event] = {}
_CARD_EVENTS: dict[tuple[str, Seat, int], Event] = {}


def seat_event(message: str, seat: Seat) -> Event:
    """`Event.public(message, who=who(seat))`, made once per message and seat and shared: an
    event is frozen and nothing changes its parameters once made, and a step of a playout
    makes several of these."""
    key = (message, seat)
    event = _SEAT_EVENTS.get(key)
    if event is None:
        event = _SEAT_EVENTS[key] = Event.public(message, who=who(seat))
    return event


def card_event(message: str, seat: Seat, card: int) -> Event:
    """`Event.public(message, who=who(seat), card=card_term(card))`, made once per message,
    seat and card and shared (see `seat_event`)."""
    key = (message, seat, card)
    event = _CARD_EVENTS.get(key)
    if event is None:
        event = _CARD_EVENTS[key] = Event.public(message, who=who(seat), card=card_term(card))
    return event


def draw_from_well(state: State, seat: Seat, count: int, events: list[Event]) -> list[int]:
    """Draw up to `count` cards from the Well into a Hand, one at a time; the cards drawn."""
    drawn: list[int] = []
    for _ in range(count):
        card = take_from_well(state, events)
        if card is None:
            break
        state.players[seat].hand.append(card)
        drawn.append(card)
    if drawn:
        events.append(
            Event.private(seat, "You draw %(cards)s from the Well.", cards=card_terms(drawn))
        )
    events.append(
        Event.others(
            seat,
            state.num_players,
            forms(
                "%(who)s draws %(count)s card from the Well.",
                "%(who)s draws %(count)s cards from the Well.",
            ),
            who=who(seat),
            count=len(drawn),
        )
    )
    return drawn


def ruin(state: State, card: int) -> None:
    """Put a card face-up on top of the Ruins (a new list: `copy_for_apply` shares the Ruins
    with the state copied)."""
    state.__dict__["ruins"] = [*state.ruins, card]


def ruin_all(state: State, cards: list[int]) -> None:
    """Put cards face-up on the Ruins in this order (a new list, as in `ruin`)."""
    state.__dict__["ruins"] = [*state.ruins, *cards]


def unruin(state: State, card: int) -> None:
    """Take a card out of the Ruins; the others keep their order (a new list, as in `ruin`)."""
    ruins = state.ruins[:]
    ruins.remove(card)
    state.__dict__["ruins"] = ruins


def ruin_from(state: State, pile: list[int], card: int | None = None) -> int:
    """Take `card` (by default the top card) out of `pile` and ruin it; the card ruined."""
    if card is None:
        card = pile.pop()
    else:
        pile.remove(card)
    ruin(state, card)
    return card


def pile_of(state: State, seat: Seat, pile: Pile) -> list[int]:
    """One of a player's piles by name."""
    cards: list[int] = getattr(state.players[seat], pile)
    return cards


# ---- scoring ------------------------------------------------------------------------------------


def colour_totals(deeds: list[int]) -> dict[str, int]:
    """Points of the Deeds per colour, mosaic apart."""
    totals = {"red": 0, "green": 0, "blue": 0, "mosaic": 0}
    for card in deeds:
        info = kind(card)
        totals[info.colour] += info.points
    return totals


def card_score(deeds: list[int]) -> int:
    """Best single colour plus every mosaic point."""
    totals = colour_totals(deeds)
    return max(totals[c] for c in SCORED_COLOURS) + totals["mosaic"]


def threshold(rung: int) -> int | None:
    """Points needed to move up from `rung` (None on Transcendence)."""
    return LADDER[rung].threshold


def has_transcended(state: State, seat: Seat) -> bool:
    """Whether a seat stands on the top rung."""
    return state.players[seat].rung == TRANSCENDENCE


# ---- text and JSON forms ------------------------------------------------------------------------


def name(card: int) -> str:
    """The English name of a physical card."""
    return kind(card).name


def card_term(card: int) -> Term:
    """A physical card's name as a game word (shown in the reader's language)."""
    if 0 <= card < NUM_CARDS:
        return _CARD_TERMS[card]
    return Term(kind(card).name, "karmaka")


def card_terms(cards: list[int]) -> list[Term] | Term:
    """Card names for a log line ("nothing" for none)."""
    return [card_term(c) for c in cards] if cards else Term(tr("nothing"))


def offered(seat: Seat, card: int) -> Event:
    """The log line of a Karmic offer."""
    return card_event(tr("%(who)s is offered the %(card)s."), seat, card)


def names(cards: list[int]) -> str:
    """A readable list of card names."""
    return ", ".join(name(c) for c in cards) if cards else "nothing"


def plural(count: int) -> str:
    """`1 card`, `2 cards`."""
    return f"{count} card" if count == 1 else f"{count} cards"


def card_json(card: int) -> JSON:
    """A physical card as the screen draws it (with its public ability text)."""
    return dict(_CARD_JSON[card])


def cards_json(cards: list[int]) -> list[JSON]:
    """Several cards, in the given order."""
    return [dict(_CARD_JSON[c]) for c in cards]


def _card_json(card: int) -> JSON:
    info = kind(card)
    return {
        "id": card,
        "card": info.id,
        "name": info.name,
        "colour": info.colour,
        "points": info.points,
        "text": info.text,
    }


_CARD_JSON: tuple[JSON, ...] = tuple(_card_json(c) for c in range(NUM_CARDS))
_CARD_TERMS: tuple[Term, ...] = tuple(Term(kind(c).name, "karmaka") for c in range(NUM_CARDS))
"""Every card's `card_term`, made once (terms are frozen, so events may share them)."""
