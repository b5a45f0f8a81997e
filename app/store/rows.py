"""Helpers the store's SQL shares: one plain INSERT for a new row, JSON as text for asyncpg."""

from __future__ import annotations

from typing import Any, TypeVar

import orjson
from sqlalchemy import Insert, Table, insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import DeclarativeBase

_Row = TypeVar("_Row", bound=DeclarativeBase)


_INSERTS: dict[tuple[type, frozenset[str]], tuple[Insert, list[str]]] = {}


async def insert_row(session: AsyncSession, row: _Row) -> _Row:
    """Write a new row, given as an unsaved mapped object, as one plain INSERT, and read its
    generated key and the defaults it was not given back into it (RETURNING).

    Not `session.add` + `flush`: the unit of work (tracking, ordering, refreshing) cost more
    CPU than the statement, for rows that are written once here and never changed through
    the object. The object stays detached from the session: changing it later writes
    nothing. The statement is built once per table and set of columns given.
    """
    model = type(row)
    table: Table = model.__table__  # type: ignore[assignment]
    given = {c.key: row.__dict__[c.key] for c in table.columns if c.key in row.__dict__}
    key = (model, frozenset(given))
    built = _INSERTS.get(key)
    if built is None:
        back = [c for c in table.columns if c.key not in given]
        built = _INSERTS[key] = (insert(table).returning(*back), [c.key for c in back])
    statement, names = built
    if names:
        returned = (await session.execute(statement, given)).one()
        for name, value in zip(names, returned, strict=True):
            setattr(row, name, value)
    else:
        await session.execute(statement, given)
    return row


def as_json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
