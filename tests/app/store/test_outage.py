"""What counts as the database being away (app/store/outage.py): refused with "try again",
while a wrong statement stays an error."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import exc as sa_exc

from app import i18n
from app.errors import Refusal
from app.store.outage import is_outage, refused_while_down


@pytest.mark.parametrize(
    "exc",
    [
        ConnectionRefusedError(111, "Connect call failed"),
        ConnectionResetError(),
        OSError("Multiple exceptions: [Errno 111] Connect call failed ('127.0.0.1', 5432)"),
        OSError(113, "No route to host"),
        TimeoutError(),
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.InterfaceError("connection is closed"),
        sa_exc.OperationalError("SELECT 1", {}, ConnectionRefusedError()),
        sa_exc.InterfaceError("SELECT 1", {}, Exception("connection is closed")),
        sa_exc.DBAPIError("SELECT 1", {}, Exception("gone"), connection_invalidated=True),
        sa_exc.TimeoutError("QueuePool limit reached"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_an_outage_is_refused_with_try_again(exc: Exception) -> None:
    assert is_outage(exc)
    with pytest.raises(Refusal) as refused, refused_while_down():
        raise exc
    assert refused.value.code == "unavailable"
    assert refused.value.status == 503
    assert "try again" in refused.value.message
    with i18n.use("pl"):
        assert "spróbuj ponownie" in refused.value.message


@pytest.mark.parametrize(
    "exc",
    [
        asyncpg.UniqueViolationError("duplicate key"),
        sa_exc.IntegrityError("INSERT", {}, Exception("duplicate key")),
        sa_exc.ProgrammingError("SELEC", {}, Exception("syntax error")),
        ValueError("not an outage"),
        FileNotFoundError(2, "No such file or directory"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_other_errors_stay_errors(exc: Exception) -> None:
    assert not is_outage(exc)
    with pytest.raises(type(exc)), refused_while_down():
        raise exc


def test_a_refusal_passes_through() -> None:
    with pytest.raises(Refusal) as refused, refused_while_down():
        raise Refusal("stale", "The table has moved on.")
    assert refused.value.code == "stale"
