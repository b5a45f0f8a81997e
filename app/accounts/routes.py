"""The account page (/account) and its forms, the passkey ceremonies (JSON, for
static/js/passkeys.js), and the e-mail links.

E-mail links open a confirmation page; only its POST uses the link (a link preview that
fetches the page uses nothing). Asking for a sign-in link answers the same whether or not
the address belongs to an account, so the form tells nobody whose address it is."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app import i18n
from app.accounts import mail, passkeys
from app.accounts import store as accounts
from app.accounts.names import DELETED_NAME
from app.api.deps import NamedUser, SessionDep, SettingsDep, TablesDep, UserDep, agent_of, sign_in
from app.core.config import Settings
from app.errors import Refusal
from app.i18n import N_
from app.identity import describe_agent
from app.presentation.environment import templates
from app.store.models import User
from app.table import Tables

router = APIRouter()

UNKNOWN_PASSKEY = N_("This passkey belongs to no account here (was it removed?).")
TOO_MANY_MAILS = N_("Too many e-mails asked for; try again in a few minutes.")
MINUTES = int(accounts.EMAIL_LINK_LIFETIME // 60)


async def _page(
    request: Request,
    session: AsyncSession,
    settings: Settings,
    user: User | None,
    status: int = 200,
    **shown: Any,
) -> Response:
    """The account page for `user` (None: the sign-in part only); `shown`: a notice or an
    error to show."""
    row = await accounts.fresh(session, user.id) if user is not None else None
    keys = await accounts.passkeys(session, user.id) if user is not None else []
    ctx: dict[str, Any] = {
        "user": user,
        "account": row,
        "is_account": row is not None and accounts.is_account(row),
        "passkeys": keys,
        "mail_on": mail.enabled(settings),
        "minutes": MINUTES,
        "notice": None,
        "error": None,
    }
    return templates.TemplateResponse(request, "account.html", {**ctx, **shown}, status_code=status)


@router.get("/account", response_class=HTMLResponse)
async def account_page(
    request: Request, session: SessionDep, settings: SettingsDep, user: UserDep, done: str = ""
) -> Response:
    """Your account: how you sign in (passkeys, e-mail), deleting it; or, for nobody, the
    ways to sign in."""
    notices = {
        "email": i18n.gettext("Your e-mail address is confirmed."),
        "passkey": i18n.gettext("Your passkey is saved."),
    }
    return await _page(request, session, settings, user, notice=notices.get(done))


def _spend_mail(request: Request, email: str) -> None:
    """Count one e-mail against the caller's address and the recipient's mailbox; refuse
    with 429 (`rate_limited`) past either budget (MAIL_RATE_COUNT per MAIL_RATE_WINDOW)."""
    budgets = request.app.state.mail_budgets
    address = request.client.host if request.client else "?"
    if budgets.over(f"ip:{address}") or budgets.over(f"to:{email}"):
        raise Refusal("rate_limited", TOO_MANY_MAILS, 429)


def _link(request: Request, settings: Settings, token: str) -> str:
    base = settings.origins[0] if settings.origins else str(request.base_url).rstrip("/")
    return f"{base}/account/email/{token}"


@router.post("/account/email")
async def add_email(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    user: NamedUser,
    tables: TablesDep,
) -> Response:
    """Send a link that confirms an address for this person (making them an account)."""
    form = await request.form()
    try:
        email = accounts.normal_email(str(form.get("email", "")))
        row = await accounts.fresh(session, user.id)
        assert row is not None
        await accounts.check_name(session, row)  # a clash is said now, not after the e-mail
        owner = await accounts.owner_of(session, email)
        if owner is not None and owner != user.id:
            raise Refusal("email_taken", accounts.EMAIL_TAKEN, 409)
        _spend_mail(request, email)
        token = await accounts.new_email_link(session, user.id, email, "add", tables.runtime.now())
        letter = mail.message(
            settings, email, "add", user.name, _link(request, settings, token), MINUTES
        )
        await mail.send(settings, letter)
        await session.commit()
    except Refusal as exc:
        await session.rollback()
        return await _page(request, session, settings, user, exc.status, error=exc.message)
    notice = i18n.gettext(
        "We sent a link to %(email)s. Open it within %(minutes)d minutes to confirm the address."
    ) % {"email": email, "minutes": MINUTES}
    return await _page(request, session, settings, user, notice=notice)


@router.post("/account/email/remove")
async def remove_email(
    request: Request, session: SessionDep, settings: SettingsDep, user: NamedUser
) -> Response:
    """Forget this person's address (not their last way to sign in)."""
    try:
        await accounts.remove_email(session, user.id)
        await session.commit()
    except Refusal as exc:
        await session.rollback()
        return await _page(request, session, settings, user, exc.status, error=exc.message)
    return RedirectResponse("/account", status_code=303)


