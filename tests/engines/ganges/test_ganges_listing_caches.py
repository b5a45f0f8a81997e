"""The kept payment templates and triple-less displays (engines/ganges/payment.py, triples.py)
never change an answer: the legal actions and the states of seeded games are the same whether
those caches are cold, warm, or cleared in the middle of a game."""

from __future__ import annotations

from engines.core import Rng
from engines.ganges import ENGINE, payment, triples


def _play(seed: int, clear_every: int | None) -> list[str]:
    """A seeded random game's legal action texts at every step and its final state."""
    state = ENGINE.setup(4, ENGINE.parse_options({}), seed).state
    rng = Rng.from_seed(seed)
    out: list[str] = []
    step = 0
    while ENGINE.outcome(state) is None:
        if clear_every is not None and step % clear_every == 0:
            payment._TEMPLATES.clear()
            triples._NONE.clear()
        seat = min(ENGINE.to_act(state))
        options = ENGINE.legal_actions(state, seat)
        out.append("|".join(ENGINE.action_text(a) for a in options))
        state = ENGINE.apply(state, seat, options[rng.randbelow(len(options))]).state
        step += 1
    out.append(state.model_dump_json())
    return out


def test_caches_do_not_change_the_game() -> None:
    for seed in (3, 11):
        cleared = _play(seed, clear_every=1)
        warm = _play(seed, clear_every=None)
        assert warm == _play(seed, clear_every=None)
        assert cleared == warm
        assert _play(seed, clear_every=7) == warm
