"""Group commit of moves on PostgreSQL: the moves that come while a batch is being written
go together in the next one, one statement and one commit (`moves.record_moves_at_once`)."""

from __future__ import annotations

import asyncio

import asyncpg

from app.store.moves import MoveRecord, record_move_at_once, record_moves_at_once


class MoveWriter:
    """PostgreSQL: plain moves (no result, no table note) written on the store's asyncpg pool,
    outside SQLAlchemy, one statement each, or several at once under load. A checkout,
    AUTOCOMMIT and a compiled statement through SQLAlchemy cost about twice the CPU of the
    statement itself, and a BEGIN … COMMIT transaction costs two more round trips; a move is
    the one write every table makes every few seconds. A dead connection fails one write; the
    pool replaces it."""

    def __init__(self, pool: asyncpg.Pool, in_flight: int = 1) -> None:
        self.pool = pool
        self.in_flight = in_flight
        """Batches of moves being written at once at most (one: while a batch is written,
        the moves that come wait and go together in the next; a commit waits for the disk
        anyway, and with more batches in flight fewer moves share each)."""
        self._waiting: list[tuple[MoveRecord, asyncio.Future[bool]]] = []
        self._writing = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.batches = 0
        """Batches written so far (statements), for tests and benchmarks."""

    async def record(self, move: MoveRecord) -> bool:
        """Store one plain move (see `moves.record_move_at_once`); False if another writer got
        there first. Returns once it is committed.

        Group commit: when `in_flight` batches are being written already, the move waits
        and goes with the others that came meanwhile, in one statement and one commit
        (`moves.record_moves_at_once`) — under load a move costs a fraction of a statement,
        and when it is quiet each move still goes at once, alone. The writing runs in its
        own task, so a caller that gives up waiting leaves the others' moves unharmed."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, done))
        self._next_batch()
        return await done

    def _next_batch(self) -> None:
        """Start writing what waits, if a batch may go now."""
        if not self._waiting or self._writing >= self.in_flight:
            return
        batch: list[tuple[MoveRecord, asyncio.Future[bool]]] = []
        later: list[tuple[MoveRecord, asyncio.Future[bool]]] = []
        games: set[int] = set()
        for item in self._waiting:  # a game's next move waits for the one before it
            (later if item[0].game_id in games else batch).append(item)
            games.add(item[0].game_id)
        self._waiting = later
        self._writing += 1
        task = asyncio.create_task(self._write(batch))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, batch: list[tuple[MoveRecord, asyncio.Future[bool]]]) -> None:
        try:
            async with self.pool.acquire() as conn:
                self.batches += 1
                if len(batch) == 1:
                    move, done = batch[0]
                    _settle(done, await record_move_at_once(conn, move))
                    return
                try:
                    stored = await record_moves_at_once(conn, [m for m, _ in batch])
                except (asyncpg.PostgresError, asyncpg.InterfaceError):
                    # One bad move must not fail the others: each goes again on its own.
                    for move, done in batch:
                        try:
                            _settle(done, await record_move_at_once(conn, move))
                        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                            _fail(done, exc)
                    return
                for move, done in batch:
                    _settle(done, move.game_id in stored)
        except BaseException as exc:
            for _, done in batch:
                _fail(done, exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            self._writing -= 1
            self._next_batch()


def _settle(done: asyncio.Future[bool], stored: bool) -> None:
    if not done.done():
        done.set_result(stored)


def _fail(done: asyncio.Future[bool], exc: BaseException) -> None:
    if done.done():
        return
    if isinstance(exc, asyncio.CancelledError):
        done.cancel()
    else:
        done.set_exception(exc)
