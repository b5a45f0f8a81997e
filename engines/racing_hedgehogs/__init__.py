"""Racing Hedgehogs (Pędzące Jeże, Reiner Knizia) for 3–5 players.

Rules: shared/rules/racing-hedgehogs.md and the seed rulebook 001_619a598eec45ad91.
"""

from engines.racing_hedgehogs.rules import RacingHedgehogs

ENGINE = RacingHedgehogs()

__all__ = ["ENGINE", "RacingHedgehogs"]
