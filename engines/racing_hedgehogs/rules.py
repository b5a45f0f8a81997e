"""Racing Hedgehogs (Pędzące Jeże, Reiner Knizia): the rules engine.

Rule source: docs/rules/racing-hedgehogs.md, which restates the Polish seed rulebook;
where they differ the seed wins. Track and deck data are
in `engines.racing_hedgehogs.data`.

A game is as many rounds as players. In a round everyone plays one card per turn and moves the
hedgehog of its colour (a rainbow joker moves a hedgehog the player names); the round ends the
moment a hedgehog reaches the finish, and the cards still in hand score by where their hedgehogs
stand. Rounds follow each other without any action in between: the last round's result stays in
the state (and the view) while the next round is played.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engines.core import (
    JSON,
    ActionModel,
    Engine,
    Event,
    GameSpec,
    IllegalAction,
    Outcome,
    Rng,
    Seat,
    Step,
    Term,
    copy_state,
    forms,
    interned,
    rank_by,
    tr,
    who,
)
from engines.racing_hedgehogs.data import (
    COLOURS,
    FINISH,
    FINISH_BONUS_ADVANCED,
    FINISH_BONUS_BASIC,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAIR_MULTIPLIER,
    REMOVED_CARDS,
    SINGLE_MULTIPLIER,
    START,
    SUITS,
    TRACK_VALUES,
    TWO_PLUS_MULTIPLIER,
    Card,
    Colour,
    Pluses,
    Suit,
    full_deck,
)

# ---- options and actions -----------------------------------------------------------------------


class Options(BaseModel):
    """Table options: `advanced_scoring` plays the seed's advanced variant (pairs score ×5)."""

    model_config = ConfigDict(extra="forbid")

    advanced_scoring: bool = Field(
        default=False,
        description=tr(
            "Advanced scoring: pairs of one-plus cards ×5, two-plus cards ×2, finish +6"
        ),
    )


class PlayCard(ActionModel):
    """Play a card from hand and move a hedgehog; `hedgehog` is named only for a rainbow joker."""

    type: Literal["play"] = "play"
    suit: Suit
    pluses: Pluses
    hedgehog: Colour | None = None

    @property
    def card(self) -> Card:
        """The card this action plays."""
        return Card(suit=self.suit, pluses=self.pluses)


# The game has a single kind of action; the discriminated form keeps `type` checked at the edge
# and lets a second kind be added without changing the parser.
Action = Annotated[PlayCard, Field(discriminator="type")]

# ---- state -------------------------------------------------------------------------------------


class Play(BaseModel):
    """One card on the common discard pile, and the move it made."""

    model_config = ConfigDict(frozen=True)

    seat: Seat
    card: Card
    hedgehog: Colour
    moved_from: int
    moved_to: int


ScoreKind = Literal["cards", "pair", "single", "two_plus", "joker"]


class ScoreLine(BaseModel):
    """One line of a player's round scoring, as the rulebook writes it: value × multiplier."""

    model_config = ConfigDict(frozen=True)

    kind: ScoreKind
    colour: Colour | None
    cards: list[Card]
    value: int
    multiplier: int
    points: int


class PlayerRoundScore(BaseModel):
    """What one player kept at the end of a round and what it scored."""

    model_config = ConfigDict(frozen=True)

    kept: list[Card]
    lines: list[ScoreLine]
    card_points: int
    bonus: int
    total: int
    """Card points plus bonus, possibly negative."""
    points: int
    """The round's points: `total`, but never below zero."""


class RoundResult(BaseModel):
    """A finished round, public from the moment it ends (the set-aside cards included)."""

    model_config = ConfigDict(frozen=True)

    round: int
    starter: Seat
    finisher: Seat
    finishing_hedgehog: Colour
    positions: dict[Colour, int]
    removed: list[Card]
    players: list[PlayerRoundScore]


