"""Karmaka (Eddy Boxerman & Dave Burke) for 2–4 players: the rules engine.

Rule source: docs/rules/karmaka.md, which restates the Polish rulebook (the
seed, with its card FAQ) and settles what it leaves open.
This module holds the engine surface (`Karmaka`: setup, legal actions, apply, view, outcome,
determinize, …) and the refusals (`explain_illegal`). The rest lives in:

- `flow.py`: the small named rules and the flow of a turn (draw, the main play, the Karmic
  offer, the extra play, reincarnation, the end);
- `abilities.py`: the card abilities (with a map of which module holds each one's rule) and
  `prompts.py`, the words of a pending decision;
- `view.py`: what each seat sees; `hidden.py`: hidden cards and their re-deal (determinize);
- `table.py`: small table rules (seats, teams, targets, the Well, the Ruins, scoring);
- `model.py`: options, actions and the state; `cards.py`: the card data.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from engines.core import (
    JSON,
    Engine,
    Event,
    GameOver,
    GameSpec,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Phrase,
    Rng,
    Seat,
    Step,
    Term,
    copy_state,
    interned,
    rank_by,
    tr,
)
from engines.karmaka.abilities import answer_prompt, prompt_options
from engines.karmaka.cards import NUM_CARDS, RING_TOKENS, START_DECK, START_HAND, WOLF
from engines.karmaka.flow import (
    ACCEPT,
    ALONE,
    CARD_PLAYS,
    END_TURN,
    MODE_PLAYERS,
    NOBODY,
    PASS,
    REFUSE,
    acting_seat,
    answer_offer,
    can_pass,
    card_label,
    end_turn,
    is_over,
    play_card,
    reincarnate,
    start_turn,
    ways_to_play,
)
from engines.karmaka.hidden import (
    card_places,
    random_permutation,
    remap_cards,
    reshuffle_row,
    visible_cards,
)
from engines.karmaka.model import (
    MODE_NAMES,
    Accept,
    Action,
    AnyAction,
    Choose,
    EndTurn,
    Options,
    Pass,
    Pick,
    Play,
    Player,
    Refuse,
    SpendRings,
    State,
    Target,
    copy_for_apply,
    settle_players,
)
from engines.karmaka.prompts import prompt_text
from engines.karmaka.table import card_json, cards_json, seat_event, team_of
from engines.karmaka.view import chain_view, ladder_json, player_view, prompt_view, waiting_view

# ---- the engine ---------------------------------------------------------------------------------


class Karmaka(Engine[State, Any, Options]):
    """Karmaka for 2–4 players: free for all, 2 on 2, or 2 on 1."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="karmaka",
        title=tr("Karmaka"),
        min_players=2,
        max_players=4,
        options=Options,
        hidden_information=True,
        simultaneous=False,
        summary=tr(
            "Play cards for points, powers or your next life; climb the Karmic Ladder "
            "to Transcendence."
        ),
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """Shuffle the Well, deal 4 to each Hand and 2 to each Deck, a random player starts."""
        opts = options
        allowed = MODE_PLAYERS[opts.mode]
        if num_players not in allowed:
            raise IllegalAction(
                "Mode %(mode)s needs %(counts)s players, not %(count)s.",
                mode=Term(MODE_NAMES[opts.mode], "karmaka"),
                counts=" / ".join(str(n) for n in allowed),
                count=num_players,
            )
        rng = Rng.from_seed(seed)
        state = State(
            num_players=num_players,
            mode=opts.mode,
            rng=rng,
            players=[Player() for _ in range(num_players)],
            well=rng.shuffled(list(range(NUM_CARDS))),
        )
        if opts.mode == "big_bad_wolf_2v1":
            state.players[0].rung = WOLF
        for player in state.players:
            player.hand = [state.well.pop() for _ in range(START_HAND)]
        for player in state.players:
            player.deck = [state.well.pop() for _ in range(START_DECK)]
        events: list[Event] = []
        start_turn(state, rng.randbelow(num_players), events)
        return Step(state, events)

    def to_act(self, state: State) -> frozenset[Seat]:
        """The player on turn, or whoever a pending prompt or offer waits for."""
        acting = acting_seat(state)
        return NOBODY if acting is None else ALONE[acting]

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Every legal action of `seat` now (every Hand card in every way, every answer)."""
        if seat != acting_seat(state):
            return []
        phase = state.phase
        if phase == "ability":
            return prompt_options(state)
        if phase == "offer":
            return [ACCEPT, REFUSE]
        if phase == "reincarnate":
            return [interned(SpendRings, rings=k) for k in range(state.players[seat].rings + 1)]
        by_card = CARD_PLAYS[ways_to_play(state)]
        plays: list[AnyAction] = [p for c in state.players[seat].hand for p in by_card[c]]
        if phase == "extra":
            return [*plays, END_TURN]
        return [PASS, *plays] if can_pass(state, seat) else plays

    def is_legal(self, state: State, seat: Seat, action: Any) -> bool:
        """`action in self.legal_actions(state, seat)`, without listing them for a card play
        or a pass (the most frequent actions)."""
        kind = type(action)
        if kind is Play and state.phase in ("play", "extra") and seat == acting_seat(state):
            return action.card in state.players[seat].hand and action.way in ways_to_play(state)
        if kind is Pass:
            return seat == acting_seat(state) and can_pass(state, seat)
        return action in self.legal_actions(state, seat)

    def check_turn(self, state: State, seat: Seat) -> None:
        """Raise `GameOver` or `NotYourTurn` unless `seat` may act now (the shared check,
        read from `acting_seat` once: over exactly when `outcome` is not None)."""
        acting = acting_seat(state)
        if acting is None:
            raise GameOver("The game is over.")
        if seat != acting:
            raise NotYourTurn("It is not your turn.")

    def apply(self, state: State, seat: Seat, action: Any) -> Step[State]:
        """Validate against the legal actions, then play it out on a copy.

        The checks are `check_turn`'s and `is_legal`'s, with the acting seat read once and
        the phase's own answers (a card play, the offer's) checked without listing them."""
        acting = acting_seat(state)
        if acting is None or seat != acting:
            self.check_turn(state, seat)  # raises GameOver or NotYourTurn
        kind = type(action)
        phase = state.phase
        if kind is Play:
            legal = (
                (phase == "play" or phase == "extra")
                and action.card in state.players[seat].hand
                and action.way in ways_to_play(state)
            )
        elif kind is Accept or kind is Refuse:
            legal = phase == "offer"
        elif phase == "ability":
            legal = action in prompt_options(state)
        else:
            legal = self.is_legal(state, seat, action)
        if not legal:
            why = explain_illegal(state, seat, action)
            raise IllegalAction(why.message, **why.params)
        new = copy_for_apply(state)
        events: list[Event] = []
        if kind is Play:
            play_card(new, seat, action.card, action.way, events)
        elif kind is Accept or kind is Refuse:
            answer_offer(new, kind is Accept, events)
        elif phase == "ability":
            answer_prompt(new, action, events, checked=True)
        elif kind is Pass:
            events.append(seat_event(tr("%(who)s passes."), seat))
            end_turn(new, events)
        elif kind is EndTurn:
            events.append(seat_event(tr("%(who)s makes no extra play."), seat))
            end_turn(new, events)
        else:  # SpendRings
            reincarnate(new, seat, action.rings, events)
            if not is_over(new):
                end_turn(new, events)
        settle_players(new)
        return Step(new, events)

    def game_view(self, state: State, seat: Seat | None) -> JSON:
        """Public table, plus the seat's own Hand, Future Life, prompt and what it was shown."""
        over = is_over(state)
        players = [player_view(state, s, seat, over) for s in range(state.num_players)]
        mine = state.players[seat] if seat is not None else None
        prompt = state.prompt
        outcome = self.outcome(state)
        return {
            "game": self.spec.id,
            "seat": seat,
            "mode": state.mode,
            "num_players": state.num_players,
            "phase": state.phase,
            "turn": state.turn,
            "to_act": sorted(self.to_act(state)),
            "round": (state.turns_started - 1) // state.num_players + 1,
            "score_history": (
                [*map(list, state.rung_history), [p.rung for p in state.players]] if over else None
            ),
            "well_count": len(state.well),
            # The end shows every card (spec decision), the Well too, top of the pile first.
            "well": cards_json(list(reversed(state.well))) if over else None,
            "ruins": cards_json(state.ruins),
            "ruins_top": card_json(state.ruins[-1]) if state.ruins else None,
            "in_play": chain_view(state),
            "rings_supply": max(0, RING_TOKENS - sum(p.rings for p in state.players)),
            "ladder": ladder_json(),
            "players": players,
            "hand": cards_json(mine.hand) if mine is not None else None,
            "future": cards_json(mine.future) if mine is not None else None,
            "ways": list(ways_to_play(state)),
            "can_pass": seat is not None and can_pass(state, seat),
            "may_end_turn": seat is not None and state.phase == "extra" and state.turn == seat,
            "rings_to_spend": (
                state.players[seat].rings
                if seat is not None and state.phase == "reincarnate" and state.turn == seat
                else None
            ),
            "prompt": (
                prompt_view(state, prompt) if prompt is not None and prompt.seat == seat else None
            ),
            "waiting": waiting_view(prompt) if prompt is not None else None,
            "revealed": [
                {"label": r.label, "about": r.about, "cards": cards_json(r.cards)}
                for r in state.reveals
                if r.seat == seat
            ],
            "winners": list(state.winners),
            "end_reason": state.end_reason,
            "end_phrase": state.end_phrase,
            "outcome": outcome.to_json() if outcome else None,
        }

    def outcome(self, state: State) -> Outcome | None:
        """The transcended player's team wins; the others rank by rung, then rings."""
        if state.phase != "over":  # `is_over`, read at every step of a playout
            return None
        winners = frozenset(state.winners)
        scores = {s: p.rung for s, p in enumerate(state.players)}
        keys = {
            s: (1, 0, 0) if s in winners else (0, p.rung, p.rings)
            for s, p in enumerate(state.players)
        }
        reason = state.end_reason
        return Outcome(scores, rank_by(keys), winners, reason)

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-deal every card `seat` cannot see among the hidden places; re-seed the shuffles.

        The result depends only on what `view(state, seat)` shows and on `rng`: hidden cards are
        first renamed canonically (in the order of their places), then dealt by a permutation
        drawn from `rng`; a face-down Swindle/Spite row is re-shuffled; the state's own RNG (the
        future shuffles) is replaced.
        """
        new = copy_state(state)
        seen = visible_cards(state, seat)
        hidden = [c for c in range(NUM_CARDS) if c not in seen]
        places = [c for c in card_places(new) if c not in seen]
        canonical = list(dict.fromkeys(places))
        dealt = random_permutation(hidden, rng.next_u64())
        remap_cards(new, dict(zip(canonical, dealt, strict=False)))
        reshuffle_row(new, Rng.from_seed(rng.next_u64()))
        new.rng = Rng.from_seed(rng.next_u64())
        return new

    def teams(self, state: State, num_players: int) -> list[list[Seat]]:
        """Free for all: each seat alone; 2 on 2: seats 0+2 and 1+3; 2 on 1: the Wolf (seat 0)
        against seats 1+2."""
        sides: list[list[Seat]] = []
        for seat in range(num_players):
            team = team_of(state, seat)
            if team not in sides:
                sides.append(team)
        return sides

    def progress(self, state: State, seat: Seat) -> tuple[int, ...]:
        """A bot's yardstick for a playout cut short: the rung reached, then the rings."""
        player = state.players[seat]
        return (player.rung, player.rings)

    def action_text(self, action: Any) -> str:
        """`pass`, `play peek#4 ability`, `target p1`, `choose voyage#40`, `pick 2`, `spend 1`…"""
        match action:
            case Play():
                return f"play {card_label(action.card)} {action.way}"
            case Choose():
                return f"choose {card_label(action.card)}"
            case Target():
                return f"target p{action.seat}"
            case Pick():
                return f"pick {action.position}"
            case SpendRings():
                return f"spend {action.rings}"
            case EndTurn():
                return "end"
            case _:
                return str(action.type)


