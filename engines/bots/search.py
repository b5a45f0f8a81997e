"""Determinized Monte-Carlo search over the engine contract, for any registered game.

A decision: sample the hidden information `determinizations` times with `determinize` (which
depends only on what the seat's view shows, so the bot cannot cheat), and in each sample run
playouts from every candidate action, choosing which action to try next with UCB1 over the
statistics pooled across samples (information-set Monte Carlo: one tree root shared by every
sampled world). The action with the best mean value wins the vote.

Budgets are counted in engine steps (applied actions), not seconds, so the same seed gives the
same choice on any machine; a playout longer than `playout_cap` steps is cut short and valued
by `evaluation.estimate`.

With `Budget.tree` (the hard level) the later decisions are searched too, instead of being
played at random: each iteration walks a tree of decision points, keyed by everything the
searching seat's view shows there (`Engine.information_key`) and by who decides (so a node
is one of the seat's information sets: sampled worlds that look the same to the seat share
it, and nothing hidden from the seat tells nodes apart). At its own nodes the seat picks for
its own value; at a rival's node the rival picks for the rival's value (single-observer
information-set MCTS, Cowling, Powley and Whitehouse 2012). UCB1 at a node counts only the
iterations in which an action was available. A tree learns plans such as "press on now, turn
back if a second hazard shows" and expects rivals to play for themselves, which random
playouts cannot, whatever their budget. The move played is the root's most visited action.
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
    tree: bool = False
    """Search later decisions in a tree keyed by the seat's view (see above) instead of
    playing them at random."""


BUDGETS: dict[str, Budget] = {
    "easy": Budget(determinizations=3, steps=400, playout_cap=60),
    "normal": Budget(determinizations=6, steps=3_000, playout_cap=100),
    "hard": Budget(determinizations=12, steps=12_000, playout_cap=160, tree=True),
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
    if budget.tree:
        return actions[
            index[_tree_search(engine, state, seat, texts, budget, rng, samples, steps_left)]
        ]
    for _ in range(samples):
        world = engine.determinize(state, seat, Rng.from_seed(rng.next_u64()))
        here = {engine.action_text(a): a for a in engine.legal_actions(world, seat)}
        arms = [i for i, text in enumerate(texts) if text in here]
        spent = 0
        while spent < per_sample and arms:
            arm = _pick(arms, totals, visits, budget.exploration)
            after = engine.play(world, seat, here[texts[arm]])
            value, used = _playout(engine, after, seat, rng, budget.playout_cap)
            totals[arm] += value
            visits[arm] += 1
            spent += used + 1
    best = max(range(len(actions)), key=lambda i: totals[i] / visits[i] if visits[i] else -1.0)
    assert texts[best] in index
    return actions[best]


class _Node:
    """One of the seat's decision points in the tree: statistics per action text."""

    __slots__ = ("avail", "totals", "visits")

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.visits: dict[str, int] = {}
        self.avail: dict[str, int] = {}

    def pick(self, texts: list[str], c: float) -> str:
        """UCB1 over the actions available here in this world (availability counts)."""
        for text in texts:
            self.avail[text] = self.avail.get(text, 0) + 1
        for text in texts:
            if not self.visits.get(text):
                return text

        def score(text: str) -> float:
            n = self.visits[text]
            return self.totals[text] / n + c * math.sqrt(math.log(self.avail[text]) / n)

        return max(texts, key=score)

    def update(self, text: str, value: float) -> None:
        """Count one iteration's value for the action taken here."""
        self.totals[text] = self.totals.get(text, 0.0) + value
        self.visits[text] = self.visits.get(text, 0) + 1


def _tree_search(
    engine: AnyEngine,
    state: Any,
    seat: Seat,
    texts: list[str],
    budget: Budget,
    rng: Rng,
    samples: int,
    steps: int,
) -> str:
    """Information-set tree search (see the module's docstring); returns the root action's text
    (the most visited one, ties to the better mean, then to the legal actions' order)."""
    root = _Node()
    nodes: dict[Any, _Node] = {}
    per_sample = max(1, steps // samples)
    for _ in range(samples):
        world = engine.determinize(state, seat, Rng.from_seed(rng.next_u64()))
        spent = 0
        while spent < per_sample:
            spent += _iterate(engine, world, seat, root, nodes, rng, budget)
    order = {text: i for i, text in enumerate(texts)}

    def rank(text: str) -> tuple[int, float, int]:
        n = root.visits.get(text, 0)
        return (n, root.totals.get(text, 0.0) / n if n else -1.0, -order[text])

    return max(texts, key=rank)


def _iterate(
    engine: AnyEngine,
    world: Any,
    seat: Seat,
    root: _Node,
    nodes: dict[Any, _Node],
    rng: Rng,
    budget: Budget,
) -> int:
    """One iteration in a sampled world: down the tree (a rival's node is keyed by what the
    searching seat sees there and who moves, and picks for that rival's own value), one new
    node, a random playout from it, and each decider's value backed up the path. Returns
    the engine steps it cost (a node's information key counts as one)."""
    path: list[tuple[_Node, str, Seat]] = []
    node, state, mover, steps, cap = root, world, seat, 0, budget.playout_cap
    while True:
        here = {engine.action_text(a): a for a in engine.legal_actions(state, mover)}
        text = node.pick(list(here), budget.exploration)
        path.append((node, text, mover))
        state = engine.play(state, mover, here[text])
        steps += 1
        if engine.outcome(state) is not None or steps >= cap:
            break
        acting = sorted(engine.to_act(state))
        mover = acting[rng.randbelow(len(acting))]
        key = (mover, engine.information_key(state, seat))
        steps += 1
        found = nodes.get(key)
        if found is None:
            nodes[key] = _Node()
            state, used = _rollout(engine, state, rng, max(1, cap - steps))
            steps += used
            break
        node = found
    players = _players(state)
    values: dict[Seat, float] = {}
    for visited, text, who in path:
        if who not in values:
            final = final_value(engine, state, who)
            values[who] = final if final is not None else estimate(engine, state, who, players)
        visited.update(text, values[who])
    return steps


def _rollout(engine: AnyEngine, state: Any, rng: Rng, cap: int) -> tuple[Any, int]:
    """Random play to the end or `cap` steps: the last state and the steps taken."""
    for step in range(cap):
        if engine.outcome(state) is not None:
            return state, step
        acting = sorted(engine.to_act(state))
        mover = acting[rng.randbelow(len(acting))]
        state = engine.play(state, mover, engine.random_action(state, mover, rng))
    return state, cap


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
        state = engine.play(state, mover, engine.random_action(state, mover, rng))
    value = final_value(engine, state, seat)
    return (value if value is not None else estimate(engine, state, seat, players)), cap


def _players(state: Any) -> int:
    """Seats in a game (every engine's state records `num_players`)."""
    return int(state.num_players)
