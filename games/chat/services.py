"""Chat writes and reads: post, read, hide, and the whole record for a dispute's case file.
Who may do what is games/chat/rules.py's; here: store (append-only rows beside the game's events),
rate-limit, and send each message after commit to the sockets allowed to read it."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.chat import rules as chat_rules
from games.chat.models import ChatHiding, ChatMessage
from games.core.codec import iso
from games.core.errors import ApiError, not_found
from games.core.pubsub import game_group, group_send
from games.engine.errors import Code
from games.table import selectors

log = logging.getLogger(__name__)

PAGE = 200  # messages per answer at most
CHAT_LOCK = 0x43484154  # "CHAT": the first key of the per-game advisory lock

# Writes


def chat_post(*, user, game_id: int, channel: Any, text: Any) -> dict[str, Any]:
    """`user` posts `text` in `channel` of game `game_id`; returns the message. Raises ApiError:
    not_found (no such game), invalid (a channel the game has not; a bad text:
    chat_rules.clean_text),
    forbidden (chat_rules.may_write says no), throttled (over the rate: settings.CHAT_RATE)."""
    with transaction.atomic():
        _lock(game_id)  # one writer per game's chat: ids in commit order, an exact rate count
        _, state = selectors.current(game_id)
        channel = chat_rules.check_channel(state, channel)
        reader = chat_rules.reader_in(state, user)
        if not chat_rules.may_write(state, reader, channel):
            raise ApiError(Code.FORBIDDEN, _refusal(channel, reader))
        text = chat_rules.clean_text(text)
        now = timezone.now()
        _check_rate(game_id, user, now)
        team = reader.team if channel == chat_rules.PARTNERS else None
        row = ChatMessage.objects.create(game_id=game_id, channel=channel, team=team, author=user,
                                         seat=reader.seat, text=text, at=now,
                                         number=_next_number(game_id, channel, team))  # fmt: skip
        message = payload(row, author=user.username)
        audience = chat_rules.audience(state, channel, team)
        transaction.on_commit(lambda: broadcast(game_id, message, audience))
    return message


def chat_hide(*, user, game_id: int, channel: Any, message_id: Any, team: Any = None,
              reason: Any) -> dict[str, Any]:  # fmt: skip
    """Staff hide message `message_id` of `channel` (of pair `team`, for partners: ids are
    per stream) in game `game_id`, saying why; returns the message as everyone now gets it.
    Hiding a hidden message changes nothing. Raises ApiError: not_found (no such game or
    message in it), forbidden (not staff), invalid (bad channel, id, team or reason)."""
    _, state = selectors.current(game_id)
    if not user.is_staff:
        raise ApiError(Code.FORBIDDEN, "only staff may hide chat messages")
    channel = chat_rules.check_channel(state, channel)
    if isinstance(message_id, bool) or not isinstance(message_id, int):
        raise ApiError(Code.INVALID, "id is the message's id in its channel, a whole number")
    partners = channel == chat_rules.PARTNERS
    if partners and (isinstance(team, bool) or not isinstance(team, int)):
        raise ApiError(Code.INVALID, "team (the pair, 0 or 1) names a partners message's stream")
    reason = chat_rules.clean_text(reason)
    with transaction.atomic():
        # No row lock: SELECT FOR UPDATE needs UPDATE, which the service's role rightly lacks
        # on this append-only table (it was a 500 in production). The hiding is a row of its
        # own, one per message (its unique key): of two staff hiding at once, one inserts it.
        rows = ChatMessage.objects.filter(
            game_id=game_id, channel=channel, team=team if partners else None, number=message_id
        )
        row = rows.select_related("author").first()
        if row is None:
            raise not_found("chat message")
        ChatHiding.objects.bulk_create([ChatHiding(message=row, by=user, reason=reason,
                                                   at=timezone.now())],
                                       ignore_conflicts=True)  # fmt: skip
        message = payload(row, author=row.author.username, hidden=True)
        audience = chat_rules.audience(state, row.channel, row.team)
        transaction.on_commit(lambda: broadcast(game_id, message, audience))
    return message


def _next_number(game_id: int, channel: str, team: int | None) -> int:
    """The next place in a stream: under the game's chat lock (`_lock`), so no two take one."""
    last = (ChatMessage.objects.filter(game_id=game_id, channel=channel, team=team)
            .order_by("-number").values_list("number", flat=True).first())  # fmt: skip
    return (last or 0) + 1


