"""Ganges: Cards & Karma for 2–4 players. Rules: docs/rules/ganges.md."""

from engines.ganges.rules import Ganges

ENGINE = Ganges()

__all__ = ["ENGINE", "Ganges"]
