"""The database is unreachable for a while (restarted, failed over, cut off): what a write or a
read then raises is recognised here and answered as a refusal that says "try again" instead of
a server error. Nothing was changed: every write is one transaction, committed or not at all
(when the connection died during a commit, the table finds out at its next write, which is
refused as a conflict, and catches up)."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
from sqlalchemy import exc as sa_exc

from app.errors import Refusal
from app.i18n import N_

UNAVAILABLE = N_("The server cannot reach its database just now; try again in a moment.")

_NETWORK_ERRNOS = {
    errno.ECONNREFUSED,
    errno.ECONNRESET,
    errno.ECONNABORTED,
    errno.EHOSTUNREACH,
    errno.ENETUNREACH,
    errno.ETIMEDOUT,
    errno.EPIPE,
}

OUTAGES: tuple[type[Exception], ...] = (
    sa_exc.DBAPIError,
    sa_exc.TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    OSError,
)
"""The exception types an outage may raise (`is_outage` tells which of them are one)."""


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` says the database cannot be reached now (not that a statement is wrong)."""
    if isinstance(exc, sa_exc.DBAPIError):
        if exc.connection_invalidated or isinstance(
            exc, sa_exc.OperationalError | sa_exc.InterfaceError
        ):
            return True
        return exc.orig is not None and is_outage(exc.orig)
    if isinstance(exc, sa_exc.TimeoutError):  # no connection free in the pool in time
        return True
    if isinstance(exc, OSError) and not isinstance(exc, ConnectionError | TimeoutError):
        # Refused, reset and timed out are ConnectionError/TimeoutError; asyncpg says "Multiple
        # exceptions: … Connect call failed" when every address of a host refused. A missing
        # file is not the database being away.
        return exc.errno in _NETWORK_ERRNOS or "connect" in str(exc).lower()
    return isinstance(
        exc,
        ConnectionError
        | TimeoutError
        | asyncpg.PostgresConnectionError
        | asyncpg.OperatorInterventionError  # shutting down, starting up
        | asyncpg.InterfaceError,  # the connection is closed
    )


def unavailable() -> Refusal:
    """The refusal for an act, a chat line or a request while the database is away."""
    return Refusal("unavailable", UNAVAILABLE, 503)


@contextmanager
def refused_while_down() -> Iterator[None]:
    """An outage of the database inside becomes the `unavailable` refusal."""
    try:
        yield
    except Refusal:
        raise
    except Exception as exc:
        if is_outage(exc):
            raise unavailable() from exc
        raise
