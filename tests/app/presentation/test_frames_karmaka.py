"""Karmaka over real websockets: Hands, Decks, Future Lives and the Well never reach another seat
or a spectator, and what Peek and Swindle reveal reaches the acting player alone (checked on every
JSON frame sent, against the authoritative state recorded while the game is driven)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.karmaka.cards import kind
from engines.karmaka.model import Play, State, Target
from tests.clients import Player, drive, make_table, table_of
from tests.conftest import Server

REVEALING = ("peek", "swindle")


@dataclass
class Secrets:
    """What each seat may not see, per game version, taken from the authoritative state."""

    hidden: dict[int, dict[int, set[int]]] = field(default_factory=dict)
    """version → seat (-1 = spectator) → card ids this viewer must not be shown."""
    hands: dict[int, list[list[int]]] = field(default_factory=dict)
    futures: dict[int, list[list[int]]] = field(default_factory=dict)
    reveals: dict[int, list[tuple[int, int, str, list[int]]]] = field(default_factory=dict)
    """version → (seat shown, whose Hand, peek/swindle, cards) of the reveals live then."""

    def record(self, version: int, state: State) -> None:
        """Note the secrets of the state at `version`."""
        n = state.num_players
        self.hands[version] = [list(p.hand) for p in state.players]
        self.futures[version] = [list(p.future) for p in state.players]
        self.reveals[version] = [(r.seat, r.about, r.label, list(r.cards)) for r in state.reveals]
        well_and_decks = set(state.well).union(*(p.deck for p in state.players))
        per_viewer: dict[int, set[int]] = {}
        for viewer in [-1, *range(n)]:
            secret = set(well_and_decks)
            for s, p in enumerate(state.players):
                if s != viewer:
                    secret |= set(p.hand) | set(p.future)
            # What an effect showed this viewer alone is theirs to see.
            for r in state.reveals:
                if r.seat == viewer:
                    secret -= set(r.cards)
            if state.prompt is not None and state.prompt.seat == viewer:
                secret -= set(state.prompt.cards)
            per_viewer[viewer] = secret
        self.hidden[version] = per_viewer


def card_ids(node: Any) -> Iterator[int]:
    """Every card id drawn in a JSON view (card objects carry `id` and `card`)."""
    if isinstance(node, dict):
        if "id" in node and "card" in node and isinstance(node["id"], int):
            yield node["id"]
        for value in node.values():
            yield from card_ids(value)
    elif isinstance(node, list):
        for value in node:
            yield from card_ids(value)


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view without its own private fields: what a spectator must see exactly."""
    return dict(
        view,
        seat=None,
        hand=None,
        future=None,
        prompt=None,
        revealed=[],
        can_pass=False,
        may_end_turn=False,
        rings_to_spend=None,
        players=[dict(p, relation=None) for p in view["players"]],
    )


def state_frames(client: Player) -> list[dict[str, Any]]:
    """The state messages with a game view that a client received."""
    msgs = [json.loads(f) for f in client.frames]
    return [m for m in msgs if m["type"] == "state" and m["view"]]


def check_frames(secrets: Secrets, seats: list[Player], spectator: Player) -> int:
    """Check every frame of every client; returns how many frames were checked."""
    checked = 0
    public: dict[tuple[int, int], dict[str, Any]] = {}
    for viewer, client in [*enumerate(seats), (-1, spectator)]:
        for msg in state_frames(client):
            view, version = msg["view"], msg["version"]
            if view["outcome"] is not None:
                continue  # every card is revealed at the end
            hidden = secrets.hidden.get(version)
            if hidden is None:
                continue  # the version after the last driven move was never recorded
            leaked = set(card_ids(view)) & hidden[viewer]
            assert not leaked, f"viewer {viewer} got hidden cards {leaked} at version {version}"
            if viewer == -1:
                assert view["hand"] is None and view["future"] is None
                assert view["prompt"] is None and view["revealed"] == []
                assert not any(line.startswith("You ") for line in msg["log"])
            else:
                assert [c["id"] for c in view["hand"]] == secrets.hands[version][viewer]
                assert [c["id"] for c in view["future"]] == secrets.futures[version][viewer]
            public[viewer, version] = public_part(view)
            checked += 1
    for (viewer, version), seen in public.items():
        if (-1, version) in public:
            assert seen == public[-1, version], f"seat {viewer} saw more than the public view"
    return checked