class State(BaseModel):
    """The full state of a Racing Hedgehogs game."""

    num_players: int
    advanced_scoring: bool
    rng: Rng
    round: int = 1
    starter: Seat = 0
    current: Seat | None = None
    """Whose turn it is; None once the game is over."""
    positions: dict[Colour, int] = Field(default_factory=dict)
    hands: list[list[Card]] = Field(default_factory=list)
    """Secret: each seat's hand, kept in canonical order."""
    removed: list[Card] = Field(default_factory=list)
    """Secret to everybody: the cards set aside unseen for this round."""
    plays: list[Play] = Field(default_factory=list)
    """The discard pile of this round (public), oldest first."""
    results: list[RoundResult] = Field(default_factory=list)


# ---- small named rules -------------------------------------------------------------------------


def rounds_in_game(num_players: int) -> int:
    """The game lasts as many rounds as there are players."""
    return num_players


def removed_count(num_players: int) -> int:
    """How many cards are set aside unseen before the deal (10 / 3 / 0)."""
    return REMOVED_CARDS[num_players]


def hand_size(num_players: int) -> int:
    """Cards dealt to each player: the rest of the deck, shared evenly (15 / 13 / 11)."""
    return (len(full_deck()) - removed_count(num_players)) // num_players


def track_value(position: int) -> int:
    """The value of a track position."""
    return TRACK_VALUES[position]


def moved_hedgehog(card: Card, named: Colour | None) -> Colour | None:
    """The hedgehog a card moves: its own colour, or the named one for a rainbow joker."""
    return card.colour if card.colour is not None else named


def advance(position: int, pluses: int) -> int:
    """Move forward by `pluses`, never past the finish (2 from the field before it stops there)."""
    return min(position + pluses, FINISH)


def is_round_over(positions: dict[Colour, int]) -> bool:
    """A round ends the moment any hedgehog stands on the finish."""
    return any(pos == FINISH for pos in positions.values())


def finish_bonus(advanced: bool) -> int:
    """Bonus for the player who moved a hedgehog onto the finish (+3, or +6 advanced)."""
    return FINISH_BONUS_ADVANCED if advanced else FINISH_BONUS_BASIC


def floor_at_zero(total: int) -> int:
    """A negative round total counts as 0; earlier rounds are never reduced."""
    return max(total, 0)


def next_starter(starter: Seat, num_players: int) -> Seat:
    """The next round starts with the player to the left (clockwise) of the last starter."""
    return (starter + 1) % num_players


def next_seat(seat: Seat, num_players: int) -> Seat:
    """Play passes clockwise."""
    return (seat + 1) % num_players


def sort_cards(cards: list[Card]) -> list[Card]:
    """Cards in canonical order (by suit, then pluses)."""
    return sorted(cards, key=Card.sort_key)


def joker_line(cards: list[Card]) -> list[ScoreLine]:
    """Rainbow jokers score nothing; listed so the screen shows every kept card."""
    jokers = [c for c in cards if c.colour is None]
    if not jokers:
        return []
    return [ScoreLine(kind="joker", colour=None, cards=jokers, value=0, multiplier=0, points=0)]


def score_basic(cards: list[Card], positions: dict[Colour, int]) -> list[ScoreLine]:
    """Basic scoring: every coloured card scores its hedgehog's field value, jokers 0."""
    lines: list[ScoreLine] = []
    for colour in COLOURS:
        own = [c for c in cards if c.colour is colour]
        if own:
            value = track_value(positions[colour])
            lines.append(
                ScoreLine(
                    kind="cards",
                    colour=colour,
                    cards=own,
                    value=value,
                    multiplier=len(own),
                    points=value * len(own),
                )
            )
    return lines + joker_line(cards)


def score_advanced(cards: list[Card], positions: dict[Colour, int]) -> list[ScoreLine]:
    """Advanced scoring: each pair of one-plus cards ×5, an unpaired one ×1, two-plus ×2."""
    lines: list[ScoreLine] = []
    for colour in COLOURS:
        value = track_value(positions[colour])
        ones = [c for c in cards if c.colour is colour and c.pluses == 1]
        twos = [c for c in cards if c.colour is colour and c.pluses == 2]
        for i in range(0, len(ones) - 1, 2):
            lines.append(_line("pair", colour, ones[i : i + 2], value, PAIR_MULTIPLIER))
        if len(ones) % 2:
            lines.append(_line("single", colour, ones[-1:], value, SINGLE_MULTIPLIER))
        for card in twos:
            lines.append(_line("two_plus", colour, [card], value, TWO_PLUS_MULTIPLIER))
    return lines + joker_line(cards)


