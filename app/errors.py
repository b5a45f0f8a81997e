"""The one error type of the web layer: a refusal with a stable code.

HTTP routes answer it as `{"error": {"code", "message"}}` with its `status`; the websocket
answers it as an `error {code, message}` message and keeps the connection. Engines have their
own family (`engines.core.GameError`); the move path turns those into refusals with the same
code.
"""

from __future__ import annotations


class Refusal(Exception):
    """A refused request or message; nothing was changed. `message` is for people."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
