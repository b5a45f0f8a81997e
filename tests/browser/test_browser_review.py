"""Real browser: the bots' review of a finished game of every title (issue 36, section 1) —
refused while the game runs; once it has ended the page shows progress, then each seat's
win-chance graph (inline SVG, no script) and its key moments in words, in English at laptop
size and in Polish on a phone. Screenshots: review_<game>_laptop.png, review_<game>_phone.png."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from app.review import queue
from app.review.worker import ReviewWorker
from app.store import games
from tests.browser import helpers as h
from tests.clients import drive_to_end, live_table, table_of
from tests.conftest import Server
from tests.tables import app_of, players, shipped_games

pytestmark = pytest.mark.browser

NAMES = ["Ala", "Bartek", "Celina", "Darek"]


@pytest.mark.parametrize("game", sorted(shipped_games()))
async def test_review_page_of_every_game(sqlite_server: Server, web: h.Web, game: str) -> None:
    from playwright.async_api import expect

    n = min(4, players(game) + 1) if game != "karmaka" else 4
    async with live_table(sqlite_server, NAMES[:n], game=game) as live:
        me = live.seats[0]
        r = await me.http.get(f"/t/{live.slug}/review")
        assert r.status_code == 409  # refused while the game runs
        r = await me.http.get(f"/api/tables/{live.slug}/review")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
        await drive_to_end(sqlite_server, live, seed=3, moves=5000)

        page = await web.open(f"/t/{live.slug}/review", me)
        await expect(page.locator(".review-status")).to_contain_text("Waiting for the reviewer")
        app = app_of(sqlite_server)
        sessions = app.state.sessions
        with ThreadPoolExecutor(1) as pool:
            # No CPU backstop here: a random Karmaka game (~900 moves) costs 40 s of review
            # on a fast machine and 2-3 times that on a slow one, near the default budget.
            worker = ReviewWorker(sessions, game_steps=20_000, cpu_seconds=3600, executor=pool)
            assert await worker.step()
        async with sessions() as session:
            stored = await games.game_for_table(session, table_of(app, live.slug).id)
            assert stored is not None
            row = await queue.review_of(session, stored.id)
            assert row is not None and row.status == "done", row.result if row else None

        # The waiting page refreshes itself (a 5 s meta refresh) until the review is done: it
        # shows the review by itself; a reload from here raced its own (ERR_ABORTED in CI).
        await expect(page.locator(".review-seat")).to_have_count(n, timeout=30_000)
        await h.settled(page)
        await expect(page.locator(".review-graph polyline").first).to_be_visible()
        assert await page.locator(".review-moments li").count() > 0
        await h.shot(page, f"review_{game}_laptop")

        phone = await web.open(f"/t/{live.slug}/review", me, viewport=h.PHONE, locale="pl-PL")
        await expect(phone.get_by_role("heading", name="Kluczowe momenty").first).to_be_visible()
        await h.phone_shot(phone, f"review_{game}_phone")
