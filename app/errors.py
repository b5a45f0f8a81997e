"""The one error type of the web layer: a refusal with a stable code.

HTTP routes answer it as `{"error": {"code", "message"}}` with its `status`; the websocket
answers it as an `error {code, message}` message and keeps the connection. Engines have their
own family (`engines.core.GameError`); the move path turns those into refusals with the same
code.
"""

from __future__ import annotations

from app import i18n


class Refusal(Exception):
    """A refused request or message; nothing was changed.

    `template` is the English message (marked with `N_` so it is extracted into the
    catalogues) with `%(name)s` placeholders filled from `params`; `message` is it in the
    language of whoever reads it now (app.i18n), read where the answer is sent. `gender` is
    set when the message speaks of its reader's act ("Poddałaś się"): how they chose to be
    spoken of (app/gendered.py).
    """

    def __init__(
        self,
        code: str,
        template: str,
        status: int = 409,
        *,
        gender: str | None = None,
        **params: object,
    ) -> None:
        super().__init__(template)
        self.code = code
        self.template = template
        self.params = params
        self.status = status
        self.gender = gender

    @property
    def message(self) -> str:
        """The refusal for people, in the current language."""
        return i18n.fill(self.template, None, self.params, self.gender)
