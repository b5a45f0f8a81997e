"""Dreadful Circus over real websockets: a wagon's contents reach only its bidder and the seller
(or Performance resolver) who opened it — checked on every frame sent, not only on view()."""

from __future__ import annotations

import json
import re
from typing import Any

from engines.dreadful_circus.goods import goods_view
from engines.dreadful_circus.model import Inspect
from tests.clients import drive, live_table, table_of
from tests.conftest import Server

NAMES = ["Ala", "Bartek", "Celina", "Darek"]
HOLDS = re.compile(r"^(\w+)'s wagon holds ")
PRICE = re.compile(r"^(\w+) accepts (\w+)'s wagon \(")


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what belongs to its viewer: own screen and hand, prompt, wagon contents."""
    players = [dict(p, wagon=None) for p in view["players"]]
    return dict(view, seat=None, you=None, prompt=None, players=players)


async def test_wagon_contents_stay_with_bidder_and_inspector(server: Server) -> None:
    """Four seats and a spectator play a whole game; every frame is checked."""
    app = server.server.config.app
    wagons_at: dict[int, list[list[int]]] = {}
    seen_at: dict[int, list[list[int]]] = {}
    inspections: set[tuple[int, int]] = set()

    def record() -> None:
        game = table_of(app, slug).game
        assert game is not None
        wagons_at[game.version] = [list(w) for w in game.state.wagons]
        seen_at[game.version] = [list(s) for s in game.state.wagon_seen]

    async with live_table(server, NAMES, game="dreadful_circus", watchers=1) as live:
        seats, slug, (spectator,) = live.seats, live.slug, live.watchers

        def choose(state: Any, seat: int, actions: list[Any]) -> Any:
            record()
            game = table_of(app, slug).game
            assert game is not None
            action = actions[(game.version * 7 + seat) % len(actions)]
            if isinstance(action, Inspect):
                inspections.add((seat, action.bidder))
            return action

        played = await drive(
            app, slug, dict(enumerate(seats)), [spectator], moves=700, choose=choose
        )
        record()
        assert seats[0].view["phase"] == "over", f"game not over after {played} moves"

        shown_to_owner = shown_to_other = hidden_full = 0
        public: dict[tuple[int | None, int], dict[str, Any]] = {}
        for viewer, client in [*enumerate(seats), (None, spectator)]:
            messages = [json.loads(f) for f in client.frames]
            states = [m for m in messages if m["type"] == "state" and m["view"]]
            assert len(states) > played // 2
            for msg in states:
                version, view = msg["version"], msg["view"]
                wagons, seen = wagons_at[version], seen_at[version]
                for p, player in enumerate(view["players"]):
                    may_see = viewer is not None and (viewer == p or viewer in seen[p])
                    if may_see:
                        assert player["wagon"] == goods_view(wagons[p]), (viewer, version, p)
                        if sum(wagons[p]):
                            shown_to_owner += viewer == p
                            shown_to_other += viewer != p
                    else:
                        assert player["wagon"] is None, f"{viewer} saw wagon {p} at {version}"
                        hidden_full += sum(wagons[p]) > 0
                for line in msg["log"]:
                    holds = HOLDS.match(line)
                    if holds:
                        bidder = NAMES.index(holds.group(1))
                        assert viewer is not None and (viewer, bidder) in inspections, line
                    price = PRICE.match(line)
                    if price:
                        assert viewer in (NAMES.index(price.group(1)), NAMES.index(price.group(2)))
                    if viewer is None:
                        assert not line.startswith("You "), line
                public[viewer, version] = public_part(view)
        # The check compared real contents: bidders saw their own full wagons, sellers and
        # resolvers saw wagons they opened, and full wagons were hidden from everybody else.
        assert shown_to_owner and shown_to_other and hidden_full
        assert inspections
        compared = 0
        for (viewer, version), seen_view in public.items():
            if viewer is not None and (None, version) in public:
                assert seen_view == public[None, version], f"seat {viewer} saw more at {version}"
                compared += 1
        assert compared > played
