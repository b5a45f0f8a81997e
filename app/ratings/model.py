"""Ratings: the Weng-Lin Bayesian rating (openskill's Plackett-Luce model), one per game and
person, with its uncertainty.

Pure: a game's result (its sides, their places, who forfeited) in, new ratings out. The rules:

- a side is what the engine calls a team (`Engine.teams`; Karmaka's 2 on 2 and 2 on 1), else
  every seat alone; a side's place is the best place of its seats (teams share their result);
- a seat that a bot is finishing for its person when the game ends (resigned, handed to a bot
  after running out of time or going away, or on autopilot) counts as last: its side is placed
  after every side without one, tied with the other sides that have one;
- bots play with the fixed rating of their level in that game (`app.ratings.bots`), and only
  people's ratings change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""openskill's defaults: a new rating is μ = 25, σ = 25/3."""

PROVISIONAL_GAMES = 10
"""A rating is "provisional" until it has this many games."""

LEADERBOARD_GAMES = 5
"""A person appears on a game's leaderboard from this many rated games on."""

SCALE = 40
"""Shown ratings are μ × 40: a new person shows 1000, the usual neighbourhood of a rating."""


@dataclass(frozen=True)
class Rating:
    """A skill estimate: mean `mu` and uncertainty `sigma` (openskill's units)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> int:
        """The number people read (μ on the shown scale)."""
        return shown(self.mu)

    @property
    def margin(self) -> int:
        """Two σ on the shown scale: the rating is probably within ± this."""
        return round(2 * self.sigma * SCALE)


def shown(mu: float) -> int:
    """A mean on the shown scale."""
    return round(mu * SCALE)


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a finished rated game: its person (`user_id`) or bot (`bot_level`), its
    side (index into the game's teams), its place (1 = best, ties share) and whether a bot was
    finishing the game for its person (it then counts as last)."""

    seat: int
    user_id: int | None
    bot_level: str | None
    side: int
    place: int
    forfeited: bool = False


@dataclass(frozen=True)
class RatedGame:
    """A finished rated game: which engine, the stored game's id, and its seats."""

    engine: str
    game_id: int
    seats: tuple[RatedSeat, ...]

    @property
    def people(self) -> list[int]:
        """The persons seated, in seat order (each once)."""
        return [s.user_id for s in self.seats if s.user_id is not None]


def rated_game(
    engine: str,
    game_id: int,
    teams: Sequence[Sequence[int]],
    ranks: dict[int, int],
    sitters: dict[int, tuple[int | None, str | None, bool]],
) -> RatedGame:
    """A `RatedGame` from the engine's `teams`, the outcome's `ranks` (seat → place) and who
    sat where (seat → user id, bot level, forfeited)."""
    side_of = {seat: i for i, team in enumerate(teams) for seat in team}
    seats = tuple(
        RatedSeat(seat, user, bot, side_of[seat], ranks[seat], forfeited)
        for seat, (user, bot, forfeited) in sorted(sitters.items())
    )
    return RatedGame(engine, game_id, seats)


def side_places(game: RatedGame) -> list[int]:
    """Each side's place for the rating (1 = best): the best place of its seats, and every side
    with a forfeited seat shares the place after all the others."""
    sides = max(s.side for s in game.seats) + 1
    best = [min(s.place for s in game.seats if s.side == i) for i in range(sides)]
    forfeited = {s.side for s in game.seats if s.forfeited}
    playing = sorted({best[i] for i in range(sides) if i not in forfeited})
    rank = {place: n + 1 for n, place in enumerate(playing)}  # dense: 1, 2, 2, 3
    last = len(playing) + 1
    return [last if i in forfeited else rank[best[i]] for i in range(sides)]


def rate(game: RatedGame, before: dict[int, Rating], bots: dict[str, Rating]) -> dict[int, Rating]:
    """The new ratings of the persons of `game` (user id → rating) from their ratings `before`
    (missing: a new rating) and the bots' fixed ratings by level."""
    sides = max(s.side for s in game.seats) + 1
    teams: list[list[Any]] = [[] for _ in range(sides)]
    owners: list[list[int | None]] = [[] for _ in range(sides)]
    for s in game.seats:
        if s.user_id is not None:
            r = before.get(s.user_id, Rating())
        else:
            r = bots.get(s.bot_level or "", Rating())
        teams[s.side].append(MODEL.rating(mu=r.mu, sigma=r.sigma))
        owners[s.side].append(s.user_id)
    if len(teams) < 2:
        return {}
    after = MODEL.rate(teams, ranks=[float(p) for p in side_places(game)])
    new: dict[int, Rating] = {}
    for team, users in zip(after, owners, strict=True):
        for rated, user in zip(team, users, strict=True):
            if user is not None:
                new[user] = Rating(rated.mu, rated.sigma)
    return new
