"""The ASGI entry point (``uvicorn arbitre.server.asgi:app``), configured from the environment."""

from arbitre.server.app import create_app

app = create_app()
