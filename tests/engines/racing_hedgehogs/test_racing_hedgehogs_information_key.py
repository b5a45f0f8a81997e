"""Racing Hedgehogs' `information_key` (the hard bot's tree key) must part states exactly as
the seat's view does: worlds the seat cannot tell apart share a key, and any difference the
view shows gives another key (else the bots would search another tree and choose other
moves)."""

from __future__ import annotations

from engines.core import Rng
from engines.racing_hedgehogs import ENGINE


def test_the_key_parts_states_as_the_view_does() -> None:
    by_view: dict[str, set[object]] = {}
    by_key: dict[object, set[str]] = {}
    rng = Rng.from_seed(5)
    for seed in range(4):
        options = ENGINE.parse_options({"advanced_scoring": seed % 2 == 1})
        state = ENGINE.setup(3 + seed % 3, options, seed).state
        step = 0
        while True:
            if step % 3 == 0 or ENGINE.outcome(state) is not None:
                for looker in range(state.num_players):
                    worlds = [state] + [ENGINE.determinize(state, looker, rng) for _ in range(2)]
                    # Rounds ended in worlds the looker cannot tell apart: their kept and
                    # set-aside cards differ, and so must the keys.
                    for world in list(worlds):
                        if ENGINE.outcome(world) is None:
                            for _ in range(12):
                                mover = min(ENGINE.to_act(world))
                                world = ENGINE.play(
                                    world, mover, ENGINE.random_action(world, mover, rng)
                                )
                                if ENGINE.outcome(world) is not None:
                                    break
                            worlds.append(world)
                    for world in worlds:
                        view = repr(ENGINE.view(world, looker))
                        key = (looker, ENGINE.information_key(world, looker))
                        by_view.setdefault(view, set()).add(key)
                        by_key.setdefault(key, set()).add(view)
            if ENGINE.outcome(state) is not None:
                break
            seat = min(ENGINE.to_act(state))
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, rng)).state
            step += 1
    assert len(by_view) > 300
    assert all(len(keys) == 1 for keys in by_view.values())
    assert all(len(views) == 1 for views in by_key.values())
