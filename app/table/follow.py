"""Several processes: a table tells the others about each change it commits (through the
bus), and follows theirs — a move is applied here too when it is the next version (engines
are deterministic); anything else, or a gap, reloads the table from the database."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from app.table.collaborator import Collaborator
from app.table.live import Committed
from engines.core import Event, GameError

if TYPE_CHECKING:
    from app.table.table import Table

logger = logging.getLogger("stolik.table")


class Follower(Collaborator):
    """One table's side of the bus between processes."""

    __slots__ = ()

    def __init__(self, table: Table) -> None:
        super().__init__(table)

    def publish(self, kind: str, **data: Any) -> None:
        """Tell the other processes (if any) about a committed change of this table."""
        bus = self.table.runtime.bus
        if bus.enabled:
            bus.send({"k": kind, "s": self.table.slug, **data})
            if kind == "room" or data.get("lobby"):
                bus.lobby_changed()  # every process's lobby, not only the table's followers

    def publish_move(self, move: Committed, game_db_id: int, version: int) -> None:
        """Tell the other processes about a move this process committed."""
        self.publish(
            "move",
            g=game_db_id,
            v=version,
            seat=move.seat,
            a=move.action,
            clock=move.clock,
            notes=[note.to_json() for note in move.notes],
            away=move.away,
            lobby=move.outcome is not None or move.clock is not None,
        )

    async def follow(self, msg: dict[str, Any]) -> None:
        """A change another process committed: update this table and push to its sockets."""
        table = self.table
        kind = msg["k"]
        if kind == "chat":
            table.chat.follow(msg["line"])
            return
        if kind in ("presence", "hello"):
            table.presence.remote(msg["o"], set(msg.get("seats", [])))
            if kind == "hello":
                self.publish("presence", seats=sorted(table.presence.local_seats()))
            return
        async with table.lock:
            table.leading = False
            game = table.game
            if kind == "move" and game is not None and game.db_id == msg["g"]:
                if game.version >= msg["v"]:
                    return  # already here (this process reloaded past it)
                if game.version == msg["v"] - 1 and self._adopt(msg):
                    return
            await table.reload_game()

    def _adopt(self, msg: dict[str, Any]) -> bool:
        """Apply the next version's move as its process committed it; False if it does not
        apply here (then the caller reloads)."""
        table = self.table
        game = table.game
        assert game is not None
        engine = game.engine
        seat = int(msg["seat"])
        try:
            step = engine.apply(game.state, seat, engine.parse_action(msg["a"]))
        except GameError:
            logger.warning("a move from another process does not apply here; reloading")
            return False
        after, changed = game.prompts_after(seat, step, len(table.seats))
        notes = [Event.from_json(n) for n in msg["notes"]]
        table.moves.advance(
            Committed(
                seat=seat,
                action=msg["a"],
                step=step,
                outcome=engine.outcome(step.state),
                acting=engine.to_act(step.state),
                prompts=after,
                changed=changed,
                clock=msg["clock"],
                notes=notes,
                away=bool(msg["away"]),
                chain=game.next_chain(seat, msg["a"]),
            )
        )
        return True
