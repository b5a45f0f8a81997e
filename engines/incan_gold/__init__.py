"""Incan Gold (Diamant with artifacts) for 3–8 players. Rules: docs/rules/incan-gold.md."""

from engines.incan_gold.rules import IncanGold

ENGINE = IncanGold()

__all__ = ["ENGINE", "IncanGold"]
