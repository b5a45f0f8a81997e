"""Drawings kept by their arguments (`pure` in app/presentation/jinja_hooks.py): a macro
that reads only its arguments is drawn once per distinct arguments and language. Pages must
read exactly as if every drawing were made afresh, whatever came before them, at any time of
the room's clock."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from enum import Enum
from functools import partial
from itertools import combinations
from typing import Any

import pytest
from markupsafe import Markup

from app import i18n
from app.presentation import jinja_hooks
from app.presentation.environment import templates
from app.presentation.table import state_html
from app.realtime.connection import Connection
from app.store.tables import SeatInfo
from bench.pages import offline_table, positions
from engines import ENGINES

COUNTED = """{% macro word(x, cls=none) %}{{ tick() }}<b class="{{ cls }}">{{ _("hidden") }} {{ x }}</b>{% endmacro %}"""  # noqa: E501


def _counted_macro() -> tuple[Any, list[int]]:
    calls: list[int] = []

    def tick() -> str:
        calls.append(1)
        return ""

    template = templates.env.from_string(COUNTED, globals={"tick": tick})
    module: Any = template.module
    return jinja_hooks.pure(module.word), calls


class _Colour(Enum):
    RED = "red"


def test_arguments_that_print_differently_are_kept_apart() -> None:
    """1, 1.0, True, "1" and Markup("1") are different arguments; so are a list, a tuple and
    a dict, a Markup and the str of the same text (one is escaped, the other not), an enum
    and its value, NaN and None, and a list passed whole and its items passed one by one."""
    values = [1, 1.0, True, "1", Markup("1"), [1], {"1": 1}, (1,), None, float("nan")]
    values += ["<i>", Markup("<i>"), {1: "a"}, {"1": "a"}, "red"]
    keys = [jinja_hooks._arguments_key((v,), {}) for v in values]
    same = [(a, b) for a, b in combinations(range(len(values)), 2) if keys[a] == keys[b]]
    assert same == []
    assert jinja_hooks._arguments_key(([1], {"k": 2}), {}) != jinja_hooks._arguments_key(
        (1,), {"k": 2}
    )
    assert jinja_hooks._arguments_key(({"a": [1, {"b": None}]},), {}) == jinja_hooks._arguments_key(
        ({"a": [1, {"b": None}]},), {}
    )
    for unkeyable in (object(), _Colour.RED, {"a": [object()]}):
        with pytest.raises(TypeError):
            jinja_hooks._arguments_key((unkeyable,), {})
    # Markup is kept apart from str by the slower stand-in (marshal refuses str subclasses).
    assert jinja_hooks._frozen(Markup("1")) != jinja_hooks._frozen("1")
    assert jinja_hooks._frozen([Markup("1")]) != jinja_hooks._frozen((Markup("1"),))


def test_a_pure_macro_is_drawn_once_per_arguments_and_language() -> None:
    word, calls = _counted_macro()
    first = word("<x>", cls="a")
    assert first == '<b class="a">hidden &lt;x&gt;</b>'
    assert word("<x>", cls="a") == first and len(calls) == 1
    assert word(Markup("<x>"), cls="a") == '<b class="a">hidden <x></b>' and len(calls) == 2
    assert word("<x>", cls="b") != first and len(calls) == 3
    with i18n.use("pl"):
        polish = word("<x>", cls="a")
    assert polish == '<b class="a">ukryte &lt;x&gt;</b>' and len(calls) == 4
    assert word("<x>", cls="a") == first and len(calls) == 4
    unkeyable = object()
    word(unkeyable)
    word(unkeyable)
    assert len(calls) == 6  # what cannot be compared is drawn every time, never kept


def test_what_is_kept_is_bounded_and_the_oldest_goes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jinja_hooks, "_PURE", OrderedDict())
    monkeypatch.setattr(jinja_hooks, "_PURE_SIZE", [0])
    monkeypatch.setattr(jinja_hooks, "PURE_MAX_CHARS", 2_000)
    word, calls = _counted_macro()
    drawn = [word(n) for n in range(200)]
    size = sum(len(v) for v in jinja_hooks._PURE.values())
    assert jinja_hooks._PURE_SIZE[0] == size <= 2_000
    assert 0 < len(jinja_hooks._PURE) < 200
    kept = len(calls)
    word(199)  # the newest is still kept
    assert len(calls) == kept
    assert word(0) == drawn[0] and len(calls) == kept + 1  # the oldest was dropped


class _Forgetful(OrderedDict[Any, Any]):
    """A cache that keeps nothing: every drawing made afresh."""

    def get(self, key: Any, default: Any = None) -> Any:
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def _pages(engine: Any) -> list[str]:
    """Every audience's page over a seeded game, in both languages, in four rooms (people;
    a bot; a seat played by a bot, a disconnected seat and running clocks; a resigned player
    and a host without a seat), each at two times of the room's clock."""
    players = max(engine.spec.min_players, min(4, engine.spec.max_players))
    pages = []
    for state in positions(engine, players, seed=11, samples=6):
        for variant in range(4):
            for lang in ("en", "pl"):
                for now in (1_800_000_000.0, 1_800_000_007.3):
                    hub = offline_table(engine, state, players)
                    hub.runtime = replace(hub.runtime, now=partial(float, now))
                    assert hub.game is not None
                    if variant >= 1:
                        hub.seats[1] = SeatInfo(1, None, "Bot", bot_level="normal")
                    if variant >= 2:
                        hub.seats[0] = SeatInfo(0, 100, "Ala & <Ola>", control="autopilot")
                        hub.presence.offline_since[2] = 1_800_000_000.0 - 75
                        hub.game.clock = {
                            "spec": "normal",
                            "deadlines": {str(s): 1_800_000_030.0 + s for s in range(players)},
                            "banks": {"0": 600.0, "1": 0.0, "2": 12.5},
                        }
                    if variant == 3:
                        hub.seats[2] = SeatInfo(2, 102, "Zed", control="resigned")
                        hub.host_id = 999
                    with i18n.use(lang):
                        for seat in [*range(players), None]:
                            user = 999 if variant == 3 and seat is None else None
                            conn = Connection(
                                user_id=user if seat is None else 100 + seat, fmt="html"
                            )
                            pages.append(state_html(hub.snapshot(), conn, 200))
    return pages


@pytest.mark.parametrize("engine", ENGINES, ids=[e.spec.id for e in ENGINES])
def test_pages_read_the_same_as_when_every_drawing_is_made_afresh(
    engine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = _pages(engine)
    assert jinja_hooks._PURE, "the seats bar and the board keep drawings"
    with monkeypatch.context() as m:
        m.setattr(jinja_hooks, "_PURE", _Forgetful())
        m.setattr(jinja_hooks, "_PURE_SIZE", [0])
        m.setattr(jinja_hooks, "PURE_MAX_CHARS", 10**12)
        afresh = _pages(engine)
    assert len(kept) == len(afresh)
    for a, b in zip(kept, afresh, strict=True):
        assert a == b
    joined = "".join(kept)
    # People who have not chosen how to be spoken of read in neutral words (issue 33).
    assert "disconnected 1:15" in joined and "bez połączenia 1:15" in joined
    assert "disconnected 1:22" in joined  # the same seat read 7.3 s later
    assert 'class="clock running"' in joined