def _line(
    kind: ScoreKind, colour: Colour, cards: list[Card], value: int, multiplier: int
) -> ScoreLine:
    return ScoreLine(
        kind=kind,
        colour=colour,
        cards=cards,
        value=value,
        multiplier=multiplier,
        points=value * multiplier,
    )


def score_player(
    kept: list[Card], positions: dict[Colour, int], finished: bool, advanced: bool
) -> PlayerRoundScore:
    """One player's round: card lines, finish bonus, total and the points after the zero floor."""
    lines = score_advanced(kept, positions) if advanced else score_basic(kept, positions)
    card_points = sum(line.points for line in lines)
    bonus = finish_bonus(advanced) if finished else 0
    total = card_points + bonus
    return PlayerRoundScore(
        kept=sort_cards(kept),
        lines=lines,
        card_points=card_points,
        bonus=bonus,
        total=total,
        points=floor_at_zero(total),
    )


def totals(state: State) -> list[int]:
    """Each seat's points summed over the finished rounds."""
    return [sum(r.players[s].points for r in state.results) for s in range(state.num_players)]


def last_round_points(state: State) -> list[int]:
    """Each seat's points in the last finished round (the tie-break), zeros before any."""
    if not state.results:
        return [0] * state.num_players
    return [p.points for p in state.results[-1].players]


def is_game_over(state: State) -> bool:
    """The game ends after as many rounds as there are players."""
    return len(state.results) >= rounds_in_game(state.num_players)


def cumulative(rounds: list[list[int]]) -> list[list[int]]:
    """Running totals per seat after each round, for the score chart."""
    out: list[list[int]] = []
    for row in rounds:
        out.append([a + b for a, b in zip(out[-1], row, strict=True)] if out else list(row))
    return out


# ---- the flow of a game (mutating helpers, always called on a fresh copy) ----------------------


def deal_round(state: State, events: list[Event]) -> None:
    """Hedgehogs to the start, set cards aside unseen, deal the rest evenly; the starter leads."""
    n = state.num_players
    deck = state.rng.shuffled(full_deck())
    k, size = removed_count(n), hand_size(n)
    state.removed = sort_cards(deck[:k])
    state.hands = [sort_cards(deck[k + i * size : k + (i + 1) * size]) for i in range(n)]
    state.positions = dict.fromkeys(COLOURS, START)
    state.plays = []
    state.current = state.starter
    params = {"round": state.round, "rounds": rounds_in_game(n), "count": size}
    events.append(
        Event.public(
            forms(
                "Round %(round)s of %(rounds)s begins: %(count)s card each.",
                "Round %(round)s of %(rounds)s begins: %(count)s cards each.",
            ),
            **params,
        )
    )
    if k:
        events.append(
            Event.public(
                forms(
                    "%(count)s card is set aside unseen.", "%(count)s cards are set aside unseen."
                ),
                count=k,
            )
        )
    events.append(Event.public("%(who)s starts.", who=who(state.starter)))


def end_round(state: State, finisher: Seat, hedgehog: Colour, events: list[Event]) -> None:
    """Score the round, then deal the next one or end the game."""
    n = state.num_players
    players = [
        score_player(state.hands[s], state.positions, s == finisher, state.advanced_scoring)
        for s in range(n)
    ]
    state.results.append(
        RoundResult(
            round=state.round,
            starter=state.starter,
            finisher=finisher,
            finishing_hedgehog=hedgehog,
            positions=dict(state.positions),
            removed=list(state.removed),
            players=players,
        )
    )
    events.append(
        Event.public(
            "Round %(round)s ends: %(who)s brought the %(colour)s hedgehog home (+%(bonus)s).",
            round=state.round,
            who=who(finisher),
            colour=Term(hedgehog.value, "hedgehog"),
            bonus=finish_bonus(state.advanced_scoring),
        )
    )
    for seat, p in enumerate(players):
        if p.total < 0:
            message = tr("%(who)s scores %(points)s (a negative round counts as 0).")
        else:
            message = tr("%(who)s scores %(points)s.")
        events.append(Event.public(message, who=who(seat), points=p.points))
    if is_game_over(state):
        state.current = None
        state.hands = [[] for _ in range(n)]
        state.removed = []
        events.append(game_over_event(final_outcome(state)))
        return
    state.round += 1
    state.starter = next_starter(state.starter, n)
    deal_round(state, events)


