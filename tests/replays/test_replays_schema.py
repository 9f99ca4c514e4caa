"""Issue 32, item 9 (what to build: 8): GET /api/replays/ answers what its OpenAPI schema says
(it answered a list where the schema promised an object), checked with jsonschema against the
schema the service publishes."""

from __future__ import annotations

import jsonschema
import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.table import commands


def _resolve(schema: dict, node: dict) -> dict:
    """The response schema with its $refs to components inlined."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return _resolve(schema, schema["components"]["schemas"][name])
        return {k: _resolve(schema, v) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(schema, v) for v in node]
    return node


@pytest.mark.django_db
def test_the_finished_games_list_matches_its_schema():
    """Before: `responses={200: OBJECT}` while the answer is a list → ValidationError."""
    host = get_user_model().objects.create_user("host")
    done = commands.game_create(user=host, seats=2, options={"bots": [0, 1]})
    while done.state.status != "ended":
        done = commands.game_bot_moves(game_id=done.game_id, expected_seq=done.seq)
    client = APIClient()
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/replays/"]["get"]
    body = _resolve(schema, operation["responses"]["200"]["content"]["application/json"]["schema"])
    answer = client.get("/api/replays/")
    assert answer.status_code == 200
    assert answer.json(), "one finished game listed"
    jsonschema.validate(answer.json(), body)