# ---- refusals -----------------------------------------------------------------------------------


def explain_illegal(state: State, seat: Seat, action: Any) -> Phrase:
    """Which rule refuses the action, in words a player understands."""
    phase = state.phase
    player = state.players[seat]
    match action:
        case Pass():
            if phase == "play":
                return Phrase(tr("You may pass only while your Deck still holds a card."))
            return Phrase(tr("You cannot pass now."))
        case Play():
            if phase not in ("play", "extra"):
                return Phrase(tr("You cannot play a card now: answer the pending decision first."))
            if action.card not in player.hand:
                return Phrase(tr("That card is not in your Hand."))
            return Phrase(
                tr("Playing onto your partner's Future Life exists only in teams of two.")
            )
        case EndTurn():
            return Phrase(tr("You can end your turn only instead of an extra play."))
        case Accept() | Refuse():
            return Phrase(tr("No card is being offered to you."))
        case SpendRings():
            if phase != "reincarnate":
                return Phrase(tr("Rings are spent only when you reincarnate."))
            return Phrase(tr("You may spend 0 to %(count)s rings."), {"count": player.rings})
    if phase == "ability" and state.prompt is not None:
        return Phrase(
            tr("Not a possible answer. %(prompt)s"), {"prompt": prompt_text(state.prompt)}
        )
    return Phrase(tr("That action does not fit the moment: play a card, pass or end your turn."))
