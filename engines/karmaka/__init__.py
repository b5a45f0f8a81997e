"""Karmaka (Eddy Boxerman & Dave Burke) for 2–4 players. Rules: docs/rules/karmaka.md."""

from engines.karmaka.rules import Karmaka

ENGINE = Karmaka()

__all__ = ["ENGINE", "Karmaka"]
