"""Passwords (argon2), signed session cookies, CSRF tokens, and signed tokens carrying a typed claim."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import ClassVar, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadData, BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

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


class Claim(BaseModel):
    """What a signed token says, for one purpose (a token of one purpose opens no other); its JSON keys are its
    fields, in their order (the token's bytes)."""

    model_config = ConfigDict(frozen=True)

    purpose: ClassVar[str]


class ResetClaim(Claim):
    """A password reset link: the account, a digest of its password hash (a changed password voids the link),
    and when it was made (UNIX seconds)."""

    purpose: ClassVar[str] = "reset"
    u: StrictInt
    h: StrictStr
    t: StrictInt


class UnsubscribeClaim(Claim):
    """A one-click unsubscribe link: the account and the kind of e-mail it turns off."""

    purpose: ClassVar[str] = "unsubscribe"
    u: StrictInt
    k: StrictStr


C = TypeVar("C", bound=Claim)


def _claim(kind: type[C], data: object) -> C | None:
    """The claim ``data`` holds, or ``None`` when it is not one (a malformed payload)."""
    try:
        return kind.model_validate(data)
    except ValidationError:
        return None


class Signer:
    """Signs session cookies and derives CSRF tokens from the site's secret key.

    A session cookie carries the session's random secret (signed); the session
    itself is a row on the server (:mod:`arbitre.store.sessions`), so that
    logging out ends it.
    """

    def __init__(self, secret: str) -> None:
        self._secret = secret.encode()
        self._serializer = URLSafeTimedSerializer(secret, salt="arbitre-session")

    def make_session(self, session_secret: str) -> str:
        """The signed cookie value carrying ``session_secret``."""
        return self._serializer.dumps({"s": session_secret})

    def read_session(self, value: str | None) -> str | None:
        """The session secret in a cookie value, or ``None`` if absent, forged or too old."""
        if not value or len(value) > 512:
            return None
        try:
            data = self._serializer.loads(value, max_age=SESSION_MAX_AGE)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("s"), str) or not 20 <= len(data["s"]) <= 100:
            return None
        return str(data["s"])

    def flash_serializer(self) -> URLSafeTimedSerializer:
        """The serializer of the post/redirect/get flash cookie (:mod:`arbitre.server.flash`)."""
        return URLSafeTimedSerializer(self._secret.decode(), salt="arbitre-flash")

    def csrf_token(self, nonce: str) -> str:
        """The CSRF token of a session (or of an anonymous visitor's ``nonce``)."""
        return hmac.new(self._secret, b"csrf:" + nonce.encode(), hashlib.sha256).hexdigest()

    def check_csrf(self, nonce: str, token: str | None) -> bool:
        """Is ``token`` the CSRF token of ``nonce``?"""
        return bool(token) and hmac.compare_digest(self.csrf_token(nonce), token or "")

    def make_token(self, claim: Claim) -> str:
        """A URL-safe signed token carrying ``claim`` for its purpose (a token of one purpose opens no other)."""
        return URLSafeTimedSerializer(self._secret.decode(), salt=f"arbitre-{claim.purpose}").dumps(claim.model_dump())

    def make_fixed_token(self, claim: Claim) -> str:
        """Like :meth:`make_token` but without a time in it: the same claim always gives the same token (a link
        in an e-mail that tells nothing of when it was written: when a sender wrote it depends on everyone's mail)."""
        return URLSafeSerializer(self._secret.decode(), salt=f"arbitre-{claim.purpose}-fixed").dumps(claim.model_dump())

    def read_fixed_token(self, kind: type[C], value: str | None) -> C | None:
        """The claim of a token made by :meth:`make_fixed_token` (or, for links made before, by
        :meth:`make_token`) for ``kind``'s purpose; ``None`` if forged or malformed."""
        if not value or len(value) > 512:
            return None
        try:
            data = URLSafeSerializer(self._secret.decode(), salt=f"arbitre-{kind.purpose}-fixed").loads(value)
        except BadData:
            return self.read_token(kind, value)
        return _claim(kind, data)

    def read_token(self, kind: type[C], value: str | None, max_age: int | None = None) -> C | None:
        """The claim of a token made by :meth:`make_token` for ``kind``'s purpose; ``None`` if forged, too old or
        malformed."""
        if not value or len(value) > 512:
            return None
        try:
            data = URLSafeTimedSerializer(self._secret.decode(), salt=f"arbitre-{kind.purpose}").loads(
                value, max_age=max_age
            )
        except BadData:  # a bad signature, a bad timestamp or a payload that is not JSON
            return None
        return _claim(kind, data)
