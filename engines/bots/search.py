"""Determinized Monte-Carlo search over the engine contract, for any registered game.

A decision: sample the hidden information `determinizations` times with `determinize` (which
depends only on what the seat's view shows, so the bot cannot cheat), and in each sample run
playouts from every candidate action, choosing which action to try next with UCB1 over the
statistics pooled across samples (information-set Monte Carlo: one tree root shared by every
sampled world). The action with the best mean value wins the vote.

Budgets are counted in engine steps (applied actions), not seconds, so the same seed gives the
same choice on any machine; a playout longer than `playout_cap` steps is cut short and valued
by `evaluation.estimate`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engines.bots.evaluation import estimate, final_value
from engines.core import Engine, Rng, Seat

AnyEngine = Engine[Any, Any, Any]


@dataclass(frozen=True)
class Budget:
    """How hard a level thinks."""

    determinizations: int
    """Sampled worlds per decision."""
    steps: int
    """Engine steps (applied actions) per decision, spread over the samples."""
    playout_cap: int
    """Longest playout before it is cut short and estimated."""
    exploration: float = 0.7
    """UCB1's exploration constant (values are about 0..1.2)."""


BUDGETS: dict[str, Budget] = {
    "easy": Budget(determinizations=3, steps=400, playout_cap=60),
    "normal": Budget(determinizations=6, steps=3_000, playout_cap=100),
    "hard": Budget(determinizations=12, steps=12_000, playout_cap=160),
}
"""Every level a server offers, weakest first."""

LEVELS: tuple[str, ...] = tuple(BUDGETS)


def random_action(engine: AnyEngine, state: Any, seat: Seat, rng: Rng) -> Any:
    """A uniformly random legal action (the arena's "random" player)."""
    return rng.choice(engine.legal_actions(state, seat))


def choose_action(
    engine: AnyEngine,
    state: Any,
    seat: Seat,
    *,
    level: str = "normal",
    seed: int,
    scale: float = 1.0,
) -> Any:
    """One of `engine.legal_actions(state, seat)`, chosen by determinized search.

    Only `determinize(state, seat, …)` and the seat's own legal actions are read from `state`.
    `scale` multiplies the level's step budget (tests think less).
    """
    actions = engine.legal_actions(state, seat)
    if len(actions) <= 1:
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return actions[0]
    budget = BUDGETS[level]
    rng = Rng.from_seed(seed)
    texts = [engine.action_text(a) for a in actions]
    index = {text: i for i, text in enumerate(texts)}
    totals = [0.0] * len(actions)
    visits = [0] * len(actions)
    samples = max(1, round(budget.determinizations * min(1.0, scale * 4)))
    steps_left = max(samples * len(actions), round(budget.steps * scale))
    per_sample = max(1, steps_left // samples)
    for _ in range(samples):
        world = engine.determinize(state, seat, Rng.from_seed(rng.next_u64()))
        here = {engine.action_text(a): a for a in engine.legal_actions(world, seat)}
        arms = [i for i, text in enumerate(texts) if text in here]
        spent = 0
        while spent < per_sample and arms:
            arm = _pick(arms, totals, visits, budget.exploration)
            after = engine.apply(world, seat, here[texts[arm]]).state
            value, used = _playout(engine, after, seat, rng, budget.playout_cap)
            totals[arm] += value
            visits[arm] += 1
            spent += used + 1
    best = max(range(len(actions)), key=lambda i: totals[i] / visits[i] if visits[i] else -1.0)
    assert texts[best] in index
    return actions[best]


def _pick(arms: list[int], totals: list[float], visits: list[int], c: float) -> int:
    """UCB1 over the candidate actions available in this sampled world."""
    for arm in arms:
        if visits[arm] == 0:
            return arm
    n = sum(visits[arm] for arm in arms)
    log_n = math.log(n)
    return max(arms, key=lambda a: totals[a] / visits[a] + c * math.sqrt(log_n / visits[a]))


def _playout(engine: AnyEngine, state: Any, seat: Seat, rng: Rng, cap: int) -> tuple[float, int]:
    """Random play to the end (or `cap` steps): the value for `seat` and the steps taken."""
    players = _players(state)
    for step in range(cap):
        value = final_value(engine, state, seat)
        if value is not None:
            return value, step
        acting = sorted(engine.to_act(state))
        mover = acting[rng.randbelow(len(acting))]
        options = engine.legal_actions(state, mover)
        state = engine.apply(state, mover, options[rng.randbelow(len(options))]).state
    value = final_value(engine, state, seat)
    return (value if value is not None else estimate(engine, state, seat, players)), cap


def _players(state: Any) -> int:
    """Seats in a game (every engine's state records `num_players`)."""
    return int(state.num_players)
