"""Provably fair shuffles: check a finished game's export without a server or a database.

    python -m engines.verify game.json

Before the first move the server draws a secret of 128 random bits and shows everyone its
commitment, SHA-256 of a public salt (derived from the table) and the secret. The game's seed —
every shuffle and deal — is derived from the secret alone. At the end the secret is revealed and
the export (`GET /api/tables/<slug>/export`) carries it with every action and its seat.

This module recomputes the commitment from the salt and the secret, derives the seed, replays
the whole game from `setup(seed)` with the recorded actions, and compares the final state and
result with the stored ones. It proves that the deal was fixed before the first move (the
commitment was shown then, and no other secret gives it) and that the recorded moves lead to
the recorded end. It does not prove that the server chose the secret at random, nor that it did
not show the secret to someone during the game.

Since format 2 every move is bound by the move chain (engines/chain.py): the export carries each
move's link and the head, and a move that does not match its link is named ("move 17 does not
match the chain") even when the replay would not notice the change (the contents of a refused
bid change nothing in the end). Exports of format 1 (games from before the chain) still verify,
by the replay alone.

Games started before commitments had a salt (scheme "v1") committed to SHA-256 of "stolik:<seed>";
they verify the same way with the seed as their secret.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import REGISTRY, chain, safe_json
from engines.core import GameError, Phrase, tr

FORMAT = "stolik-game/2"
"""The format of exports made now: every move carries its link of the move chain."""
FORMAT_BEFORE_CHAIN = "stolik-game/1"
"""Exports of games from before the move chain (and of games started before it)."""
SEED_BITS = 62


def commitment(secret: str, salt: str) -> str:
    """The public commitment to a game's secret (scheme v2)."""
    return hashlib.sha256(f"stolik:v2:{salt}:{secret}".encode()).hexdigest()


def seed_from_secret(secret: str) -> int:
    """The engine seed a secret stands for (62 bits of SHA-256 of it)."""
    digest = hashlib.sha256(f"stolik:seed:{secret}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << SEED_BITS) - 1)


def legacy_commitment(seed: int) -> str:
    """The commitment of games started before scheme v2."""
    return hashlib.sha256(f"stolik:{seed}".encode()).hexdigest()


@dataclass
class Report:
    """What a verification found: `problems` is empty when everything holds."""

    moves: int = 0
    problems: list[Phrase] = field(default_factory=list)
    notes: list[Phrase] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the export verifies."""
        return not self.problems


def verify(export: dict[str, Any]) -> Report:
    """Check an export: format, commitment, seed, and a full replay to the stored end."""
    report = Report()
    if export.get("format") not in (FORMAT, FORMAT_BEFORE_CHAIN):
        report.problems.append(
            Phrase(tr("Not a Stolik game export (format %(format)s)."), {"format": FORMAT})
        )
        return report
    engine = REGISTRY.get(str(export.get("engine")))
    if engine is None:
        report.problems.append(
            Phrase(tr("Unknown game: %(game)s."), {"game": str(export.get("engine"))})
        )
        return report
    rules = str(export.get("rules_version", ""))
    if rules != engine.spec.rules_version:
        report.notes.append(
            Phrase(
                tr(
                    "Played under rules version %(played)s; this server's rules are version "
                    "%(current)s, so the replay may differ."
                ),
                {"played": rules, "current": engine.spec.rules_version},
            )
        )
    seed = export.get("seed")
    scheme = export.get("commitment_scheme")
    if scheme == "v2":
        secret, salt = str(export.get("secret", "")), str(export.get("salt", ""))
        if commitment(secret, salt) != export.get("commitment"):
            report.problems.append(
                Phrase(tr("The commitment does not match the salt and the secret."))
            )
        if seed_from_secret(secret) != seed:
            report.problems.append(Phrase(tr("The seed is not the one the secret stands for.")))
    elif scheme == "v1":
        if not isinstance(seed, int) or legacy_commitment(seed) != export.get("commitment"):
            report.problems.append(Phrase(tr("The commitment does not match the seed.")))
    else:
        report.problems.append(Phrase(tr("Unknown commitment scheme.")))
    if export.get("format") == FORMAT:
        _check_chain(export, report)
    else:
        report.notes.append(
            Phrase(
                tr(
                    "An export from before the move chain: its moves are checked by the "
                    "replay alone."
                )
            )
        )
    if not isinstance(seed, int):
        report.problems.append(Phrase(tr("The seed is missing.")))
        return report
    try:
        options = engine.parse_options(export.get("options") or {})
        state = engine.setup(int(export["num_players"]), options, seed).state
        for i, move in enumerate(export.get("actions") or []):
            action = engine.parse_action(move["action"])
            state = engine.apply(state, int(move["seat"]), action).state
            report.moves = i + 1
    except (GameError, KeyError, TypeError, ValueError, OverflowError) as exc:
        report.problems.append(
            Phrase(
                tr("The replay fails at move %(move)s: %(reason)s"),
                {
                    "move": report.moves + 1,
                    "reason": Phrase(
                        getattr(exc, "template", str(exc)), getattr(exc, "params", {})
                    ),
                },
            )
        )
        return report
    if engine.dump(state) != export.get("final_snapshot"):
        report.problems.append(Phrase(tr("The replayed end differs from the stored final state.")))
    outcome = engine.outcome(state)
    if outcome is None:
        report.problems.append(Phrase(tr("The replayed game is not over.")))
    elif _canonical(outcome.to_json()) != _canonical(export.get("result")):
        report.problems.append(Phrase(tr("The replayed result differs from the stored result.")))
    return report


def _check_chain(export: dict[str, Any], report: Report) -> None:
    """Every move's link of the move chain, recomputed from the commitment, must be the one
    the export gives, and the last the export's head; the first move that breaks it is named."""
    if export.get("chain_scheme") != chain.SCHEME:
        report.problems.append(Phrase(tr("Unknown move chain scheme.")))
        return
    moves = export.get("actions")
    link = chain.chain_start(str(export.get("commitment")))
    for version, move in enumerate(moves if isinstance(moves, list) else [], start=1):
        try:
            link = chain.chain_link(link, version, move["seat"], move["action"])
            matches = isinstance(move["seat"], int) and move.get("chain") == link
        except (KeyError, TypeError, ValueError, RecursionError):
            matches = False
        if not matches:
            report.problems.append(
                Phrase(tr("Move %(move)s does not match the move chain."), {"move": version})
            )
            return
    if export.get("move_chain") != link:
        report.problems.append(Phrase(tr("The head of the move chain does not match the moves.")))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def main(argv: list[str] | None = None) -> int:
    """`python -m engines.verify game.json`: print the verdict; exit 0 when it verifies, 1
    when it does not, 2 when the file cannot be read as a game export (one line on stderr:
    missing, not JSON, nested too deeply, not an object)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m engines.verify game.json", file=sys.stderr)
        return 2
    try:
        export = safe_json.loads(Path(args[0]).read_bytes())
    except (OSError, safe_json.BadJson) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        print(f"error: {args[0]}: {reason}", file=sys.stderr)
        return 2
    if not isinstance(export, dict):
        print(f"error: {args[0]}: not a game export (a JSON object)", file=sys.stderr)
        return 2
    report = verify(export)
    for note in report.notes:
        print(f"note: {note.text}")
    if report.ok:
        print(
            f"verified: {export['engine']}, {report.moves} moves replayed from the committed "
            f"seed; commitment {export['commitment']}"
        )
        if export.get("move_chain"):
            print(f"move chain head {export['move_chain']} (compare it with the table's)")
        return 0
    for problem in report.problems:
        print(f"FAILED: {problem.text}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