def _lock(game_id: int) -> None:
    """The two-key advisory lock takes two int4s and game ids are bigint (up to 2^63 - 1, and
    a URL may name more): the second key is the id modulo 2^31 (the id itself below it). Two
    games that share a key only wait for each other's chat writes."""
    if connection.vendor == "postgresql":  # SQLite (make run) serialises writers anyway
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [CHAT_LOCK, game_id % 2**31])


def _check_rate(game_id: int, user, now) -> None:
    count, seconds = settings.CHAT_RATE
    recent = ChatMessage.objects.filter(game_id=game_id, author=user,
                                        at__gt=now - timedelta(seconds=seconds))  # fmt: skip
    if recent.count() >= count:
        limit = f"at most {count} messages every {seconds} s in a game; wait a moment"
        raise ApiError(Code.THROTTLED, limit)


def _refusal(channel: str, reader: chat_rules.Reader) -> str:
    if not reader.signed_in:
        return "sign in to chat"
    if channel == chat_rules.SPECTATORS:
        return "the spectators' chat is for those who do not play this game"
    if channel == chat_rules.PARTNERS:
        return "the partners' chat is for the two partners of a pair"
    return "the table's chat is for the players; spectators have their own channel"


def broadcast(game_id: int, message: dict[str, Any], audience: dict[str, list[str]]) -> None:
    """After commit: to the game's websocket group; each socket sends it on only if
    `audience` admits its viewer (GameConsumer.game_chat). A failure loses only the live copy:
    the message is committed, and a reload or a GET brings it."""
    event = {"type": "game.chat", "game": game_id, "message": message, "audience": audience}
    try:
        group_send(game_group(game_id), event)
    except Exception:
        log.exception("chat broadcast of game %s message %s failed", game_id, message["id"])


# Reads


def chat_read(*, user, game_id: int, channel: Any, after: int | None) -> dict[str, Any]:
    """The messages of `channel` the caller may read, oldest first: with `after`, the first
    PAGE after that id; without, the newest PAGE. `more`: whether a later page exists (ask
    again with the last id). Hidden ones come with `"hidden": true` and an empty text. Raises
    ApiError: not_found, invalid (a channel the game has not), forbidden (chat_rules.may_read)."""
    _, state = selectors.current(game_id)
    channel = chat_rules.check_channel(state, channel)
    reader = chat_rules.reader_in(state, user)
    if not chat_rules.may_read(state, reader, channel):
        raise ApiError(Code.FORBIDDEN, _refusal(channel, reader))
    rows = ChatMessage.objects.filter(game_id=game_id, channel=channel)
    if channel == chat_rules.PARTNERS:
        rows = rows.filter(team=reader.team)
    rows = rows.select_related("author", "hiding")
    if after is None:
        page, more = list(rows.order_by("-number")[:PAGE])[::-1], False
    else:
        page = list(rows.filter(number__gt=after).order_by("number")[: PAGE + 1])
        page, more = page[:PAGE], len(page) > PAGE
    messages = [payload(r, author=r.author.username, hidden=_hidden(r)) for r in page]
    return {"messages": messages, "more": more}


def payload(row: ChatMessage, *, author: str, hidden: bool = False) -> dict[str, Any]:
    """A message as players and spectators get it (API.md), plus `hidden`."""
    return {"id": row.number, "channel": row.channel, "author": author,
            "text": "" if hidden else row.text, "at": iso(row.at), "hidden": hidden}  # fmt: skip


def _hidden(row: ChatMessage) -> bool:
    return hasattr(row, "hiding")  # the reverse one-to-one exists only once hidden


def chat_record(game_id: int) -> list[dict[str, Any]]:
    """Every message of every channel, in time order, hidden ones in full with their hiding
    (who, when, why): for staff, in a dispute's case file only."""
    rows = ChatMessage.objects.filter(game_id=game_id).order_by("id")
    rows = rows.select_related("author", "hiding", "hiding__by")
    return [
        {**payload(r, author=r.author.username), "seat": r.seat, "team": r.team,
         "hidden": _hidden(r),
         "hiding": {"by": r.hiding.by.username, "at": iso(r.hiding.at), "reason": r.hiding.reason}
         if _hidden(r) else None}
        for r in rows
    ]  # fmt: skip
