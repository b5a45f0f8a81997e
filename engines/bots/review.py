"""Post-game review: the bots' determinized search, asked for an estimate of every action.

`assess(engine, state, seat, steps=..., seed=...)` values each of the seat's legal actions the
way the `normal` bot does (flat information-set Monte Carlo: `determinize` samples the hidden
information from the seat's view only, UCB1 spreads the playouts over the actions, statistics
pooled across the sampled worlds), and returns each action's estimated win chance. It reads
`state` only through `determinize(state, seat, …)` and the seat's legal actions, so it is
exactly as blind as the bot. It is a thin adapter over `engines/bots/search.py` (its UCB1
pick, its random rollout and the bots' evaluation), so whatever makes the bots faster makes
reviews faster.

`decision_points` lists a finished game's decisions worth reviewing (a seat with more than one
legal action; a simultaneous round gives one decision per seat, each at the state in which that
seat chose, the others' hidden choices re-sampled). Pure: no I/O, no clock; equal seed, equal
review.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from engines.bots.evaluation import estimate, final_value
from engines.bots.search import BUDGETS, _pick, _rollout
from engines.core import Engine, Rng, Seat

AnyEngine = Engine[Any, Any, Any]

GAME_STEPS = 250_000
"""The CPU budget of one game's review, in engine steps (applied actions) over all its seats'
decisions: a decision gets `GAME_STEPS / decisions`, between `MIN_STEPS` and `MAX_STEPS`."""
MIN_STEPS = 150
MAX_STEPS = BUDGETS["normal"].steps
SAMPLES = BUDGETS["normal"].determinizations
"""Sampled worlds per decision (the normal bot's)."""
PLAYOUT_CAP = BUDGETS["normal"].playout_cap
WIN_SCALE = 1.2
"""The bots' values run 0..1.2 (a sole win plus the best place's bonus)."""


@dataclass(frozen=True)
class Estimate:
    """One action's statistics at a decision."""

    text: str
    win: float
    """Estimated win chance, 0..1 (a shared win counts 1/k)."""
    visits: int


@dataclass(frozen=True)
class Assessment:
    """A seat's decision at `version` (the state before its move): every action's estimate and
    what it chose."""

    version: int
    seat: Seat
    chosen: str
    estimates: tuple[Estimate, ...]

    @property
    def best(self) -> Estimate:
        """The action estimated best (ties to the legal actions' order)."""
        return max(self.estimates, key=lambda e: e.win)

    @property
    def chosen_estimate(self) -> Estimate:
        return next(e for e in self.estimates if e.text == self.chosen)

    @property
    def loss(self) -> float:
        """How far the chosen action was estimated below the best one (0 for the best)."""
        return self.best.win - self.chosen_estimate.win

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "seat": self.seat,
            "chosen": self.chosen,
            "estimates": [[e.text, round(e.win, 4), e.visits] for e in self.estimates],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Assessment:
        return cls(
            version=int(data["version"]),
            seat=int(data["seat"]),
            chosen=str(data["chosen"]),
            estimates=tuple(Estimate(str(t), float(w), int(v)) for t, w, v in data["estimates"]),
        )


def decision_seed(base: str, version: int, seat: Seat) -> int:
    """A decision's seed from public facts (the game's commitment, the version, the seat)."""
    digest = hashlib.sha256(f"review:{base}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def decision_points(
    engine: AnyEngine, states: list[Any], moves: list[tuple[Seat, str]]
) -> list[tuple[int, Seat]]:
    """(version, seat) of every move whose seat had a choice: `states[v]` is the state before
    move `v`, `moves[v]` its (seat, action text)."""
    points = []
    for version, (seat, _text) in enumerate(moves):
        if len(engine.legal_actions(states[version], seat)) > 1:
            points.append((version, seat))
    return points


def steps_per_decision(decisions: int, game_steps: int = GAME_STEPS) -> int:
    """Each decision's share of the game's budget."""
    return max(MIN_STEPS, min(MAX_STEPS, game_steps // max(1, decisions)))


def assess(engine: AnyEngine, state: Any, seat: Seat, *, steps: int, seed: int) -> list[Estimate]:
    """Every legal action of `seat` with its estimated win chance, from the seat's view only."""
    actions = engine.legal_actions(state, seat)
    texts = [engine.action_text(a) for a in actions]
    rng = Rng.from_seed(seed)
    totals = [0.0] * len(texts)
    wins = [0.0] * len(texts)
    visits = [0] * len(texts)
    samples = SAMPLES
    per_sample = max(len(texts), steps // samples)
    players = int(state.num_players)
    for _ in range(samples):
        world = engine.determinize(state, seat, Rng.from_seed(rng.next_u64()))
        here = {engine.action_text(a): a for a in engine.legal_actions(world, seat)}
        arms = [i for i, text in enumerate(texts) if text in here]
        spent = 0
        # Every action is tried at least once (in the first world where it is available), then
        # UCB1 spends the world's share of the budget: forcing every action in every world cost
        # Ganges (dozens of paid actions a decision) several times its budget.
        while arms and (spent < per_sample or any(visits[i] == 0 for i in arms)):
            unseen = [i for i in arms if visits[i] == 0]
            arm = unseen[0] if unseen else _pick(arms, totals, visits, 0.7)
            after = engine.play(world, seat, here[texts[arm]])
            end, used = _rollout(engine, after, rng, PLAYOUT_CAP)
            value = final_value(engine, end, seat)
            if value is None:
                value = estimate(engine, end, seat, players)
                win = value / WIN_SCALE
            else:
                outcome = engine.outcome(end)
                assert outcome is not None
                win = 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
            totals[arm] += value
            wins[arm] += win
            visits[arm] += 1
            spent += used + 1
    return [
        Estimate(text, wins[i] / visits[i] if visits[i] else 0.0, visits[i])
        for i, text in enumerate(texts)
    ]


def assess_decision(
    engine: AnyEngine, state: Any, seat: Seat, chosen: str, version: int, *, steps: int, seed: int
) -> Assessment:
    """`assess` at one decision of a finished game."""
    return Assessment(
        version, seat, chosen, tuple(assess(engine, state, seat, steps=steps, seed=seed))
    )


def key_moments(assessments: list[Assessment], seat: Seat, count: int = 3) -> list[Assessment]:
    """The seat's decisions where the chosen action was estimated most below the best one
    (at least 5 points below), worst first, then in game order."""
    mine = [a for a in assessments if a.seat == seat and a.loss >= 0.05]
    mine.sort(key=lambda a: (-a.loss, a.version))
    return mine[:count]
