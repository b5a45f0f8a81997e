"""A person's rating in one game over time, drawn on the server as inline SVG (the page's
Content-Security-Policy allows no inline script, and a chart needs none).

The x axis counts rated games (evenly spaced, so a busy evening does not squash into a
corner); the line is the shown rating after each game and the band around it ± 2σ. Colours
come from the page's CSS (`.rating-chart` classes), so the chart follows the theme.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from markupsafe import Markup, escape

from app.ratings.model import SCALE, Rating

WIDTH, HEIGHT = 320, 120
PAD_LEFT, PAD_RIGHT, PAD_Y = 34, 6, 8


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def rating_chart(points: Sequence[tuple[datetime, Rating]], label: str) -> Markup:
    """The chart of `points` (oldest first; the rating after each game, the first point the
    rating before any, if given) with `label` as its accessible name."""
    if not points:
        return Markup("")
    shown = [r.mu * SCALE for _, r in points]
    low = [(r.mu - 2 * r.sigma) * SCALE for _, r in points]
    high = [(r.mu + 2 * r.sigma) * SCALE for _, r in points]
    top, bottom = max(high), min(low)
    if top - bottom < 1:
        top, bottom = top + 1, bottom - 1
    n = len(points)
    span_x = WIDTH - PAD_LEFT - PAD_RIGHT

    def x(i: int) -> float:
        return PAD_LEFT + (span_x * i / (n - 1) if n > 1 else span_x / 2)

    def y(v: float) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (top - v) / (top - bottom)

    line = " ".join(f"{_fmt(x(i))},{_fmt(y(v))}" for i, v in enumerate(shown))
    band = " ".join(
        [f"{_fmt(x(i))},{_fmt(y(v))}" for i, v in enumerate(high)]
        + [f"{_fmt(x(i))},{_fmt(y(v))}" for i, v in reversed(list(enumerate(low)))]
    )
    last = shown[-1]
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" preserveAspectRatio="none">',
        f"<title>{escape(label)}</title>",
        f'<polygon class="rating-band" points="{band}"/>',
        f'<polyline class="rating-line" points="{line}"/>',
        f'<circle class="rating-dot" cx="{_fmt(x(n - 1))}" cy="{_fmt(y(last))}" r="3"/>',
        f'<text class="rating-axis" x="2" y="{_fmt(PAD_Y + 8)}">{round(top)}</text>',
        f'<text class="rating-axis" x="2" y="{HEIGHT - PAD_Y}">{round(bottom)}</text>',
        "</svg>",
    ]
    return Markup("".join(parts))
