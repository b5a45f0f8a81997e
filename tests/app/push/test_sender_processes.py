"""Several processes, one outbox (PostgreSQL): two sender processes share the rows — each
push is delivered exactly once (`FOR UPDATE SKIP LOCKED`) — and a sender killed with
SIGKILL in the middle of a send loses nothing: its row's lease runs out and another sender
delivers it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.core.config import ROOT
from app.push.notices import Notice
from tests.app.push.outbox_kit import kit
from tests.push_service import PushService

pytestmark = pytest.mark.postgres


def sender_process(url: str, data_dir: Path, lease: float, batch: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.app.push.sender_process",
            url,
            str(data_dir),
            str(lease),
            str(batch),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )


async def test_two_senders_deliver_each_push_once(
    pg_url: str, tmp_path: Path, push: PushService
) -> None:
    async with kit(pg_url, tmp_path, push, people_count=5) as k:
        notices = [
            Notice(k.users[i % 5], "over", k.room_id, version, 0.0, {"place": 1})
            for i, version in enumerate(range(100))
        ]
        await k.notify(*notices)
        procs = [sender_process(pg_url, tmp_path, 30.0, 5) for _ in range(2)]
        try:
            await push.wait(100, timeout=60)
            await asyncio.sleep(0.5)  # nothing more comes
            delivered = Counter((r.token, r.payload["version"]) for r in push.received)
            assert len(delivered) == 100 and max(delivered.values()) == 1
            assert sum(push.attempts.values()) == 100
            assert await k.rows() == 0
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait(10)


async def test_a_sender_killed_mid_send_loses_nothing(
    pg_url: str, tmp_path: Path, push: PushService
) -> None:
    async with kit(pg_url, tmp_path, push) as k:
        push.hold.add(k.subs[1].token)
        await k.notify(Notice(k.users[1], "start", k.room_id, 0, 0.0))
        first = sender_process(pg_url, tmp_path, 2.0, 5)
        second: subprocess.Popen[bytes] | None = None
        try:
            for _ in range(300):  # the first sender is sending (the service holds the push)
                if push.attempts[k.subs[1].token] == 1:
                    break
                await asyncio.sleep(0.05)
            assert push.attempts[k.subs[1].token] == 1
            os.kill(first.pid, signal.SIGKILL)
            first.wait(10)
            push.hold.clear()
            assert await k.rows() == 1  # claimed, not lost
            second = sender_process(pg_url, tmp_path, 2.0, 5)
            got = await push.wait(1, timeout=30)
            assert [r.payload["kind"] for r in got] == ["start"]
            await asyncio.sleep(0.3)
            assert await k.rows() == 0 and len(push.received) == 1
        finally:
            for proc in (first, second):
                if proc is not None and proc.poll() is None:
                    proc.terminate()
                    proc.wait(10)
