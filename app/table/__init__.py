"""The live table: one `Table` per table in play or waiting in memory, its collaborators (one
concern each), and `Tables`, the registry of a process's live tables (docs/architecture.md)."""

from app.table.chat import ChatLimits, clean_chat
from app.table.live import Committed, GameLive
from app.table.registry import Tables
from app.table.runtime import Runtime
from app.table.table import Table

__all__ = ["ChatLimits", "Committed", "GameLive", "Runtime", "Table", "Tables", "clean_chat"]
