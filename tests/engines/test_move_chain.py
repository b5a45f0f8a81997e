"""The move chain, engine only (issue 32, item 3): in Dreadful Circus some single-move edits
of an export (the contents of a bid that was refused) changed nothing in the end, so the
replay alone let them through. Every move is now bound by the chain: any such edit is refused
and the verifier names the move; exports from before the chain still verify by the replay."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines import chain, verify
from tests.engines.test_verify import finished_export

GOODS = ("copper", "silver", "gold", "berlin", "paris", "vegas", "prague", "london")


def _edits(export: dict[str, Any], rng: random.Random, count: int) -> list[tuple[int, Any]]:
    """`count` random single-move edits, as (move index, edited move): about half of them the
    contents of a bid (most bids are refused in a random game), the rest another seat, another
    field value, a field added or removed."""
    moves = export["actions"]
    bids = [i for i, m in enumerate(moves) if m["action"]["type"] == "bid"]
    assert bids
    out: list[tuple[int, Any]] = []
    while len(out) < count:
        kind = rng.randrange(5)
        i = rng.choice(bids) if kind < 2 else rng.randrange(len(moves))
        move = copy.deepcopy(moves[i])
        action = move["action"]
        if kind < 2:
            good = rng.choice(GOODS)
            action[good] = max(0, action.get(good, 0) + rng.choice((-1, 1)))
        elif kind == 2:
            move["seat"] = (move["seat"] + 1) % export["num_players"]
        elif kind == 3:
            action["extra"] = rng.randrange(10)
        else:
            field = rng.choice([k for k in action if k != "type"] or ["type"])
            action[field] = 1 if action[field] != 1 else 2
        if move != moves[i]:
            out.append((i, move))
    return out


def test_every_single_move_edit_is_refused_and_named() -> None:
    export = finished_export("dreadful_circus", seed_of_play=5)
    assert verify.verify(export).ok
    rng = random.Random(32)
    before_chain = finished_export("dreadful_circus", seed_of_play=5, chained=False)
    let_through = 0
    for i, move in _edits(export, rng, 60):
        old = copy.deepcopy(before_chain)
        old["actions"][i] = {"seat": move["seat"], "action": move["action"]}
        let_through += verify.verify(old).ok
        edited = copy.deepcopy(export)
        edited["actions"][i] = move
        report = verify.verify(edited)
        assert not report.ok
        assert report.problems[0].text == f"Move {i + 1} does not match the move chain.", i
    # The hole: without the chain some of these edits verified (the contents of refused bids).
    assert let_through > 0


def test_rewriting_the_links_after_an_edit_changes_the_head() -> None:
    """An edit with every later link recomputed matches its own links, but the head is not
    the one shown at the table (and kept with the game); with the old head it is refused."""
    export = finished_export("dreadful_circus", seed_of_play=5)
    i = next(i for i, m in enumerate(export["actions"]) if m["action"]["type"] == "bid")
    edited = copy.deepcopy(export)
    edited["actions"][i]["action"]["copper"] += 1
    moves = [(m["seat"], m["action"]) for m in edited["actions"]]
    for move, link in zip(
        edited["actions"], chain.chain_links(edited["commitment"], moves), strict=True
    ):
        move["chain"] = link
    report = verify.verify(edited)
    assert [p.text for p in report.problems][:1] == [
        "The head of the move chain does not match the moves."
    ]
    assert edited["actions"][-1]["chain"] != export["move_chain"]


def test_moves_removed_added_or_reordered_are_named() -> None:
    export = finished_export("dreadful_circus", seed_of_play=5)
    removed = copy.deepcopy(export)
    del removed["actions"][10]
    assert verify.verify(removed).problems[0].text == "Move 11 does not match the move chain."
    swapped = copy.deepcopy(export)
    swapped["actions"][3], swapped["actions"][4] = swapped["actions"][4], swapped["actions"][3]
    assert verify.verify(swapped).problems[0].text == "Move 4 does not match the move chain."
    cut = copy.deepcopy(export)
    cut["actions"].pop()
    assert verify.verify(cut).problems[0].text == (
        "The head of the move chain does not match the moves."
    )
    string_seat = copy.deepcopy(export)
    string_seat["actions"][0]["seat"] = str(string_seat["actions"][0]["seat"])
    assert verify.verify(string_seat).problems[0].text == "Move 1 does not match the move chain."
    other_game = copy.deepcopy(export)
    other_game["commitment"] = finished_export("dreadful_circus", seed_of_play=6)["commitment"]
    assert any(
        p.text == "Move 1 does not match the move chain."
        for p in verify.verify(other_game).problems
    )


def test_the_link_is_canonical() -> None:
    """Key order and spacing of an action do not matter; its values, seat and version do."""
    start = chain.chain_start("c" * 64)
    a = chain.chain_link(start, 1, 0, {"type": "bid", "copper": 1, "offer": 0})
    assert a == chain.chain_link(
        start, 1, 0, json.loads('{"offer": 0,  "copper": 1, "type": "bid"}')
    )
    assert a != chain.chain_link(start, 2, 0, {"type": "bid", "copper": 1, "offer": 0})
    assert a != chain.chain_link(start, 1, 1, {"type": "bid", "copper": 1, "offer": 0})
    assert a != chain.chain_link(start, 1, 0, {"type": "bid", "copper": 2, "offer": 0})
    assert chain.chain_head("c" * 64, []) == start


@pytest.mark.parametrize("game_id", ["dreadful_circus", "ganges", "karmaka"])
def test_old_exports_still_verify(game_id: str) -> None:
    old = finished_export(game_id, chained=False)
    assert "chain_scheme" not in old and "chain" not in old["actions"][0]
    report = verify.verify(old)
    assert report.ok
    assert [n.message for n in report.notes] == [
        "An export from before the move chain: its moves are checked by the replay alone."
    ]


def test_the_command_line_names_the_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = finished_export("dreadful_circus", seed_of_play=5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    assert verify.main([str(path)]) == 0
    assert f"move chain head {export['move_chain']}" in capsys.readouterr().out
    i = next(i for i, m in enumerate(export["actions"]) if m["action"]["type"] == "bid")
    export["actions"][i]["action"]["gold"] = export["actions"][i]["action"].get("gold", 0) + 1
    path.write_text(json.dumps(export))
    assert verify.main([str(path)]) == 1
    assert f"FAILED: Move {i + 1} does not match the move chain." in capsys.readouterr().out
