"""Token and session lookups, cached per process without ever trusting the cache for revocation.

Every request names its user by a credential: a bearer token or the secret of a login session, each stored
as its SHA-256.  Finding the user costs one statement, and most of its CPU went into building the ``User``
object from its row (13 columns, two of them JSON).  This module keeps, per process and per database:

* which user each credential digest belongs to (a token or a session never changes hands; the query checks it);
* each user's row as it was at a given ``users.revision`` (a counter every change to the row adds to, in the
  transaction making the change: :func:`track_user_revisions`).

A request whose credential and user are known asks the database, in the one statement it makes anyway, only
for small columns: does the token (or the live session) still exist, whose is it, what is the user's
``revision`` now, and the unread count.  So a token deleted or a session ended in any process is refused at
once, as before; and when the revision is still the one cached, the user is rebuilt from the cached values
(no JSON decoding, no result-row processing) and attached to the request's session, exactly as if it had been
loaded.  When the revision moved (the user changed a setting, in any process), the row is loaded again: one
more statement, for that request only.  Unknown credentials take the full query, which fills the cache.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, event, select, update
from sqlalchemy.orm import Session, SessionTransaction, make_transient_to_detached

from arbitre.store.models import ApiToken, LoginSession, User

_USER_COLUMNS = tuple(c.key for c in User.__mapper__.column_attrs)
_BUMPED = "arbitre_user_revision_bumped"


class LoginCache:
    """Credential digest → user id, and user id → (revision, the row's values); both LRU-bounded."""

    def __init__(self, users: int = 10_000, credentials: int = 20_000) -> None:
        self.max_users = users
        self.max_credentials = credentials
        self._owners: OrderedDict[str, int] = OrderedDict()
        self._users: OrderedDict[int, tuple[int, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        """Requests whose user came from the cache (its revision checked in the query)."""
        self.loads = 0
        """Requests whose user row was loaded from the database."""

    def known(self, digest: str) -> tuple[int, int] | None:
        """The user id and cached revision behind a credential digest, when both are cached."""
        with self._lock:
            uid = self._owners.get(digest)
            if uid is None:
                return None
            entry = self._users.get(uid)
            if entry is None:
                return None
            self._owners.move_to_end(digest)
            self._users.move_to_end(uid)
            return uid, entry[0]

    def user(self, session: Session, uid: int, revision: int) -> User | None:
        """The cached row of ``uid`` at ``revision``, attached to ``session`` as a loaded user (no statement)."""
        with self._lock:
            entry = self._users.get(uid)
            if entry is None or entry[0] != revision:
                return None
            values = entry[1]
        if session.identity_map.get(session.identity_key(User, uid)) is not None:
            return None  # already loaded in this session: let the caller load it the usual way
        # A fresh copy of the JSON values: a request changing a list in place must not change the cache.
        user = User(**{k: copy.deepcopy(v) if isinstance(v, (list, dict)) else v for k, v in values.items()})
        make_transient_to_detached(user)
        session.add(user)  # persistent in this session, with its attributes marked as loaded
        self.hits += 1
        return user

    def remember(self, digest: str, user: User) -> None:
        """Keep ``user`` (just loaded) and that ``digest`` names it."""
        values = {k: copy.deepcopy(user.__dict__[k]) for k in _USER_COLUMNS if k in user.__dict__}
        if len(values) != len(_USER_COLUMNS):
            return  # a column not loaded: nothing kept
        with self._lock:
            self.loads += 1
            self._owners[digest] = user.id
            self._owners.move_to_end(digest)
            self._users[user.id] = (user.revision, values)
            self._users.move_to_end(user.id)
            while len(self._owners) > self.max_credentials:
                self._owners.popitem(last=False)
            while len(self._users) > self.max_users:
                self._users.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._owners.clear()
            self._users.clear()


_STATEMENTS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Select[Any]]] = {}
_STATEMENTS_LOCK = threading.Lock()


def _built(parts: tuple[Any, ...], build: Callable[[], Select[Any]]) -> Select[Any]:
    """The lookup statement for ``parts`` (a kind and the extra columns), built once per distinct set of column
    objects: every request runs one, and SQLAlchemy then finds its compiled form without building the statement
    and its cache key again.  Keyed by the columns' identities (the parts are kept, so no identity is reused)."""
    key = tuple(p if isinstance(p, str) else id(p) for p in parts)
    found = _STATEMENTS.get(key)
    if found is None:
        with _STATEMENTS_LOCK:
            if len(_STATEMENTS) > 64:  # callers building new columns each time: keep no more than a few
                _STATEMENTS.clear()
            found = _STATEMENTS[key] = (parts, build())
    return found[1]


def _load(session: Session, cache: LoginCache, digest: str, uid: int) -> User | None:
    """The user row loaded again (its revision moved since it was cached)."""
    user = session.get(User, uid)
    if user is not None:
        cache.remember(digest, user)
    return user


def user_by_token_hash(
    session: Session, cache: LoginCache, digest: str, *extra: ColumnElement[Any]
) -> tuple[User, tuple[Any, ...]] | None:
    """The owner of the bearer token whose SHA-256 is ``digest`` (``None``: no such token), and the ``extra``
    columns about the user, in one statement (two when the user's row changed since it was cached)."""
    known = cache.known(digest)
    if known is not None:
        stmt = _built(
            ("token", *extra),
            lambda: (
                select(ApiToken.user_id, User.revision, *extra)
                .join(User, User.id == ApiToken.user_id)
                .where(ApiToken.token_hash == bindparam("digest"))
            ),
        )
        found = session.execute(stmt, {"digest": digest}).first()
        if found is None:
            return None
        uid, revision = found[0], found[1]
        user = cache.user(session, uid, revision) if uid == known[0] else None
        if user is None:
            user = _load(session, cache, digest, uid)
        return None if user is None else (user, tuple(found[2:]))
    row = session.execute(
        select(User, *extra).join(ApiToken, ApiToken.user_id == User.id).where(ApiToken.token_hash == digest)
    ).first()
    if row is None:
        return None
    cache.remember(digest, row[0])
    return row[0], tuple(row[1:])


def session_by_hash(
    session: Session, cache: LoginCache, digest: str, now: datetime, *extra: ColumnElement[Any]
) -> tuple[int, User, tuple[Any, ...]] | None:
    """The live login session whose secret's SHA-256 is ``digest``: its id, its user and the ``extra`` columns
    (``None`` when unknown, ended or expired), in one statement (two when the user's row changed since cached)."""
    known = cache.known(digest)
    if known is not None:
        stmt = _built(
            ("session", *extra),
            lambda: (
                select(LoginSession.id, LoginSession.expires_at, LoginSession.ended_at, User.id, User.revision, *extra)
                .join(User, User.id == LoginSession.user_id)
                .where(LoginSession.secret_hash == bindparam("digest"))
            ),
        )
        found = session.execute(stmt, {"digest": digest}).first()
        if found is None or found[2] is not None or found[1] <= now:
            return None
        uid = found[3]
        user = cache.user(session, uid, found[4]) if uid == known[0] else None
        if user is None:
            user = _load(session, cache, digest, uid)
        return None if user is None else (found[0], user, tuple(found[5:]))
    row = session.execute(
        select(LoginSession, User, *extra)
        .join(User, User.id == LoginSession.user_id)
        .where(LoginSession.secret_hash == digest)
    ).first()
    if row is None:
        return None
    login, user = row[0], row[1]
    if login.ended_at is not None or login.expires_at <= now:
        return None
    cache.remember(digest, user)
    return login.id, user, tuple(row[2:])


def _bump(session: Session, _context: Any) -> None:
    """After each flush: add one to ``revision`` of every user whose row it changed (once per transaction)."""
    changed = {
        obj.id
        for obj in session.dirty
        if isinstance(obj, User) and obj.id is not None and session.is_modified(obj, include_collections=False)
    }
    done: set[int] = session.info.setdefault(_BUMPED, set())
    changed -= done
    if not changed:
        return
    done.update(changed)
    session.connection().execute(update(User).where(User.id.in_(sorted(changed))).values(revision=User.revision + 1))


def _forget(session: Session, transaction: SessionTransaction) -> None:
    # A flush runs in a subtransaction of its own: only the end of the outermost one ends the count.
    if transaction.parent is None:
        session.info.pop(_BUMPED, None)


def track_user_revisions() -> None:
    """Make every ORM session of this process keep ``users.revision`` (idempotent)."""
    if not event.contains(Session, "after_flush", _bump):
        event.listen(Session, "after_flush", _bump)
        event.listen(Session, "after_transaction_end", _forget)
