"""Racing Hedgehogs (Pędzące Jeże, Reiner Knizia): the rules engine.

Rule source: docs/rules/racing-hedgehogs.md, which restates the Polish seed rulebook;
where they differ the seed wins. Track and deck data are
in `engines.racing_hedgehogs.data`.

A game is as many rounds as players. In a round everyone plays one card per turn and moves the
hedgehog of its colour (a rainbow joker moves a hedgehog the player names); the round ends the
moment a hedgehog reaches the finish, and the cards still in hand score by where their hedgehogs
stand. Rounds follow each other without any action in between: the last round's result stays in
the state (and the view) while the next round is played.

This module holds the engine surface (`RacingHedgehogs`: setup, legal actions, apply with its
refusals, the bots' fast `play` and `random_action`, view, outcome, determinize) and the small
look-ups the fast path reads. The rest lives in:

- `flow.py`: the small named rules, a round's scoring, dealing and ending a round, the outcome;
- `view.py`: the pieces of each seat's view, and `information_key` (what a view is made of);
- `model.py`: options, actions and the state; `data.py`: the track and the deck.

The re-deal of hidden cards (`determinize`) needs nothing beyond `sort_cards` (`flow.py`).
"""

from __future__ import annotations

from collections.abc import Hashable
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
    Term,
    copy_state,
    interned,
    tr,
    who,
)
from engines.racing_hedgehogs.data import (
    COLOURS,
    FINISH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUITS,
    TRACK_VALUES,
    Card,
    Colour,
    Suit,
)
from engines.racing_hedgehogs.flow import (
    advance,
    cumulative,
    deal_round,
    end_round,
    final_outcome,
    is_game_over,
    is_round_over,
    moved_hedgehog,
    next_seat,
    rounds_in_game,
    sort_cards,
    totals,
)
from engines.racing_hedgehogs.model import Action, Options, Play, PlayCard, State
from engines.racing_hedgehogs.view import (
    card_view,
    information_key,
    play_view,
    result_view,
    standings_view,
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


# ---- what the bots' playout reads --------------------------------------------------------------


COLOUR_OF_SUIT: dict[Suit, Colour | None] = {
    suit: None if suit is Suit.RAINBOW else Colour(suit.value) for suit in SUITS
}
"""The hedgehog a suit moves (None for the rainbow joker), as one look-up."""


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