def final_outcome(state: State) -> Outcome:
    """Totals after the last round; ties go to the most last-round points, then shared."""
    tot, last = totals(state), last_round_points(state)
    seats = range(state.num_players)
    ranks = rank_by({s: (tot[s], last[s]) for s in seats})
    winners = frozenset(s for s in seats if ranks[s] == 1)
    if len(winners) > 1:
        reason = tr("shared win: tied on total and on last-round points")
    elif sum(1 for s in seats if tot[s] == max(tot)) > 1:
        reason = tr("highest total, tie broken by last-round points")
    else:
        reason = tr("highest total")
    details: JSON = {
        "rounds": [[p.points for p in r.players] for r in state.results],
        "last_round_points": last,
    }
    return Outcome({s: tot[s] for s in seats}, ranks, winners, reason, details)


def game_over_event(outcome: Outcome) -> Event:
    """The closing log line: the winner(s) and the reason."""
    winners = [who(s) for s in sorted(outcome.winners)]
    best = max(outcome.scores.values())
    reason = Term(outcome.reason)
    if len(winners) > 1:
        return Event.public(
            "Game over: %(names)s and %(last)s share the win with %(points)s points (%(reason)s).",
            names=", ".join(winners[:-1]),
            last=winners[-1],
            points=best,
            reason=reason,
        )
    return Event.public(
        forms(
            "Game over: %(who)s wins with %(count)s point (%(reason)s).",
            "Game over: %(who)s wins with %(count)s points (%(reason)s).",
        ),
        who=winners[0],
        count=best,
        reason=reason,
    )


# ---- the engine --------------------------------------------------------------------------------


