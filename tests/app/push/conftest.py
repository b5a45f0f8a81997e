"""Fixtures of the Web Push tests: the local push service, and guests subscribed to it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.clients import Player
from tests.push_service import PushService, Subscription, start_push_service


@pytest.fixture
async def push() -> AsyncIterator[PushService]:
    """The local push service, for one test."""
    served = await start_push_service()
    try:
        yield served.service
    finally:
        await served.stop()


async def subscribe(
    player: Player, push: PushService, events: list[str] | None = None
) -> Subscription:
    """`player`'s browser subscribes at the push service and hands the server its
    subscription (every event unless `events`)."""
    sub = push.subscribe()
    body = sub.as_json() | ({"events": events} if events is not None else {})
    r = await player.http.post("/push/subscriptions", json=body)
    r.raise_for_status()
    return sub
