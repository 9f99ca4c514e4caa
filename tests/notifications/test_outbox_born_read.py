"""Issue 32, item 10 (issue 18's rule): a notification born read — told while its player had
the game's table open in a visible tab — is never mailed. `outbox.enqueue` itself is held to it
here, on both of its ways (the preferences read by it, or handed in as `wanted`); before, only
the commit path was asserted, and a mutant that keeps born-read rows passed every test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.notifications import outbox
from games.notifications.models import Notification, NotificationPrefs, OutboxMail


@pytest.fixture
def told(table) -> tuple[int, Notification, Notification]:
    """(a user who wants every mail at once, a row born read, a row not) in one game."""
    user = get_user_model().objects.get(auth_token__key=table.tokens[0])
    NotificationPrefs.objects.update_or_create(
        user=user, defaults={"email": "anna@example.org", "email_mode": "immediate"}
    )
    now = timezone.now()
    watched = Notification.objects.create(user=user, kind="your_turn", game_id=table.gid, seq=1,
                                          at=now, read=True, born_read=True)  # fmt: skip
    unwatched = Notification.objects.create(user=user, kind="block_window", game_id=table.gid,
                                            seq=2, at=now)  # fmt: skip
    return user.pk, watched, unwatched


@pytest.mark.django_db
@pytest.mark.parametrize("prefs", ["read by enqueue", "handed in"])
def test_enqueue_never_makes_a_mail_row_for_a_notification_born_read(told, prefs):
    """Mutant killed: `outbox.enqueue` without its `if not row.born_read` filter (the born-read
    row got a pending mail row: the player, watching the table, was mailed)."""
    user_id, watched, unwatched = told
    wanted = None if prefs == "read by enqueue" else {user_id}
    made = outbox.enqueue([watched, unwatched], wanted)
    assert list(OutboxMail.objects.filter(pk__in=made).values_list("notification", flat=True)) == [
        unwatched.pk
    ]
    assert not OutboxMail.objects.filter(notification=watched).exists()


@pytest.mark.django_db
def test_enqueue_of_born_read_rows_alone_makes_nothing(told):
    user_id, watched, _ = told
    assert outbox.enqueue([watched], {user_id}) == []
    assert not OutboxMail.objects.exists()
