"""Standings of a games night: points per place scaled by the number of players, ties sharing.

A finished game of n players gives the seat at place p

    points = 10 × (n − p) / (n − 1)

so the winner gets 10, the last 0, and the places between are spread evenly whatever n is
(a win among five is worth as much as a win among two, and coming second of five, 7.5, more
than second of two, 0). Seats that tie share the places they span: two seats tied for first
of four stand at places 1 and 2, so each counts place 1.5 and gets 10 × 2.5 / 3 ≈ 8.33. The
points of one game therefore always add up to 5 × n, ties or not.

The night's standings add each participant's points over the night's finished games; a tie
in points is broken by more wins; participants still equal share a place. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

TOP = 10.0
"""The points of a win."""


def place_points(ranks: Mapping[int, int]) -> dict[int, float]:
    """Points per seat from the engine's competition ranks (1 = best; tied seats share a rank
    and the next rank skips, 1, 2, 2, 4)."""
    n = len(ranks)
    if n < 2:
        return {seat: TOP for seat in ranks}
    out: dict[int, float] = {}
    for seat, rank in ranks.items():
        tied = sum(1 for other in ranks.values() if other == rank)
        place = rank + (tied - 1) / 2  # the average of the places rank .. rank + tied - 1
        out[seat] = TOP * (n - place) / (n - 1)
    return out


@dataclass(frozen=True)
class Result:
    """One finished game of the night: who sat in each seat and the engine's ranks."""

    who: Mapping[int, Hashable]
    """Seat → the participant's key (a person, or a bot of the night)."""
    ranks: Mapping[int, int]


@dataclass
class Standing:
    """A participant's night so far."""

    key: Hashable
    points: float = 0.0
    wins: int = 0
    played: int = 0
    place: int = 0
    """1 = best; equal participants share it (1, 2, 2, 4)."""
    history: list[float] = field(default_factory=list)
    """Their points in each game they finished, in the order the games finished."""

    def order(self) -> tuple[float, int]:
        """What decides the standings (bigger first): points, then wins."""
        return (round(self.points, 6), self.wins)


def standings(results: Sequence[Result], present: Sequence[Hashable] = ()) -> list[Standing]:
    """Everyone's standing after `results` (in the order they finished), best first;
    `present` adds participants who have not finished a game yet (at 0 points)."""
    table: dict[Hashable, Standing] = {key: Standing(key) for key in present}
    for result in results:
        points = place_points(result.ranks)
        best = min(result.ranks.values(), default=0)
        for seat, key in result.who.items():
            if seat not in points:
                continue
            row = table.setdefault(key, Standing(key))
            row.points += points[seat]
            row.played += 1
            row.wins += result.ranks[seat] == best
            row.history.append(points[seat])
    rows = sorted(table.values(), key=Standing.order, reverse=True)
    for row in rows:
        row.place = 1 + sum(1 for other in rows if other.order() > row.order())
    return rows


def podium(rows: Sequence[Standing]) -> list[list[Standing]]:
    """The final podium: the participants at places 1, 2 and 3 (a step holds everyone tied
    there; a place skipped by a tie leaves its step empty, as the standings do)."""
    return [[row for row in rows if row.place == place and row.played] for place in (1, 2, 3)]