@router.post("/account/signin/email")
async def email_signin(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    user: UserDep,
    tables: TablesDep,
) -> Response:
    """Send a sign-in link to an account's address; the answer is the same for an address
    that belongs to nobody (nothing is sent then)."""
    form = await request.form()
    try:
        email = accounts.normal_email(str(form.get("email", "")))
        _spend_mail(request, email)  # counted for an address of nobody too: the same answer
        owner = await accounts.owner_of(session, email)
        if owner is not None:
            person = await accounts.fresh(session, owner)
            assert person is not None
            token = await accounts.new_email_link(
                session, owner, email, "signin", tables.runtime.now()
            )
            link = _link(request, settings, token)
            await mail.send(
                settings, mail.message(settings, email, "signin", person.name, link, MINUTES)
            )
            await session.commit()
        elif not mail.enabled(settings):
            raise Refusal("mail_off", mail.MAIL_OFF, 503)
    except Refusal as exc:
        await session.rollback()
        return await _page(request, session, settings, user, exc.status, error=exc.message)
    notice = i18n.gettext(
        "If %(email)s belongs to an account, a sign-in link is on its way. It works once, for "
        "%(minutes)d minutes."
    ) % {"email": email, "minutes": MINUTES}
    return await _page(request, session, settings, user, notice=notice)


@router.get("/account/email/{token}", response_class=HTMLResponse)
async def email_link_page(
    token: str, request: Request, session: SessionDep, user: UserDep, tables: TablesDep
) -> Response:
    """Confirm before the link is used (looking at this page uses nothing)."""
    link = await accounts.peek_email_link(session, token, tables.runtime.now())
    ctx = {"user": user, "token": token, "link": link, "failed": link is None}
    return templates.TemplateResponse(
        request, "account_link.html", ctx, status_code=200 if link else 410
    )


@router.post("/account/email/{token}")
async def use_email_link(
    token: str,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    user: UserDep,
    tables: TablesDep,
) -> Response:
    """Use the link, once: confirm the address, or sign this browser in as its account."""
    now = tables.runtime.now()
    claimed = await accounts.claim_email_link(session, token, now)
    if claimed is None:
        await session.rollback()
        ctx = {"user": user, "token": token, "link": None, "failed": True}
        return templates.TemplateResponse(request, "account_link.html", ctx, status_code=410)
    person, email, purpose = claimed
    if purpose == "add":
        try:
            await accounts.confirm_email(session, person, email)
        except Refusal as exc:
            await session.rollback()
            return await _page(request, session, settings, user, exc.status, error=exc.message)
        await session.commit()
        tables.person_changed(person)
        return RedirectResponse("/account?done=email", status_code=303)
    row = await accounts.fresh(session, person)
    if row is None or row.email != email:  # the address was removed after the link was sent
        await session.rollback()
        ctx = {"user": user, "token": token, "link": None, "failed": True}
        return templates.TemplateResponse(request, "account_link.html", ctx, status_code=410)
    await sign_in(request, session, person)
    await session.commit()
    return RedirectResponse("/", status_code=303)


