"""Accounts, bot tokens and site settings (rows only: hashing lives in the server)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from sqlalchemy import ScalarSelect, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arbitre.store.models import ApiToken, Notification, SiteSetting, User


class NameTaken(ValueError):
    """Raised when registering a user name that already exists."""


def create_user(session: Session, name: str, password_hash: str, lang: str, now: datetime) -> User:
    """Add a user; raises :class:`NameTaken` if the name is used (case-insensitively)."""
    if user_by_name(session, name) is not None:
        raise NameTaken(name)
    user = User(name=name, password_hash=password_hash, lang=lang, created_at=now)
    session.add(user)
    try:
        session.flush()
    except IntegrityError as err:
        raise NameTaken(name) from err
    return user


def user_by_name(session: Session, name: str) -> User | None:
    """The user called ``name`` (case-insensitive), if any."""
    return session.scalars(select(User).where(func.lower(User.name) == name.lower())).first()


def hash_token(token: str) -> str:
    """The stored form of a bearer token."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(session: Session, user_id: int, label: str, now: datetime) -> str:
    """Make a new bearer token for ``user_id``; the clear token is returned once and never stored."""
    token = "arb_" + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user_id, token_hash=hash_token(token), label=label[:80], created_at=now))
    session.flush()
    return token


def unread_column() -> ScalarSelect[int]:
    """How many site notifications of the user being selected are unread, as a column of the same query (the
    count :func:`arbitre.store.outbox.unread_count` gives); one object, so the login lookups that select it keep
    their statements built once (:mod:`arbitre.store.logins`)."""
    return _UNREAD


_UNREAD = (
    select(func.count(Notification.id))
    .where(Notification.user_id == User.id, Notification.in_site.is_(True), Notification.read_at.is_(None))
    .correlate(User)
    .scalar_subquery()
)


def tokens_of(session: Session, user_id: int) -> list[ApiToken]:
    """The tokens of a user (hashes and labels only)."""
    return list(session.scalars(select(ApiToken).where(ApiToken.user_id == user_id).order_by(ApiToken.id)))


def delete_token(session: Session, user_id: int, token_id: int) -> bool:
    """Delete one of the user's tokens; False if it is not theirs."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user_id:
        return False
    session.delete(row)
    return True


def site_secret(session: Session) -> str:
    """The site's signing key, created on first use and shared by every server process."""
    row = session.get(SiteSetting, "secret_key")
    if row is None:
        session.add(SiteSetting(name="secret_key", value=secrets.token_urlsafe(48)))
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
        row = session.get(SiteSetting, "secret_key")
        assert row is not None
    return row.value
