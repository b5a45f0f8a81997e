"""Racing Hedgehogs over real websockets: hands and set-aside cards never reach another seat
or a spectator (checked on every frame sent, not only on view())."""

from __future__ import annotations

import json
from typing import Any

from engines.core import Rng
from engines.racing_hedgehogs.view import card_view
from tests.clients import drive, live_table, table_of
from tests.conftest import Server


async def test_hands_and_removed_cards_stay_private(server: Server) -> None:
    """Three seats and a spectator play a whole game; every frame is checked."""
    app = server.server.config.app
    names = ["Ala", "Bartek", "Celina"]
    hands_at: dict[int, list[list[Any]]] = {}
    removed_at: dict[int, list[Any]] = {}
    # What each viewer should see if every card it may not see were dealt differently: the
    # authoritative state with the hidden cards re-dealt (determinize), viewed as that viewer.
    redealt_at: dict[tuple[int | None, int], dict[str, Any]] = {}
    redeals_differ = 0
    public: dict[tuple[int | None, int], dict[str, Any]] = {}
    async with live_table(
        server, names, game="racing_hedgehogs", options={"advanced_scoring": True}, watchers=1
    ) as live:
        seats, slug, (spectator,) = live.seats, live.slug, live.watchers

        def choose(state: Any, seat: int, actions: list[Any]) -> Any:
            nonlocal redeals_differ
            game = table_of(app, slug).game
            assert game is not None
            engine = game.engine
            hands_at[game.version] = [[card_view(c) for c in h] for h in state.hands]
            removed_at[game.version] = [card_view(c) for c in state.removed]
            rng = Rng.from_seed(game.version)
            for viewer in [0, 1, 2, None]:
                other = engine.determinize(state, viewer, rng)
                redealt_at[viewer, game.version] = engine.view(other, viewer)
                hidden = [s for s in range(3) if s != viewer]
                if other.removed != state.removed or any(
                    other.hands[s] != state.hands[s] for s in hidden
                ):
                    redeals_differ += 1
            return actions[(game.version * 7 + seat) % len(actions)]

        played = await drive(
            app, slug, dict(enumerate(seats)), [spectator], moves=400, choose=choose
        )
        assert seats[0].view["over"], f"game not over after {played} moves"
        assert removed_at[0], "3 players: 10 cards are set aside each round"
        # The re-deals really moved hidden cards around, so comparing with them has teeth.
        assert redeals_differ > len(redealt_at) // 2

        checked = 0
        for viewer, client in [*enumerate(seats), (None, spectator)]:
            states = [json.loads(f) for f in client.frames]
            states = [m for m in states if m["type"] == "state" and m["view"]]
            assert states
            for msg in states:
                view = msg["view"]
                version = msg["version"]
                # Set-aside cards are shown only once their round is over.
                last = view["last_round"]
                assert last is None or view["over"] or last["round"] < view["round"]
                assert "removed" not in view
                if viewer is None:
                    assert view["hand"] is None
                else:
                    hands = hands_at.get(version)
                    if hands is not None:
                        assert view["hand"] == hands[viewer]
                # Nothing in the frame depends on cards this viewer may not see.
                expected = redealt_at.get((viewer, version))
                if expected is not None:
                    assert view == expected, f"{viewer} at {version} depends on hidden cards"
                    checked += 1
                # Strip the viewer's own hand: what is left is exactly the spectator's view.
                public[viewer, version] = dict(view, hand=None, seat=None)
        assert checked == 4 * played
        for (viewer, version), seen in public.items():
            assert seen == public[None, version], f"seat {viewer} saw more than the public view"
        # Once a round is over its set-aside cards are public, and they are the real ones.
        final = spectator.view["last_round"]
        assert final is not None
        ends = [v for v in removed_at if v < seats[0].version]
        assert final["removed"] == removed_at[max(ends)]