async def _credential(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError as exc:
        raise Refusal("passkey_failed", passkeys.FAILED, 400) from exc
    if not isinstance(body, dict):
        raise Refusal("passkey_failed", passkeys.FAILED, 400)
    return body


@router.post("/account/passkeys/options")
async def passkey_options(
    request: Request, session: SessionDep, settings: SettingsDep, user: NamedUser, tables: TablesDep
) -> dict[str, Any]:
    """Options to register a passkey for this person (its name is checked first)."""
    row = await accounts.fresh(session, user.id)
    assert row is not None
    await accounts.check_name(session, row)  # a clash is said before the ceremony
    existing = [k.id for k in await accounts.passkeys(session, user.id)]
    return passkeys.registration_options(
        request, settings.origins, user.id, user.name, existing, tables.runtime.now()
    )


@router.post("/account/passkeys")
async def add_passkey(
    request: Request, session: SessionDep, settings: SettingsDep, user: NamedUser, tables: TablesDep
) -> dict[str, Any]:
    """Keep the passkey the browser made (this person becomes an account)."""
    now = tables.runtime.now()
    new = passkeys.verify_registration(request, settings.origins, await _credential(request), now)
    row = await accounts.fresh(session, user.id)
    assert row is not None
    label = describe_agent(agent_of(request))
    await accounts.add_passkey(
        session, row, new.credential_id, new.public_key, new.sign_count, label, now
    )
    await session.commit()
    tables.person_changed(user.id)
    return {"ok": True, "next": "/account?done=passkey"}


@router.post("/account/passkeys/{credential_id}/remove")
async def remove_passkey(
    credential_id: str,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    user: NamedUser,
) -> Response:
    """Forget one passkey (not the last way to sign in)."""
    try:
        await accounts.remove_passkey(session, user.id, credential_id)
        await session.commit()
    except Refusal as exc:
        await session.rollback()
        return await _page(request, session, settings, user, exc.status, error=exc.message)
    return RedirectResponse("/account", status_code=303)


@router.post("/account/signin/passkey/options")
async def signin_options(
    request: Request, settings: SettingsDep, tables: TablesDep
) -> dict[str, Any]:
    """Options to sign in with any passkey of this site."""
    return passkeys.authentication_options(request, settings.origins, tables.runtime.now())


@router.post("/account/signin/passkey")
async def signin_passkey(
    request: Request, session: SessionDep, settings: SettingsDep, tables: TablesDep
) -> dict[str, Any]:
    """Sign this browser in as the passkey's account (a new device)."""
    now = tables.runtime.now()
    credential = await _credential(request)
    found = await accounts.find_passkey(session, passkeys.credential_id(credential))
    if found is None:
        passkeys.forget_challenge(request.session)
        raise Refusal("unknown_passkey", UNKNOWN_PASSKEY, 400)
    count = passkeys.verify_authentication(
        request, settings.origins, credential, found.public_key, found.sign_count, now
    )
    await accounts.used_passkey(session, found.id, count, now)
    await sign_in(request, session, found.user_id)
    await session.commit()
    return {"ok": True, "next": "/"}


async def _leave_before_start(tables: Tables, slug: str, user_id: int) -> None:
    """A person about to be deleted leaves a table that has not started (closes it, as its
    host); one that started meanwhile keeps them, as "deleted player"."""
    table = await tables.get(slug)
    if table is None:
        return
    with contextlib.suppress(Refusal):
        if table.host_id == user_id:
            await table.close(user_id)
        else:
            await table.leave(user_id)


@router.post("/account/delete")
async def delete_account(
    request: Request, session: SessionDep, settings: SettingsDep, user: NamedUser, tables: TablesDep
) -> Response:
    """Delete this person (asked to tick that they mean it): they leave the tables that have
    not started (closing those they host); their games stay, under "deleted player"."""
    form = await request.form()
    if form.get("confirm") != "yes":
        message = i18n.gettext("Tick the box to confirm that you want to delete the account.")
        return await _page(request, session, settings, user, 422, error=message)
    for slug in await accounts.waiting_tables(session, user.id):
        await _leave_before_start(tables, slug, user.id)
    gone = await accounts.delete_account(session, user.id, tables.runtime.now())
    await session.commit()
    request.session.clear()
    tables.signed_out(user.id, gone)
    tables.renamed(user.id, DELETED_NAME)
    tables.regendered(user.id, None)  # spoken of in neutral words from now on
    return RedirectResponse("/", status_code=303)
