"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives, for the notification tests.

Every message it receives is kept in memory (parsed) and written to
``test-artifacts/emails/<test>/<n>-<to>.eml`` (git-ignored) so that a person can
read the e-mails the tests sent.
"""

from __future__ import annotations

import os
import re
import socket
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

ARTIFACTS = (
    Path(os.environ.get("ARBITRE_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts")) / "emails"
)


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Received:
    """One e-mail as the sink received it: the SMTP envelope and the parsed message."""

    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    message: EmailMessage

    @property
    def to(self) -> str:
        """The (first) envelope recipient."""
        return self.rcpt_tos[0]

    @property
    def subject(self) -> str:
        """The decoded subject."""
        return str(self.message["Subject"])

    def text(self) -> str:
        """The plain-text body, decoded."""
        part = self.message.get_body(("plain",))
        assert part is not None
        return str(part.get_content()).replace("\r\n", "\n")  # type: ignore[attr-defined]


@dataclass
class Sink:
    """The messages received so far (thread-safe), and where they are saved."""

    folder: Path
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """aiosmtpd's hook: keep and save the message."""
        raw = envelope.original_content or envelope.content
        msg = message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        got = Received(envelope.mail_from, list(envelope.rcpt_tos), raw, msg)
        with self.lock:
            self.received.append(got)
            n = len(self.received)
        self.folder.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.@-]", "_", got.to)
        (self.folder / f"{n:03d}-{name}.eml").write_bytes(raw)
        (self.folder / f"{n:03d}-{name}.txt").write_text(
            f"To: {got.to}\nSubject: {got.subject}\n\n{got.text()}", encoding="utf-8"
        )
        return "250 Message accepted for delivery"

    def messages(self, to: str | None = None) -> list[Received]:
        """What was received (for one address, if given), in order."""
        with self.lock:
            return [m for m in self.received if to is None or to in m.rcpt_tos]


class SmtpSink:
    """Start an aiosmtpd server on 127.0.0.1 (a free port); ``url`` is the ``ARBITRE_SMTP_URL`` to give."""

    def __init__(self, folder: Path) -> None:
        self.sink = Sink(folder)
        self.port = free_port()
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port)
        self.url = f"smtp://127.0.0.1:{self.port}"

    def __enter__(self) -> Sink:
        self.controller.start()
        return self.sink

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()
