"""Pages about accounts: home, register, log in/out, account settings and bot tokens, language."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from arbitre.server import actions, services
from arbitre.server.auth import LANG_COOKIE, check_csrf, identify, log_in, log_out, site_of
from arbitre.server.errors import Problem
from arbitre.server.i18n import LANGUAGES
from arbitre.server.pages import redirect, render
from arbitre.store.accounts import create_token, delete_token, tokens_of
from arbitre.store.games import games_of, list_games, player_count

router = APIRouter(include_in_schema=False)


def _safe_next(url: str | None) -> str:
    return url if url and url.startswith("/") and not url.startswith("//") else "/"


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    """The list of games (and the user's own)."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        games = [services.summary(g, player_count(s, g.id)) for g in list_games(s)]
        mine = [(services.summary(g), m) for g, m in games_of(s, actor.user.id)] if actor.user else []
        return render(request, actor, "home.html", {"games": games, "mine": mine})


@router.get("/register", response_class=HTMLResponse)
def register_form(request: Request) -> Response:
    """The registration form."""
    site = site_of(request)
    with site.db.reading() as s:
        return render(request, identify(request, s), "register.html", {"error": None})


@router.post("/register")
def register(request: Request, name: str = Form(""), password: str = Form(""), csrf: str = Form("")) -> Response:
    """Create an account and log in."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        try:
            user = actions.register(s, site, name.strip(), password, actor.lang)
        except Problem as err:
            key = "This name is taken." if err.status == 409 else \
                "A name is 3 to 40 letters, digits, '-' or '_'; a password at least 8 characters."
            return render(request, actor, "register.html", {"error": key}, status=err.status)
        response = redirect("/", "registered")
        log_in(response, site, user.id)
        return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/") -> Response:
    """The login form."""
    site = site_of(request)
    with site.db.reading() as s:
        return render(request, identify(request, s), "login.html", {"error": None, "next": _safe_next(next)})


@router.post("/login")
def login(request: Request, name: str = Form(""), password: str = Form(""), csrf: str = Form(""),
          next: str = Form("/")) -> Response:
    """Check the password and set the session cookie."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        user = actions.authenticate(s, name, password)
        if user is None:
            return render(request, actor, "login.html", {"error": "Wrong user name or password.",
                                                         "next": _safe_next(next)}, status=401)
        response = redirect(_safe_next(next))
        log_in(response, site, user.id)
        return response


@router.post("/logout")
def logout(request: Request, csrf: str = Form("")) -> Response:
    """End the session."""
    site = site_of(request)
    with site.db.reading() as s:
        check_csrf(request, identify(request, s), csrf)
    response = redirect("/")
    log_out(response)
    return response


@router.post("/lang")
def set_language(request: Request, lang: str = Form("en"), csrf: str = Form(""), next: str = Form("/")) -> Response:
    """Switch the language of pages and reports (kept on the account, or in a cookie)."""
    site = site_of(request)
    lang = lang if lang in LANGUAGES else "en"
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        if actor.user is not None:
            actor.user.lang = lang
    response = redirect(_safe_next(next))
    response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, httponly=True, samesite="lax")
    return response


@router.get("/account", response_class=HTMLResponse)
def account(request: Request) -> Response:
    """Account settings and API tokens."""
    site = site_of(request)
    with site.db.reading() as s:
        actor = identify(request, s)
        user = actor.require()
        return render(request, actor, "account.html", {"tokens": tokens_of(s, user.id), "new_token": None})


@router.post("/account/tokens")
def new_token(request: Request, label: str = Form("bot"), csrf: str = Form("")) -> Response:
    """Make an API token (shown once)."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        user = actor.require()
        token = create_token(s, user.id, label, site.now())
        return render(request, actor, "account.html", {"tokens": tokens_of(s, user.id), "new_token": token})


@router.post("/account/tokens/{token_id}/delete")
def remove_token(token_id: int, request: Request, csrf: str = Form("")) -> Response:
    """Delete one of your API tokens."""
    site = site_of(request)
    with site.db.writing() as s:
        actor = identify(request, s)
        check_csrf(request, actor, csrf)
        if not delete_token(s, actor.require().id, token_id):
            raise Problem(404, "not_found", "this token does not exist")
    return redirect("/account", "done")
