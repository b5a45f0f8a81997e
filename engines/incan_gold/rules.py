"""Incan Gold (Diamant with artifacts): the rules engine.

Rule source: docs/rules/incan-gold.md, which restates the seed rulebook
(the publisher's Polish rulebook). Where they differ the seed wins (see `reveal_opening`).
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
    PlainModel,
    Rng,
    Seat,
    Step,
    Term,
    copy_state,
    forms,
    rank_by,
    tr,
    who,
)
from engines.incan_gold.cards import (
    ARTIFACT_VALUES,
    ARTIFACTS,
    CARDS,
    HAZARDS,
    ROUNDS,
    TREASURES,
    Card,
)

Choice = Literal["torch", "camp"]

Events = list[Event] | None
"""Where the events of a step go; None when nobody reads them (a bot's playout, `play`)."""


class Options(BaseModel):
    """Table options: `artifacts` off plays the original Diamant."""

    model_config = ConfigDict(extra="forbid")

    artifacts: bool = Field(default=True, description=tr("Play with the five artifact cards"))


class Torch(ActionModel):
    """Go deeper into the temple."""

    type: Literal["torch"] = "torch"


class Camp(ActionModel):
    """Go back to camp with the round haul."""

    type: Literal["camp"] = "camp"


Action = Annotated[Torch | Camp, Field(discriminator="type")]

TORCH, CAMP = Torch(), Camp()
"""The two actions (immutable, so every `legal_actions` list may hold the same two)."""


class PathCard(PlainModel):
    """A revealed card on the temple path and the gems left lying on it."""

    card: int
    remainder: int = 0


class Player(PlainModel):
    """One explorer."""

    in_temple: bool = True
    haul: int = 0
    tent: int = 0
    artifacts: list[int] = Field(default_factory=list)
    """Values of the artifacts carried out, in order (5 or 10 each)."""
    artifact_names: list[str] = Field(default_factory=list)
    choice: Choice | None = None
    """The pending, still secret choice of this decision."""
    last_choice: Choice | None = None
    """The choice revealed at the last decision (public)."""


class RoundSummary(PlainModel):
    """How a finished round ended, for the log and the screen."""

    round: int
    ended_by: Literal["flight", "all_left", "deck_empty"]
    hazard: str = ""
    scores: list[int] = Field(default_factory=list)
    """Every explorer's score (tent plus artifacts) when the round ended: secret until the end,
    when the score chart shows it."""


class State(PlainModel):
    """The full state of an Incan Gold game."""

    num_players: int
    artifacts_variant: bool
    rng: Rng
    round: int = 1
    start_player: int = 0
    players: list[Player]
    deck: list[int] = Field(default_factory=list)
    """The adventure deck of the current round, top first. Secret order."""
    future_artifacts: list[int] = Field(default_factory=list)
    """Artifacts assigned to the coming rounds, next first. Secret."""
    unrevealed_artifacts: list[int] = Field(default_factory=list)
    """Artifacts of earlier rounds that were never revealed (they go back into the deck)."""
    round_artifact: int | None = None
    path: list[PathCard] = Field(default_factory=list)
    removed_hazards: list[int] = Field(default_factory=list)
    removed_artifacts: list[int] = Field(default_factory=list)
    artifacts_carried: int = 0
    rounds: list[RoundSummary] = Field(default_factory=list)
    over: bool = False


# ---- small named rules ------------------------------------------------------------------------


def card(card_id: int) -> Card:
    """The card data for an id."""
    return CARDS[card_id]


def explorers(state: State) -> list[Seat]:
    """Seats still in the temple."""
    return [s for s, p in enumerate(state.players) if p.in_temple]


def split(value: int, among: int) -> tuple[int, int]:
    """Each share and the remainder when `value` gems are split among `among` players."""
    return value // among, value % among


def is_duplicate_hazard(state: State, card_id: int) -> bool:
    """Whether a hazard of this kind already lies on the path (which makes everyone flee)."""
    kind = card(card_id).hazard
    return any(card(pc.card).hazard == kind for pc in state.path[:-1] if card(pc.card).hazard)


def artifact_value(carried_before: int) -> int:
    """Value of the next artifact carried out, given how many were carried before."""
    return ARTIFACT_VALUES[min(carried_before, len(ARTIFACT_VALUES) - 1)]


def score(player: Player) -> int:
    """Tent total plus artifact values."""
    return player.tent + sum(player.artifacts)


def deck_for_round(state: State) -> list[int]:
    """Treasures, hazards not removed, earlier unrevealed artifacts and this round's artifact."""
    deck = list(TREASURES) + [h for h in HAZARDS if h not in state.removed_hazards]
    deck += state.unrevealed_artifacts
    if state.round_artifact is not None:
        deck.append(state.round_artifact)
    return deck


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


def path_card_view(pc: PathCard) -> JSON:
    """A path card as the screen shows it."""
    c = card(pc.card)
    return {
        "kind": c.kind,
        "value": c.value,
        "hazard": c.hazard,
        "name": c.name,
        "remainder": pc.remainder,
    }


# ---- the flow of a round (mutating helpers, always called on a fresh copy) ---------------------


def start_round(state: State, events: Events) -> None:
    """Show this round's artifact, build and shuffle the deck, reveal the opening card."""
    state.path = []
    for p in state.players:
        p.in_temple, p.haul, p.choice, p.last_choice = True, 0, None, None
    state.round_artifact = state.future_artifacts.pop(0) if state.future_artifacts else None
    state.deck = state.rng.shuffled(deck_for_round(state))
    if events is not None:
        events.append(
            Event.public(
                "Round %(round)s begins; %(who)s leads.",
                round=state.round,
                who=who(state.start_player),
            )
        )
    if state.round_artifact is not None:
        name = Term(card(state.round_artifact).name)
        if events is not None:
            events.append(
                Event.public("This round's artifact, the %(name)s, joins the deck.", name=name)
            )
    reveal_opening(state, events)


def reveal_opening(state: State, events: Events) -> None:
    """Reveal the first card with no decision before it.

    The seed adds: if that first card is a hazard, the next one is revealed at once too, since
    nobody has anything to lose yet (the spec only mentions the first card; the seed wins).
    """
    reveal_next(state, events)
    if len(state.path) == 1 and card(state.path[0].card).kind == "hazard" and state.deck:
        if events is not None:
            events.append(
                Event.public("Nobody has anything to lose yet: the next card is revealed.")
            )
        reveal_next(state, events)


def reveal_next(state: State, events: Events) -> bool:
    """Reveal the top card onto the path; True if the round ended by flight."""
    c = card(state.deck.pop(0))
    pc = PathCard(card=c.id)
    state.path.append(pc)
    inside = explorers(state)
    if c.kind == "treasure":
        share, rest = split(c.value, len(inside))
        for s in inside:
            state.players[s].haul += share
        pc.remainder = rest
        if events is not None:
            events.append(
                Event.public(
                    forms(
                        "Treasure %(value)s: %(share)s each to %(count)s explorer, "
                        "%(rest)s left on the card.",
                        "Treasure %(value)s: %(share)s each to %(count)s explorers, "
                        "%(rest)s left on the card.",
                    ),
                    value=c.value,
                    share=share,
                    count=len(inside),
                    rest=rest,
                )
            )
        return False
    if c.kind == "artifact":
        if events is not None:
            events.append(
                Event.public("An artifact, the %(name)s, lies on the path.", name=Term(c.name))
            )
        return False
    if is_duplicate_hazard(state, c.id):
        if events is not None:
            events.append(
                Event.public(
                    "A second %(hazard)s card: everyone inside flees empty-handed!",
                    hazard=Term(c.hazard),
                )
            )
        flee(state, c, events)
        return True
    if events is not None:
        events.append(
            Event.public("Hazard: %(hazard)s. Nothing happens, yet.", hazard=Term(c.hazard))
        )
    return False


def flee(state: State, hazard: Card, events: Events) -> None:
    """Everyone inside loses the round haul; the duplicate hazard and path artifacts go."""
    for s in explorers(state):
        p = state.players[s]
        p.haul, p.in_temple = 0, False
    state.removed_hazards.append(hazard.id)
    lost = [pc.card for pc in state.path if card(pc.card).kind == "artifact"]
    state.removed_artifacts += lost
    state.path = [pc for pc in state.path if pc.card not in lost]
    end_round(
        state, events, RoundSummary(round=state.round, ended_by="flight", hazard=hazard.hazard)
    )


def resolve_decision(state: State, events: Events) -> None:
    """Reveal every choice, send the leavers home, then reveal on or end the round."""
    inside = explorers(state)
    leavers = [s for s in inside if state.players[s].choice == "camp"]
    for s in inside:
        p = state.players[s]
        p.last_choice, p.choice = p.choice, None
    stayers = [s for s in inside if s not in leavers]
    if leavers:
        names = ", ".join(who(s) for s in leavers)
        if events is not None:
            events.append(Event.public("Back to camp: %(names)s.", names=names))
    if stayers:
        names = ", ".join(who(s) for s in stayers)
        if events is not None:
            events.append(Event.public("Deeper in: %(names)s.", names=names))
    if leavers:
        leave(state, leavers, events)
    if not explorers(state):
        end_round(state, events, RoundSummary(round=state.round, ended_by="all_left"))
        return
    if not state.deck:
        return_everyone(state, events, "deck_empty")
        return
    reveal_next(state, events)


def leave(state: State, leavers: list[Seat], events: Events) -> None:
    """Leavers share the path's gems, a lone leaver takes the artifacts, all bank their haul."""
    total = sum(pc.remainder for pc in state.path)
    share, rest = split(total, len(leavers))
    if total:
        # What cannot be divided stays on the path; keep it on the first cards that had gems.
        for pc in state.path:
            pc.remainder = 0
        for pc in state.path:
            if rest == 0:
                break
            if card(pc.card).kind == "treasure":
                pc.remainder = rest
                rest = 0
        if rest:  # pragma: no cover - a remainder always comes from a treasure card
            state.path[0].remainder = rest
    if len(leavers) == 1:
        take_artifacts(state, leavers[0], events)
    for s in leavers:
        p = state.players[s]
        gained = p.haul + share
        p.tent += gained
        p.haul = 0
        p.in_temple = False
        if events is not None:
            events.append(
                Event.private(
                    s,
                    forms(
                        "You put %(count)s gem into your tent.",
                        "You put %(count)s gems into your tent.",
                    ),
                    count=gained,
                )
            )
        if share and events is not None:
            events.append(
                Event.public(
                    forms(
                        "%(who)s picks up %(count)s gem from the path.",
                        "%(who)s picks up %(count)s gems from the path.",
                    ),
                    who=who(s),
                    count=share,
                )
            )


def take_artifacts(state: State, seat: Seat, events: Events) -> None:
    """A single leaver carries out every artifact on the path, valued in carried order."""
    p = state.players[seat]
    keep: list[PathCard] = []
    for pc in state.path:
        c = card(pc.card)
        if c.kind != "artifact":
            keep.append(pc)
            continue
        value = artifact_value(state.artifacts_carried)
        state.artifacts_carried += 1
        p.artifacts.append(value)
        p.artifact_names.append(c.name)
        if events is not None:
            events.append(
                Event.public(
                    "%(who)s carries out the %(name)s (worth %(value)s).",
                    who=who(seat),
                    name=Term(c.name),
                    value=value,
                )
            )
    state.path = keep


def return_everyone(state: State, events: Events, ended_by: Literal["deck_empty"]) -> None:
    """Defensive rule: the deck ran out, everyone still inside returns safely."""
    inside = explorers(state)
    if inside:
        if events is not None:
            events.append(Event.public("The deck is empty: everyone inside returns safely."))
        leave(state, inside, events)
    end_round(state, events, RoundSummary(round=state.round, ended_by=ended_by))


def end_round(state: State, events: Events, summary: RoundSummary) -> None:
    """Drop revealed artifacts, keep unrevealed ones, pass the lead, start the next round."""
    summary.scores = [score(p) for p in state.players]
    state.rounds.append(summary)
    on_path = [pc.card for pc in state.path if card(pc.card).kind == "artifact"]
    state.removed_artifacts += on_path
    state.unrevealed_artifacts = [a for a in state.deck if card(a).kind == "artifact"]
    state.deck = []
    for p in state.players:
        p.choice = None
    if events is not None:
        events.append(Event.public("Round %(round)s is over.", round=state.round))
    if state.round >= ROUNDS:
        state.over = True
        state.path = []
        if events is not None:
            events.append(Event.public("The game is over; the tents are opened."))
        return
    state.round += 1
    state.start_player = (state.start_player + 1) % state.num_players
    start_round(state, events)
