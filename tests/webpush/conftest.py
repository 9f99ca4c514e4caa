"""The Web Push tests' fixtures: the test push service (tests/support/webpush.py) as the one
allowed push host, with short timeouts and back-offs."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.webpush import sending
from tests.support.players import register
from tests.support.webpush import PushService


@pytest.fixture(scope="session")
def push_service() -> PushService:
    service = PushService()
    yield service
    service.server.shutdown()


@pytest.fixture
def pushing(push_service, settings, transactional_db):
    """The test service is the one allowed push host; short timeouts and back-offs. The push
    threads read the database from their own connections: committed data only."""
    settings.SEJMI_PUSH_HOSTS = ["127.0.0.1"]
    settings.SEJMI_PUSH_TIMEOUT_S = 0.5
    settings.SEJMI_PUSH_BACKOFF_S = 0.1
    settings.SEJMI_PUSH_TRIES = 3
    settings.SEJMI_ALLOW_RIGGED = True
    cache.clear()  # throttle counters
    push_service.clear()
    yield push_service
    assert sending.wait_idle(20), "push jobs still running after the test"
    push_service.clear()


@pytest.fixture
def make_player(pushing):
    return lambda name=None: register(name=name, stem="push")
