"""Incan Gold — a card on the temple path as the screen shows it.

`IncanGold.game_view_shared` (`rules.py`) builds the rest of each seat's view: the public parts
once per state, and each explorer as its own seat or anybody else sees it (others' tents and
pending choices hidden until the game is over).
"""

from __future__ import annotations

from engines.core import JSON
from engines.incan_gold.flow import card
from engines.incan_gold.model import PathCard


def path_card_view(pc: PathCard) -> JSON:
    """A path card as the screen shows it."""
    c = card(pc.card)
    return {
        "kind": c.kind,
        "value": c.value,
        "hazard": c.hazard,
        "name": c.name,
        "remainder": pc.remainder,
    }
