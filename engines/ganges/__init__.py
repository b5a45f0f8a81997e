"""Ganges: Cards & Karma for 2–4 players. Rules: shared/rules/ganges.md (seed 000_c8350587…)."""

from engines.ganges.rules import Ganges

ENGINE = Ganges()

__all__ = ["ENGINE", "Ganges"]