class RacingHedgehogs(Engine[State, PlayCard, Options]):
    """Racing Hedgehogs for 3–5 players, with basic or advanced scoring."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="racing_hedgehogs",
        title=tr("Racing Hedgehogs"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        options=Options,
        hidden_information=True,
        simultaneous=False,
        summary=tr("Move the hedgehogs whose cards you hold forward, and end the race in time."),
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """A random first starter and round 1 dealt."""
        opts = options
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise IllegalAction(
                "Racing Hedgehogs needs %(low)s to %(high)s players, not %(count)s.",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                count=num_players,
            )
        rng = Rng.from_seed(seed)
        # The seed lets whoever last ate an apple start; a server has no apples, so: random.
        state = State(
            num_players=num_players,
            advanced_scoring=opts.advanced_scoring,
            rng=rng,
            starter=rng.randbelow(num_players),
        )
        events: list[Event] = []
        deal_round(state, events)
        return Step(state, events)

    def to_act(self, state: State) -> frozenset[Seat]:
        """The player on turn, or nobody once the game is over."""
        return frozenset() if state.current is None else frozenset({state.current})

    def legal_actions(self, state: State, seat: Seat) -> list[PlayCard]:
        """Each distinct card in hand; a rainbow joker once per hedgehog it may move."""
        if seat != state.current:
            return []
        actions: list[PlayCard] = []
        for suit, pluses in distinct_cards(state.hands[seat]):
            if suit is Suit.RAINBOW:
                actions.extend(
                    interned(PlayCard, suit=suit, pluses=pluses, hedgehog=c) for c in COLOURS
                )
            else:
                actions.append(interned(PlayCard, suit=suit, pluses=pluses))
        return actions

    def random_action(self, state: State, seat: Seat, rng: Rng) -> PlayCard:
        """As `legal_actions(state, seat)[rng.randbelow(n)]`, building only the action drawn."""
        if seat != state.current:
            return super().random_action(state, seat, rng)
        cards = distinct_cards(state.hands[seat])
        count = sum(len(COLOURS) if suit is Suit.RAINBOW else 1 for suit, _ in cards)
        index = rng.randbelow(count)
        for suit, pluses in cards:
            if suit is Suit.RAINBOW:
                if index < len(COLOURS):
                    return interned(PlayCard, suit=suit, pluses=pluses, hedgehog=COLOURS[index])
                index -= len(COLOURS)
            elif index == 0:
                return interned(PlayCard, suit=suit, pluses=pluses)
            else:
                index -= 1
        raise AssertionError("the draw is below the number of legal actions")

    def apply(self, state: State, seat: Seat, action: PlayCard) -> Step[State]:
        """Play the card, move the hedgehog; a hedgehog on the finish ends the round at once."""
        self.check_turn(state, seat)
        if not isinstance(action, PlayCard):
            raise IllegalAction("Play a card from your hand.")
        card = action.card
        if card not in state.hands[seat]:
            raise IllegalAction(
                "You do not hold a %(suit)s+%(pluses)s card.",
                suit=Term(card.suit.value, "hedgehog"),
                pluses=card.pluses,
            )
        if card.colour is None and action.hedgehog is None:
            raise IllegalAction("A rainbow card is a joker: name the hedgehog it moves.")
        if card.colour is not None and action.hedgehog not in (None, card.colour):
            raise IllegalAction(
                "A %(colour)s card moves the %(colour)s hedgehog; "
                "only a rainbow joker lets you choose.",
                colour=Term(card.suit.value, "hedgehog"),
            )
        hedgehog = moved_hedgehog(card, action.hedgehog)
        assert hedgehog is not None  # checked just above

        new = copy_state(state)
        new.hands[seat].remove(card)
        start = new.positions[hedgehog]
        end = advance(start, card.pluses)
        new.positions[hedgehog] = end
        new.plays.append(
            Play(seat=seat, card=card, hedgehog=hedgehog, moved_from=start, moved_to=end)
        )
        if end == FINISH:
            message = tr(
                "%(who)s plays %(suit)s+%(pluses)s and moves the %(colour)s hedgehog "
                "onto the finish."
            )
        else:
            message = tr(
                "%(who)s plays %(suit)s+%(pluses)s and moves the %(colour)s hedgehog "
                "to field %(field)s."
            )
        params = {
            "who": who(seat),
            "suit": Term(card.suit.value, "hedgehog"),
            "pluses": card.pluses,
            "colour": Term(hedgehog.value, "hedgehog"),
            "field": end,
        }
        events = [Event.public(message, **params)]
        if is_round_over(new.positions):
            end_round(new, seat, hedgehog, events)
        else:
            # No hand runs dry before a finish: until then every plus moves a hedgehog one field,
            # the four can take only 4 × 12 = 48 fields without one finishing, and the cards dealt
            # in any round carry at least 60 pluses (3 players, ten two-plus cards set aside).
            new.current = next_seat(seat, new.num_players)
        return Step(new, events)

    def play(self, state: State, seat: Seat, action: PlayCard) -> State:
        """`apply(state, seat, action).state` for a bot's playout: no events within a round
        (a round's end still makes its own), and no card built to find the one played."""
        hand = state.hands[seat] if seat == state.current else []
        suit, pluses = action.suit, action.pluses
        colour = COLOUR_OF_SUIT[suit]
        index = next((i for i, c in enumerate(hand) if c.suit is suit and c.pluses == pluses), None)
        named = action.hedgehog
        if index is None or (named is None if colour is None else named not in (None, colour)):
            return self.apply(state, seat, action).state  # refused there, with the reason
        hedgehog = colour if colour is not None else named
        assert hedgehog is not None  # checked just above
        new = copy_state(state)
        card = new.hands[seat].pop(index)
        start = new.positions[hedgehog]
        end = advance(start, pluses)
        new.positions[hedgehog] = end
        new.plays.append(
            new_play(seat=seat, card=card, hedgehog=hedgehog, moved_from=start, moved_to=end)
        )
        if end == FINISH:
            end_round(new, seat, hedgehog, [])
        else:
            new.current = next_seat(seat, new.num_players)
        return new

    def information_key(self, state: State, seat: Seat) -> Hashable:
        """What `seat`'s view shows, as a tuple of plain values (a search tree's key)."""
        return information_key(state, seat)

    def game_view(self, state: State, seat: Seat | None) -> JSON:
        """The table as `seat` sees it: own hand only, others' card counts, all public history."""
        outcome = self.outcome(state)
        hand = None
        if seat is not None and 0 <= seat < state.num_players:
            hand = [card_view(c) for c in state.hands[seat]]
        last = state.plays[-1] if state.plays else None
        return {
            "game": self.spec.id,
            "seat": seat,
            "num_players": state.num_players,
            "advanced_scoring": state.advanced_scoring,
            "round": state.round,
            "rounds": rounds_in_game(state.num_players),
            "starter": state.starter,
            "to_act": state.current,
            "over": outcome is not None,
            "track": [
                {
                    "field": i,
                    "value": value,
                    "hedgehogs": [c.value for c in COLOURS if state.positions[c] == i],
                }
                for i, value in enumerate(TRACK_VALUES)
            ],
            "hedgehogs": {c.value: state.positions[c] for c in COLOURS},
            "hand": hand,
            "hand_counts": [len(h) for h in state.hands],
            "removed_count": len(state.removed),
            "last_played": play_view(last) if last else None,
            "discard": [play_view(p) for p in state.plays],
            "scores": {
                "rounds": [[p.points for p in r.players] for r in state.results],
                "totals": totals(state),
            },
            "score_history": cumulative([[p.points for p in r.players] for r in state.results]),
            "last_round": result_view(state.results[-1]) if state.results else None,
            "standings": standings_view(state, outcome) if outcome else None,
        }

    def outcome(self, state: State) -> Outcome | None:
        """Totals after the last round; ties go to the most last-round points, then shared."""
        return final_outcome(state) if is_game_over(state) else None

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-deal others' hands and the set-aside cards; reseed the future shuffles."""
        new = copy_state(state)
        hidden = [s for s in range(new.num_players) if s != seat]
        # Sorted first: the result must not depend on who really holds which card.
        pool = sort_cards([c for s in hidden for c in new.hands[s]] + new.removed)
        rng.shuffle(pool)
        for s in hidden:
            size = len(new.hands[s])
            new.hands[s], pool = sort_cards(pool[:size]), pool[size:]
        new.removed = sort_cards(pool)
        new.rng = Rng.from_seed(rng.next_u64())
        return new

    def action_text(self, action: PlayCard) -> str:
        """`play yellow+2`, or `play rainbow+1 red` for a joker naming the red hedgehog."""
        text = f"play {action.suit.value}+{action.pluses}"
        return f"{text} {action.hedgehog.value}" if action.hedgehog is not None else text


# ---- what the bots' search reads ---------------------------------------------------------------


COLOUR_OF_SUIT: dict[Suit, Colour | None] = {
    suit: None if suit is Suit.RAINBOW else Colour(suit.value) for suit in SUITS
}
"""The hedgehog a suit moves (None for the rainbow joker), as one look-up."""

CARD_CODE: dict[tuple[Suit, int], int] = {
    (suit, pluses): 2 * i + pluses for i, suit in enumerate(SUITS) for pluses in (1, 2)
}
"""A card as a small int, for `information_key`."""


def new_play(**fields: Any) -> Play:
    """A `Play` of fields already checked (the types are the model's), without validating them
    again: what validation would store, fields set and all."""
    play = Play.__new__(Play)
    object.__setattr__(play, "__dict__", fields)
    object.__setattr__(play, "__pydantic_fields_set__", set(fields))
    object.__setattr__(play, "__pydantic_extra__", None)
    object.__setattr__(play, "__pydantic_private__", None)
    return play


def distinct_cards(hand: list[Card]) -> list[tuple[Suit, int]]:
    """The hand's different cards as (suit, pluses), in the order they first appear (as
    `dict.fromkeys(hand)` has them, without comparing cards as models)."""
    return list(dict.fromkeys([(c.suit, c.pluses) for c in hand]))


def cards_key(cards: list[Card]) -> tuple[int, ...]:
    """Cards as a tuple of small ints, in their order."""
    return tuple([CARD_CODE[c.suit, c.pluses] for c in cards])


def result_key(result: RoundResult) -> tuple[object, ...]:
    """What the view shows of a finished round, from the parts its lines are made of (the
    lines, card points, bonus and totals follow from the kept cards, the final positions,
    the finisher and the scoring variant)."""
    return (
        result.round,
        result.starter,
        result.finisher,
        result.finishing_hedgehog,
        tuple([result.positions[c] for c in COLOURS]),
        cards_key(result.removed),
        tuple([cards_key(p.kept) for p in result.players]),
    )


def information_key(state: State, seat: Seat | None) -> tuple[object, ...]:
    """Equal for two states exactly when `seat`'s views of them are (a search tree's
    information sets; see `Engine.information_key`): the parts the view is made of, as plain
    values; the track, the totals, the outcome and the header follow from them."""
    hand = None
    if seat is not None and 0 <= seat < state.num_players:
        hand = cards_key(state.hands[seat])
    return (
        state.num_players,
        state.advanced_scoring,
        state.round,
        state.starter,
        state.current,
        tuple([state.positions[c] for c in COLOURS]),
        hand,
        tuple([len(h) for h in state.hands]),
        len(state.removed),
        tuple(
            [
                (
                    p.seat,
                    CARD_CODE[p.card.suit, p.card.pluses],
                    p.hedgehog,
                    p.moved_from,
                    p.moved_to,
                )
                for p in state.plays
            ]
        ),
        tuple([result_key(r) for r in state.results]),
    )


# ---- views -------------------------------------------------------------------------------------


def card_view(card: Card) -> JSON:
    """A card for the screen: its suit (`rainbow` for a joker) and its pluses."""
    return {"suit": card.suit.value, "pluses": card.pluses}


def play_view(play: Play) -> JSON:
    """A card on the discard pile and the move it made."""
    return {
        "seat": play.seat,
        "card": card_view(play.card),
        "hedgehog": play.hedgehog.value,
        "moved_from": play.moved_from,
        "moved_to": play.moved_to,
    }


def result_view(result: RoundResult) -> JSON:
    """A finished round: final positions, revealed set-aside cards and each player's scoring."""
    return {
        "round": result.round,
        "starter": result.starter,
        "finisher": result.finisher,
        "finishing_hedgehog": result.finishing_hedgehog.value,
        "positions": {c.value: result.positions[c] for c in COLOURS},
        "removed": [card_view(c) for c in result.removed],
        "players": [
            {
                "seat": s,
                "kept": [card_view(c) for c in p.kept],
                "lines": [
                    {
                        "kind": line.kind,
                        "colour": line.colour.value if line.colour else None,
                        "cards": [c.text for c in line.cards],
                        "value": line.value,
                        "multiplier": line.multiplier,
                        "points": line.points,
                    }
                    for line in p.lines
                ],
                "card_points": p.card_points,
                "bonus": p.bonus,
                "total": p.total,
                "points": p.points,
            }
            for s, p in enumerate(result.players)
        ],
    }


def standings_view(state: State, outcome: Outcome) -> JSON:
    """Final standings, best first: rank, total and the tie-break points."""
    last = last_round_points(state)
    order = sorted(outcome.ranks, key=lambda s: (outcome.ranks[s], s))
    return {
        "winners": sorted(outcome.winners),
        "reason": outcome.reason,
        "table": [
            {
                "seat": s,
                "rank": outcome.ranks[s],
                "total": outcome.scores[s],
                "last_round": last[s],
            }
            for s in order
        ],
    }
