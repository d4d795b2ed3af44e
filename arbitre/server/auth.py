"""Who is asking: session cookie or bearer token, CSRF checks, the visitor's language."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from fastapi import Request, Response
from sqlalchemy.orm import Session

from arbitre.server.errors import Problem, not_logged_in
from arbitre.server.i18n import LANGUAGES, pick_language
from arbitre.server.security import SESSION_COOKIE, SESSION_MAX_AGE
from arbitre.server.site import Site
from arbitre.store.accounts import hash_token, unread_column
from arbitre.store.logins import session_by_hash, user_by_token_hash
from arbitre.store.models import User
from arbitre.store.sessions import end_session, hash_secret, open_session

ANON_COOKIE = "arbitre_visitor"
"""Cookie of a visitor who is not logged in: carries the nonce of their CSRF token."""
LANG_COOKIE = "arbitre_lang"
"""Language of a visitor who is not logged in."""
CSRF_HEADER = "X-CSRF-Token"
"""Header carrying the CSRF token on script requests made with the session cookie."""


@dataclass
class Actor:
    """The requester: a user (or ``None``), how they authenticated, their CSRF nonce and language."""

    user: User | None
    nonce: str
    lang: str
    by_token: bool = False
    new_nonce: bool = False
    session_id: int | None = None
    """The server-side session of a cookie login (``None`` for a bearer token or a visitor)."""
    unread: int | None = None
    """How many site notifications the user has not read, when the login's query read it (a cookie login)."""

    def require(self) -> User:
        """The user, or 401."""
        if self.user is None:
            raise not_logged_in()
        return self.user


def site_of(request: Request) -> Site:
    """The :class:`Site` of the app serving ``request``."""
    site: Site = request.app.state.site
    return site


def identify(request: Request, session: Session) -> Actor:
    """Find the user behind ``request``: a ``Bearer`` token first, else the session cookie."""
    site = site_of(request)
    auth = request.headers.get("authorization", "")
    if auth:
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Problem(401, "bad_token", "the Authorization header must be 'Bearer <token>'")
        # One query, the unread count with it; the user's row from the login cache when its revision is unchanged.
        found = user_by_token_hash(session, site.db.logins, hash_token(token.strip()), unread_column())
        if found is None:
            raise Problem(401, "bad_token", "this API token is not valid")
        user, (unread,) = found
        return Actor(user, "", user.lang, by_token=True, unread=int(unread or 0))
    secret = site.signer.read_session(request.cookies.get(SESSION_COOKIE))
    if secret is not None:
        # One query: the session, its user and the user's unread count (for the page's header).
        live = session_by_hash(session, site.db.logins, hash_secret(secret), site.now(), unread_column())
        if live is not None:
            session_id, user, (unread,) = live
            # The CSRF token is derived from the session's secret: it dies with the session.
            return Actor(user, secret, user.lang, session_id=session_id, unread=int(unread or 0))
    nonce = request.cookies.get(ANON_COOKIE) or ""
    new = not (16 <= len(nonce) <= 64)
    if new:
        nonce = secrets.token_urlsafe(16)
    lang = request.cookies.get(LANG_COOKIE) or pick_language(request.headers.get("accept-language"))
    return Actor(None, nonce, lang if lang in LANGUAGES else "en", new_nonce=new)


def check_csrf(request: Request, actor: Actor, form_token: str | None = None) -> None:
    """Refuse a state-changing request made with cookies but without the session's CSRF token.

    Bearer-token requests need none: a browser never sends the token by itself.
    """
    if actor.by_token:
        return
    token = form_token if form_token is not None else request.headers.get(CSRF_HEADER)
    if not site_of(request).signer.check_csrf(actor.nonce, token):
        raise Problem(403, "bad_csrf", "the form's security token is missing or wrong; reload the page and try again")


def set_visitor_cookies(response: Response, actor: Actor, secure: bool) -> None:
    """Give a new visitor the cookie their CSRF token is tied to."""
    if actor.new_nonce and actor.user is None:
        response.set_cookie(
            ANON_COOKIE, actor.nonce, max_age=SESSION_MAX_AGE, httponly=True, samesite="lax", secure=secure
        )


def client_address(request: Request) -> str:
    """The address the request came from: the peer's, or what a trusted proxy forwarded
    (:mod:`arbitre.server.proxies`)."""
    return request.client.host if request.client else ""


def log_in(response: Response, request: Request, session: Session, user_id: int) -> None:
    """Open a session on the server (in ``session``'s write transaction) and set its signed cookie."""
    site = site_of(request)
    secret = open_session(
        session,
        user_id,
        site.now(),
        timedelta(seconds=SESSION_MAX_AGE),
        user_agent=request.headers.get("user-agent", ""),
        address=client_address(request),
    )
    response.set_cookie(
        SESSION_COOKIE,
        site.signer.make_session(secret),
        max_age=SESSION_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=site.settings.secure_cookies,
    )
    response.delete_cookie(ANON_COOKIE)


def log_out(response: Response, request: Request, session: Session) -> None:
    """End the session on the server (in ``session``'s write transaction) and clear its cookie."""
    site = site_of(request)
    secret = site.signer.read_session(request.cookies.get(SESSION_COOKIE))
    if secret is not None:
        end_session(session, secret, site.now())
    response.delete_cookie(SESSION_COOKIE)
