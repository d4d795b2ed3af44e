"""E-mail over TLS against a real SMTP server on loopback (aiosmtpd with a throwaway self-signed
certificate): STARTTLS with a login the server accepts only after TLS, and TLS from the first byte
(``smtps://``).  The certificate is checked: trusted through ``SSL_CERT_FILE`` it works; untrusted, the
send fails and nothing is received."""

from __future__ import annotations

import shutil
import smtplib
import ssl
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from arbitre.server.notify.mail import Envelope, SmtpServer, build
from tests.server.smtp_sink import ARTIFACTS, Sink, free_port

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command (Debian: openssl)")


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _server_context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(certificate[0]), str(certificate[1]))
    return context


def _authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"arbitre", b"s3cret")
    return AuthResult(success=ok)


def _letter(to: str) -> Any:
    envelope = Envelope("judge@example.org", to, "<tls-test@example.org>", datetime(2030, 1, 1, tzinfo=UTC), "", "en")
    return build(envelope, "TLS check", "Sent over TLS.")


@pytest.fixture
def starttls_sink(certificate: tuple[Path, Path], request: pytest.FixtureRequest) -> Iterator[tuple[Sink, int]]:
    """A server that requires STARTTLS, and a login that only TLS may carry."""
    sink = Sink(ARTIFACTS / request.node.name)
    port = free_port()
    controller = Controller(
        sink,
        hostname="127.0.0.1",
        port=port,
        tls_context=_server_context(certificate),
        require_starttls=True,
        authenticator=_authenticate,
        auth_required=True,
        auth_require_tls=True,
    )
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


@pytest.fixture
def smtps_sink(certificate: tuple[Path, Path], request: pytest.FixtureRequest) -> Iterator[tuple[Sink, int]]:
    """A server speaking TLS from the first byte."""
    sink = Sink(ARTIFACTS / request.node.name)
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port, ssl_context=_server_context(certificate))
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


def test_starttls_with_a_login(
    starttls_sink: tuple[Sink, int], certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    sink, port = starttls_sink
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    SmtpServer.parse(f"smtp://arbitre:s3cret@127.0.0.1:{port}?starttls=1").send(_letter("a@example.org"))
    (got,) = sink.messages()
    assert got.to == "a@example.org" and got.text().strip() == "Sent over TLS."
    # without STARTTLS the server refuses the login (and the mail): nothing more is received
    with pytest.raises(smtplib.SMTPException):
        SmtpServer.parse(f"smtp://arbitre:s3cret@127.0.0.1:{port}").send(_letter("b@example.org"))
    assert len(sink.messages()) == 1


def test_smtps_checks_the_certificate(
    smtps_sink: tuple[Sink, int], certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sink, port = smtps_sink
    other = tmp_path / "empty.pem"
    other.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(other))  # trusts nothing: the self-signed server is refused
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
    with pytest.raises(ssl.SSLCertVerificationError):
        SmtpServer.parse(f"smtps://127.0.0.1:{port}").send(_letter("a@example.org"))
    assert sink.messages() == []
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    SmtpServer.parse(f"smtps://127.0.0.1:{port}").send(_letter("a@example.org"))
    (got,) = sink.messages()
    assert got.subject == "TLS check"
