"""Pages about accounts: home, register, log in/out, account settings and bot tokens, language."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from arbitre.server import actions, services
from arbitre.server.auth import LANG_COOKIE, Actor, client_address, log_in, log_out
from arbitre.server.errors import Problem
from arbitre.server.flash import flash_redirect
from arbitre.server.i18n import LANGUAGES
from arbitre.server.notify.webhook import MAX_URL
from arbitre.server.pages import redirect, render
from arbitre.server.routes.notify import account_context as notify_settings
from arbitre.server.routes.notify import remove_webhook, set_webhook
from arbitre.server.security import SESSION_COOKIE
from arbitre.server.visit import reading, writing
from arbitre.store.accounts import create_token, delete_token, tokens_of
from arbitre.store.games import home_games
from arbitre.store.models import FINISHED, FORMING
from arbitre.store.sessions import end_all_sessions, end_session_id, live_sessions

router = APIRouter(include_in_schema=False)


def _safe_next(url: str | None) -> str:
    """``url`` when it is a path of this site (``/invite/…``), else ``/``: never another site's address
    (``//evil.example``, ``/\\evil.example``, ``https://…``), never a control character."""
    if not url or len(url) > 500 or not url.startswith("/") or url[1:2] in ("/", "\\"):
        return "/"
    if "\\" in url or any(ord(c) < 32 or ord(c) == 127 for c in url):
        return "/"
    parts = urlsplit(url)
    return url if not parts.scheme and not parts.netloc else "/"


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    """The list of games (and the user's own)."""
    with reading(request) as v:
        lobby, member_of = home_games(v.session, v.actor.user.id if v.actor.user else None)  # one query
        games = [services.summary(g, n).data() for g, n in lobby]
        mine = [(services.summary(g).data(), m) for g, m in member_of]
        groups: dict[str, list[dict[str, Any]]] = {"open_games": [], "running": [], "finished": []}
        for g in games:
            if g["status"] == FORMING and (g["seats"] is None or g["taken"] < g["seats"]):
                groups["open_games"].append(g)
            else:
                groups["finished" if g["status"] == FINISHED else "running"].append(g)
        return render(request, v.actor, "home.html", {**groups, "mine": mine})


@router.get("/register", response_class=HTMLResponse)
def register_form(request: Request, next: str = "/") -> Response:
    """The registration form (``next``: the page of this site to go back to once registered, such as an
    invitation)."""
    with reading(request) as v:
        return render(request, v.actor, "register.html", {"error": None, "next": _safe_next(next)})


@router.post("/register")
def register(
    request: Request,
    name: str = Form(""),
    password: str = Form(""),
    csrf: str = Form(""),
    time_zone: str = Form(""),
    next: str = Form("/"),
) -> Response:
    """Create an account and log in, then go back to ``next`` (a page of this site; else the home page); the
    account's time zone is the browser's (sent by the page's script) when known."""
    with reading(request, csrf) as v:
        site, actor = v.site, v.actor
    try:
        password_hash = actions.check_account(site, name.strip(), password, client_address(request))
        with site.db.writing() as s:
            user = actions.register(s, site, name.strip(), password_hash, actor.lang, time_zone.strip())
            response = redirect(_safe_next(next), "registered")
            log_in(response, request, s, user.id)
    except Problem as err:
        if err.status == 429:
            raise
        key = (
            "This name is taken."
            if err.status == 409
            else "A name is 3 to 40 letters, digits, '-' or '_'; a password at least 8 characters."
        )
        again = "/register" + ("?next=" + quote(_safe_next(next)) if _safe_next(next) != "/" else "")
        return flash_redirect(request, again, {"error": key})
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/") -> Response:
    """The login form."""
    with reading(request) as v:
        return render(request, v.actor, "login.html", {"error": None, "next": _safe_next(next)})


@router.post("/login")
def login(
    request: Request, name: str = Form(""), password: str = Form(""), csrf: str = Form(""), next: str = Form("/")
) -> Response:
    """Check the password and set the session cookie."""
    with reading(request, csrf) as v:  # no write transaction during the (slow) password check
        site = v.site
        user = actions.authenticate(v.session, site, name, password, client_address(request))
    if user is None:  # post/redirect/get: the login page says so
        again = "/login" + ("?next=" + quote(_safe_next(next)) if _safe_next(next) != "/" else "")
        return flash_redirect(request, again, {"error": "Wrong user name or password."})
    response = redirect(_safe_next(next))
    with site.db.writing() as s:
        log_in(response, request, s, user.id)
    return response


@router.post("/logout")
def logout(request: Request, csrf: str = Form("")) -> Response:
    """End the session."""
    response = redirect("/")
    with writing(request, csrf) as v:
        log_out(response, request, v.session)
    return response


@router.post("/lang")
def set_language(request: Request, lang: str = Form("en"), csrf: str = Form(""), next: str = Form("/")) -> Response:
    """Switch the language of pages and reports (kept on the account, or in a cookie)."""
    lang = lang if lang in LANGUAGES else "en"
    with writing(request, csrf) as v:
        if v.actor.user is not None:
            v.actor.user.lang = lang
    response = redirect(_safe_next(next))
    response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, httponly=True, samesite="lax")
    return response


