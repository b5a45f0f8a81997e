"""Provably fair shuffles, engine only (issue 17): an export of a finished game of every
engine verifies — commitment from salt and secret, seed from the secret, full replay to the
stored end — and any change to an action, the seed, the secret or the commitment is caught;
`python -m engines.verify` says so with its exit code."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines import REGISTRY, chain, verify


def finished_export(game_id: str, seed_of_play: int = 3, *, chained: bool = True) -> dict[str, Any]:
    """A random finished game of `game_id`, exported the way the server exports it (without
    `chained`: as it did before the move chain, format 1)."""
    engine = REGISTRY[game_id]
    secret, salt = f"{seed_of_play:032x}", f"table-{game_id}:1"
    seed = verify.seed_from_secret(secret)
    n = engine.spec.min_players
    state = engine.setup(n, engine.parse_options({}), seed).state
    rng = random.Random(seed_of_play)
    actions: list[dict[str, Any]] = []
    for _ in range(20_000):
        if engine.outcome(state) is not None:
            break
        seat = min(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, seat))
        actions.append({"seat": seat, "action": engine.dump_action(action)})
        state = engine.apply(state, seat, action).state
    outcome = engine.outcome(state)
    assert outcome is not None
    commitment = verify.commitment(secret, salt)
    export = {
        "format": verify.FORMAT if chained else verify.FORMAT_BEFORE_CHAIN,
        "engine": game_id,
        "rules_version": engine.spec.rules_version,
        "options": {},
        "num_players": n,
        "commitment_scheme": "v2",
        "commitment": commitment,
        "salt": salt,
        "secret": secret,
        "seed": seed,
        "actions": actions,
        "final_snapshot": json.loads(json.dumps(engine.dump(state))),
        "result": json.loads(json.dumps(outcome.to_json())),
    }
    if chained:
        links = chain.chain_links(commitment, ((m["seat"], m["action"]) for m in actions))
        for move, link in zip(actions, links, strict=True):
            move["chain"] = link
        export["chain_scheme"] = chain.SCHEME
        export["move_chain"] = actions[-1]["chain"]
    return export


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_an_export_verifies_and_tampering_is_caught(game_id: str) -> None:
    export = finished_export(game_id)
    report = verify.verify(export)
    assert report.ok, [p.text for p in report.problems]
    assert report.moves == len(export["actions"]) > 0

    changed_secret = copy.deepcopy(export)
    changed_secret["secret"] = "f" * 32
    assert not verify.verify(changed_secret).ok

    changed_seed = copy.deepcopy(export)
    changed_seed["seed"] ^= 1
    assert any("seed" in p.text for p in verify.verify(changed_seed).problems)

    wrong_commitment = copy.deepcopy(export)
    wrong_commitment["commitment"] = "0" * 64
    assert any("commitment" in p.text for p in verify.verify(wrong_commitment).problems)

    # Another legal-looking action anywhere changes the replay: a refusal or another end.
    engine = REGISTRY[game_id]
    changed_action = copy.deepcopy(export)
    state = engine.setup(export["num_players"], engine.parse_options({}), export["seed"]).state
    for i, move in enumerate(export["actions"]):
        legal = [engine.dump_action(a) for a in engine.legal_actions(state, move["seat"])]
        others = [a for a in legal if a != move["action"]]
        if others:
            changed_action["actions"][i]["action"] = others[0]
            break
        state = engine.apply(state, move["seat"], engine.parse_action(move["action"])).state
    else:
        pytest.skip("no move had an alternative")
    assert not verify.verify(changed_action).ok


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = finished_export("incan_gold")
    good = tmp_path / "game.json"
    good.write_text(json.dumps(export))
    assert verify.main([str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    export["commitment"] = "1" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(export))
    assert verify.main([str(bad)]) == 1
    assert "FAILED" in capsys.readouterr().out
    assert verify.main([]) == 2


def test_games_from_before_the_salt_still_verify() -> None:
    """Scheme v1: the commitment was SHA-256 of "stolik:<seed>" (before the move chain too)."""
    export = finished_export("racing_hedgehogs", chained=False)
    for key in ("salt", "secret"):
        del export[key]
    export["commitment_scheme"] = "v1"
    export["commitment"] = verify.legacy_commitment(export["seed"])
    assert verify.verify(export).ok
    export["seed"] += 1
    assert not verify.verify(export).ok


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "not a game export"),
        (b"\xff\xfe", "not UTF-8"),
        (("[" * 10_000 + "]" * 10_000).encode(), "nested more than"),
        (('{"a": ' * 100 + "1" + "}" * 100).encode(), "nested more than"),
        (b'{"seed": NaN}', "NaN is not a number"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "a number too long"),
    ],
)
def test_a_file_that_is_not_an_export_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, says: str
) -> None:
    """`python -m engines.verify` on a file that is not a game export: one line on stderr
    naming the file and what is wrong, exit code 2, no traceback."""
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert verify.main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: {path}: ") and says in err, err
    assert verify.main([str(tmp_path / "missing.json")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_the_command_prints_no_traceback(tmp_path: Path) -> None:
    """The same, as a command (what a person runs)."""
    import subprocess
    import sys

    path = tmp_path / "deep.json"
    path.write_text("[" * 10_000 + "]" * 10_000)
    run = subprocess.run(
        [sys.executable, "-m", "engines.verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
_EXPORT = finished_export("incan_gold")


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(_EXPORT)), value=_json)
@example(key="num_players", value=float("inf"))
@example(key="actions", value=[{"seat": float("inf"), "action": {}}])
def test_verify_never_raises_on_a_changed_field(key: str, value: Any) -> None:
    """Whatever one field of an export holds, `verify` answers a report (never raises)."""
    report = verify.verify(dict(_EXPORT, **{key: value}))
    assert isinstance(report.ok, bool)
