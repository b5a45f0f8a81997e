"""Passkeys: the two WebAuthn ceremonies through the `webauthn` package.

Registration (a signed-in person adds a passkey) and authentication (a browser signs in with
one) each take two requests: the options, whose fresh challenge is kept in the signed session
cookie with its time, then the browser's answer, verified against that challenge, which is
used up (taken out of the cookie) whether the answer passes or not. A challenge is good for
`CHALLENGE_SECONDS`. The relying party is the site itself: its id is the host name people
open (the first of `PUBLIC_ORIGINS`, else the request's host), and the expected origin is
one of `PUBLIC_ORIGINS` (else the request's own origin). Passkeys are discoverable
(resident keys preferred), so signing in asks for no name or address first."""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import webauthn
from fastapi import Request
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.errors import Refusal
from app.i18n import N_

CHALLENGE_SECONDS = 300.0
"""How long the browser has to answer a challenge."""
KEY = "wa"
"""The session cookie's entry holding the pending challenge."""
RP_NAME = "Stolik"

FAILED = N_("The passkey could not be checked. Try again.")


def relying_party(request: Request, origins: list[str]) -> tuple[str, list[str]]:
    """(relying party id, expected origins) for this server."""
    if origins:
        return urlsplit(origins[0]).hostname or "", origins
    return request.url.hostname or "", [f"{request.url.scheme}://{request.url.netloc}"]


def _pending(cookie: MutableMapping[str, Any], kind: str, challenge: bytes, now: float) -> None:
    cookie[KEY] = {"k": kind, "c": bytes_to_base64url(challenge), "t": now}


def _take(cookie: MutableMapping[str, Any], kind: str, now: float) -> bytes:
    """The pending challenge of `kind` (used up), or `passkey_failed`."""
    pending = cookie.pop(KEY, None)
    if (
        not isinstance(pending, dict)
        or pending.get("k") != kind
        or not isinstance(pending.get("c"), str)
        or not isinstance(pending.get("t"), int | float)
        or now - pending["t"] > CHALLENGE_SECONDS
    ):
        raise Refusal("passkey_failed", FAILED, 400)
    return webauthn.base64url_to_bytes(pending["c"])


def registration_options(
    request: Request,
    origins: list[str],
    user_id: int,
    name: str,
    existing: list[str],
    now: float,
) -> dict[str, Any]:
    """The options for `navigator.credentials.create` (JSON-ready); the challenge waits in
    the session cookie."""
    rp_id, _ = relying_party(request, origins)
    options = webauthn.generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_name=name,
        user_id=f"stolik:{user_id}".encode(),
        user_display_name=name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(c)) for c in existing
        ],
    )
    _pending(request.session, "reg", options.challenge, now)
    result: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return result


@dataclass(frozen=True, slots=True)
class NewPasskey:
    """A verified registration: what is kept of the passkey."""

    credential_id: str
    public_key: bytes
    sign_count: int


def verify_registration(
    request: Request, origins: list[str], credential: dict[str, Any], now: float
) -> NewPasskey:
    """The browser's answer to `registration_options`, verified; `passkey_failed` (400)."""
    challenge = _take(request.session, "reg", now)
    rp_id, expected = relying_party(request, origins)
    try:
        verified = webauthn.verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=expected,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise Refusal("passkey_failed", FAILED, 400) from exc
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
    )


def authentication_options(request: Request, origins: list[str], now: float) -> dict[str, Any]:
    """The options for `navigator.credentials.get` (any passkey of this site)."""
    rp_id, _ = relying_party(request, origins)
    options = webauthn.generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    _pending(request.session, "auth", options.challenge, now)
    result: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return result


def credential_id(credential: dict[str, Any]) -> str:
    """The credential id the browser's answer names (`passkey_failed` if none)."""
    raw = credential.get("rawId", credential.get("id"))
    if not isinstance(raw, str) or not raw or len(raw) > 1400:
        raise Refusal("passkey_failed", FAILED, 400)
    return raw


def verify_authentication(
    request: Request,
    origins: list[str],
    credential: dict[str, Any],
    public_key: bytes,
    sign_count: int,
    now: float,
) -> int:
    """The browser's answer to `authentication_options` for a known passkey, verified; the
    authenticator's new counter. `passkey_failed` (400)."""
    challenge = _take(request.session, "auth", now)
    rp_id, expected = relying_party(request, origins)
    try:
        verified = webauthn.verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=expected,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise Refusal("passkey_failed", FAILED, 400) from exc
    return verified.new_sign_count


def forget_challenge(cookie: MutableMapping[str, Any]) -> None:
    """Drop a pending challenge (an answer for an unknown passkey uses it up too)."""
    cookie.pop(KEY, None)