async def play(
    server: Server,
    names: list[str],
    options: dict[str, Any],
    *,
    moves: int,
    prefer_reveals: bool,
    enough: Any = None,
) -> tuple[Secrets, list[Player], Player]:
    """Drive a table over the sockets in chunks, recording the secrets at every version."""
    app = server.server.config.app
    seats, table = await make_table(
        server.url, server.ws_url, names, game="karmaka", options=options
    )
    slug = table["slug"]
    spectator = Player(server.url, server.ws_url)
    secrets = Secrets()
    rng = random.Random(len(names))

    def choose(state: State, seat: int, actions: list[Any]) -> Any:
        game = table_of(app, slug).game
        assert game is not None
        secrets.record(game.version, state)
        if prefer_reveals:
            for a in actions:
                if isinstance(a, Play) and a.way == "ability" and kind(a.card).id in REVEALING:
                    return a
            p = state.prompt
            if p is not None and p.kind == "target" and p.ability in REVEALING:
                targets = [a for a in actions if isinstance(a, Target) and a.seat != seat]
                return max(targets, key=lambda a: len(state.players[a.seat].hand))
        return rng.choice(actions)

    for p in seats:
        await p.connect(slug)
    await spectator.connect(slug)
    for client in [*seats, spectator]:
        await client.wait_version(0)
    played = 0
    while played < moves:
        done = await drive(
            app, slug, dict(enumerate(seats)), [spectator], moves=25, choose=choose, seed=played
        )
        played += 25
        if done < 25 or (enough is not None and enough(secrets)):
            break
    return secrets, seats, spectator


async def close_all(clients: list[Player]) -> None:
    """Close every client."""
    for client in clients:
        await client.close()


@pytest.mark.parametrize(
    ("names", "mode"),
    [(["Ala", "Bartek"], "free_for_all"), (["Ala", "Bartek", "Celina", "Darek"], "teams_2v2")],
)
async def test_hidden_piles_stay_private(server: Server, names: list[str], mode: str) -> None:
    """A driven game: no frame shows another seat's Hand or Future Life, any Deck or the Well."""
    secrets, seats, spectator = await play(
        server, names, {"mode": mode}, moves=150, prefer_reveals=False
    )
    try:
        assert len(secrets.hidden) >= 100, "too short a stretch to mean anything"
        # The check has teeth: the hidden sets are never empty while the game runs.
        assert all(h[-1] for h in secrets.hidden.values())
        assert check_frames(secrets, seats, spectator) >= len(secrets.hidden) * len(names)
    finally:
        await close_all([*seats, spectator])


async def test_peek_and_swindle_reveal_only_to_the_actor(server: Server) -> None:
    """Three players who play Peek and Swindle whenever they can: the cards they are shown
    appear in the actor's frames only; the victim learns no more and the rest see nothing."""

    def both_seen(s: Secrets) -> bool:
        labels = {r[2] for rs in s.reveals.values() for r in rs}
        return labels >= set(REVEALING)

    secrets, seats, spectator = await play(
        server,
        ["Ala", "Bartek", "Celina"],
        {"mode": "free_for_all"},
        moves=600,
        prefer_reveals=True,
        enough=both_seen,
    )
    try:
        assert both_seen(secrets), "no Peek and Swindle were played in 600 moves"
        check_frames(secrets, seats, spectator)
        frames = {
            viewer: {m["version"]: m["view"] for m in state_frames(client)}
            for viewer, client in [*enumerate(seats), (-1, spectator)]
        }
        shown = 0
        for version, reveals in secrets.reveals.items():
            for actor, about, label, cards in reveals:
                if not cards or version not in frames[actor]:
                    continue
                mine = frames[actor][version]["revealed"]
                assert {"label": label, "about": about, "cards": cards} in [
                    dict(r, cards=[c["id"] for c in r["cards"]]) for r in mine
                ]
                for viewer, views in frames.items():
                    if viewer == actor or version not in views:
                        continue
                    view = views[version]
                    assert view["revealed"] == [], f"viewer {viewer} got a reveal"
                    if viewer != about:
                        # A bystander or the spectator: none of these cards may be drawn at all,
                        # unless one has since become public (ruined, played as a Deed, ...).
                        visible = set(card_ids(view)) & set(cards)
                        assert visible <= public_cards(view), f"{label} leaked to {viewer}"
                shown += 1
        assert shown >= 2
    finally:
        await close_all([*seats, spectator])


def public_cards(view: dict[str, Any]) -> set[int]:
    """Card ids lying face-up for everybody in a view (Ruins, Deeds, the card in play)."""
    ids = set(card_ids(view["ruins"])) | set(card_ids(view["in_play"]))
    for p in view["players"]:
        ids |= set(card_ids(p["deeds"]))
    waiting = view["waiting"]
    if waiting and waiting["cards"]:
        ids |= set(card_ids(waiting["cards"]))
    return ids
