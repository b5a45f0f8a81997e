"""How several server processes hear of each other's room changes: Redis pub/sub.

With `REDIS_URL` set, every committed room change (a move, a seat or status change, a chat
line, presence, the lobby list) is published on one channel, and every other process updates
its cached table from it and pushes to its own sockets (app/realtime/sync.py). Without it (the
embedded default) `LocalBus` publishes nothing and one process is the whole server.

Publishing never waits inside a table's lock: `send` queues the message and one task publishes
the queue in order, so a room's messages leave in the order of its versions. What queued while
the last publish waited goes as ONE Redis message: the sender's `origin` (12 characters), then
a JSON list of the changes. Every process receives every message on the channel, its own
included, so a listener's cost is per Redis message: it skips its own by the prefix, without
parsing, and parses another's batch once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

logger = logging.getLogger("stolik.bus")

CHANNEL = "stolik:rooms"
QUEUE_LIMIT = 10_000
"""Messages waiting to be published; past this, Redis is too slow or gone and changes are
dropped (logged): other processes then catch up on their next version check."""

RESUBSCRIBE_EVERY = 1.0
"""Seconds between two attempts to subscribe again while Redis is away."""

PUBLISH_BATCH = 256
"""At most this many queued changes go to Redis in one message."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class LocalBus:
    """One process: nothing to tell anyone."""

    origin = "local"
    enabled = False

    def send(self, message: dict[str, Any]) -> None:
        """Nothing to do."""

    async def start(self, handler: Handler) -> None:
        """Nothing to do."""

    async def stop(self) -> None:
        """Nothing to do."""


class RedisBus:
    """Publishes this process's room changes and hands other processes' ones to `handler`."""

    enabled = True

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(6)
        self._prefix = self.origin.encode()
        # Named, so `CLIENT LIST` on the Redis server shows which process each connection is.
        self.client = aioredis.from_url(url, client_name=f"stolik-bus-{self.origin}")
        self._queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.published = 0
        self.batches = 0
        self.received = 0
        self.reconnects = 0
        """Times the subscriber's connection came back after Redis was lost."""
        self._handler: Handler | None = None
        self._watched: Any = None
        self._catching_up: set[asyncio.Task[None]] = set()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for every other process (never blocks)."""
        if self._queue.qsize() >= QUEUE_LIMIT:
            logger.error("bus queue full; dropping %s", message.get("k"))
            return
        # Encoded now: what the message refers to may change before it is published.
        self._queue.put_nowait(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS))

    async def start(self, handler: Handler) -> None:
        """Subscribe (before anything is served, so no change is missed) and start the
        publisher and listener tasks."""
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        self._tasks = [
            asyncio.create_task(self._publish_loop()),
            asyncio.create_task(self._listen_loop(pubsub, handler)),
        ]

    async def stop(self) -> None:
        """Publish what is queued (briefly), then stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), 2.0)
        tasks = [*self._tasks, *self._catching_up]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.client.aclose()

    async def _drain(self) -> None:
        await self._queue.join()

    async def _publish_loop(self) -> None:
        """Publish the queue in order. What queued while the last publish waited for Redis
        goes together, in one message (one publish for the sender, one message to read for
        every listener, not one per change): under load that is most changes.

        While Redis is away what cannot be published is dropped (said once, not per batch);
        once a publish goes through again, a `resync` follows it, and every other process
        re-reads its tables from the database (`Tables.catch_up`)."""
        dropped = 0
        while True:
            batch = [await self._queue.get()]
            while len(batch) < PUBLISH_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await self.client.publish(
                    self.channel, b"".join((self._prefix, b"[", b",".join(batch), b"]"))
                )
                self.published += len(batch)
                self.batches += 1
                if dropped:
                    logger.warning("Redis is back: %d room change(s) were not published", dropped)
                    dropped = 0
                    self.send({"k": "resync"})
            except Exception:
                if not dropped:
                    logger.exception("publishing room changes failed; dropping until Redis is back")
                dropped += len(batch)
                await asyncio.sleep(0.5)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _listen_loop(self, pubsub: Any, handler: Handler) -> None:
        self._handler = handler
        self._watch_reconnects(pubsub)
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    data: bytes = message["data"]
                    if data.startswith(self._prefix):
                        continue  # our own
                    try:
                        origin = data[: len(self._prefix)].decode()
                        changes = orjson.loads(data[len(self._prefix) :])
                    except (UnicodeDecodeError, orjson.JSONDecodeError):
                        changes = None
                    if type(changes) is not list or not all(type(c) is dict for c in changes):
                        logger.error("an unreadable message on the bus: %r", data[:80])
                        continue
                    for change in changes:
                        change["o"] = origin
                        self.received += 1
                        try:
                            await handler(change)
                        except Exception:
                            logger.exception("applying a room change from another process failed")
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("the bus lost Redis; resubscribing when it is back")
                while True:  # the reconnection says "resubscribed" (`_reconnected`)
                    await asyncio.sleep(RESUBSCRIBE_EVERY)
                    try:
                        await pubsub.subscribe(self.channel)
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        continue
                self._watch_reconnects(pubsub)

    def _watch_reconnects(self, pubsub: Any) -> None:
        """Be told of every reconnection of the subscriber's connection: redis-py reconnects
        (and resubscribes) by itself inside a read when Redis comes back quickly, so a lost
        connection is not always an error here."""
        connection = pubsub.connection
        if connection is not None and connection is not self._watched:
            self._watched = connection
            connection.register_connect_callback(self._reconnected)

    async def _reconnected(self, _connection: Any) -> None:
        """The subscriber's connection is back (and subscribed again): changes published
        meanwhile were missed, so the tables catch up from the database (the handler hears
        `resubscribed`, with no origin: our own word). In a task of its own: the reconnection
        must not wait for that."""
        handler = self._handler
        if handler is None:
            return
        self.reconnects += 1
        logger.warning("the bus has Redis again; catching up from the database")

        async def catch_up() -> None:
            try:
                await handler({"k": "resubscribed"})
            except Exception:
                logger.exception("catching up after the bus lost Redis failed")

        task = asyncio.create_task(catch_up())
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)


def make_bus(url: str, channel: str = CHANNEL) -> LocalBus | RedisBus:
    """The bus for a REDIS_URL (empty: one process, nothing published)."""
    return RedisBus(url, channel) if url else LocalBus()
