"""Shared pytest setup, free of Django so that `pytest tests/engine -p no:django` imports none.

The Django fixtures live in tests/django_fixtures.py and load only when pytest-django is active
(every run but the engine's: see the Makefile's `test`).
"""

from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.has_plugin("django"):  # pytest-django's plugin name; -p no:django
        config.pluginmanager.import_plugin("tests.django_fixtures")


@pytest.fixture(scope="session")
def live_sqlite():
    """`make run`'s service (tests/browser/live.py on a fresh SQLite file, no Redis), one per
    session, shared by the page and browser tests that run on both databases."""
    from tests.browser.live import LiveService

    log = Path(__file__).resolve().parent / "browser" / "screenshots" / "server-sqlite.log"
    service = LiveService.start(log, database="sqlite")
    try:
        yield service
    finally:
        service.stop()
