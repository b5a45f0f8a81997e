"""What a push says: the table, the game, what happened in words in the person's language, a
link, and a tag per table so that the pushes of one table collapse into one. Never anything
of the game's hidden information (no cards, no view): only the table's public facts, the kind
of event, and for a finished game the person's own place."""

from __future__ import annotations

from typing import Any

from app import i18n
from app.i18n import N_
from app.push.outbox import Claimed
from engines import REGISTRY

TITLES: dict[str, str] = {
    "turn": N_("Your turn: %(game)s"),
    "invite": N_("Invitation: %(game)s"),
    "start": N_("The game has started: %(game)s"),
    "over": N_("Game over: %(game)s"),
    "bank": N_("Your time is running out: %(game)s"),
}

BODIES: dict[str, str] = {
    "turn": N_("Table %(table)s: it is your move."),
    "invite": N_("Table %(table)s: you are invited to play again."),
    "start": N_("Table %(table)s: the game you sit at has started."),
    "over": N_("Table %(table)s: your place: %(place)s."),
    "bank": N_("Table %(table)s: less than a quarter of your extra time is left."),
}

INVITED_BY = N_("Table %(table)s: %(name)s invites you to play.")
"""The body of a friend's invitation (`params["from"]`: the friend's name)."""


def tag(slug: str) -> str:
    """The notification tag (and the push service's Topic) of a table: its pushes collapse."""
    return f"stolik-{slug}"


def link(row: Claimed) -> str:
    """The table's page (with its invite code at a private table)."""
    return f"/t/{row.slug}" + (f"?code={row.invite_code}" if row.private else "")


def payload(row: Claimed) -> dict[str, Any]:
    """The push's JSON for `row`, in its person's language."""
    engine = REGISTRY.get(row.game)
    with i18n.use(row.language or i18n.DEFAULT):
        game = i18n.gettext(engine.spec.title) if engine is not None else row.game
        words = {"game": game, "table": row.slug, "place": int(row.params.get("place", 0))}
        title = i18n.gettext(TITLES[row.kind]) % words
        if row.kind == "invite" and row.params.get("from"):
            # An invitation from a friend (app/friends) rather than to a rematch.
            words["name"] = str(row.params["from"])
            body = i18n.gettext(INVITED_BY) % words
        else:
            body = i18n.gettext(BODIES[row.kind]) % words
    return {
        "title": title,
        "body": body,
        "url": link(row),
        "tag": tag(row.slug),
        "kind": row.kind,
        "table": row.slug,
        "version": row.version,
        "check": f"/push/check/{row.slug}?version={row.version}" if row.kind == "turn" else None,
        "lang": row.language or i18n.DEFAULT,
    }
