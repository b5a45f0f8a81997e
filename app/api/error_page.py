"""The error page of the HTML routes: a page that cannot show what was asked shows
`error.html` (a title and a message, in the reader's language) with a status instead.

A route raises `ErrorPage`, or wraps what may be refused in `refusal_shown(user, title)`;
the app answers both with `show` (registered in `app.main`). The JSON API and the routes that
redirect on a refusal do not use it: a bare `Refusal` is answered as JSON. A page for a
signed-in person asked by nobody (`NamedUser` in `app.api.deps`) raises `NameFirst`, answered
by `ask_name`: the name page, then back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote, urlsplit

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from app.errors import Refusal
from app.presentation.environment import templates
from app.store.models import User


class ErrorPage(Exception):
    """Answer with the error page: `title` and `message` (already in the reader's language)
    for `user` (None: nobody signed in), with HTTP `status`."""

    def __init__(self, user: User | None, title: str, message: str, status: int) -> None:
        super().__init__(message)
        self.context = {"user": user, "title": title, "message": message}
        self.status = status


@contextmanager
def refusal_shown(user: User | None, title: str) -> Iterator[None]:
    """A `Refusal` raised inside becomes the error page titled `title`, with the refusal's
    message and status."""
    try:
        yield
    except Refusal as exc:
        raise ErrorPage(user, title, exc.message, exc.status) from exc


async def show(request: Request, exc: Exception) -> Response:
    """The error page for an `ErrorPage` (the app's exception handler)."""
    assert isinstance(exc, ErrorPage)
    return templates.TemplateResponse(request, "error.html", exc.context, status_code=exc.status)


class NameFirst(Exception):
    """Nobody is signed in on a page that needs a person: choose a name first."""


async def ask_name(request: Request, exc: Exception) -> Response:
    """To the name page, then back where the request came from: the page itself for a GET,
    the page whose form was sent (its `Referer` on this host) otherwise."""
    assert isinstance(exc, NameFirst)
    if request.method in ("GET", "HEAD"):
        back = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    else:
        referer = urlsplit(request.headers.get("referer", ""))
        same = referer.netloc == request.url.netloc and referer.path.startswith("/")
        back = referer.path if same else "/"
    return RedirectResponse(f"/name?next={quote(back)}", status_code=303)
