"""``/api/docs``: Swagger UI served from the files of the installed ``fastapi-offline`` package (offline).

The page is our own (no inline script, so it passes a strict Content-Security-Policy): it loads
Swagger UI's files (version 5, which reads OpenAPI 3.1) from ``/api/docs/ui/`` and starts it with
``/static/js/apidocs.js``.  Only the package's static files are used.  Without the package, the page
links to the OpenAPI schema instead.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

UI_PREFIX = "/api/docs/ui"
"""Where Swagger UI's own files are served."""


def swagger_ui_dir() -> Path | None:
    """The folder of Swagger UI's files in the installed ``fastapi-offline`` package, if any."""
    try:
        spec = importlib.util.find_spec("fastapi_offline")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "static"
    return path if (path / "swagger-ui-bundle.js").is_file() else None


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>arbitre — API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{ui}/swagger-ui.css"></head>
<body><div id="swagger-ui" data-schema="/api/openapi.json"></div>
<script src="{ui}/swagger-ui-bundle.js"></script><script src="/static/js/apidocs.js"></script></body></html>
"""

FALLBACK = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>arbitre — API</title></head>
<body><h1>arbitre API</h1><p>Swagger UI is not installed (<code>pip install fastapi-offline</code>).
The OpenAPI schema: <a href="/api/openapi.json">/api/openapi.json</a>.</p></body></html>
"""


def mount(app: FastAPI) -> None:
    """Add ``/api/docs`` (and Swagger UI's files) to ``app``."""
    folder = swagger_ui_dir()
    if folder is not None:
        app.mount(UI_PREFIX, StaticFiles(directory=folder), name="swagger-ui")
    page = PAGE.format(ui=UI_PREFIX) if folder is not None else FALLBACK

    @app.get("/api/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """The API documentation (Swagger UI)."""
        return HTMLResponse(page)
