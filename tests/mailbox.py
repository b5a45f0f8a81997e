"""A local SMTP server for the tests (aiosmtpd, in the test's own event loop): what the
server under test sends arrives here, parsed."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session


class Mailbox:
    """The messages received, in order; `port` is where the SMTP server listens."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.port = 0
        self._arrived = asyncio.Event()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        """aiosmtpd's hook: keep the message."""
        content = envelope.original_content or b""
        parsed = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        self._arrived.set()
        return "250 Message accepted"

    async def next(self, seen: int, timeout: float = 10.0) -> EmailMessage:
        """The first message after the `seen` first ones, waiting for it."""
        async with asyncio.timeout(timeout):
            while len(self.messages) <= seen:
                self._arrived.clear()
                await self._arrived.wait()
        return self.messages[seen]

    def settings(self) -> dict[str, Any]:
        """The server settings that send mail here."""
        return {"smtp_host": "127.0.0.1", "smtp_port": self.port, "smtp_security": "none"}


def link_in(message: EmailMessage) -> str:
    """The one-time token of the e-mail link in `message`'s text."""
    body = message.get_body(("plain",))
    assert body is not None
    found = re.search(r"https?://\S+/account/email/([\w-]+)", body.get_content())
    assert found, body.get_content()
    return found.group(1)


@asynccontextmanager
async def mailbox() -> AsyncIterator[Mailbox]:
    """An SMTP server on a free loopback port for the block."""
    box = Mailbox()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(box, hostname="localhost"), "127.0.0.1", 0)
    box.port = server.sockets[0].getsockname()[1]
    try:
        yield box
    finally:
        server.close()
        await server.wait_closed()
