"""Dreadful Circus (Bruno Faidutti) for 4–8 players. Rules: shared/rules/dreadful-circus.md."""

from engines.dreadful_circus.rules import DreadfulCircus

ENGINE = DreadfulCircus()

__all__ = ["ENGINE", "DreadfulCircus"]
