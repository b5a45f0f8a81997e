"""What the pages show of ratings: a person's panels (each game's rating, whether it is still
provisional, and its chart) for the profile."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup
from sqlalchemy.ext.asyncio import AsyncSession

from app import i18n
from app.presentation.environment import game_title
from app.ratings import store
from app.ratings.chart import rating_chart
from app.ratings.store import Standing

CHART_GAMES = 200
"""A chart shows at most this many of the latest rated games."""


@dataclass(frozen=True)
class RatingPanel:
    """One game's rating on a profile."""

    standing: Standing
    chart: Markup


async def rating_panels(session: AsyncSession, user_id: int) -> list[RatingPanel]:
    """A person's ratings, each with its chart (the rating before the first game shown, then
    after each)."""
    panels = []
    for standing in await store.standings(session, user_id):
        points = await store.history(session, user_id, standing.game, CHART_GAMES)
        label = i18n.gettext("%(game)s: the rating after each rated game (%(count)s)") % {
            "game": game_title(standing.game),
            "count": len(points) - 1,
        }
        panels.append(RatingPanel(standing, rating_chart(points, label)))
    return panels
