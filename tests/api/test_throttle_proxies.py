"""Throttles see the client's address (issue 9): REMOTE_ADDR with no proxy in front, and behind
docker-compose's HAProxy (NUM_PROXIES=1) the address it appended to X-Forwarded-For."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_a_minute(monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {**SimpleRateThrottle.THROTTLE_RATES, "anon": "2/min"})  # fmt: skip
    cache.clear()
    yield
    cache.clear()


def statuses(forwarded_for: list[str], remote: str = "10.0.0.9") -> list[int]:
    client = APIClient()
    return [client.get("/api/games/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=xff).status_code
            for xff in forwarded_for]  # fmt: skip


def test_without_a_proxy_a_forged_forwarded_for_does_not_dodge_the_throttle(two_a_minute):
    assert api_settings.NUM_PROXIES == 0  # the default: no proxy in front
    assert statuses(["1.1.1.1", "2.2.2.2", "3.3.3.3"]) == [200, 200, 429]


def test_behind_one_proxy_each_client_has_its_own_bucket(two_a_minute, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # The balancer appends the address it saw; whatever a client wrote before it is ignored.
    assert statuses(["6.6.6.6, 1.1.1.1", "7.7.7.7, 1.1.1.1", "1.1.1.1"]) == [200, 200, 429]
    assert statuses(["2.2.2.2"]) == [200]
