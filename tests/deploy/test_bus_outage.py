"""The bus when Redis goes away and comes back (a private redis-server, tests/deploy/cluster.py):
the subscriber says `resubscribed` once it has Redis again, however it reconnected, and a
publisher that had to drop changes says `resync` once a publish goes through again; either
makes every process catch up from the database (`Tables.catch_up`)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.realtime.bus import RedisBus
from tests.deploy.cluster import PrivateRedis


async def _until(predicate: Any, timeout: float) -> None:
    async def loop() -> None:
        while not predicate():  # noqa: ASYNC110 (state of another task)
            await asyncio.sleep(0.05)

    await asyncio.wait_for(loop(), timeout)


async def test_the_bus_catches_up_after_redis_was_away() -> None:
    with PrivateRedis() as redis:
        heard: list[dict[str, Any]] = []

        async def listen(change: dict[str, Any]) -> None:
            heard.append(change)

        async def ignore(_change: dict[str, Any]) -> None:
            pass

        bus, other = RedisBus(redis.url, "rehearsal"), RedisBus(redis.url, "rehearsal")
        await bus.start(listen)
        await other.start(ignore)
        try:
            other.send({"k": "before"})
            await _until(lambda: any(c["k"] == "before" for c in heard), 5)

            def kinds() -> list[str]:
                return [c["k"] for c in heard]

            # Away for a while: nothing is said until Redis is back.
            redis.kill()
            other.send({"k": "lost"})
            await asyncio.sleep(2.5)
            assert "resubscribed" not in kinds()
            redis.start()
            await _until(lambda: "resubscribed" in kinds(), 10)
            assert kinds().count("resubscribed") == 1
            assert "lost" not in kinds()
            # The publisher that dropped "lost" says so with its next publish.
            other.send({"k": "after"})
            await _until(lambda: "resync" in kinds() and "after" in kinds(), 10)
            assert next(c for c in heard if c["k"] == "resync")["o"] == other.origin

            # Restarted at once: redis-py may reconnect inside a read, without an error.
            heard.clear()
            redis.kill()
            redis.start()
            other.send({"k": "again"})
            await _until(lambda: "resubscribed" in kinds(), 10)
            assert bus.reconnects == 2
        finally:
            await other.stop()
            await bus.stop()


async def test_a_table_watched_while_redis_was_away_is_heard_once_it_is_back() -> None:
    """A table read while Redis is away could not be subscribed to: once the bus has Redis
    again it subscribes to it (before catching up), and one left meanwhile is left."""
    with PrivateRedis() as redis:
        heard: list[dict[str, Any]] = []

        async def listen(change: dict[str, Any]) -> None:
            heard.append(change)

        async def ignore(_change: dict[str, Any]) -> None:
            pass

        bus, other = RedisBus(redis.url, "rehearsal"), RedisBus(redis.url, "rehearsal")
        await bus.start(listen)
        await other.start(ignore)
        try:
            await bus.watch("kept")
            await bus.watch("left")
            redis.kill()
            await asyncio.sleep(0.5)
            await asyncio.wait_for(bus.watch("read-meanwhile"), 30)
            bus.unwatch("left")
            redis.start()
            await _until(lambda: any(c["k"] == "resubscribed" for c in heard), 15)
            for slug in ("kept", "left", "read-meanwhile"):
                other.send({"k": "move", "s": slug})
            await _until(lambda: {c.get("s") for c in heard} >= {"kept", "read-meanwhile"}, 10)
            await asyncio.sleep(0.3)
            assert "left" not in {c.get("s") for c in heard}
        finally:
            await other.stop()
            await bus.stop()
