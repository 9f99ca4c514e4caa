"""Shared pytest setup, free of Django so that `pytest tests/engine -p no:django` imports none.

The Django fixtures live in tests/django_fixtures.py and load only when pytest-django is active
(every run but the engine's: see the Makefile's `test`).
"""

from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.has_plugin("django"):  # pytest-django's plugin name; -p no:django
        config.pluginmanager.import_plugin("tests.django_fixtures")


SERVER_LOGS = Path(__file__).resolve().parent / "browser" / "screenshots"


@pytest.fixture(scope="session")
def live():
    """The service on PostgreSQL as production runs it (tests/browser/live.py), one per
    session: the browser tests' and the page routes' server."""
    from tests.browser.live import LiveService

    service = LiveService.start(SERVER_LOGS / "server.log")
    try:
        yield service
    finally:
        service.stop()


@pytest.fixture(scope="session")
def live_sqlite():
    """`make run`'s service (tests/browser/live.py on a fresh SQLite file, no Redis), one per
    session, shared by the page and browser tests that run on both databases."""
    from tests.browser.live import LiveService

    service = LiveService.start(SERVER_LOGS / "server-sqlite.log", database="sqlite")
    try:
        yield service
    finally:
        service.stop()


@pytest.fixture
def site(request):
    """The live service a test drives: `live` (PostgreSQL) unless the test is parametrized
    with `site` "sqlite" (`@pytest.mark.parametrize("site", BOTH, indirect=True)`, BOTH from
    tests/browser/live.py). Both services start at most once a session, when first asked."""
    database = getattr(request, "param", "postgresql")
    return request.getfixturevalue({"postgresql": "live", "sqlite": "live_sqlite"}[database])
