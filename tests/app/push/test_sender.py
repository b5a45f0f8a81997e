"""The sender, on SQLite and PostgreSQL, against the local push service: a push is delivered
once and its row goes; 429 and 5xx are tried again later with back-off (Retry-After
respected), and dropped after the last attempt; 404 and 410 remove the subscription and its
rows; a "your turn" that is no longer true is not sent; a claimed row is not claimed again
before its lease runs out."""

from __future__ import annotations

from pathlib import Path

from app.push.notices import Notice
from app.push.sender import backoff
from tests.app.push.outbox_kit import kit
from tests.push_service import PushService


async def test_delivered_once_and_gone(db_url: str, tmp_path: Path, push: PushService) -> None:
    async with kit(db_url, tmp_path, push) as k:
        await k.notify(Notice(k.users[1], "start", k.room_id, 0, 1000.0))
        sender = k.sender()
        assert await sender.round()
        assert [r.payload["kind"] for r in push.received] == ["start"]
        assert push.received[0].token == k.subs[1].token
        assert await k.rows() == 0
        assert not await sender.round()


async def test_not_due_yet_waits(db_url: str, tmp_path: Path, push: PushService) -> None:
    async with kit(db_url, tmp_path, push) as k:
        await k.notify(Notice(k.users[1], "start", k.room_id, 0, 1060.0))
        assert not await k.sender(now=1000.0).round()
        assert await k.sender(now=1061.0).round()
        assert len(push.received) == 1


async def test_busy_service_is_tried_again_with_back_off(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    async with kit(db_url, tmp_path, push) as k:
        push.answer(k.subs[1], 429, 503)
        await k.notify(Notice(k.users[1], "over", k.room_id, 3, 1000.0, {"place": 1}))
        assert await k.sender(now=1000.0).round()  # 429, Retry-After: 1 → the back-off (5 s) wins
        assert push.received == [] and await k.rows() == 1
        assert not await k.sender(now=1004.0).round()
        assert await k.sender(now=1005.0).round()  # 503 → 10 s
        assert not await k.sender(now=1014.0).round()
        assert await k.sender(now=1015.0).round()
        assert len(push.received) == 1 and await k.rows() == 0
        assert push.attempts[k.subs[1].token] == 3
        assert backoff(1) == 5 and backoff(2) == 10 and backoff(1, 120.0) == 120.0
        assert backoff(30) == 3600


async def test_dropped_after_the_last_attempt(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    async with kit(db_url, tmp_path, push) as k:
        push.answer(k.subs[1], 500, 500, 500)
        await k.notify(Notice(k.users[1], "over", k.room_id, 3, 1000.0, {"place": 1}))
        now = 1000.0
        for _ in range(3):
            await k.sender(now=now, max_attempts=3).round()
            now += 3600
        assert push.received == [] and await k.rows() == 0
        assert await k.subscriptions() == 2  # the subscription stays


async def test_gone_subscription_is_removed(db_url: str, tmp_path: Path, push: PushService) -> None:
    async with kit(db_url, tmp_path, push, people_count=3) as k:
        push.answer(k.subs[1], 410)
        push.answer(k.subs[2], 404)
        for user in k.users[1:]:
            await k.notify(
                Notice(user, "start", k.room_id, 0, 1000.0),
                Notice(user, "over", k.room_id, 2, 1000.0, {"place": 2}),
            )
        await k.sender().round()
        assert push.received == []
        assert await k.subscriptions() == 1 and await k.rows() == 0


async def test_a_turn_no_longer_true_is_not_sent(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    async with kit(db_url, tmp_path, push) as k:
        # The table has no game at version 1 (it was never started): "your turn" is stale.
        await k.notify(Notice(k.users[1], "turn", k.room_id, 1, 1000.0))
        assert await k.sender().round()
        assert push.received == [] and push.attempts == {} and await k.rows() == 0


async def test_a_lease_keeps_a_row_from_a_second_sender(
    db_url: str, tmp_path: Path, push: PushService
) -> None:
    from app.push import outbox

    async with kit(db_url, tmp_path, push) as k:
        await k.notify(Notice(k.users[1], "start", k.room_id, 0, 1000.0))
        async with k.sessions() as session:
            first = await outbox.claim(session, 1000.0, 60.0, 10)
        async with k.sessions() as session:
            assert await outbox.claim(session, 1030.0, 60.0, 10) == []  # leased
        async with k.sessions() as session:
            again = await outbox.claim(session, 1061.0, 60.0, 10)  # the lease ran out
        assert [r.id for r in first] == [r.id for r in again] and again[0].attempts == 2
