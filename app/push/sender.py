"""The sender: one task per process that claims due outbox rows (with a lease), delivers each
push (encrypted aes128gcm and VAPID-signed by pywebpush), and settles the row: gone when
delivered, tried again later with back-off when the push service is busy or away, and the
subscription removed when the service says it no longer exists (404/410).

Delivery is at least once: a process killed mid-send leaves its rows leased; when the lease
runs out another sender (or this one, restarted) claims them again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import orjson
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush_async

from app import clocks
from app.push import outbox
from app.push.outbox import Claimed
from app.push.payload import payload, tag
from app.store.engine import SessionFactory

log = logging.getLogger("stolik.push")

GONE = frozenset({404, 410})
"""What a push service answers for a subscription that no longer exists (RFC 8030 §7.3)."""


def backoff(attempts: int, retry_after: float | None = None) -> float:
    """Seconds before the next try after `attempts` tries: 5 s doubling up to an hour, or
    what the push service asked for (Retry-After), whichever is longer."""
    wait = min(3600.0, 5.0 * 2.0 ** max(0, attempts - 1))
    return max(wait, retry_after or 0.0)


class Sender:
    """Delivers the outbox (see the module)."""

    def __init__(
        self,
        sessions: SessionFactory,
        key: Vapid02,
        contact: str,
        *,
        lease: float = 60.0,
        poll: float = 1.0,
        batch: int = 50,
        max_attempts: int = 8,
        timeout: float = 10.0,
        now: Callable[[], float] = time.time,
        shown: Callable[[str, int], bool] | None = None,
        counted: Callable[[str], None] = lambda outcome: None,
    ) -> None:
        self.sessions = sessions
        self.key = key
        self.contact = contact
        self.lease = lease
        self.poll = poll
        self.batch = batch
        self.max_attempts = max_attempts
        self.timeout = timeout
        self.now = now
        self.shown = shown
        """(table slug, person id) → a tab of that person shows that table now in this process
        (a "your turn" push due meanwhile is then not sent)."""
        self.counted = counted
        """Told each settled row's outcome (the `stolik_pushes` metric)."""
        self._wake = asyncio.Event()
        self._http: aiohttp.ClientSession | None = None
        self.sent = 0
        """Pushes the push services accepted, for tests and metrics."""

    def wake(self) -> None:
        """Look at the outbox now (this process just wrote rows)."""
        self._wake.set()

    async def run(self) -> None:
        """Send until cancelled."""
        self._http = aiohttp.ClientSession()
        try:
            while True:
                try:
                    busy = await self.round()
                except asyncio.CancelledError:
                    raise
                except Exception:  # the database away a moment: try again next round
                    log.warning("push round failed", exc_info=True)
                    busy = False
                if not busy:
                    self._wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), self.poll)
        finally:
            await self._http.close()

    async def round(self) -> bool:
        """Claim and deliver one batch; True if there was anything to send. The rows done
        with (delivered, stale, dropped) go in one statement at the end of the round."""
        async with self.sessions() as session:
            rows = await outbox.claim(session, self.now(), self.lease, self.batch)
        by_device: dict[int, list[Claimed]] = {}
        for row in rows:
            by_device.setdefault(row.subscription_id, []).append(row)
        finished: list[int] = []
        if by_device:
            await asyncio.gather(
                *(self._deliver_in_order(group, finished) for group in by_device.values())
            )
        if finished:
            async with self.sessions() as session:
                await outbox.done(session, *finished)
        return bool(rows)

    async def _deliver_in_order(self, rows: list[Claimed], finished: list[int]) -> None:
        """One device's pushes, oldest first; none after the device turned out to be gone."""
        for row in rows:
            outcome = await self.deliver(row)
            self.counted(outcome)
            if outcome == "gone":
                return
            if outcome != "later":
                finished.append(row.id)

    def still_true(self, row: Claimed) -> bool:
        """A "your turn" push is worth sending only while the game is still at its version
        (nothing moved since) and, at a live table, no tab of the person shows it."""
        if row.kind != "turn":
            return True
        if row.game_version != row.version or row.game_status != "playing":
            return False
        if clocks.is_slow(row.clock) or self.shown is None:
            return True
        return not self.shown(row.slug, row.user_id)

    async def deliver(self, row: Claimed) -> str:
        """Send one claimed row; says how it went: "sent", "stale" (not sent: no longer
        true), "dropped" (refused, or the last attempt failed) — the caller deletes these
        rows —, "gone" (the subscription and its rows were removed here) or "later" (to be
        tried again after the back-off, set here)."""
        if not self.still_true(row):
            return "stale"
        status, retry_after = await self._send(row)
        if status is not None and 200 <= status < 300:
            self.sent += 1
            return "sent"
        if status in GONE:
            log.info("push subscription gone", extra={"status": status})
            async with self.sessions() as session:
                await outbox.drop_subscription(session, row.subscription_id)
            return "gone"
        if row.attempts >= self.max_attempts or (
            status is not None and status < 500 and status != 429
        ):
            log.warning("push dropped", extra={"status": status, "attempts": row.attempts})
            return "dropped"
        async with self.sessions() as session:
            await outbox.later(session, row.id, self.now() + backoff(row.attempts, retry_after))
        return "later"

    async def _send(self, row: Claimed) -> tuple[int | None, float | None]:
        """POST the push; the push service's status (None: unreachable) and Retry-After."""
        info: dict[str, Any] = {
            "endpoint": row.endpoint,
            "keys": {"p256dh": row.p256dh, "auth": row.auth},
        }
        headers: dict[str, str | int | float] = {
            "Topic": tag(row.slug)[:32],
            "Urgency": "high" if row.kind == "turn" else "normal",
        }
        try:
            response = await webpush_async(
                info,
                orjson.dumps(payload(row)).decode(),
                vapid_private_key=self.key,
                vapid_claims={"sub": self.contact},
                ttl=24 * 3600,
                headers=headers,
                timeout=self.timeout,
                aiohttp_session=self._http,
            )
        except WebPushException as exc:
            response = exc.response
            if not isinstance(response, aiohttp.ClientResponse):
                return None, None
        except (aiohttp.ClientError, TimeoutError, OSError):
            return None, None
        assert isinstance(response, aiohttp.ClientResponse)
        response.release()
        return response.status, _seconds(response.headers.get("Retry-After"))


def _seconds(value: str | None) -> float | None:
    """A Retry-After given in seconds (a date form is ignored: the back-off applies)."""
    try:
        return float(value) if value else None
    except ValueError:
        return None
