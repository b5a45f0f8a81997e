"""Racing Hedgehogs (Pędzące Jeże, Reiner Knizia) for 3–5 players.

Rules: docs/rules/racing-hedgehogs.md and the Polish seed rulebook.
"""

from engines.racing_hedgehogs.rules import RacingHedgehogs

ENGINE = RacingHedgehogs()

__all__ = ["ENGINE", "RacingHedgehogs"]
