"""The base of a live table's collaborators (one concern each: seating, moves, chat, …)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from app.table.table import Table


class Collaborator:
    """One concern of a live table. It holds its table weakly (a proxy): a table and its
    collaborators then make no reference cycle, so a table the registry lets go of is freed
    at once instead of waiting for the cycle collector (with a cycle, every table built for
    one rendering in `bench.pages` cost ~9 % more in collections)."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table: Table = cast("Table", weakref.proxy(table))
