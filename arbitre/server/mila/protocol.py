"""The boundary of MILA's protocol: every incoming frame is checked here before anything acts on it.

A frame is one JSON object naming its request (``name``, snake case) with a ``request_id``; channel
requests add the ``token`` their sign-in gave, game requests the ``game_id``, ``game_role`` and ``phase`` of
the client's game.  :func:`parse` reads a frame into one of the models below (pydantic; unknown fields are
ignored, as MILA's own server ignores them, but every field read is typed and bounded) or raises
:class:`MilaError`, which :func:`error` writes as MILA's ``error`` response: ``error_type`` names one of
MILA's exception classes (the client raises it), ``message`` says what and where.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_FRAME = 256 * 1024
"""The largest frame read (a message of 5,000 characters and its envelope fit many times)."""
Short = Annotated[str, Field(max_length=200)]
Name = Annotated[str, Field(max_length=64)]


class MilaError(Exception):
    """A request refused: ``error_type`` is the MILA exception class the client will raise."""

    def __init__(self, message: str, error_type: str = "ResponseException") -> None:
        super().__init__(message)
        self.message = message
        self.error_type = error_type


class Request(BaseModel):
    """Every request: its name and id."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    name: Name
    request_id: Short
    re_sent: bool = False


class ChannelRequest(Request):
    """A request of a signed-in channel."""

    token: Short


class GameRequest(ChannelRequest):
    """A request about one of the client's games."""

    game_id: Short
    game_role: Name
    phase: Name = ""


class SignIn(Request):
    """Log in (or register, where the site's registration is open)."""

    username: Short
    password: Short


class GetAvailableMaps(ChannelRequest):
    """The maps MILA clients may play here."""


class CreateGame(ChannelRequest):
    """Create a game (the creator masters it, or plays ``power_name``)."""

    game_id: Short | None = None
    power_name: Name | None = None
    map_name: Name = "standard"
    rules: list[Name] | None = Field(default=None, max_length=40)
    deadline: int = Field(default=300, ge=0, le=10**9)
    n_controls: int | None = Field(default=None, ge=0, le=40)
    registration_password: Short | None = None
    state: dict[str, Any] | None = None


class JoinGame(ChannelRequest):
    """Join a game as a power, or watch it."""

    game_id: Short
    power_name: Name | None = None
    registration_password: Short | None = None


class JoinPowers(ChannelRequest):
    """Take several powers of a game (a bot launcher's request)."""

    game_id: Short
    power_names: list[Name] = Field(max_length=40)
    registration_password: Short | None = None


class ListGames(ChannelRequest):
    """The games the requester may see."""

    game_id: Short | None = None
    status: Name | None = None
    map_name: Name | None = None
    include_protected: bool = True
    for_omniscience: bool = False


class GetGamesInfo(ChannelRequest):
    """Information about given games."""

    games: list[Short] = Field(max_length=200)


class GetDummyWaitingPowers(ChannelRequest):
    """Powers without a player that wait for orders (bot seats here)."""

    buffer_size: int = Field(ge=0, le=10_000)


class GetPlayablePowers(ChannelRequest):
    """The powers of a game nobody plays yet."""

    game_id: Short


class Logout(ChannelRequest):
    """End this token."""


class UnknownToken(ChannelRequest):
    """The client forgot a token (no answer)."""


class SetOrders(GameRequest):
    """A power's orders for the current phase, and optionally its wait flag."""

    power_name: Name | None = None
    orders: list[Annotated[str, Field(max_length=200)]] = Field(max_length=200)
    wait: bool | None = None


class SetWaitFlag(GameRequest):
    """A power's wait flag (``False``: ready)."""

    power_name: Name | None = None
    wait: bool


class ClearOrders(GameRequest):
    """Take a power's orders back."""

    power_name: Name | None = None


class Vote(GameRequest):
    """A power's vote on a draw."""

    power_name: Name | None = None
    vote: Literal["yes", "no", "neutral"]


class MessageBody(BaseModel):
    """MILA's ``Message``."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    sender: Name
    recipient: Name
    message: Annotated[str, Field(max_length=5000)]
    phase: Name = ""
    time_sent: int | None = None


class SendGameMessage(GameRequest):
    """A press message."""

    message: MessageBody


class GetAllPossibleOrders(GameRequest):
    """Every legal order the requester may know of now."""


class GetPhaseHistory(GameRequest):
    """Played phases between two phases (names or indices)."""

    from_phase: str | int | None = None
    to_phase: str | int | None = None


class Synchronize(GameRequest):
    """Catch up after a reconnection."""

    timestamp: int = 0


class LeaveGame(GameRequest):
    """Stop following a game on this token."""


class ProcessGame(GameRequest):
    """The master processes the phase now."""


class QuerySchedule(GameRequest):
    """When the phase ends."""


MODELS: dict[str, type[Request]] = {
    "sign_in": SignIn,
    "get_available_maps": GetAvailableMaps,
    "create_game": CreateGame,
    "join_game": JoinGame,
    "join_powers": JoinPowers,
    "list_games": ListGames,
    "get_games_info": GetGamesInfo,
    "get_dummy_waiting_powers": GetDummyWaitingPowers,
    "get_playable_powers": GetPlayablePowers,
    "logout": Logout,
    "unknown_token": UnknownToken,
    "set_orders": SetOrders,
    "set_wait_flag": SetWaitFlag,
    "clear_orders": ClearOrders,
    "vote": Vote,
    "send_game_message": SendGameMessage,
    "get_all_possible_orders": GetAllPossibleOrders,
    "get_phase_history": GetPhaseHistory,
    "synchronize": Synchronize,
    "leave_game": LeaveGame,
    "process_game": ProcessGame,
    "query_schedule": QuerySchedule,
}
"""The requests this server answers, by MILA's name."""


def parse(text: str | bytes) -> Request:
    """One frame as a request model; :class:`MilaError` (``RequestException``) says what is wrong and where."""
    if len(text) > MAX_FRAME:
        raise MilaError(f"a request is at most {MAX_FRAME} bytes", "RequestException")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise MilaError(f"the request is not JSON: {err}", "RequestException") from err
    if not isinstance(data, dict):
        raise MilaError("a request is a JSON object", "RequestException")
    name = data.get("name")
    model = MODELS.get(name) if isinstance(name, str) else None
    if model is None:
        known = ", ".join(sorted(MODELS))
        raise MilaError(f"unknown request name {str(name)[:64]!r}; this server answers: {known}", "RequestException")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "request"
        raise MilaError(f"{name}: {where}: {first.get('msg')}", "RequestException") from err


def request_id_of(text: str | bytes) -> str:
    """The ``request_id`` of a frame, when one can be read (so that even a refused request gets its answer)."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return ""
    rid = data.get("request_id") if isinstance(data, dict) else None
    return rid[:200] if isinstance(rid, str) else ""


def error(request_id: str, err: MilaError) -> dict[str, Any]:
    """MILA's ``error`` response."""
    return {"request_id": request_id, "name": "error", "message": err.message, "error_type": err.error_type}


def ok(request_id: str) -> dict[str, Any]:
    """MILA's ``ok`` response."""
    return {"request_id": request_id, "name": "ok"}


def data(request_id: str, name: str, value: Any) -> dict[str, Any]:
    """One of MILA's one-field responses (``data_token``, ``data_game``…)."""
    return {"request_id": request_id, "name": name, "data": value}
