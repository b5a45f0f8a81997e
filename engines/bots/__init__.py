"""Bots for every Stolik game: one generic determinized search over the engine contract.

`choose_action(engine, state, seat, level=..., seed=...)` returns a legal action for `seat`.
It samples hidden information only through `engine.determinize(state, seat, rng)`, which the
shared invariants prove depends on nothing but the seat's view and the rng; so a bot knows
what its seat knows and nothing more. Pure: no I/O, no clock; equal seed, equal choice.
Levels: "easy" (fast, weak but sensible), "normal" (the default), "hard" (a bigger budget and
a tree over the later decisions, see `search`).
"""

from engines.bots.search import BUDGETS, LEVELS, Budget, choose_action, random_action

__all__ = ["BUDGETS", "LEVELS", "Budget", "choose_action", "random_action"]
