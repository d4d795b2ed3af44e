"""Account security: password change and reset by e-mail, and each user's sessions and tokens (API and pages).

The account page already lists sessions and tokens and ends them
(:mod:`arbitre.server.routes.pages_account`); this adds the API for the same,
"log out everywhere" for the API, the password change (which ends every other
session) and the reset by e-mail (:mod:`arbitre.server.passwords`).
"""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.server import passwords
from arbitre.server.answers import Answer
from arbitre.server.auth import client_address, site_of
from arbitre.server.errors import Problem, not_found
from arbitre.server.fields import Line, RowId, Secret, Strict
from arbitre.server.flash import flash_redirect
from arbitre.server.pages import redirect, render
from arbitre.server.security import SESSION_COOKIE
from arbitre.server.visit import CSRF_HEADER, NO_CSRF, reading, writing
from arbitre.store.accounts import delete_token, tokens_of
from arbitre.store.sessions import end_all_sessions, end_session_id, live_sessions
from arbitre.words.translate import N_

router = APIRouter(tags=["account"])

NOTE_WORDS = (N_("Your password was changed; log in with the new one."),)
"""The note the login page shows after a reset (``pages.NOTES["password_changed"]``), marked for the catalogs."""


class PasswordIn(Strict):
    """A password change: the current password and the new one."""

    current_password: Secret
    new_password: Secret


class ResetRequestIn(Strict):
    """Ask for a reset link: the account's name or e-mail address."""

    who: Line


class ResetIn(Strict):
    """Use a reset link's token to set a new password."""

    token: Line
    new_password: Secret


class PasswordChanged(Answer):
    """A password just changed, and how many sessions of the account it ended."""

    changed: bool
    sessions_ended: int


class ResetAsked(Answer):
    """A reset link asked for: the same words for any account (nobody learns whether it exists)."""

    sent: str


class SessionInfo(Answer):
    """One of the account's live sessions (a browser logged in); ``current``: the one asking."""

    id: int
    created_at: str
    expires_at: str
    address: str
    user_agent: str
    current: bool


class TokenInfo(Answer):
    """One of the account's API tokens: its id, label and when it was made (never the token itself)."""

    id: int
    label: str
    created_at: str


class Ended(Answer):
    """How many sessions were just ended."""

    ended: int


class Deleted(Answer):
    """How many tokens were just deleted."""

    deleted: int


# ----------------------------------------------------------------------------- API
@router.post("/api/me/password")
def change_password(body: PasswordIn, request: Request) -> PasswordChanged:
    """Change your password; every other session of the account ends (this one stays)."""
    site = site_of(request)
    passwords.check_new_password(body.new_password, "body.new_password")
    with reading(request, CSRF_HEADER) as v:  # the (slow) hashing runs outside any write transaction
        actor = v.actor
        user = v.user()
        try:
            passwords.check_current(site, user, body.current_password, client_address(request))
        except Problem as err:
            if err.where == "current_password":
                err.where = "body.current_password"
            raise
    new_hash = passwords.new_hash(site, body.new_password)
    with writing(request, NO_CSRF) as w:  # the token was checked above
        ended = passwords.change_password(site, w.session, w.user(), new_hash, actor.session_id)
    return PasswordChanged(changed=True, sessions_ended=ended)


@router.post("/api/password-reset", status_code=202)
def ask_reset(body: ResetRequestIn, request: Request) -> ResetAsked:
    """E-mail a reset link to the account (by name or e-mail address); the answer is the same for any ``who``."""
    site = site_of(request)
    passwords.request_reset(site, body.who, client_address(request))
    return ResetAsked(sent="if this account has an e-mail address, a link was sent to it")


@router.post("/api/password-reset/confirm")
def confirm_reset(body: ResetIn, request: Request) -> PasswordChanged:
    """Set a new password with a reset link's token (once); every session of the account ends."""
    site = site_of(request)
    passwords.check_new_password(body.new_password, "body.new_password")
    with site.db.reading() as s:
        passwords.user_of_reset(site, s, body.token, site.now(), "body.token")
    new_hash = passwords.new_hash(site, body.new_password)
    with site.db.writing() as s:
        user = passwords.user_of_reset(site, s, body.token, site.now(), "body.token")
        ended = passwords.change_password(site, s, user, new_hash, None)
    return PasswordChanged(changed=True, sessions_ended=ended)


