"""Dreadful Circus (Bruno Faidutti) for 4–8 players. Rules: docs/rules/dreadful-circus.md."""

from engines.dreadful_circus.rules import DreadfulCircus

ENGINE = DreadfulCircus()

__all__ = ["ENGINE", "DreadfulCircus"]
