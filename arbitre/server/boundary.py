"""The server's boundary: every request is checked here before any route sees it.

An ASGI middleware, so it covers every route, including routes added later:

- the body is at most :data:`MAX_BODY` bytes (``413`` otherwise, sent once a body
  of up to :data:`MAX_DRAIN` bytes was read and dropped, so the client reads it), the query
  string at most :data:`MAX_QUERY` and the path at most :data:`MAX_PATH`;
- a JSON body must be JSON under :func:`arbitre.interface.text.loads`
  (no duplicated fields, no ``NaN``/infinities, no huge integers, at most
  :data:`~arbitre.interface.text.MAX_DEPTH` levels, no lone surrogates or
  control characters in any string);
- form fields, query parameters and the path are UTF-8 text without control
  characters (form fields may hold line breaks);
- a path segment of digits names a row id: beyond a 32-bit id it is ``404``.

Refusals are the site's error object ``{"error": {"code", "message", "where"}}``
(on ``/api/``) or a short error page.
"""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes

from arbitre.interface.text import TextError, loads, text_problem
from arbitre.server.fields import MAX_ID

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
"""Largest request body, in bytes."""
MAX_DRAIN = 8 * 1024 * 1024
"""Largest too-large body still read (and dropped) before its 413, in bytes, so its client reads the answer."""
MAX_QUERY = 2048
"""Longest query string, in bytes."""
MAX_PATH = 512
"""Longest path, in characters."""
MAX_FIELDS = 300
"""Most fields of a form or query string."""


class Refused(Exception):
    """A request refused at the boundary."""

    def __init__(self, status: int, code: str, where: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.where, self.message = status, code, where, message


def error_body(code: str, message: str, where: str | None = None) -> dict[str, Any]:
    """The site's error object."""
    error: dict[str, Any] = {"code": code, "message": message}
    if where:
        error["where"] = where
    return {"error": error}


def _check_pairs(raw: bytes, where: str, multiline: bool) -> None:
    try:
        text = raw.decode("ascii")
        pairs = parse_qsl(text, keep_blank_values=True, errors="strict", max_num_fields=MAX_FIELDS)
    except UnicodeDecodeError as err:
        raise Refused(422, "bad_text", where, "not UTF-8 text") from err
    except ValueError as err:
        raise Refused(422, "too_many_fields", where, f"at most {MAX_FIELDS} fields") from err
    for key, value in pairs:
        problem = text_problem(key)
        if problem:
            raise Refused(422, "bad_text", f"{where} (a field name)", f"text holds {problem}")
        problem = text_problem(value, multiline=multiline)
        if problem:
            raise Refused(422, "bad_text", f"{where}.{key[:40]}", f"text holds {problem}")


def _check_path(scope: Scope) -> None:
    raw = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogatepass")
    if len(raw) > MAX_PATH:
        raise Refused(414, "too_long", "path", f"a path is at most {MAX_PATH} characters")
    try:
        path = unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError as err:
        raise Refused(404, "not_found", "path", "not UTF-8 text") from err
    problem = text_problem(path)
    if problem:
        raise Refused(404, "not_found", "path", f"the path holds {problem}")
    for segment in path.split("/"):
        if segment.isdigit() and (len(segment) > 10 or int(segment) > MAX_ID):
            raise Refused(404, "not_found", "path", f"no id is larger than {MAX_ID}")


def _check_body(body: bytes, content_type: str) -> None:
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/json" or kind.endswith("+json"):
        if not body.strip():
            return  # routes without a body; those that need one say so
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as err:
            raise Refused(422, "bad_text", "body", f"not UTF-8 text (byte {err.start + 1})") from err
        try:
            loads(text, "body")
        except TextError as err:
            raise Refused(422, "bad_json", err.where, err.message) from err
    elif kind == "application/x-www-form-urlencoded":
        _check_pairs(body, "form", multiline=True)


class Boundary:
    """ASGI middleware checking every HTTP request's size and text before the routes (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with its body replayed."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            _check_path(scope)
            query = scope.get("query_string", b"")
            if len(query) > MAX_QUERY:
                raise Refused(414, "too_long", "query", f"a query string is at most {MAX_QUERY} bytes")
            _check_pairs(query, "query", multiline=False)
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            length = headers.get("content-length", "")
            if length and (not length.isdigit() or int(length[:12]) > MAX_BODY):
                if length.isdigit() and int(length[:12]) <= MAX_DRAIN:
                    await _drain(receive)  # so that the client, still sending, reads its 413
                raise Refused(413, "too_large", "body", f"a request body is at most {MAX_BODY} bytes")
            body = await _read_body(receive)
            _check_body(body, headers.get("content-type", ""))
        except Refused as err:
            await _refuse(scope, send, err)
            return
        except _Disconnected:
            return
        await self.app(scope, _replay(body, receive), send)


class _Disconnected(Exception):
    pass


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            if message.get("more_body", False):
                await _drain(receive, size)
            raise Refused(413, "too_large", "body", f"a request body is at most {MAX_BODY} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _drain(receive: Receive, size: int = 0) -> None:
    """Read and drop the rest of a too-large body, up to :data:`MAX_DRAIN` bytes in all: a client still sending
    it then reads the 413 instead of a reset connection.  A larger body is left unread (the connection closes)."""
    while size <= MAX_DRAIN:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: wait for the disconnect, as the server would

    return replay


async def _refuse(scope: Scope, send: Send, err: Refused) -> None:
    if scope.get("path", "").startswith("/api/"):
        payload = json.dumps(error_body(err.code, err.message, err.where)).encode()
        kind = b"application/json"
    else:
        payload = (
            f"<!doctype html><meta charset=utf-8><title>{err.status}</title>"
            f"<h1>{err.status}</h1><p>{html.escape(err.where)}: {html.escape(err.message)}</p>"
        ).encode()
        kind = b"text/html; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": err.status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(payload)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
