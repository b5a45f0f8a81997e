"""Ganges: Cards & Karma — the actions (a pydantic discriminated union) and their text forms.

Rule source: docs/rules/ganges.md ("The five actions", "Paying", "Administrator").
Cards are named by catalogue id. A payment lists hand cards, administrator jokers (declared
values; a building joker takes the cost colour) and the karma tokens spent.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from engines.core import ActionModel


class _Paid(ActionModel):
    card: str
    pay: list[str] = Field(default_factory=list)
    jokers: list[int] = Field(default_factory=list)
    karma: int = 0


class TakeDie(ActionModel):
    """A: take a table card into hand."""

    type: Literal["take"] = "take"
    card: str


class Build(_Paid):
    """B: pay dice of the cost colour and take a building."""

    type: Literal["build"] = "build"


class BuyShip(_Paid):
    """C: pay one die of the exact value and take a ship."""

    type: Literal["ship"] = "ship"


class TakeGoods(ActionModel):
    """D: take a goods card for free."""

    type: Literal["goods"] = "goods"
    card: str


class UsePalace(_Paid):
    """E: pay one die of the exact value and carry out a palace card."""

    type: Literal["palace"] = "palace"


class AdminDraw(ActionModel):
    """Return an administrator and take the top 2 deck cards into hand."""

    type: Literal["admin_draw"] = "admin_draw"


class AdminAction(ActionModel):
    """Return an administrator at the end of the turn to take one more action."""

    type: Literal["admin_action"] = "admin_action"


class EndTurn(ActionModel):
    """End the turn (only asked when an administrator could still be used)."""

    type: Literal["end_turn"] = "end_turn"


class Discard(ActionModel):
    """Hand limit: discard this hand card before the next one comes in."""

    type: Literal["discard"] = "discard"
    card: str


class Pick(ActionModel):
    """Take this table card for the pending gain."""

    type: Literal["pick"] = "pick"
    card: str


class Stop(ActionModel):
    """Decline an optional pick (the second card of `goodscards1or2`)."""

    type: Literal["stop"] = "stop"


class Choose(ActionModel):
    """Choose an option of a two-way track bonus (`coins`/`palace`, `fame`/`ship`)."""

    type: Literal["choose"] = "choose"
    option: str


class Resolve(ActionModel):
    """Choose resolution set number `option` (0-based, as listed in the prompt)."""

    type: Literal["resolve"] = "resolve"
    option: int


class Convert(ActionModel):
    """Spend 3 fame or 6 coins to flip the track card at `position` (1 = leftmost)."""

    type: Literal["convert"] = "convert"
    by: Literal["fame", "coins"]
    position: int


PaidAction = Build | BuyShip | UsePalace
Action = Annotated[
    TakeDie
    | Build
    | BuyShip
    | TakeGoods
    | UsePalace
    | AdminDraw
    | AdminAction
    | EndTurn
    | Discard
    | Pick
    | Stop
    | Choose
    | Resolve
    | Convert,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


def payment_text(action: PaidAction) -> str:
    """`G14+G07`, `G37+J6`, `G17 karma 1`: the paying cards, jokers as `J<value>`, karma."""
    parts = [*action.pay, *(f"J{v}" for v in action.jokers)]
    text = "+".join(parts) if parts else "nothing"
    return f"{text} karma {action.karma}" if action.karma else text


def action_text(action: Any) -> str:
    """The short canonical text of an action, e.g. `build B42 pay G37+J6`."""
    if isinstance(action, Build | BuyShip | UsePalace):
        return f"{action.type} {action.card} pay {payment_text(action)}"
    if isinstance(action, TakeDie | TakeGoods | Discard | Pick):
        return f"{action.type} {action.card}"
    if isinstance(action, Choose):
        return f"choose {action.option}"
    if isinstance(action, Resolve):
        return f"resolve {action.option}"
    if isinstance(action, Convert):
        return f"convert {action.by} {action.position}"
    return str(action.type).replace("_", " ")
