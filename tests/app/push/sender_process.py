"""One push sender in a process of its own, until killed: `python -m
tests.app.push.sender_process DATABASE_URL DATA_DIR LEASE BATCH` (the multi-process tests)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from app.push.keys import load_or_create
from app.push.sender import Sender
from app.store.engine import make_engine, make_session_factory
from tests.high_card import registered_for_tests


async def main(url: str, data_dir: str, lease: float, batch: int) -> None:
    engine = make_engine(url, 5, 5)
    sender = Sender(
        make_session_factory(engine),
        load_or_create(Path(data_dir)),
        "mailto:test@example.org",
        lease=lease,
        poll=0.05,
        batch=batch,
    )
    await sender.run()


if __name__ == "__main__":
    with registered_for_tests():
        asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])))
