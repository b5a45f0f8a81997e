"""The move chain: every move of a game bound, in order, to the game's shuffle commitment.

The chain starts from the commitment shown before the first move (`chain_start`); each move's
link is SHA-256 of the previous link, the version the move made, its seat and its action
(canonical JSON: sorted keys, no spaces, ASCII) — `chain_link`. The last link, the chain's
head, is shown to everyone at the table after every move and stored with the game; an export
carries every move's link, so a change to any move (even one that changes nothing in the
game's end, such as the contents of a refused bid) is caught at that move
(engines/verify.py).

Pure: the server's move path (app/table/moves.py) and the verifier use the same functions.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

SCHEME = "sha256/1"
"""The chain's scheme, named in exports (`chain_scheme`)."""

_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode


def chain_start(commitment: str) -> str:
    """The chain's first link (version 0): it binds the chain to the game's commitment."""
    return hashlib.sha256(f"stolik:chain:v1:{commitment}".encode()).hexdigest()


def chain_link(previous: str, version: int, seat: int, action: Any) -> str:
    """The link of the move that made `version`, played by `seat`, after link `previous`."""
    text = f"{previous}:{version}:{seat}:{_dumps(action)}"
    return hashlib.sha256(text.encode()).hexdigest()


def chain_links(commitment: str, moves: Iterable[tuple[int, Any]]) -> Iterator[str]:
    """Each move's link, in order, for moves given as (seat, action)."""
    link = chain_start(commitment)
    for version, (seat, action) in enumerate(moves, start=1):
        link = chain_link(link, version, seat, action)
        yield link


def chain_head(commitment: str, moves: Iterable[tuple[int, Any]]) -> str:
    """The head of the chain after `moves` (the first link when there are none)."""
    head = chain_start(commitment)
    for head in chain_links(commitment, moves):  # noqa: B007 - the last one is the head
        pass
    return head
