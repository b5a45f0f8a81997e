"""High Card's own rules, and its registration: in force for the session, and undone cleanly by
the same helpers (a second copy under another id is registered and removed here)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import ClassVar

import pytest

from app.lobby import playable_engines
from app.presentation.environment import (
    add_template_folder,
    has_screen,
    remove_template_folder,
    templates,
)
from engines import (
    ENGINES,
    REGISTRY,
    SHIPPED,
    is_shipped,
    register_engine,
    registered,
    unregister_engine,
)
from engines.core import GameSpec, IllegalAction, NotYourTurn
from tests.high_card import ENGINE, TEMPLATES
from tests.high_card.rules import HighCard, Keep, Options, Swap


def test_each_player_is_dealt_one_card_the_rest_is_the_deck() -> None:
    state = ENGINE.setup(3, Options(), 5).state
    assert len(state.hands) == 3 and len(state.deck) == 9
    assert sorted(state.hands + state.deck) == list(range(1, 13))
    assert ENGINE.to_act(state) == {0}
    with pytest.raises(IllegalAction):
        ENGINE.setup(5, Options(), 5)


def test_a_swap_takes_the_top_card_and_discards_the_old_one_face_up() -> None:
    state = ENGINE.setup(2, Options(), 1).state
    old, top = state.hands[0], state.deck[0]
    step = ENGINE.apply(state, 0, Swap())
    assert step.state.hands[0] == top and step.state.discards == [old]
    assert step.state.deck == state.deck[1:]
    assert ENGINE.game_view(step.state, 1)["discards"] == [old]
    with pytest.raises(NotYourTurn):
        ENGINE.apply(step.state, 0, Keep())


def test_cards_stay_face_down_until_everyone_has_played_then_the_highest_wins() -> None:
    state = ENGINE.setup(2, Options(), 3).state
    state = ENGINE.apply(state, 0, Keep()).state
    assert [p["card"] for p in ENGINE.game_view(state, None)["players"]] == [None, None]
    assert [p["card"] is None for p in ENGINE.game_view(state, 1)["players"]] == [True, False]
    state = ENGINE.apply(state, 1, Keep()).state
    outcome = ENGINE.outcome(state)
    assert outcome is not None and ENGINE.to_act(state) == frozenset()
    best = max(range(2), key=lambda s: state.hands[s])
    assert outcome.winners == {best} and outcome.scores == dict(enumerate(state.hands))
    assert [p["card"] for p in ENGINE.game_view(state, None)["players"]] == state.hands


def test_high_card_is_registered_for_the_session_but_not_shipped() -> None:
    assert REGISTRY["high_card"] is ENGINE and ENGINES[-1] is ENGINE
    assert not is_shipped("high_card") and all(is_shipped(e.spec.id) for e in SHIPPED)
    assert has_screen("high_card") and ENGINE in playable_engines()


class Copy(HighCard):
    spec: ClassVar[GameSpec] = dataclasses.replace(
        HighCard.spec, id="high_card_copy", title="High Card (copy)", max_players=2
    )


def test_registration_and_a_screen_folder_are_undone(tmp_path: Path) -> None:
    before = (list(ENGINES), dict(REGISTRY), list(playable_engines()))
    board = tmp_path / "games" / "high_card_copy" / "board.html"
    board.parent.mkdir(parents=True)
    board.write_text("copy of {{ view.deck }}")
    copy = Copy()
    with registered(copy):
        assert REGISTRY["high_card_copy"] is copy and not has_screen("high_card_copy")
        add_template_folder(tmp_path)
        try:
            assert has_screen("high_card_copy") and copy in playable_engines()
            assert templates.env.get_template("games/high_card_copy/board.html")
        finally:
            remove_template_folder(tmp_path)
        assert not has_screen("high_card_copy")
        with pytest.raises(ValueError):
            register_engine(Copy())
    assert (list(ENGINES), dict(REGISTRY), list(playable_engines())) == before
    with pytest.raises(ValueError):
        unregister_engine("incan_gold")
    assert TEMPLATES.is_dir()
