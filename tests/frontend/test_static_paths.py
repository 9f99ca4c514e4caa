"""Issue 32, item 7: a static path that climbs out of the static root is a 404, not a 500. The
ASGI app serves /static/ itself (ASGIStaticFilesHandler, in every mode), and Django's finders
raised SuspiciousFileOperation for /static/%2e%2e/x, which that handler does not catch."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import HttpCommunicator


def _get(path: str) -> int:
    from sejmi.asgi import application

    async def go() -> int:
        communicator = HttpCommunicator(application, "GET", path)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(10)  # the status; a file streams after it
        await communicator.wait(10)
        return start["status"]

    return asyncio.run(go())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/static/%2e%2e/x",
        "/static/%2e%2e/%2e%2e/etc/passwd",
        "/static/..%2fmanage.py",
        "/static/frontend/%2e%2e/%2e%2e/x",
    ],
)
def test_a_static_path_out_of_the_root_is_404(path):
    assert _get(path) == 404


@pytest.mark.django_db
def test_a_static_file_is_still_served():
    assert _get("/static/admin/css/base.css") == 200
