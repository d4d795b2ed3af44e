"""The websocket endpoint MILA's client opens: ``ws://host:port`` (the path ``/``, beside the home page)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from arbitre.server.mila.session import Connection

router = APIRouter()


@router.websocket("/")
async def mila(ws: WebSocket) -> None:
    """Serve one MILA client connection."""
    await ws.accept()
    address = ws.client.host if ws.client else "?"
    await Connection(ws, ws.app.state.site, ws.app.state.hub, address).run()
