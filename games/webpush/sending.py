"""Posting pushes: RFC 8291 `aes128gcm` (pywebpush, http_ece), VAPID (RFC 8292, py_vapid), a
TTL, an Urgency and a Topic (RFC 8030), off the caller's thread.

`later(job)` runs a job on this process's small pool of push threads (SEJMI_PUSH_WORKERS) and
returns at once; it never raises. `send(messages)` (run there) claims one delivery row per
(subscription, message key) before the first try: a message told twice is posted once. Each
post has a short timeout (SEJMI_PUSH_TIMEOUT_S) and follows no redirect. The push service's
answer decides what follows: 201/200/202 sent; 404/410 the subscription is gone and deleted;
429, 5xx, a timeout or a broken connection are tried again after a back-off
(SEJMI_PUSH_BACKOFF_S, doubling) up to SEJMI_PUSH_TRIES tries in all, each try a job of its
own, so a slow service holds no thread while it waits; any other answer fails the delivery.
A process that dies mid-post leaves its row `sending`: never posted again (at most once)."""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone
from pywebpush import WebPusher

from games.core import plain_sql
from games.webpush import hosts, keys
from games.webpush.models import PushDelivery, PushSubscription

_SUBSCRIPTIONS = PushSubscription._meta.db_table

log = logging.getLogger(__name__)

TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # RFC 8030 5.4: at most 32 base64url characters
URGENCIES = ("very-low", "low", "normal", "high")
SENT, FAILED = "sent", "failed"  # and "sending": claimed, under way (or lost with its process)
VAPID_LIFETIME_S = 12 * 3600


@dataclass(frozen=True)
class Message:
    """One push to every subscription of a user: `payloads` by language (the subscription's
    language picks one; English when it has none), `key` names it for the at-most-once row."""

    user_id: int
    key: str
    topic: str
    urgency: str
    ttl: int
    payloads: dict[str, dict[str, Any]]

    def __post_init__(self) -> None:
        if not TOPIC.match(self.topic) or self.urgency not in URGENCIES or self.ttl < 0:
            raise ValueError(f"not a push: topic {self.topic!r}, urgency {self.urgency!r}")


@dataclass(frozen=True)
class Target:
    delivery: int
    subscription: int
    endpoint: str
    p256dh: str
    auth: str
    language: str


# ---------------------------------------------------------------- the pool of push threads

_lock = threading.Condition()
_pool: ThreadPoolExecutor | None = None
_pool_pid = 0
_pending = 0


def _executor() -> ThreadPoolExecutor:
    global _pool, _pool_pid
    with _lock:
        if _pool is None or _pool_pid != os.getpid():  # a forked worker makes its own
            _pool = ThreadPoolExecutor(max(1, settings.SEJMI_PUSH_WORKERS),
                                       thread_name_prefix="webpush")  # fmt: skip
            _pool_pid = os.getpid()
        return _pool


def later(job: Callable[[], object], delay: float = 0.0) -> None:
    """Run `job` on a push thread (after `delay` seconds); never raises, never waits."""
    global _pending
    with _lock:
        _pending += 1
    try:
        if delay > 0:
            timer = threading.Timer(delay, _submit, (job,))
            timer.daemon = True
            timer.start()
        else:
            _submit(job)
    except Exception:
        log.exception("a push job could not be started")
        _finished()


def _submit(job: Callable[[], object]) -> None:
    try:
        _executor().submit(_run, job)
    except Exception:
        log.exception("a push job could not be queued")
        _finished()


def _run(job: Callable[[], object]) -> None:
    try:
        close_old_connections()
        job()
    except Exception:
        log.exception("a push job failed")
    finally:
        connections.close_all()  # this thread's: back to the pool
        _finished()


def _finished() -> None:
    global _pending
    with _lock:
        _pending -= 1
        _lock.notify_all()


def wait_idle(timeout: float) -> bool:
    """Until no push job is queued, running or waiting for its retry (tests, benchmarks)."""
    end = time.monotonic() + timeout
    with _lock:
        while _pending:
            left = end - time.monotonic()
            if left <= 0:
                return False
            _lock.wait(left)
    return True


# ---------------------------------------------------------------- claiming and posting


@dataclass(frozen=True)
class Subscription:
    pk: int
    user_id: int
    endpoint: str
    p256dh: str
    auth: str
    language: str


def subscriptions(user_ids: set[int]) -> list[Subscription]:
    """Every subscription of these users, in one plain read."""
    if not user_ids:
        return []
    ids = sorted(user_ids)
    return [Subscription(*row) for row in plain_sql.rows(
        f"SELECT id, user_id, endpoint, p256dh, auth, language FROM {_SUBSCRIPTIONS}"
        f" WHERE user_id IN ({plain_sql.marks(ids)})", ids)]  # fmt: skip


