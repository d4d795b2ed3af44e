"""Login sessions recorded on the server: open, end one, end all of a user's, list them (found by :mod:`arbitre.store.logins`).

The clear session secret lives only in the user's cookie; the database keeps
its SHA-256, so a copy of the database opens no session.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from arbitre.store.models import LoginSession


def hash_secret(secret: str) -> str:
    """The stored form of a session secret (its SHA-256)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def open_session(
    session: Session, user_id: int, now: datetime, lifetime: timedelta, *, user_agent: str = "", address: str = ""
) -> str:
    """Record a new session of ``user_id``; returns its clear secret (for the cookie), never stored."""
    secret = secrets.token_urlsafe(32)
    session.add(
        LoginSession(
            user_id=user_id,
            secret_hash=hash_secret(secret),
            created_at=now,
            expires_at=now + lifetime,
            user_agent=user_agent[:200],
            address=address[:64],
        )
    )
    session.flush()
    return secret


def end_session(session: Session, secret: str, now: datetime) -> None:
    """End the session with this secret (log out)."""
    session.execute(
        update(LoginSession)
        .where(LoginSession.secret_hash == hash_secret(secret), LoginSession.ended_at.is_(None))
        .values(ended_at=now)
    )


def end_session_id(session: Session, user_id: int, session_id: int, now: datetime) -> bool:
    """End one of ``user_id``'s sessions by id (revoke from the account page); False if it is not theirs."""
    result = session.execute(
        update(LoginSession)
        .where(LoginSession.id == session_id, LoginSession.user_id == user_id, LoginSession.ended_at.is_(None))
        .values(ended_at=now)
    )
    return bool(getattr(result, "rowcount", 0))


def end_all_sessions(session: Session, user_id: int, now: datetime, *, keep: int | None = None) -> int:
    """End every live session of ``user_id`` (log out everywhere; a password change), except ``keep``."""
    stmt = update(LoginSession).where(LoginSession.user_id == user_id, LoginSession.ended_at.is_(None))
    if keep is not None:
        stmt = stmt.where(LoginSession.id != keep)
    result = session.execute(stmt.values(ended_at=now))
    return int(getattr(result, "rowcount", 0))


def live_sessions(session: Session, user_id: int, now: datetime) -> list[LoginSession]:
    """The user's live sessions, newest first (for the account page)."""
    return list(
        session.scalars(
            select(LoginSession)
            .where(
                LoginSession.user_id == user_id,
                LoginSession.ended_at.is_(None),
                LoginSession.expires_at > now,
            )
            .order_by(LoginSession.id.desc())
        )
    )
