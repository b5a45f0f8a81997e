"""Incan Gold (Diamant with artifacts): the rules engine.

Rule source: docs/rules/incan-gold.md, which restates the seed rulebook
(the publisher's Polish rulebook). Where they differ the seed wins (see `reveal_opening`, in
`flow.py`).

This module holds the engine surface (`IncanGold`: setup, legal actions, apply with its refusal,
each seat's view, outcome, determinize) with the bots' fast path (`play` without events,
`random_action`, `information_key`). The rest lives in:

- `flow.py`: the small named rules and the flow of a round (reveals, the choices revealed,
  leaving, flight, the end of a round and of the game);
- `view.py`: a path card as the screen shows it;
- `model.py`: options, actions and the state; `cards.py`: the card data.

`determinize` needs no helper: it re-shuffles the secret piles and draws the others' tents and
pending choices itself.
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
    copy_state,
    rank_by,
    tr,
    who,
)
from engines.incan_gold.cards import ARTIFACTS, CARDS, ROUNDS
from engines.incan_gold.flow import (
    artifact_value,
    card,
    resolve_decision,
    score,
    start_round,
)
from engines.incan_gold.model import (
    CAMP,
    TORCH,
    Action,
    Camp,
    Events,
    Options,
    Player,
    State,
    Torch,
)
from engines.incan_gold.view import path_card_view

# ---- the engine -------------------------------------------------------------------------------


class IncanGold(Engine[State, Any, Options]):
    """Incan Gold for 3–8 players, with or without artifacts."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="incan_gold",
        title=tr("Incan Gold"),
        min_players=3,
        max_players=8,
        options=Options,
        hidden_information=True,
        simultaneous=True,
        summary=tr("Push your luck through a temple: torch to go deeper, camp to keep your gems."),
    )
    state_type: ClassVar[type[BaseModel]] = State
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)

    def setup(self, num_players: int, options: Options, seed: int) -> Step[State]:
        """Five artifacts assigned to the rounds, a random start player, round 1 under way."""
        opts = options
        if not self.spec.min_players <= num_players <= self.spec.max_players:
            raise IllegalAction(
                "Incan Gold needs 3 to 8 players, not %(count)s.", count=num_players
            )
        rng = Rng.from_seed(seed)
        state = State(
            num_players=num_players,
            artifacts_variant=opts.artifacts,
            rng=rng,
            players=[Player() for _ in range(num_players)],
        )
        if opts.artifacts:
            state.future_artifacts = rng.shuffled(list(ARTIFACTS))
        state.start_player = rng.randbelow(num_players)
        events: list[Event] = []
        start_round(state, events)
        return Step(state, events)

    def to_act(self, state: State) -> frozenset[Seat]:
        """Everyone in the temple who has not chosen yet."""
        if state.over:
            return frozenset()
        return frozenset(s for s, p in enumerate(state.players) if p.in_temple and not p.choice)

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Torch or camp for a seat that still has to choose."""
        if not self._may_choose(state, seat):
            return []
        return [TORCH, CAMP]

    def random_action(self, state: State, seat: Seat, rng: Rng) -> Any:
        """Torch or camp, drawn as `Engine.random_action` draws it (one `randbelow(2)`)."""
        if not self._may_choose(state, seat):
            rng.randbelow(0)  # raises as choosing among no actions does
        return (TORCH, CAMP)[rng.randbelow(2)]

    @staticmethod
    def _may_choose(state: State, seat: Seat) -> bool:
        """Whether `seat` is in the temple and has yet to choose (`seat in to_act(state)`)."""
        if state.over or not 0 <= seat < len(state.players):
            return False
        p = state.players[seat]
        return p.in_temple and not p.choice

    def apply(self, state: State, seat: Seat, action: Any) -> Step[State]:
        """Record a secret choice; when the last one is in, reveal and play on."""
        events: list[Event] = []
        return Step(self._run(state, seat, action, events), events)

    def play(self, state: State, seat: Seat, action: Any) -> State:
        """`apply(...).state` without making the events (a bot's playout reads none)."""
        return self._run(state, seat, action, None)

    def _run(self, state: State, seat: Seat, action: Any, events: Events) -> State:
        """The move on a copy of `state`; its events into `events` unless None."""
        self.check_turn(state, seat)
        if not isinstance(action, Torch | Camp):
            raise IllegalAction("Choose torch or camp.")
        new = copy_state(state)
        new.players[seat].choice = action.type
        if events is not None:
            torch = action.type == "torch"
            choice_text = tr("You chose the torch.") if torch else tr("You chose the camp.")
            events.append(Event.private(seat, choice_text))
            events.append(Event.others(seat, new.num_players, "%(who)s has chosen.", who=who(seat)))
        if all(p.choice or not p.in_temple for p in new.players):
            resolve_decision(new, events)
        return new

    def chosen(self, state: State) -> frozenset[Seat]:
        """Explorers in the temple whose secret choice is already in."""
        if state.over:
            return frozenset()
        return frozenset(s for s, p in enumerate(state.players) if p.in_temple and p.choice)

    def game_view(self, state: State, seat: Seat | None) -> JSON:
        """The temple as `seat` sees it: tents and pending choices of others hidden."""
        return self.game_view_shared(state, seat, {})

    def game_view_shared(self, state: State, seat: Seat | None, shared: dict[str, Any]) -> JSON:
        """`game_view`, taking what every audience sees alike from `shared` (made there by
        the first audience of this state): the public parts of the temple, and each
        explorer as the others see them. Only the viewer's own explorer is made per view."""
        public: dict[str, Any] | None = shared.get("incan_gold")
        if public is None:
            public = shared["incan_gold"] = self._public_view(state)
        players = public["players"]
        if seat is not None and 0 <= seat < len(players):
            players = list(players)
            players[seat] = self._player_view(state, seat, True)
        return {
            "game": self.spec.id,
            "seat": seat,
            **public["head"],
            "players": players,
            **public["tail"],
        }

    def _player_view(self, state: State, s: Seat, mine: bool) -> JSON:
        """Explorer `s` as its own seat (`mine`) or anyone else sees it."""
        over = state.over
        p = state.players[s]
        return {
            "seat": s,
            "in_temple": p.in_temple,
            "haul": p.haul,
            "artifacts": list(p.artifacts),
            "artifact_names": list(p.artifact_names),
            "has_chosen": p.choice is not None,
            "choice": p.choice if mine else None,
            "last_choice": p.last_choice,
            "tent": p.tent if (mine or over) else None,
            "score": score(p) if over else None,
        }

    def _public_view(self, state: State) -> dict[str, Any]:
        """What every audience of `state` sees alike: the view's keys before the explorers
        (`head`), the explorers as others see them, and the keys after them (`tail`)."""
        outcome = self.outcome(state)
        head = {
            "round": state.round,
            "rounds": ROUNDS,
            "over": state.over,
            "start_player": state.start_player,
            "to_act": sorted(self.to_act(state)),
            "path": [path_card_view(pc) for pc in state.path],
            "deck_size": len(state.deck),
            "round_artifact": (
                card(state.round_artifact).name if state.round_artifact is not None else None
            ),
            "artifacts_variant": state.artifacts_variant,
            "artifacts_carried": state.artifacts_carried,
            "next_artifact_value": artifact_value(state.artifacts_carried),
            "removed_hazards": [card(h).hazard for h in state.removed_hazards],
            "removed_artifacts": [card(a).name for a in state.removed_artifacts],
            "hazards_on_path": sorted(
                {card(pc.card).hazard for pc in state.path if card(pc.card).hazard}
            ),
            "gems_on_path": sum(pc.remainder for pc in state.path),
        }
        tail = {
            # Plain dicts: a pydantic dump per round and audience was a quarter of this view.
            "rounds_played": [
                {"round": r.round, "ended_by": r.ended_by, "hazard": r.hazard} for r in state.rounds
            ],
            "score_history": [r.scores for r in state.rounds] if state.over else None,
            "outcome": outcome.to_json() if outcome else None,
        }
        others = [self._player_view(state, s, False) for s in range(len(state.players))]
        return {"head": head, "players": others, "tail": tail}

    def outcome(self, state: State) -> Outcome | None:
        """Scores after round 5; ties broken by artifacts, then a shared win."""
        if not state.over:
            return None
        scores = {s: score(p) for s, p in enumerate(state.players)}
        keys = {s: (scores[s], len(p.artifacts)) for s, p in enumerate(state.players)}
        ranks = rank_by(keys)
        winners = frozenset(s for s, r in ranks.items() if r == 1)
        tied = tr("shared win (tied score and artifacts)")
        reason = tr("highest score") if len(winners) == 1 else tied
        return Outcome(scores, ranks, winners, reason)

    def determinize(self, state: State, seat: Seat | None, rng: Rng) -> State:
        """Re-shuffle the deck and future artifacts; invent others' tents and pending choices.

        Uses only what `view(state, seat)` shows plus `rng`: the secret piles are sorted before
        they are shuffled (their contents follow from the public cards), and the state's own RNG
        (the future shuffles) is replaced by one drawn from `rng`.
        """
        new = copy_state(state)
        new.rng = Rng.from_seed(rng.next_u64())
        new.deck = rng.shuffled(sorted(new.deck))
        new.future_artifacts = rng.shuffled(sorted(new.future_artifacts))
        if new.over:
            return new
        # Others' tents: the seat knows only its own and how many rounds have been banked, so
        # each is drawn around what the seat itself holds (floored by a modest 4 gems a
        # round): all 0 before the first round ends, and of a plausible size later. A flat
        # 0..199 made every win estimate mostly noise, whatever the bot searched.
        mine = new.players[seat].tent if seat is not None else 0
        spread = 2 * max(mine, 4 * len(new.rounds)) + 1
        for s, p in enumerate(new.players):
            if s == seat:
                continue
            p.tent = rng.randbelow(spread)
            if p.choice is not None:
                p.choice = "torch" if rng.randbelow(2) else "camp"
        return new

    def information_key(self, state: State, seat: Seat) -> Hashable:
        """What `seat`'s view is made of, as plain values (see `Engine.information_key`):
        cards by what the view shows of them (two cards alike look the same), the others'
        explorers without their tents and pending choices until the game is over."""
        over = state.over
        explorers_key = tuple(
            (
                p.in_temple,
                p.haul,
                tuple(p.artifacts),
                tuple(p.artifact_names),
                p.choice is not None,
                p.last_choice,
                p.tent if over else None,
            )
            for p in state.players
        )
        mine = state.players[seat] if 0 <= seat < len(state.players) else None
        return (
            state.round,
            over,
            state.start_player,
            tuple((_SHOWN[pc.card], pc.remainder) for pc in state.path),
            len(state.deck),
            None if state.round_artifact is None else card(state.round_artifact).name,
            state.artifacts_carried,
            tuple(card(h).hazard for h in state.removed_hazards),
            tuple(card(a).name for a in state.removed_artifacts),
            explorers_key,
            (mine.choice, mine.tent) if mine is not None else None,
            tuple(
                (r.round, r.ended_by, r.hazard, tuple(r.scores) if over else ())
                for r in state.rounds
            ),
        )

    def action_text(self, action: Any) -> str:
        """`torch` or `camp`."""
        return str(action.type)


_SHOWN: dict[int, tuple[str, int, str, str]] = {
    c.id: (c.kind, c.value, c.hazard, c.name) for c in CARDS
}
"""A card as a view shows it (kind, value, hazard, name), for `information_key`."""
