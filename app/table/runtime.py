"""What live tables need from the server around them (one `Runtime` per process)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.memory import Refreezer, Trimmer
from app.metrics import Metrics
from app.push.outlet import PushOutlet
from app.realtime.bus import LocalBus, RedisBus
from app.realtime.connection import SendWatch


@dataclass(frozen=True)
class Runtime:
    """What tables need from the server around them: the clock (injected in tests), how long
    a bot waits before its move is shown, after how long a disconnected seat may be handed to
    a bot, and how hard bots think (a test knob)."""

    now: Callable[[], float] = time.time
    bot_delay: float = 0.8
    takeover_after: float = 60.0
    bot_think_scale: float = 1.0
    metrics: Metrics = field(default_factory=Metrics)
    bus: LocalBus | RedisBus = field(default_factory=LocalBus)
    trimmer: Trimmer = field(default_factory=Trimmer)
    refreezer: Refreezer = field(default_factory=Refreezer)
    sends: SendWatch = field(default_factory=lambda: SendWatch())
    push: PushOutlet = field(default_factory=PushOutlet)
    """Web Push: on or off here, and the sender to wake after writing outbox rows."""
    follower_grace: float = 5.0
    """With several processes: how much longer than the process that made the last change a
    follower waits before it moves for a bot or an expired clock itself (in case that process
    is gone). The version check makes a duplicate harmless; the grace makes it rare."""
    alive_every: float = 5.0
    """With several processes: seconds between two "still here" messages of this process."""
    gone_after: float = 20.0
    """With several processes: a process not heard from for this long is gone (crashed,
    killed, cut off): its connected seats count as offline here, so a bot can take over."""
