"""Web Push of notifications (API.md "Push notifications and the installable page"): what is
pushed, to whom, in which words. The transport (subscriptions, encryption, VAPID, retries, at
most once per subscription) is games.webpush, below this package: it knows nothing of games.

After COMMIT the runner hands every new notification to `deliver` (runner._after, the one
place where new notifications go out: sockets, mail, push). What is pushed is what would be
mailed with `email_mode: "immediate"`, whatever email_mode says: every notification but those
born read (told while the player had the game's table open in a visible tab), to the users
whose preference `push` is true (the default) and who have a subscription. `deliver` returns
at once; the reads and the posts run on webpush's push threads, never in the caller's.

A payload is `{"kind", "game", "seq", "title", "body", "url"}` in the subscription's language,
from the kinds table (games.notifications.kinds): never a card, a hand or a pass; it shows on
lock screens. Its topic is the game (a newer push of the game replaces an older one not yet
delivered), its urgency the kind's (high for deadline_soon and block_window), and its body
says how many games wait for the player when more than one does ("Your turn in 3 games")."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db.models import F
from django.db.models.fields.json import KeyTransform

from games.core import sealed_passes
from games.core.models import GameProjection
from games.notifications import kinds
from games.notifications.models import Notification, NotificationPrefs
from games.webpush import sending

log = logging.getLogger(__name__)

TTL_S = {"high": 6 * 3600}  # a decision's push is stale sooner; the rest keep a day
TTL_DEFAULT_S = 24 * 3600


def deliver(created: list[Notification]) -> None:
    """Push `created` (just committed) to their users' browsers, off this thread; never raises."""
    try:
        rows = [row for row in created if not row.born_read and row.kind in kinds.KINDS]
        if rows:
            sending.later(partial(push_now, rows))
    except Exception:
        log.exception("handing notifications to web push failed")


def push_now(rows: list[Notification]) -> int:
    """The pushes of `rows` (on a push thread): returns how many posts were started."""
    subs = sending.subscriptions({row.user_id for row in rows})
    users = {sub.user_id for sub in subs}
    if users:
        users -= set(NotificationPrefs.objects.filter(user_id__in=users, push=False)
                     .values_list("user_id", flat=True))  # fmt: skip
    if not users:
        return 0
    waiting = games_waiting(users)
    return sending.send([message(row, waiting.get(row.user_id, 0))
                         for row in rows if row.user_id in users],
                        [sub for sub in subs if sub.user_id in users])  # fmt: skip


def topic(row: Notification) -> str:
    """RFC 8030's Topic (<= 32 base64url characters): the game, for what its table shows."""
    kind = kinds.KINDS[row.kind]
    return f"game-{row.game_id}" if kind.about_the_table else f"{row.kind}-{row.game_id}"


def payload(row: Notification, lang: str, waiting: int) -> dict[str, Any]:
    body = kinds.summary(row, lang)
    if waiting > 1:
        body += "\n" + kinds.waiting(waiting, lang)
    return {"kind": row.kind, "game": row.game_id, "seq": row.seq,
            "title": kinds.title(row, lang), "body": body, "url": kinds.path(row)}  # fmt: skip


def message(row: Notification, waiting: int) -> sending.Message:
    urgency = kinds.KINDS[row.kind].urgency
    return sending.Message(
        user_id=row.user_id, key=f"n{row.pk}", topic=topic(row), urgency=urgency,
        ttl=TTL_S.get(urgency, TTL_DEFAULT_S),
        payloads={lang: payload(row, lang, waiting) for lang in kinds.LANGUAGES},
    )  # fmt: skip


def games_waiting(user_ids: set[int]) -> dict[int, int]:
    """How many running games wait for each user: his seat is awaited, and in a block window
    he has not passed yet (his sealed pass is his own to know, R19: it is his push)."""
    rows = list(
        GameProjection.objects.filter(status="active", game__seat_rows__user_id__in=user_ids)
        .annotate(uid=F("game__seat_rows__user_id"), seat=F("game__seat_rows__seat"),
                  awaiting=KeyTransform("awaiting", "state"), phase=KeyTransform("phase", "state"))
        .values_list("game_id", "seq", "uid", "seat", "awaiting", "phase")
    )  # fmt: skip
    windows = {game: seq for game, seq, _, _, _, phase in rows if phase == "block"}
    passed = sealed_passes.sealed_seats(windows) if windows else {}
    counts: dict[int, int] = {}
    for game, _, uid, seat, awaiting, _ in rows:
        if seat in (awaiting or []) and seat not in passed.get(game, ()):
            counts[uid] = counts.get(uid, 0) + 1
    return counts
