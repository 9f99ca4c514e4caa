"""Every route that takes a body refuses a 20,000-deep JSON body as bad input (400 invalid),
never as a crash (500): the walk reads the routes from the served OpenAPI schema, so a route
added later is walked too (API.md, Errors: never a 500 for bad input)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support.api import (
    open_table,
)

DEEP = "[" * 20_000 + "]" * 20_000  # 40 KB: under the body limit, far over any parser's stack
BODY_METHODS = ("post", "put", "patch")
# Where the schema lets an anonymous caller in (security lists `{}`), the body is read and
# refused; everywhere else authentication comes first (401), before the body is read.
OPEN_TO_ANONYMOUS = {("/api/auth/register/", "post"), ("/api/auth/token/", "post")}


def body_routes() -> list[tuple[str, str, bool]]:
    """(path, method, anonymous may call it) of every operation of the schema with a body."""
    answer = APIClient().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return [
        (path, method, {} in operation.get("security", [{}]))
        for path, operations in answer.json()["paths"].items()
        for method, operation in operations.items()
        if method in BODY_METHODS
    ]


def send_deep(client: APIClient, path: str, method: str, gid: int) -> tuple[int, str]:
    """The status and error code of the answer (or its first bytes, if not the error shape)."""
    # Other ids: ones that do not exist (a deep body is refused before they are looked up, or
    # the answer is a 404).
    url = path.replace("{game_id}", str(gid))
    for name in ("{note_id}", "{tournament_id}", "{dispute_id}"):
        url = url.replace(name, "999999")
    assert "{" not in url, f"the walk knows no value for a parameter of {path}"
    answer = getattr(client, method)(url, DEEP, content_type="application/json")
    try:
        error = answer.json()["error"]
        assert set(error) == {"code", "message"} and error["message"]
        return answer.status_code, error["code"]
    except Exception:
        return answer.status_code, repr(answer.content[:80])


def caller(token: str | None = None) -> APIClient:
    """A client that answers a server error with its 500, so the walk reports every route."""
    client = APIClient(raise_request_exception=False)
    if token:
        client.credentials(HTTP_AUTHORIZATION=token)
    return client


@pytest.fixture
def routes() -> list[tuple[str, str, bool]]:
    found = body_routes()
    walked = {(path, method) for path, method, _ in found}
    assert {("/api/games/", "post"), ("/api/games/{game_id}/disputes/", "post")} <= walked
    assert {(path, method) for path, method, anonymous in found if anonymous} == OPEN_TO_ANONYMOUS
    return found


@pytest.mark.django_db
def test_a_deeply_nested_body_is_invalid_on_every_route_for_a_player(make_player, routes):
    table = open_table(make_player, 2)
    player = caller(table.seats[0]._credentials["HTTP_AUTHORIZATION"])
    answers = {(path, method): send_deep(player, path, method, table.gid)
               for path, method, _ in routes}  # fmt: skip
    assert answers == {(path, method): (400, "invalid") for path, method, _ in routes}


@pytest.mark.django_db
def test_a_deeply_nested_body_from_an_anonymous_caller_is_invalid_or_unauthenticated(
    make_player, routes
):
    table = open_table(make_player, 2)
    answers = {(path, method): send_deep(caller(), path, method, table.gid)
               for path, method, _ in routes}  # fmt: skip
    assert answers == {
        (path, method): (400, "invalid") if anonymous else (401, "not_authenticated")
        for path, method, anonymous in routes
    }
