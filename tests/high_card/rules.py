"""High Card, a game that exists only for the tests: the smallest game with hidden cards that
runs through every generic suite (engine invariants, frame and HTML no-leak, bots,
replay/verify, one browser game), registered at test time (tests/high_card/__init__.py).

For 2–4 players, with twelve cards numbered 1–12. Each player is dealt one card face down;
the rest is the deck, face down. In seat order each player once either keeps their card or
swaps it for the top card of the deck (the card given up is discarded face up). When everyone
has had their turn, the cards are revealed: the highest card wins, its number the score.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

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
    copy_state,
    rank_by,
    who,
)

CARDS = tuple(range(1, 13))


class Options(BaseModel):
    """High Card has no options."""


class State(BaseModel):
    """Every card is somewhere: a hand, the deck (top first) or the discards."""

    num_players: int
    hands: list[int]
    deck: list[int]
    discards: list[int] = []
    turn: int = 0
    """The seat to play; `num_players` once everyone has played (the cards are revealed)."""
    rng: Rng


class Keep(ActionModel):
    type: Literal["keep"] = "keep"


class Swap(ActionModel):
    type: Literal["swap"] = "swap"


Action = Annotated[Keep | Swap, Field(discriminator="type")]


class HighCard(Engine[State, Any, Options]):
    """High Card for 2–4 players (only ever registered by the tests)."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="high_card",
        title="High Card",
        min_players=2,
        max_players=4,
        options=Options,
        hidden_information=True,
        simultaneous=False,
        summary="Keep your card or swap it for the deck's top card; the highest card wins.",
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """Shuffle the twelve cards and deal one to each player."""
        if not self.spec.min_players <= num_players <= self.spec.max_players:
            raise IllegalAction("High Card needs 2 to 4 players, not %(count)s.", count=num_players)
        rng = Rng.from_seed(seed)
        cards = rng.shuffled(list(CARDS))
        state = State(
            num_players=num_players, hands=cards[:num_players], deck=cards[num_players:], rng=rng
        )
        events = [Event.public("Each player is dealt one card face down.")]
        events += [
            Event.private(s, "You are dealt a %(card)s.", card=card)
            for s, card in enumerate(state.hands)
        ]
        return Step(state, events)

    def to_act(self, state: State) -> frozenset[Seat]:
        """The seat whose turn it is, until everyone has played."""
        return frozenset() if state.turn >= state.num_players else frozenset({state.turn})

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Keep, or swap while the deck has a card."""
        if seat not in self.to_act(state):
            return []
        return [Keep(), Swap()] if state.deck else [Keep()]

    def apply(self, state: State, seat: Seat, action: Any) -> Step[State]:
        """Keep or swap; after the last player, the cards are revealed."""
        self.check_turn(state, seat)
        new = copy_state(state)
        match action:
            case Keep():
                events = [Event.public("%(who)s keeps their card.", who=who(seat))]
            case Swap():
                if not new.deck:
                    raise IllegalAction("The deck is empty.")
                old, new.hands[seat] = new.hands[seat], new.deck.pop(0)
                new.discards.append(old)
                events = [
                    Event.public(
                        "%(who)s discards a %(card)s and takes the deck's top card.",
                        who=who(seat),
                        card=old,
                    ),
                    Event.private(seat, "You take a %(card)s.", card=new.hands[seat]),
                ]
            case _:
                raise IllegalAction("Keep your card or swap it.")
        new.turn += 1
        if new.turn >= new.num_players:
            events += [
                Event.public("%(who)s shows a %(card)s.", who=who(s), card=card)
                for s, card in enumerate(new.hands)
            ]
        return Step(new, events)

    def game_view(self, state: State, seat: Seat | None) -> JSON:
        """Your own card; everyone's once revealed; the deck's size and the discards."""
        over = state.turn >= state.num_players
        return {
            "players": [
                {
                    "seat": s,
                    "card": card if over or s == seat else None,
                    "played": s < state.turn,
                }
                for s, card in enumerate(state.hands)
            ],
            "deck": len(state.deck),
            "discards": list(state.discards),
            "turn": None if over else state.turn,
        }

    def outcome(self, state: State) -> Outcome | None:
        """Once revealed: the highest card wins; each score is the card's number."""
        if state.turn < state.num_players:
            return None
        scores = dict(enumerate(state.hands))
        ranks = rank_by({s: (card,) for s, card in scores.items()})
        winners = frozenset(s for s, r in ranks.items() if r == 1)
        return Outcome(scores, ranks, winners, "the highest card wins")

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-deal the cards `seat` cannot see (the other hands, the deck) at random."""
        new = copy_state(state)
        over = state.turn >= state.num_players
        hidden_hands = [s for s in range(state.num_players) if s != seat and not over]
        unseen = sorted([state.hands[s] for s in hidden_hands] + state.deck)
        rng.shuffle(unseen)
        for s in hidden_hands:
            new.hands[s] = unseen.pop()
        new.deck = unseen
        new.rng = Rng.from_seed(rng.next_u64())
        return new

    def action_text(self, action: Any) -> str:
        """`keep` or `swap`."""
        return str(action.type)
