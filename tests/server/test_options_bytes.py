"""``GET /api/options`` answers a typed catalogue whose JSON is the bytes recorded on the untyped code."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

RECORDED = Path(__file__).resolve().parents[1] / "data" / "answers" / "options.json"
"""The answer as the code before the typed catalogue wrote it (18,033 bytes)."""


def test_the_options_catalogue_is_the_recorded_bytes(app_client: TestClient) -> None:
    """The typed catalogue changes not a byte of the answer (a key added, dropped or renamed fails)."""
    answer = app_client.get("/api/options")
    assert answer.status_code == 200
    assert answer.content == RECORDED.read_bytes()


def test_the_options_catalogue_is_a_response_model_in_openapi(app_client: TestClient) -> None:
    """The OpenAPI document names the catalogue's model, down to a module's entry."""
    spec = app_client.get("/api/openapi.json").json()
    answer = spec["paths"]["/api/options"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/OptionsCatalogue"}
    assert {"ModuleEntry", "OptionGroup", "PresetEntry"} <= set(spec["components"]["schemas"])
