"""Passwords (argon2), signed session cookies and CSRF tokens."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, URLSafeTimedSerializer

SESSION_COOKIE = "arbitre_session"
"""Name of the session cookie."""
SESSION_MAX_AGE = 30 * 24 * 3600
"""A session lasts 30 days."""

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Does ``password`` match the stored hash?"""
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


DUMMY_HASH = hash_password(secrets.token_hex(8))
"""Checked against when the user does not exist, so that a login takes the same time either way."""


@dataclass(frozen=True)
class SessionData:
    """What the session cookie carries: the user and a per-session secret for CSRF tokens."""

    user_id: int
    nonce: str


class Signer:
    """Signs session cookies and derives CSRF tokens from the site's secret key."""

    def __init__(self, secret: str) -> None:
        self._secret = secret.encode()
        self._serializer = URLSafeTimedSerializer(secret, salt="arbitre-session")

    def make_session(self, user_id: int) -> str:
        """A new signed session cookie value for ``user_id``."""
        return self._serializer.dumps({"u": user_id, "n": secrets.token_urlsafe(16)})

    def read_session(self, value: str | None) -> SessionData | None:
        """The session in a cookie value, or ``None`` if absent, forged or expired."""
        if not value:
            return None
        try:
            data = self._serializer.loads(value, max_age=SESSION_MAX_AGE)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("n"), str):
            return None
        return SessionData(data["u"], data["n"])

    def csrf_token(self, nonce: str) -> str:
        """The CSRF token of a session (or of an anonymous visitor's ``nonce``)."""
        return hmac.new(self._secret, b"csrf:" + nonce.encode(), hashlib.sha256).hexdigest()

    def check_csrf(self, nonce: str, token: str | None) -> bool:
        """Is ``token`` the CSRF token of ``nonce``?"""
        return bool(token) and hmac.compare_digest(self.csrf_token(nonce), token or "")
