"""Racing Hedgehogs over real websockets: hands and set-aside cards never reach another seat
or a spectator (checked on every frame sent, not only on view())."""

from __future__ import annotations

import json
from typing import Any

from engines.racing_hedgehogs.rules import card_view
from tests.conftest import Server
from tests.web.clients import Player, drive, hub_of, make_table


async def test_hands_and_removed_cards_stay_private(server: Server) -> None:
    """Three seats and a spectator play a whole game; every frame is checked."""
    app = server.server.config.app
    names = ["Ala", "Bartek", "Celina"]
    seats, table = await make_table(server.url, server.ws_url, names, game="racing_hedgehogs")
    slug = table["slug"]
    spectator = Player(server.url, server.ws_url)
    hands_at: dict[int, list[list[Any]]] = {}
    removed_at: dict[int, list[Any]] = {}
    public: dict[tuple[int | None, int], dict[str, Any]] = {}
    try:
        for p in seats:
            await p.connect(slug)
        await spectator.connect(slug)
        for client in [*seats, spectator]:
            await client.wait_version(0)

        def choose(state: Any, seat: int, actions: list[Any]) -> Any:
            game = hub_of(app, slug).game
            assert game is not None
            hands_at[game.version] = [[card_view(c) for c in h] for h in state.hands]
            removed_at[game.version] = [card_view(c) for c in state.removed]
            return actions[(game.version * 7 + seat) % len(actions)]

        played = await drive(
            app, slug, dict(enumerate(seats)), [spectator], moves=400, choose=choose
        )
        assert seats[0].view["over"], f"game not over after {played} moves"
        assert removed_at[0], "3 players: 10 cards are set aside each round"

        for viewer, client in [*enumerate(seats), (None, spectator)]:
            states = [json.loads(f) for f in client.frames]
            states = [m for m in states if m["type"] == "state" and m["view"]]
            assert states
            for msg in states:
                view = msg["view"]
                # Set-aside cards are shown only once their round is over.
                last = view["last_round"]
                assert last is None or view["over"] or last["round"] < view["round"]
                assert "removed" not in view
                if viewer is None:
                    assert view["hand"] is None
                else:
                    hands = hands_at.get(msg["version"])
                    if hands is not None:
                        assert view["hand"] == hands[viewer]
                # Strip the viewer's own hand: what is left is exactly the spectator's view.
                public[viewer, msg["version"]] = dict(view, hand=None, seat=None)
        for (viewer, version), seen in public.items():
            assert seen == public[None, version], f"seat {viewer} saw more than the public view"
    finally:
        for client in [*seats, spectator]:
            await client.close()
