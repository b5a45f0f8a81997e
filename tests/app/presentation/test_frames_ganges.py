"""Ganges over real websockets: the die values in a hand never reach another seat or a
spectator (checked on every JSON frame sent, views and log lines, not only on view())."""

from __future__ import annotations

import json
import re
from typing import Any

from engines.ganges.cards import CARDS
from tests.clients import drive, live_table, table_of
from tests.conftest import Server

PRIVATE_TAKE = re.compile(r"You take (\w+) from")


def public_part(view: dict[str, Any], seat: int, spectator_cards: set[str]) -> dict[str, Any]:
    """`view` of `seat` with that seat's private fields reduced to what everyone sees."""
    players = [dict(p) for p in view["players"]]
    players[seat]["hand"] = [{"colour": h["colour"]} for h in players[seat]["hand"]]
    prompt = view["prompt"]
    if prompt is not None:
        prompt = {k: v for k, v in prompt.items() if k not in ("playable", "payments")}
        if prompt["kind"] == "discard":
            prompt["cards"] = []
    cards = {k: v for k, v in view["cards"].items() if k in spectator_cards}
    return dict(view, seat=None, players=players, prompt=prompt, cards=cards)


async def test_hand_dice_stay_private(server: Server) -> None:
    """Two seats and a spectator play a whole game; every frame each one got is checked."""
    app = server.server.config.app
    hands_at: dict[int, list[list[tuple[str, str, int]]]] = {}
    async with live_table(server, ["Ala", "Bartek"], game="ganges", watchers=1) as live:
        seats, slug, (spectator,) = live.seats, live.slug, live.watchers

        def record(state: Any, version: int) -> None:
            hands_at[version] = [
                [(c, CARDS[c].die_colour, state.values[c]) for c in p.hand] for p in state.players
            ]

        def choose(state: Any, seat: int, actions: list[Any]) -> Any:
            game = table_of(app, slug).game
            assert game is not None
            record(state, game.version)
            # Favour paid actions (dice leave hands publicly) and keep the game moving.
            paid = [a for a in actions if a.type in ("build", "ship", "palace")]
            pool = paid if paid and game.version % 3 else actions
            return pool[(game.version * 7 + seat) % len(pool)]

        played = await drive(
            app, slug, dict(enumerate(seats)), [spectator], moves=600, choose=choose
        )
        game = table_of(app, slug).game
        assert game is not None
        record(game.state, game.version)
        assert seats[0].view["over"], f"game not over after {played} moves"

        spectator_views: dict[int, dict[str, Any]] = {}
        checked = 0
        for viewer, client in [(None, spectator), *enumerate(seats)]:
            frames = [json.loads(f) for f in client.frames]
            states = [m for m in frames if m["type"] == "state" and m["view"]]
            assert len(states) > played // 2
            for msg in states:
                version, view = msg["version"], msg["view"]
                hands = hands_at[version]
                text = json.dumps(view)
                for s, hand in enumerate(hands):
                    shown = view["players"][s]["hand"]
                    if s == viewer:
                        assert shown == [{"id": c, "colour": k, "value": v} for c, k, v in hand]
                        continue
                    # Another seat's hand: colours only, in order, and no card id anywhere.
                    assert shown == [{"colour": k} for _, k, _ in hand]
                    for c, _, _ in hand:
                        assert f'"{c}"' not in text, f"{c} in seat {s}'s hand reached {viewer}"
                for line in msg["log"]:
                    taken = PRIVATE_TAKE.match(line)
                    if taken:
                        assert viewer is not None, f"spectator got a private line: {line}"
                        own = {c for c, _, _ in hands[viewer]}
                        assert taken[1] in own, f"seat {viewer} read another seat's die: {line}"
                if viewer is None:
                    spectator_views[version] = view
                else:
                    public = spectator_views[version]
                    assert public_part(view, viewer, set(public["cards"])) == public
                    private_cards = set(view["cards"]) - set(public["cards"])
                    assert private_cards <= {c for c, _, _ in hands[viewer]}
                checked += 1
        assert checked >= 3 * played
