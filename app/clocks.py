"""Turn clocks: per-decision time plus a bank (what Board Game Arena calls extra time).

Pure bookkeeping, no I/O and no clock of its own: every function takes `now` (seconds since
the epoch) from the server's injected clock. The clock state is a small JSON object stored
with the game at every version (`games.clock`), so deadlines survive restarts and any server
process can enforce them; the move path's version check makes an expiry fire once.

A seat's clock runs while the seat must decide. Simultaneous decisions (Incan Gold, a
Dreadful Circus bid) run every deciding seat's clock at once. When a decision takes longer
than the per-decision time, the excess comes out of the bank; the deadline is the start of
the decision + per-decision time + what is left in the bank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.i18n import N_
from engines.core import Seat

TIMEOUTS_BEFORE_AWAY = 3
"""Timeouts in a row after which a seat stays on autopilot until its player returns."""


DAY = 24 * 3600

AWAY_LIMITS = (0, 3, 7, 14)
"""The longest pause (days per decision) a host may allow for a player who is away; 0: none."""


@dataclass(frozen=True)
class ClockSpec:
    """One clock choice offered to the host."""

    id: str
    label: str
    per_decision: float
    bank: float


CLOCKS: dict[str, ClockSpec] = {
    "fast": ClockSpec("fast", N_("Fast: 30 s per decision + 3 min extra"), 30, 180),
    "normal": ClockSpec("normal", N_("Normal: 90 s per decision + 10 min extra"), 90, 600),
    "slow": ClockSpec("slow", N_("Correspondence: 1 day per decision"), DAY, 0),
    "slow2": ClockSpec("slow2", N_("Correspondence: 2 days per decision"), 2 * DAY, 0),
    "slow3": ClockSpec("slow3", N_("Correspondence: 3 days per decision"), 3 * DAY, 0),
    "slow7": ClockSpec("slow7", N_("Correspondence: 7 days per decision"), 7 * DAY, 0),
}
"""Every clock but "none" (no clock), keyed by the id stored in `rooms.clock`."""

CLOCK_CHOICES: tuple[tuple[str, str], ...] = (
    ("none", N_("No clock")),
    *((c.id, c.label) for c in CLOCKS.values()),
)


def is_slow(spec_id: str) -> bool:
    """Whether a clock is a correspondence clock (a day or more per decision)."""
    spec = CLOCKS.get(spec_id)
    return spec is not None and spec.per_decision >= DAY


def new_clock(spec_id: str, num_players: int) -> dict[str, Any] | None:
    """The clock state of a new game (None when the table has no clock)."""
    spec = CLOCKS.get(spec_id)
    if spec is None:
        return None
    return {
        "spec": spec.id,
        "banks": {str(s): spec.bank for s in range(num_players)},
        "started": {},
        "deadlines": {},
        "timeouts": {str(s): 0 for s in range(num_players)},
    }


def advance(
    clock: dict[str, Any] | None,
    *,
    now: float,
    acting: Iterable[Seat],
    new_decision: Iterable[Seat],
    actor: Seat | None = None,
    timed_out: bool = False,
) -> dict[str, Any] | None:
    """The clock after a version change.

    `acting`: seats that must decide at the new version. `new_decision`: those whose question
    changed (their decision starts now). `actor`: the seat whose move made the change; its
    time used beyond the per-decision allowance comes out of its bank. `timed_out`: the
    actor's move was made for it because its time ran out.
    """
    if clock is None:
        return None
    spec = CLOCKS[clock["spec"]]
    banks = dict(clock["banks"])
    started = dict(clock["started"])
    timeouts = dict(clock["timeouts"])
    acting_keys = {str(s) for s in acting}
    fresh = {str(s) for s in new_decision}
    if actor is not None:
        key = str(actor)
        if key in started:
            used = max(0.0, now - started[key])
            banks[key] = max(0.0, banks[key] - max(0.0, used - spec.per_decision))
        timeouts[key] = timeouts.get(key, 0) + 1 if timed_out else 0
        if timed_out:
            banks[key] = 0.0
        started.pop(key, None)
    for key in list(started):
        if key not in acting_keys or key in fresh:
            started.pop(key)
    for key in acting_keys:
        started.setdefault(key, now)
    deadlines = {k: started[k] + spec.per_decision + banks[k] for k in started}
    return {
        "spec": spec.id,
        "banks": banks,
        "started": started,
        "deadlines": deadlines,
        "timeouts": timeouts,
    }


def away_pause(started: float, deadline: float, since: float, until: float, limit: float) -> float:
    """Seconds a decision's clock stands still for a person away from `since` to `until`.

    The clock stops when both the decision and the absence have begun, provided the time had
    not run out by then, and runs again at `until`; the pause is at most `limit` seconds.
    """
    stop = max(started, since)
    if stop >= deadline:
        return 0.0
    return max(0.0, min(limit, until - stop))


def with_away(
    clock: Mapping[str, Any] | None,
    away: Mapping[Seat, tuple[float, float]],
    limit: float,
) -> dict[str, Any] | None:
    """The clock as it counts, given who is away: each running deadline of a seat whose person
    is away (`away`: seat -> (since, until)) moved later by its pause (`away_pause`, at most
    `limit` seconds; none when `limit` is 0), and `away`: seat -> until for those seats (what
    the others are shown, paused or not)."""
    if clock is None:
        return None
    out = dict(clock)
    if not away:
        return out
    out["away"] = {str(seat): until for seat, (_, until) in away.items()}
    if limit <= 0:
        return out
    deadlines = dict(clock["deadlines"])
    for seat, (since, until) in away.items():
        key = str(seat)
        if key in deadlines and key in clock["started"]:
            pause = away_pause(clock["started"][key], deadlines[key], since, until, limit)
            deadlines[key] += pause
    out["deadlines"] = deadlines
    return out


def expired(clock: Mapping[str, Any] | None, now: float) -> list[Seat]:
    """Seats whose deadline has passed, in seat order."""
    if clock is None:
        return []
    return sorted(int(k) for k, d in clock["deadlines"].items() if d <= now)


def banks_running_low(clock: dict[str, Any] | None, now: float) -> list[tuple[Seat, float]]:
    """Seats deciding now whose bank, at the start of this decision a quarter of the full one
    or more, has fallen below a quarter by `now`; each with the time its decision started
    (so that a decision is told once)."""
    if clock is None:
        return []
    full = CLOCKS[clock["spec"]].bank
    per_decision = CLOCKS[clock["spec"]].per_decision
    low = []
    for key, started in clock["started"].items():
        bank = clock["banks"].get(key, 0.0)
        left = bank - max(0.0, now - started - per_decision)
        if full > 0 and left < full / 4 <= bank:
            low.append((int(key), float(started)))
    return sorted(low)


def next_deadline(clock: Mapping[str, Any] | None) -> float | None:
    """The earliest pending deadline, if any."""
    if clock is None or not clock["deadlines"]:
        return None
    return float(min(clock["deadlines"].values()))


def shifted(clock: dict[str, Any] | None, seconds: float) -> dict[str, Any] | None:
    """The clock with every running decision moved later by `seconds` (server downtime)."""
    if clock is None or seconds <= 0:
        return clock
    out = dict(clock)
    out["started"] = {k: v + seconds for k, v in clock["started"].items()}
    out["deadlines"] = {k: v + seconds for k, v in clock["deadlines"].items()}
    return out


def timeouts_in_a_row(clock: dict[str, Any] | None, seat: Seat) -> int:
    """How many decisions in a row this seat has lost to the clock."""
    if clock is None:
        return 0
    return int(clock["timeouts"].get(str(seat), 0))


def seat_clock(clock: Mapping[str, Any] | None, seat: Seat) -> dict[str, Any] | None:
    """What a seat's clock shows: its deadline (if deciding) and its bank."""
    if clock is None:
        return None
    key = str(seat)
    return {
        "deadline": clock["deadlines"].get(key),
        "bank": clock["banks"].get(key, 0.0),
        "per_decision": CLOCKS[clock["spec"]].per_decision,
        "away_until": clock.get("away", {}).get(key),
    }