def send(messages: list[Message], subs: list[Subscription] | None = None) -> int:
    """Claim each message's delivery to each subscription of its user and post it (each post a
    job of its own); returns how many posts were started. `subs`: the users' subscriptions,
    when the caller has read them. The claims are one INSERT … ON CONFLICT DO NOTHING: a
    (subscription, key) claimed before is not returned, so not posted (at most once)."""
    if subs is None:
        subs = subscriptions({m.user_id for m in messages})
    by_user: dict[int, list[Subscription]] = {}
    for sub in subs:
        by_user.setdefault(sub.user_id, []).append(sub)
    wanted = {(sub.pk, message.key): (sub, message)
              for message in messages for sub in by_user.get(message.user_id, [])}  # fmt: skip
    if not wanted:
        return 0
    now = timezone.now()
    claimed = plain_sql.insert(PushDelivery, ("subscription", "key", "state", "attempts",
                                              "created"),
                               [(sub, key, "sending", 0, now) for sub, key in wanted],
                               returning=("id", "subscription", "key"),
                               ignore_conflicts=True)  # fmt: skip
    for delivery, sub_pk, key in claimed:
        sub, message = wanted[(sub_pk, key)]
        target = Target(delivery, sub.pk, sub.endpoint, sub.p256dh, sub.auth, sub.language)
        later(partial(_attempt, target, message, 1))
    return len(claimed)


_sessions = threading.local()


class _NoRedirects(requests.Session):
    """A push service that redirects is not followed (the allow-list holds for every hop)."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def _session() -> requests.Session:
    session = getattr(_sessions, "session", None)
    if session is None:
        session = _NoRedirects()
        session.trust_env = False  # no proxy from the environment, no .netrc
        _sessions.session = session
    return session


VAPID_REUSE_S = 3600  # a signed VAPID header serves its push service this long (of its 12 h)
_signed: dict[tuple[str, str], tuple[float, dict[str, str]]] = {}  # (aud, sub) → (until, headers)
_signed_lock = threading.Lock()


def headers(target: Target, message: Message) -> dict[str, str]:
    return {**_vapid_headers(target.endpoint), "Urgency": message.urgency, "Topic": message.topic}


def _vapid_headers(endpoint: str) -> dict[str, str]:
    """The VAPID Authorization for the endpoint's push service: signed once per service and
    hour (RFC 8292 lets a token be reused until it expires; deriving the key and signing for
    every post was a tenth of a push's CPU). The key or subject changed: signed anew."""
    parts = urlsplit(endpoint)
    aud, sub, now = f"{parts.scheme}://{parts.netloc}", settings.SEJMI_VAPID_SUBJECT, time.time()
    key = (aud, f"{sub} {keys.public_key()}")
    with _signed_lock:
        until, signed = _signed.get(key, (0.0, {}))
    if until > now:
        return signed
    claims = {"sub": sub, "aud": aud, "exp": int(now) + VAPID_LIFETIME_S}
    signed = dict(keys.vapid().sign(claims))
    with _signed_lock:
        _signed[key] = (now + VAPID_REUSE_S, signed)
    return signed


def _post(target: Target, message: Message) -> int | None:
    """The push service's status, or None when it did not answer in time."""
    payload = message.payloads.get(target.language) or message.payloads["en"]
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    info = {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}}
    timeout = settings.SEJMI_PUSH_TIMEOUT_S
    try:
        answer = WebPusher(info, requests_session=_session()).send(
            data, headers(target, message), ttl=message.ttl, content_encoding="aes128gcm",
            timeout=(timeout, timeout))  # fmt: skip
    except requests.RequestException as error:
        log.warning("push to %s: %s", urlsplit(target.endpoint).hostname, type(error).__name__)
        return None
    return answer.status_code


def _attempt(target: Target, message: Message, attempt: int) -> None:
    if not hosts.allowed(target.endpoint):  # the allow-list changed since it was stored
        _finish(target, FAILED, attempt, None)
        return
    connections.close_all()  # hold no database connection while the network answers
    status = _post(target, message)
    if status in (200, 201, 202):
        _finish(target, SENT, attempt, status)
        PushSubscription.objects.filter(pk=target.subscription).update(last_used=timezone.now())
    elif status in (404, 410):  # the browser dropped it: so do we
        PushSubscription.objects.filter(pk=target.subscription).delete()
    elif (status is None or status == 429 or status >= 500) and attempt < settings.SEJMI_PUSH_TRIES:
        PushDelivery.objects.filter(pk=target.delivery).update(attempts=attempt, status=status)
        delay = settings.SEJMI_PUSH_BACKOFF_S * 2 ** (attempt - 1)
        later(partial(_attempt, target, message, attempt + 1), delay=delay)
    else:
        log.warning("push to %s failed: %s after %d tries",
                    urlsplit(target.endpoint).hostname, status, attempt)  # fmt: skip
        _finish(target, FAILED, attempt, status)


def _finish(target: Target, state: str, attempt: int, status: int | None) -> None:
    PushDelivery.objects.filter(pk=target.delivery).update(
        state=state, attempts=attempt, status=status, done=timezone.now())  # fmt: skip