@router.get("/api/me/sessions")
def sessions(request: Request) -> list[SessionInfo]:
    """Your live sessions (browsers logged in), newest first; ``current`` marks the one asking."""
    with reading(request) as v:
        user = v.user()
        return [
            SessionInfo(
                id=row.id,
                created_at=row.created_at.isoformat(),
                expires_at=row.expires_at.isoformat(),
                address=row.address,
                user_agent=row.user_agent,
                current=row.id == v.actor.session_id,
            )
            for row in live_sessions(v.session, user.id, v.site.now())
        ]


@router.delete("/api/me/sessions/{session_id}")
def end_session(session_id: RowId, request: Request) -> Ended:
    """End one of your sessions."""
    with writing(request) as v:
        if not end_session_id(v.session, v.user().id, session_id, v.site.now()):
            raise not_found("this session")
    return Ended(ended=1)


@router.post("/api/me/logout-everywhere")
def logout_everywhere(request: Request) -> Ended:
    """End every session of your account (API tokens stay: list and delete them at ``/api/me/tokens``)."""
    with writing(request) as v:
        return Ended(ended=end_all_sessions(v.session, v.user().id, v.site.now()))


@router.get("/api/me/tokens")
def tokens(request: Request) -> list[TokenInfo]:
    """Your API tokens (labels and dates; a token itself is shown only when made)."""
    with reading(request) as v:
        user = v.user()
        return [
            TokenInfo(id=t.id, label=t.label, created_at=t.created_at.isoformat())
            for t in tokens_of(v.session, user.id)
        ]


@router.delete("/api/me/tokens/{token_id}")
def remove_token(token_id: RowId, request: Request) -> Deleted:
    """Delete one of your API tokens (it stops working at once)."""
    with writing(request) as v:
        if not delete_token(v.session, v.user().id, token_id):
            raise not_found("this token")
    return Deleted(deleted=1)


# ----------------------------------------------------------------------------- pages
@router.post("/account/password", include_in_schema=False)
def password_form(
    request: Request, csrf: str = Form(""), current_password: str = Form(""), new_password: str = Form("")
) -> Response:
    """The account page's password change; other sessions end."""
    site = site_of(request)
    passwords.check_new_password(new_password, "form.new_password")
    with reading(request, csrf) as v:
        user = v.user()
        try:
            passwords.check_current(v.site, user, current_password[:200], client_address(request))
        except Problem as err:
            if err.where == "current_password":
                err.where = "form.current_password"
            raise
    new_hash = passwords.new_hash(site, new_password)
    with writing(request, NO_CSRF) as w:  # the token was checked above
        passwords.change_password(site, w.session, w.user(), new_hash, v.actor.session_id)
    return redirect("/account", "done")


@router.get("/password-reset", response_class=HTMLResponse, include_in_schema=False)
def reset_request_page(request: Request) -> Response:
    """Ask for a reset link."""
    with reading(request) as v:
        return render(request, v.actor, "reset_request.html", {"sent": False})


@router.post("/password-reset", response_class=HTMLResponse, include_in_schema=False)
def reset_request(request: Request, csrf: str = Form(""), who: str = Form("")) -> Response:
    """Send the link (the page says the same whether the account exists or not)."""
    with reading(request, csrf) as v:
        passwords.request_reset(v.site, who[:254], client_address(request))
    return flash_redirect(request, "/password-reset", {"sent": True})  # post/redirect/get


@router.get("/reset/{token}", response_class=HTMLResponse, include_in_schema=False)
def reset_page(token: str, request: Request) -> Response:
    """The new-password form of a reset link."""
    with reading(request) as v:
        passwords.user_of_reset(v.site, v.session, token, v.site.now())
        return render(request, v.actor, "reset.html", {"token": token})


@router.post("/reset/{token}", include_in_schema=False)
def reset(token: str, request: Request, csrf: str = Form(""), new_password: str = Form("")) -> Response:
    """Set the new password; every session of the account ends; the visitor logs in again."""
    site = site_of(request)
    passwords.check_new_password(new_password, "form.new_password")
    with reading(request, csrf) as v:
        passwords.user_of_reset(v.site, v.session, token, v.site.now())
    new_hash = passwords.new_hash(site, new_password)
    with site.db.writing() as s:
        user = passwords.user_of_reset(site, s, token, site.now())
        passwords.change_password(site, s, user, new_hash, None)
    response = redirect("/login", "password_changed")
    response.delete_cookie(SESSION_COOKIE)
    return response
