"""A user's push subscriptions (API.md "Push notifications and the installable page"): store
one (201; the same endpoint again: 200, updated), delete one of his own, list his own without
the keys. Bad input is 400 `invalid` and changes nothing; an endpoint off the allowed hosts is
refused before anything is stored, so the service never posts to it."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction
from django.utils import timezone

from games.core.codec import iso
from games.core.errors import ApiError
from games.engine.errors import Code
from games.webpush import hosts, keys
from games.webpush.models import PushSubscription

KEEP = 5  # a user's newest subscriptions; older ones are dropped when a new one comes
LANGUAGES = ("cs", "en")


def key_view() -> dict[str, str]:
    return {"public_key": keys.public_key()}


def _p256dh(value: Any) -> str:
    """The browser's ECDH public key: an uncompressed point on P-256, base64url."""
    try:
        raw = keys.unb64url(value)
        if len(raw) != 65 or raw[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except (ValueError, TypeError):
        raise ApiError(Code.INVALID, "keys.p256dh is a P-256 public key, base64url") from None
    return keys.b64url(raw)


def _auth(value: Any) -> str:
    try:
        raw = keys.unb64url(value)
    except (ValueError, TypeError):
        raw = b""
    if len(raw) != 16:
        raise ApiError(Code.INVALID, "keys.auth is 16 bytes, base64url")
    return keys.b64url(raw)


def _endpoint(value: Any) -> str:
    if not hosts.allowed(value):
        raise ApiError(Code.INVALID, "endpoint is not the URL of a known push service")
    return value


def subscribe(*, user, body: dict[str, Any], language: str) -> tuple[dict[str, Any], bool]:
    """Store the browser's subscription for `user`; (its view, whether it is new to him). An
    endpoint another user had subscribed passes to this one: it is one browser, and the
    newest sign-in that asked for pushes on it is who it belongs to now."""
    endpoint = _endpoint(body.get("endpoint"))
    given = body.get("keys")
    if not isinstance(given, dict) or set(given) - {"p256dh", "auth"}:
        raise ApiError(Code.INVALID, 'keys is {"p256dh", "auth"}')
    p256dh, auth = _p256dh(given.get("p256dh")), _auth(given.get("auth"))
    expiry = body.get("expirationTime")
    if expiry is not None and (not isinstance(expiry, int | float) or isinstance(expiry, bool)):
        raise ApiError(Code.INVALID, "expirationTime is null or a number")
    language = language if language in LANGUAGES else "en"
    now = timezone.now()
    with transaction.atomic():
        row = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        new = row is None or row.user_id != user.pk
        if row is None:
            row = PushSubscription(endpoint=endpoint, created=now)
        row.user, row.p256dh, row.auth, row.language = user, p256dh, auth, language
        if new:
            row.created = now
        row.save()
        keep = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")
        PushSubscription.objects.filter(user=user).exclude(
            pk__in=list(keep.values_list("pk", flat=True)[:KEEP])).delete()  # fmt: skip
    return view(row), new


def unsubscribe(*, user, body: dict[str, Any]) -> None:
    """Delete the caller's subscription of that endpoint; another's endpoint stays."""
    endpoint = body.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise ApiError(Code.INVALID, "endpoint is the subscription's URL")
    PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()


def view(row: PushSubscription) -> dict[str, Any]:
    return {"endpoint": row.endpoint, "created": iso(row.created),
            "last_used": iso(row.last_used) if row.last_used else None}  # fmt: skip


def subscriptions(*, user) -> list[dict[str, Any]]:
    """The caller's own subscriptions, newest first: never the keys."""
    rows = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")
    return [view(row) for row in rows]
