"""DRF's throttles, failing open: they count in the cache (Redis in production, CACHE_URL), and
a cache that cannot be reached must not turn every request into a 500 while the game itself
needs no Redis to answer a read or take a move (issue 21: 244 in one fault run). The request is
let through and a warning logged, at most once a minute per process: for the length of an
outage nobody is throttled, which is the lesser harm."""

from __future__ import annotations

import logging
import time

from rest_framework import throttling

log = logging.getLogger(__name__)

WARN_EVERY_S = 60.0
_warned_at = float("-inf")


class FailOpen:
    """allow_request that lets the request through when the cache raises."""

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception as err:  # redis-py's ConnectionError, TimeoutError, …: the cache's
            _warn(type(self).__name__, err)
            return True


def _warn(throttle: str, err: Exception) -> None:
    global _warned_at
    now = time.monotonic()
    if now - _warned_at >= WARN_EVERY_S:
        _warned_at = now
        log.warning("%s: the cache is unreachable (%s); requests are not throttled meanwhile",
                    throttle, err)  # fmt: skip


class AnonRateThrottle(FailOpen, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(FailOpen, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(FailOpen, throttling.ScopedRateThrottle):
    pass
