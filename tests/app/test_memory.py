"""The heap is trimmed (memory given back to the OS) once enough connections have closed."""

from __future__ import annotations

from app import memory
from app.memory import Trimmer


def test_trims_once_enough_connections_closed() -> None:
    trimmer = Trimmer(threshold=3)
    trimmer.closed_one()
    trimmer.closed_one()
    assert not trimmer.maybe_trim()
    trimmer.closed_one()
    assert memory._TRIM is not None  # glibc (Debian): malloc_trim is there
    assert trimmer.maybe_trim()
    assert (trimmer.trims, trimmer.closed) == (1, 0)
    assert not trimmer.maybe_trim()


async def test_a_connection_mailbox_delivers_in_order_and_wakes_its_reader() -> None:
    import asyncio

    from app.realtime.connection import Mailbox

    box = Mailbox()
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert not reader.done() and box.empty()
    box.put_nowait(("state", None))
    box.put_nowait(("chat", "hi"))
    assert await asyncio.wait_for(reader, 1) == ("state", None)
    assert box.qsize() == 1
    assert await box.get() == ("chat", "hi")
    # A reader cancelled while waiting leaves the box usable.
    waiting = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    box.put_nowait(("presence", None))
    assert box.get_nowait() == ("presence", None)


def test_the_tuned_collector_still_collects_cycles_made_after_it_froze_the_heap() -> None:
    import gc
    import weakref

    memory.tune_gc()  # once per process: a no-op if an app of this test run started already
    assert not memory.tune_gc()
    assert gc.get_threshold() == memory.GC_THRESHOLDS
    assert gc.get_freeze_count() > 0  # start-up objects are in the permanent generation

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: reference counting alone never frees it
    gone = weakref.ref(a)
    del a, b
    assert gone() is not None
    gc.collect()
    assert gone() is None


def test_the_refreezer_freezes_survivors_and_a_full_round_collects_frozen_cycles() -> None:
    import gc
    import weakref

    memory.tune_gc()
    refreezer = memory.Refreezer(every=60.0, full_every=600.0, now=1000.0)
    assert not refreezer.maybe_freeze(1059.0)  # not yet

    class Node:
        other: object = None

    kept = [Node() for _ in range(50)]  # long-lived objects made after start-up
    frozen_before = gc.get_freeze_count()
    assert refreezer.maybe_freeze(1060.0)
    assert gc.get_freeze_count() >= frozen_before + len(kept)
    assert (refreezer.freezes, refreezer.fulls) == (1, 0)

    # A cycle that was frozen and became garbage: only the full round collects it.
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    assert refreezer.maybe_freeze(1120.0)
    del a, b
    gc.collect()
    assert gone() is not None  # frozen: the cycle collector does not walk it
    assert refreezer.maybe_freeze(1660.0)  # 600 s after the last full round
    assert refreezer.fulls == 1
    assert gone() is None
    assert gc.get_freeze_count() > 0  # frozen again after the full collection
