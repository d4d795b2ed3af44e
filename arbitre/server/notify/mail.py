"""E-mail over SMTP: the server named by ``ARBITRE_SMTP_URL``, and the message of one letter.

``smtp://host:port`` (plain, the default port 25), ``smtp://user:password@host:587?starttls=1``
(STARTTLS, then log in), or ``smtps://user:password@host:465`` (TLS from the start).
User and password are URL-encoded (``%40`` for ``@``).
"""

from __future__ import annotations

import contextlib
import email.policy
import smtplib
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from urllib.parse import parse_qs, unquote, urlsplit

HEADERS = email.policy.SMTP.clone(max_line_length=998)
"""How the e-mails are written: CRLF line ends, header lines up to 998 characters."""
SMTP_TIMEOUT = 30.0
"""Seconds an SMTP exchange may take (the sender's lease is longer)."""


class MailSettingsError(ValueError):
    """``ARBITRE_SMTP_URL`` cannot be read."""


@dataclass(frozen=True)
class SmtpServer:
    """Where and how to hand e-mails over."""

    host: str
    port: int
    user: str = ""
    password: str = ""
    tls: bool = False
    """TLS from the first byte (``smtps://``)."""
    starttls: bool = False

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        """Read ``smtp://[user:password@]host[:port][?starttls=1]`` or ``smtps://…``."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise MailSettingsError("ARBITRE_SMTP_URL is smtp://[user:password@]host[:port] or smtps://…")
        query = parse_qs(parts.query)
        tls = parts.scheme == "smtps"
        try:
            port = parts.port or (465 if tls else 25)
        except ValueError as err:
            raise MailSettingsError(f"ARBITRE_SMTP_URL: {err}") from err
        return cls(
            host=parts.hostname,
            port=port,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            tls=tls,
            starttls=query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes"),
        )

    @contextlib.contextmanager
    def connect(self, timeout: float = SMTP_TIMEOUT) -> Iterator[smtplib.SMTP]:
        """An open, logged-in connection (closed at the end of the block); send with ``send_message``.

        ``timeout`` bounds each network operation; the sender bounds each whole message with its deadline.
        """
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if self.tls:
            client = smtplib.SMTP_SSL(self.host, self.port, timeout=timeout, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=timeout)
        with client:
            if self.starttls:
                client.starttls(context=context)
            if self.user:
                client.login(self.user, self.password)
            yield client

    def send(self, message: EmailMessage) -> None:
        """Hand one message to the server (raises ``smtplib.SMTPException`` or ``OSError`` on failure)."""
        with self.connect() as client:
            client.send_message(message)


@dataclass(frozen=True)
class Envelope:
    """What an e-mail needs besides its words: addresses, its stable id, its date and the unsubscribe link."""

    sender: str
    to: str
    message_id: str
    date: datetime
    unsubscribe_url: str
    lang: str


def build(envelope: Envelope, subject: str, text: str) -> EmailMessage:
    """A plain-text e-mail with the RFC 8058 one-click unsubscribe headers and a stable ``Message-ID``."""
    # Long header lines are kept whole (RFC 5322 allows 998 characters): a folded List-Unsubscribe URL would be
    # written as an encoded word, which mail programs do not read as a link.
    msg = EmailMessage(policy=HEADERS)
    msg["From"] = formataddr(("arbitre", envelope.sender))
    msg["To"] = envelope.to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(envelope.date)
    msg["Message-ID"] = envelope.message_id
    msg["Content-Language"] = envelope.lang
    if envelope.unsubscribe_url:  # notifications; an account's own e-mails (a reset link) have none
        msg["List-Unsubscribe"] = f"<{envelope.unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(text, charset="utf-8")
    return msg
