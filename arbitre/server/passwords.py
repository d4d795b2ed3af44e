"""Password change and reset by e-mail: signed, expiring, single-use links.

A reset link carries a token signed with the site's key (purpose ``reset``)
naming the account, when it was made, and a digest of the account's current
password hash.  It is refused after :data:`RESET_LIFETIME`, and once the
password has changed (by this link or any other way) the digest no longer
matches: each link works once.  Nothing about the link is stored.

Requests for a link are throttled like logins (:mod:`arbitre.server.throttle`):
per address, and at most three e-mails per account an hour (:data:`RESET_MAILS`).
The request only hands the sending over (:mod:`arbitre.server.chores`): its answer
and its work are the same whether the account exists or not.  A new password ends
every other session of the account (a reset ends them all).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from email.utils import make_msgid

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arbitre.server.errors import Problem, bad_request
from arbitre.server.limits import Limit
from arbitre.server.notify import letters
from arbitre.server.notify.mail import Envelope, SmtpServer, build
from arbitre.server.security import ResetClaim, hash_password, verify_password
from arbitre.server.site import Site
from arbitre.store.accounts import user_by_name
from arbitre.store.models import User
from arbitre.store.sessions import end_all_sessions
from arbitre.words import translator

log = logging.getLogger("arbitre.passwords")

RESET_LIFETIME = timedelta(hours=1)
"""How long a reset link works."""
MIN_PASSWORD, MAX_PASSWORD = 8, 200
"""Password length bounds (the same as registration's)."""


def _digest(password_hash: str) -> str:
    return hashlib.sha256(b"reset:" + password_hash.encode()).hexdigest()[:24]


def check_new_password(password: str, where: str) -> None:
    """Refuse a new password outside the length bounds (``where`` names the field)."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise bad_request(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters", "bad_password", where)


def reset_token(site: Site, user: User, now: datetime) -> str:
    """A reset token for ``user`` (valid :data:`RESET_LIFETIME` from ``now``, until the password changes)."""
    return site.signer.make_token(ResetClaim(u=user.id, h=_digest(user.password_hash), t=int(now.timestamp())))


def user_of_reset(site: Site, session: Session, token: str, now: datetime, where: str = "path") -> User:
    """The account a reset token opens; 400 (at ``where``) if it is forged, used or expired."""
    claim = site.signer.read_token(ResetClaim, token)
    user = session.get(User, claim.u) if claim is not None else None
    if (
        user is None
        or claim is None
        or claim.h != _digest(user.password_hash)
        or not 0 <= now.timestamp() - claim.t <= RESET_LIFETIME.total_seconds()
    ):
        raise bad_request("this reset link is not valid: it was used, it expired or it was changed", "bad_token", where)
    return user


def find_account(session: Session, who: str) -> User | None:
    """The account called ``who``, or whose e-mail address is ``who`` (case-insensitive)."""
    who = who.strip()
    if "@" in who:
        return session.scalars(select(User).where(func.lower(User.email) == who.lower())).first()
    return user_by_name(session, who)


RESET_MAILS = Limit("reset-mail", 3, 3600.0, "reset e-mails for this account", "who")
"""Reset e-mails per account: 3 an hour (counted in the database, for every server process)."""


def request_reset(site: Site, who: str, address: str) -> None:
    """Hand the sending of a reset link over to the chores thread (:mod:`arbitre.server.chores`).

    The request does the same work whatever ``who`` names: it counts the address's attempt and hands ``who``
    over; the account is looked up only after the answer.  So neither the answer nor its timing tells whether
    the account exists, has an e-mail address, was sent enough e-mails lately, or whether the sending failed.
    """
    if not site.settings.smtp_url:
        raise Problem(409, "no_mail", "this site sends no e-mail; ask its administrator to reset your password")
    site.guard.check(address, None)
    who = who.strip()[:254]
    site.chores.hand_over(lambda: send_reset(site, who))


def send_reset(site: Site, who: str) -> bool:
    """Send a reset link to the account ``who`` names, if it has an e-mail address and was not sent
    :data:`RESET_MAILS` lately; whether an e-mail went out."""
    with site.db.reading() as session:
        user = find_account(session, who)
    if user is None or not user.email:
        return False
    try:
        site.limits.take((RESET_MAILS, RESET_MAILS.key(user.id)))
    except Problem:
        return False  # enough e-mails for now
    now = site.now()
    _ = translator(user.lang)
    link = f"{site.settings.site_url}/reset/{reset_token(site, user, now)}"
    text = "\n\n".join(
        [
            _("Someone (you, we hope) asked to reset the password of the account {name}.", name=user.name),
            _("Choose a new password here: {link}", link=link),
            _(
                "This link works once, until {deadline}. If you did not ask, ignore this e-mail: your password stays.",
                deadline=letters.when(now + RESET_LIFETIME, user, _),
            ),
        ]
    )
    host = site.settings.site_url.split("://", 1)[-1].split("/")[0].split(":")[0] or "arbitre.invalid"
    envelope = Envelope(
        sender=site.settings.mail_from or f"arbitre@{host}",
        to=user.email,
        message_id=make_msgid("reset", host),
        date=now,
        unsubscribe_url="",
        lang=user.lang,
    )
    message = build(envelope, _("Your arbitre password"), text + "\n")
    try:
        SmtpServer.parse(site.settings.smtp_url).send(message)
    except (OSError, ValueError) as err:  # smtplib's errors are OSErrors
        log.warning("reset e-mail to user %s failed: %s", user.id, err)
        return False
    return True


def change_password(site: Site, session: Session, user: User, password_hash: str, keep_session: int | None) -> int:
    """Store a new password hash and end every other session of the account; returns how many ended."""
    user.password_hash = password_hash
    return end_all_sessions(session, user.id, site.now(), keep=keep_session)


def new_hash(site: Site, password: str) -> str:
    """Hash a new password through the site's bounded gate (never inside a write transaction)."""
    return site.guard.gate.run(lambda: hash_password(password))


def check_current(site: Site, user: User, password: str, address: str) -> None:
    """Refuse (403, ``where``: ``current_password``) a wrong current password; throttled like a login."""
    ticket = site.guard.check(address, user.name)  # counted as a failure until the password proves right
    if not site.guard.gate.run(lambda: verify_password(user.password_hash, password)):
        raise Problem(403, "wrong_password", "the current password is wrong", "current_password")
    site.guard.passed(ticket)
