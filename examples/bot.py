"""A Stolik bot that plays any game with random legal moves (docs/bot-api.md).

    pip install websockets
    python examples/bot.py http://localhost:8000 stolik_bot_… [--table SLUG] [--wait 60]

It takes a seat at the first table that lets outside bots sit (or at `--table`), then plays
over the table's websocket until the game ends, and prints the result.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import connect


def call(base: str, token: str, method: str, path: str) -> Any:
    """One HTTP request of the bot API; the JSON answer (an error's body raises)."""
    request = urllib.request.Request(base + path, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as exc:
        sys.exit(f"{method} {path}: {exc.code} {exc.read().decode()}")


def sit_down(base: str, token: str, slug: str | None, wait: float) -> dict[str, Any]:
    """Join `slug`, or the first table that takes outside bots (waiting for one up to `wait`
    seconds): the seat and the socket's path."""
    deadline = time.monotonic() + wait
    while slug is None:
        tables = call(base, token, "GET", "/api/bot/tables")
        if tables:
            slug = tables[0]["slug"]
        elif time.monotonic() > deadline:
            sys.exit("no table takes outside bots")
        else:
            time.sleep(1)
    return call(base, token, "POST", f"/api/bot/tables/{slug}/join")  # type: ignore[no-any-return]


def play(
    base: str, token: str, socket: str, rng: random.Random, pace: float, record: Any
) -> dict[str, Any]:
    """Play random legal moves until the game is over; its outcome. `pace`: seconds at least
    between two messages (the server allows 100 per 20 s). `record`: a file that gets every
    frame, received ("in") and sent ("out"), one JSON line each."""
    url = base.replace("http", "ws", 1) + socket
    with connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        last = 0.0

        def send(msg: dict[str, Any]) -> None:
            nonlocal last
            time.sleep(max(0.0, last + pace - time.monotonic()))
            last = time.monotonic()
            ws.send(json.dumps(msg))
            if record:
                print(json.dumps({"out": msg}), file=record)

        acted_at = None
        for raw in ws:
            msg = json.loads(raw)
            if record:
                print(json.dumps({"in": msg}), file=record)
            if msg["type"] == "error":
                print("refused:", msg["code"], msg["message"], file=sys.stderr)
                if msg["code"] == "rate_limited":
                    time.sleep(5)
                acted_at = None
                send({"type": "sync"})
            elif msg["type"] == "state":
                header = msg["view"].get("header", {})
                if header.get("over"):
                    return header["outcome"]  # type: ignore[no-any-return]
                if msg["legal"] and acted_at != msg["version"]:
                    acted_at = msg["version"]
                    action = rng.choice(msg["legal"])
                    send({"type": "act", "version": msg["version"], "action": action})
    sys.exit("the server closed the socket")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server, e.g. http://localhost:8000")
    parser.add_argument("token", help="the bot's token (from “Your bots”)")
    parser.add_argument("--table", help="a table's slug (default: the first that takes bots)")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for a table")
    parser.add_argument("--seed", type=int, help="seed of the random moves")
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between messages")
    parser.add_argument("--record", type=argparse.FileType("w"), help="write every frame here")
    args = parser.parse_args()
    base = args.url.rstrip("/")
    me = call(base, args.token, "GET", "/api/bot/account")
    joined = sit_down(base, args.token, args.table, args.wait)
    print(f"{me['name']} sits in seat {joined['seat']}", flush=True)
    outcome = play(
        base, args.token, joined["socket"], random.Random(args.seed), args.pace, args.record
    )
    print("over:", json.dumps({"seat": joined["seat"], **outcome}), flush=True)


if __name__ == "__main__":
    main()
