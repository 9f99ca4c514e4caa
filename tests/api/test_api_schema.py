"""The OpenAPI schema and the docs answer, and schemathesis, fuzzing every operation the schema
describes (a bounded run), never gets a server error (API.md: never a 500 for bad input)."""

from __future__ import annotations

import pytest
import schemathesis
import yaml
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error

from sejmi.wsgi import application
from tests.support.api import (
    open_table,
)

OPERATIONS = {
    ("/api/auth/register/", "post"), ("/api/auth/token/", "post"), ("/api/games/", "get"),
    ("/api/games/", "post"), ("/api/games/{game_id}/", "get"),
    ("/api/games/{game_id}/join/", "post"), ("/api/games/{game_id}/commands/", "post"),
    ("/api/games/{game_id}/events/", "get"), ("/api/games/{game_id}/replay/", "get"),
    ("/api/games/{game_id}/audit/", "get"),
    ("/api/games/{game_id}/standing-order/", "get"),
    ("/api/games/{game_id}/standing-order/", "put"),
    ("/api/me/standing-order/", "get"), ("/api/me/standing-order/", "put"),
}  # fmt: skip


@pytest.mark.django_db
def test_the_schema_is_served_and_names_every_operation_of_api_md():
    answer = APIClient().get("/api/schema/")
    assert answer.status_code == 200
    schema = yaml.safe_load(answer.content)
    assert schema["openapi"].startswith("3.")
    served = {(path, method) for path, ops in schema["paths"].items() for method in ops}
    assert OPERATIONS <= served
    as_json = APIClient().get("/api/schema/", {"format": "json"})
    assert as_json.status_code == 200 and as_json.json()["paths"].keys() == schema["paths"].keys()


@pytest.mark.django_db
def test_the_docs_are_served_with_a_local_swagger_ui():
    answer = APIClient().get("/api/docs/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page  # no CDN
    assert "/api/schema/" in page


@pytest.fixture
def fuzzed(make_player) -> dict:
    """A game under way, and the token of its seat 0: fuzzed requests act as that player."""
    table = open_table(make_player, 2)
    return {"gid": table.gid, "auth": table.seats[0]._credentials["HTTP_AUTHORIZATION"]}


@pytest.fixture
def api_schema(fuzzed):
    """The schema, served by the real WSGI application. Like Django's test client, the fixture
    keeps each request from closing the connection that holds the test's transaction (after
    `fuzzed` is set up: the test client reconnects the signals after each of its requests)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_the_schema_allows_gets_a_server_error(case, fuzzed):
    if case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = fuzzed["gid"]  # a real game, so requests go deep
    case.call_and_validate(headers={"Authorization": fuzzed["auth"]}, checks=[not_a_server_error])