@router.get("/account", response_class=HTMLResponse)
def account(request: Request) -> Response:
    """Account settings and API tokens."""
    with reading(request) as v:
        return render(request, v.actor, "account.html", _account(v.session, v.site.now(), v.actor, None))


@router.post("/account/tokens")
def new_token(request: Request, label: str = Form("bot"), csrf: str = Form("")) -> Response:
    """Make an API token (shown once)."""
    with writing(request, csrf) as v:
        user = v.user()
        token = create_token(v.session, user.id, label, v.site.now())
    return flash_redirect(request, "/account", {"new_token": token})  # shown once, by the next page


@router.post("/account/tokens/{token_id}/delete")
def remove_token(token_id: int, request: Request, csrf: str = Form("")) -> Response:
    """Delete one of your API tokens."""
    with writing(request, csrf) as v:
        if not delete_token(v.session, v.user().id, token_id):
            raise Problem(404, "not_found", "this token does not exist")
    return redirect("/account", "done")


@router.post("/account/webhook", response_class=HTMLResponse)
def webhook_form(request: Request, csrf: str = Form(""), url: str = Form("")) -> Response:
    """The account page's webhook form: set the URL and show its new signing secret this once."""
    if len(url) > MAX_URL:
        raise Problem(400, "bad_webhook", f"a webhook URL has at most {MAX_URL} characters", "form.url")
    with writing(request, csrf) as v:
        secret = set_webhook(v.site, v.user(), url.strip(), "form.url")
    return flash_redirect(request, "/account", {"webhook_secret": secret})  # shown once, by the next page


@router.post("/account/webhook/delete")
def webhook_delete_form(request: Request, csrf: str = Form("")) -> Response:
    """The account page's button that removes the webhook (and its secret)."""
    with writing(request, csrf) as v:
        remove_webhook(v.user())
    return redirect("/account", "done")


def _account(
    s: Session, now: datetime, actor: Actor, new_token: str | None, webhook_secret: str | None = None
) -> dict[str, Any]:
    user = actor.require()
    return {
        "tokens": tokens_of(s, user.id),
        "new_token": new_token,
        "webhook_secret": webhook_secret,
        "sessions": live_sessions(s, user.id, now),
        "current_session": actor.session_id,
        **notify_settings(user),
    }


@router.post("/account/sessions/{session_id}/end")
def end_one_session(session_id: int, request: Request, csrf: str = Form("")) -> Response:
    """End one of your sessions (another browser, or this one)."""
    with writing(request, csrf) as v:
        if not end_session_id(v.session, v.user().id, session_id, v.site.now()):
            raise Problem(404, "not_found", "this session does not exist")
    return redirect("/account" if session_id != v.actor.session_id else "/", "done")


@router.post("/account/sessions/end-all")
def end_every_session(request: Request, csrf: str = Form("")) -> Response:
    """Log out everywhere: end every session of your account, this one included."""
    with writing(request, csrf) as v:
        end_all_sessions(v.session, v.user().id, v.site.now())
    response = redirect("/", "done")
    response.delete_cookie(SESSION_COOKIE)
    return response
