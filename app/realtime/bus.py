"""How several server processes hear of each other's room changes: Redis pub/sub, one
channel per table.

With `REDIS_URL` set, every committed change of a table (a move, a seat or status change, a
chat line, presence) is published on that table's own channel, `<channel>:t:<slug>`, and only
the processes subscribed to it hear it: those that hold the table live (a socket, a request, a
game whose bots or clock run there — `Tables` subscribes when it keeps a table and unsubscribes
when it forgets it). What concerns every process (the lobby list changed, a person renamed or
signed out, "alive", "resync") goes on the lobby-wide channel, `<channel>`, which every process
hears. So a process's bus cost grows with the tables it serves, not with the cluster: with
tables routed to processes as the proxy does, one process of eight reads an eighth of the
moves, not all of them. Without Redis (the embedded default) `LocalBus` publishes nothing and
one process is the whole server.

Subscribing is a boundary: `watch(slug)` returns once Redis has confirmed the subscription, and
the caller reads the table from the database only after that, so a change committed after the
read is heard, and one committed before it is in what was read (`Tables.get`).

Publishing never waits inside a table's lock: `send` queues the message and one task publishes
the queue in order, so a table's messages leave in the order of its versions. What queued while
the last publish waited goes in ONE round trip (a pipeline), one Redis message per channel: the
sender's `origin` (12 characters), then a JSON list of that channel's changes. A process hears
its own messages on the channels of the tables it serves; it skips them by the prefix, without
parsing, and parses another's once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter, deque
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

LOBBY_EVERY = 0.5
"""At most one "the lobby changed" a process says in this many seconds (every process hears it:
the lobby-wide channel carries changes of tables, never moves, and no more than this)."""

PUBLISH_BATCH = 256
"""At most this many queued changes go to Redis in one message."""

LOBBY = {"k": "lobby"}

Handler = Callable[[dict[str, Any]], Awaitable[None]]


SUBSCRIBE_WAIT = 2.0
"""Seconds `watch` waits for Redis to confirm a subscription before the table is read anyway
(Redis is slow or away: the catch-up after it is back covers what was missed)."""


class LocalBus:
    """One process: nothing to tell anyone."""

    origin = "local"
    enabled = False

    def send(self, message: dict[str, Any]) -> None:
        """Nothing to do."""

    def lobby_changed(self) -> None:
        """Nothing to do."""

    async def watch(self, slug: str) -> None:
        """Nothing to do."""

    def watch_soon(self, slug: str) -> None:
        """Nothing to do."""

    def unwatch(self, slug: str) -> None:
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
        self._tables_prefix = f"{channel}:t:"
        self._table_channel_prefix = self._tables_prefix.encode()
        self._queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.published = 0
        self.batches = 0
        self.received = 0
        self.reconnects = 0
        """Times the subscriber's connection came back after Redis was lost."""
        self._handler: Handler | None = None
        self._watched: Any = None
        self._catching_up: set[asyncio.Task[None]] = set()
        self._pubsub: Any = None
        self.watching: set[str] = set()
        """Tables (slugs) whose channel this process is subscribed to, or subscribing."""
        self._confirming: dict[str, deque[asyncio.Future[None]]] = {}
        """Per table channel, one future per SUBSCRIBE sent and not yet confirmed (Redis
        confirms them in order)."""
        self._commands: set[asyncio.Task[None]] = set()
        self._joining: dict[str, asyncio.Future[None]] = {}
        """Tables being subscribed to now (a second `watch` waits for the first's answer)."""
        self.heard: Counter[str] = Counter()
        """Redis messages received on each table's channel (by slug), own ones included:
        what Redis made this process read about that table."""
        self._lobby_queued = False
        self._lobby_said = float("-inf")
        self._lobby_later: asyncio.TimerHandle | None = None
        self.heard_lobby = 0
        """Redis messages received on the lobby-wide channel, own ones included."""

    def table_channel(self, slug: str) -> str:
        """The channel of one table's changes."""
        return self._tables_prefix + slug

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for every other process (never blocks)."""
        if self._queue.qsize() >= QUEUE_LIMIT:
            logger.error("bus queue full; dropping %s", message.get("k"))
            return
        slug = message.get("s")
        channel = self.channel if slug is None else self._tables_prefix + str(slug)
        # Encoded now: what the message refers to may change before it is published.
        self._queue.put_nowait((channel, orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)))

    def lobby_changed(self) -> None:
        """Tell every process that the lobby's list changed (the lobbies read the list
        again). Every process hears it, so it is said at most once per `LOBBY_EVERY` seconds
        by a process: a change within that time is said once at its end."""
        if self._lobby_queued or self._lobby_later is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._lobby_said + LOBBY_EVERY - loop.time()
        if wait > 0:
            self._lobby_later = loop.call_later(wait, self._say_lobby)
            return
        self._say_lobby()

    def _say_lobby(self) -> None:
        self._lobby_later = None
        self._lobby_queued = True
        self._lobby_said = asyncio.get_running_loop().time()
        self.send(LOBBY)

    async def watch(self, slug: str) -> None:
        """Hear the changes of table `slug` from now on: returns once Redis confirmed the
        subscription (or after `SUBSCRIBE_WAIT` if it does not answer), so what the caller
        reads from the database next is not older than what it will hear."""
        if self._pubsub is None:
            return
        pending = self._joining.get(slug)
        if pending is not None:  # another task is subscribing: wait for the same answer
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(pending), SUBSCRIBE_WAIT)
            return
        if slug in self.watching:
            return
        self.watching.add(slug)
        joined = asyncio.get_running_loop().create_future()
        self._joining[slug] = joined
        try:
            await self._subscribe([self.table_channel(slug)])
        finally:
            del self._joining[slug]
            joined.set_result(None)

    async def _subscribe(self, channels: list[str]) -> None:
        """SUBSCRIBE to `channels` and wait for Redis's confirmations (a while at most). If
        it fails (Redis away), the reconnection subscribes to what is watched (`_reconcile`)."""
        loop = asyncio.get_running_loop()
        waiters = []
        for channel in channels:
            waiter = loop.create_future()
            self._confirming.setdefault(channel, deque()).append(waiter)
            waiters.append(waiter)
        try:
            await self._pubsub.subscribe(*channels)
            await asyncio.wait_for(asyncio.shield(asyncio.gather(*waiters)), SUBSCRIBE_WAIT)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("subscribing to a table's channel failed or was not confirmed")

    async def _reconcile(self) -> None:
        """After Redis was away: subscribe to every watched table's channel that a failed
        SUBSCRIBE left out, and leave those a failed UNSUBSCRIBE left in."""
        pubsub = self._pubsub
        have = {c.decode() if isinstance(c, bytes) else str(c) for c in pubsub.channels}
        want = {self.table_channel(slug) for slug in self.watching}
        missing = sorted(want - have)
        extra = sorted(c for c in have - want if c.startswith(self._tables_prefix))
        if missing:
            await self._subscribe(missing)
        if extra:
            await pubsub.unsubscribe(*extra)

    def watch_soon(self, slug: str) -> None:
        """`watch` in a task of its own (a table created here: nobody else knows its address
        before this process answers, so nothing can be missed meanwhile)."""
        self._command(self.watch(slug))

    def unwatch(self, slug: str) -> None:
        """Stop hearing the changes of table `slug` (this process forgot it)."""
        if slug not in self.watching or self._pubsub is None:
            return
        self.watching.discard(slug)
        self._command(self._leave(slug))

    async def _leave(self, slug: str) -> None:
        if slug in self.watching:
            return  # watched again before this ran: its SUBSCRIBE stands
        await self._pubsub.unsubscribe(self.table_channel(slug))

    def _command(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("a subscription change failed (Redis away?)")

        task = asyncio.create_task(run())
        self._commands.add(task)
        task.add_done_callback(self._commands.discard)

    def _confirmed(self, channel: bytes) -> None:
        """Redis confirmed a SUBSCRIBE on `channel`: the oldest one waiting is answered."""
        waiting = self._confirming.get(channel.decode())
        if not waiting:
            return
        waiter = waiting.popleft()
        if not waiting:
            del self._confirming[channel.decode()]
        if not waiter.done():
            waiter.set_result(None)

    async def start(self, handler: Handler) -> None:
        """Subscribe to the lobby-wide channel (before anything is served, so no change is
        missed) and start the publisher and listener tasks."""
        pubsub = self.client.pubsub()
        self._pubsub = pubsub
        # Started again (after a stop): the tables held meanwhile are heard again too.
        await pubsub.subscribe(self.channel, *map(self.table_channel, sorted(self.watching)))
        self._tasks = [
            asyncio.create_task(self._publish_loop()),
            asyncio.create_task(self._listen_loop(pubsub, handler)),
        ]

    async def stop(self) -> None:
        """Publish what is queued (briefly), then stop."""
        if self._lobby_later is not None:
            self._lobby_later.cancel()
            self._say_lobby()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), 2.0)
        tasks = [*self._tasks, *self._catching_up, *self._commands]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.client.aclose()

    async def _drain(self) -> None:
        await self._queue.join()

    async def _publish_loop(self) -> None:
        """Publish the queue in order. What queued while the last publish waited for Redis
        goes together in one round trip, one message per channel (one message to read for
        each listener of a table, not one per change): under load that is most changes.

        While Redis is away what cannot be published is dropped (said once, not per batch);
        once a publish goes through again, a `resync` follows it, and every other process
        re-reads its tables from the database (`Tables.catch_up`)."""
        dropped = 0
        while True:
            batch = [await self._queue.get()]
            while len(batch) < PUBLISH_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            by_channel: dict[str, list[bytes]] = {}
            self._lobby_queued = False
            for channel, data in batch:
                by_channel.setdefault(channel, []).append(data)
            try:
                if len(by_channel) == 1:
                    ((channel, changes),) = by_channel.items()
                    await self.client.publish(channel, self._message(changes))
                else:
                    pipe = self.client.pipeline(transaction=False)
                    for channel, changes in by_channel.items():
                        pipe.publish(channel, self._message(changes))
                    await pipe.execute()
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

    def _message(self, changes: list[bytes]) -> bytes:
        return b"".join((self._prefix, b"[", b",".join(changes), b"]"))

    async def _listen_loop(self, pubsub: Any, handler: Handler) -> None:
        self._handler = handler
        self._watch_reconnects(pubsub)
        tables = self._table_channel_prefix
        while True:
            try:
                async for message in pubsub.listen():
                    kind = message.get("type")
                    if kind != "message":
                        if kind == "subscribe":
                            self._confirmed(message["channel"])
                        continue
                    channel: bytes = message["channel"]
                    if channel.startswith(tables):
                        self.heard[channel[len(tables) :].decode()] += 1
                    else:
                        self.heard_lobby += 1
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
                await self._reconcile()  # subscribed first, read from the database second
                await handler({"k": "resubscribed"})
            except Exception:
                logger.exception("catching up after the bus lost Redis failed")

        task = asyncio.create_task(catch_up())
        self._catching_up.add(task)
        task.add_done_callback(self._catching_up.discard)


def make_bus(url: str, channel: str = CHANNEL) -> LocalBus | RedisBus:
    """The bus for a REDIS_URL (empty: one process, nothing published)."""
    return RedisBus(url, channel) if url else LocalBus()
