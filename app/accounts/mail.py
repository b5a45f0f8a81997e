"""The one e-mail Stolik sends: a one-time link, to confirm an address for an account or to
sign in with it, in the reader's language, through the SMTP server in the settings
(`SMTP_HOST`, `SMTP_PORT`, `SMTP_SECURITY`, `SMTP_USERNAME`, `SMTP_PASSWORD`, `MAIL_FROM`)."""

from __future__ import annotations

import logging
from email.message import EmailMessage

import aiosmtplib

from app import i18n
from app.core.config import Settings
from app.errors import Refusal
from app.i18n import N_

log = logging.getLogger(__name__)

MAIL_OFF = N_("This server does not send e-mail.")
SUBJECTS = {
    "signin": N_("Sign in to Stolik"),
    "add": N_("Confirm your e-mail address for Stolik"),
}
BODIES = {
    "signin": N_(
        "Someone (we hope you) asked to sign in to Stolik as %(name)s with this address.\n\n"
        "Open this link to sign in; it works once, for %(minutes)d minutes:\n\n%(link)s\n\n"
        "If it was not you, ignore this message: nothing changes."
    ),
    "add": N_(
        "%(name)s asked to sign in to Stolik with this address from now on.\n\n"
        "Open this link to confirm it; it works once, for %(minutes)d minutes:\n\n%(link)s\n\n"
        "If it was not you, ignore this message: nothing changes."
    ),
}


def enabled(settings: Settings) -> bool:
    """Whether this server can send e-mail (an SMTP server is configured)."""
    return bool(settings.smtp_host)


def message(
    settings: Settings, to: str, purpose: str, name: str, link: str, minutes: int
) -> EmailMessage:
    """The e-mail for `purpose` ("signin" or "add"), in the current language."""
    mail = EmailMessage()
    mail["From"] = settings.mail_from
    mail["To"] = to
    mail["Subject"] = i18n.gettext(SUBJECTS[purpose])
    mail.set_content(
        i18n.gettext(BODIES[purpose]) % {"name": name, "link": link, "minutes": minutes}
    )
    return mail


async def send(settings: Settings, mail: EmailMessage) -> None:
    """Hand `mail` to the SMTP server; `mail_failed` (503) if it cannot be sent."""
    if not enabled(settings):
        raise Refusal("mail_off", MAIL_OFF, 503)
    security = settings.smtp_security.lower()
    try:
        await aiosmtplib.send(
            mail,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username or None,
            password=settings.smtp_password or None,
            use_tls=security == "tls",
            start_tls=security == "starttls",
            timeout=20,
        )
    except (aiosmtplib.SMTPException, OSError) as exc:
        log.warning("sign-in e-mail not sent: %s", exc)
        raise Refusal(
            "mail_failed", N_("The e-mail could not be sent; try again in a while."), 503
        ) from exc
