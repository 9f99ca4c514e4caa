"""Players over the REST API: a registered user and a token client."""

from __future__ import annotations

import itertools
import os

from rest_framework.test import APIClient

PASSWORD = "s3cret-pass-1"
_names = itertools.count()


def register(name: str | None = None, *, client: APIClient | None = None, stem: str = "player",
             raising: bool = True) -> APIClient:  # fmt: skip
    """A new user (`name`, or `stem` with a number unique to this process) and a client that
    sends its token; `.username` and `.token` are set on the client. raising=False: a 500 is an
    answer to assert on, not an exception."""
    client = client or APIClient(raise_request_exception=raising)
    name = name or f"{stem}{os.getpid()}x{next(_names)}"
    answer = client.post("/api/auth/register/", {"username": name, "password": PASSWORD},
                         format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.username, client.token = name, answer.json()["token"]  # type: ignore[attr-defined]
    return client
