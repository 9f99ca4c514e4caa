"""The followers start a catch-up of several batches from the state a follower saw at the head
it last caught up to (games.core.followers.state_seen): `make run`'s runner follows a human's
move together with the bot's answer, and folding the game from its last snapshot was a third
of the followers' CPU (issue 31). What is remembered is the log's state at that seq, and what
the notifications tell from it is what they tell from a fold."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.core import event_store, followers
from games.core.codec import state_to_json
from games.core.models import FollowerCursor
from games.notifications.derive import FOLLOWER as NOTIFICATIONS
from games.notifications.models import Notification
from tests.support.api import a_legal_command

pytestmark = pytest.mark.django_db(transaction=True)


def _move(clients, gid: int) -> None:
    """Whoever is awaited plays his first legal command."""
    client, body = a_legal_command(gid, clients)
    answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
    assert answer.status_code == 200, answer.content


def _told(gid: int) -> list[tuple]:
    return list(Notification.objects.filter(game_id=gid).order_by("pk")
                .values_list("user_id", "kind", "seq"))  # fmt: skip


def _two_batches_behind(make_player, settings) -> tuple[int, list]:
    """A 2-seat game of two humans, its followers caught up, then two moves not followed."""
    settings.SEJMI_FOLLOW = "thread"  # nobody listens: the test follows by hand
    settings.SEJMI_SEND_TASKS = False
    clients = [make_player(), make_player()]
    gid = clients[0].post("/api/games/", {"seats": 2, "options": {}}, format="json").json()["id"]
    for client in clients:
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    _move(clients, gid)
    followers.follow(gid)
    _move(clients, gid)
    _move(clients, gid)
    return gid, clients


def test_two_batches_are_followed_from_the_head_seen_with_no_fold(make_player, settings):
    gid, _ = _two_batches_behind(make_player, settings)
    with CaptureQueriesContext(connection) as statements:
        assert followers.follow(gid) > 0
    assert not [s for s in statements.captured_queries if "games_gamesnapshot" in s["sql"]]
    seen = [(seq, state) for (g, seq), state in followers._states.items() if g == gid]
    assert len(seen) == 2  # each catch-up's head
    for seq, state in seen:
        assert state_to_json(state) == state_to_json(event_store.state_at(gid, seq))


def test_what_is_told_from_the_head_seen_is_what_a_fold_tells(make_player, settings):
    gid, _ = _two_batches_behind(make_player, settings)
    cursor = FollowerCursor.objects.get(game_id=gid, follower=NOTIFICATIONS).seq
    followers.follow(gid)
    from_memory = [t for t in _told(gid) if t[2] > cursor]
    # Again with nothing remembered (a process that just started): its cursor back, its
    # notifications since unmade.
    Notification.objects.filter(game_id=gid, seq__gt=cursor).delete()
    FollowerCursor.objects.filter(game_id=gid, follower=NOTIFICATIONS).update(seq=cursor)
    with followers._states_lock:
        followers._states.clear()
    with CaptureQueriesContext(connection) as statements:
        followers.follow(gid)
    assert [s for s in statements.captured_queries if "games_gamesnapshot" in s["sql"]]
    assert from_memory and from_memory == [t for t in _told(gid) if t[2] > cursor]
