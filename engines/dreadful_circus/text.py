"""Dreadful Circus — the short canonical text form of actions (logs, tests, bug reports)."""

from __future__ import annotations

from typing import Any

from engines.dreadful_circus.goods import contracts_text, goods_text
from engines.dreadful_circus.model import (
    Alchemy,
    Bid,
    ChooseCity,
    ChooseCopy,
    ChooseDesign,
    ChooseTargets,
    DraftPick,
    FinalAttraction,
    FirstAttraction,
    Inspect,
    Keep,
    Offer,
    Play,
    Resurrect,
    ReturnContracts,
    Steal,
    Swap,
    Take,
    TakeExtra,
)

# ---- text forms -------------------------------------------------------------------------------


def action_text(action: Any) -> str:
    """Short canonical text of an action: `bid 1: 2 copper, 1 berlin`, `inspect p2`, …"""
    match action:
        case DraftPick() | FirstAttraction() | Offer() | Play() | Resurrect():
            return f"{action.type} {action.card}"
        case Bid():
            return f"bid {action.offer}: {goods_text(action.goods())}"
        case Inspect():
            return f"inspect p{action.bidder}"
        case ChooseTargets():
            return "targets " + ",".join(f"p{s}" for s in action.seats)
        case Take():
            return "take " + ("+".join(action.items) if action.items else "nothing")
        case TakeExtra():
            return f"take_extra p{action.seat} {action.item}"
        case Steal():
            return f"steal p{action.seat} {action.card}"
        case Swap():
            return f"swap {action.card} p{action.seat} {action.their_card}"
        case Alchemy():
            return f"alchemy {action.copper}"
        case Keep():
            return "keep " + "+".join(action.cities)
        case ReturnContracts():
            return "return " + contracts_text(action.counts())
        case FinalAttraction():
            return f"final {action.card or 'none'}"
        case ChooseDesign():
            return f"design {action.design}"
        case ChooseCity():
            return f"city {action.city}"
        case ChooseCopy():
            return f"copy p{action.seat} {action.card}"
        case _:
            return str(action.type)
