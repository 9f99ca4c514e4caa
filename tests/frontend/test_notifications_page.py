"""Issue 29: /notifications/ groups a page's notifications by game (the game with the newest
first, each its own heading with a link to the table and its unread count), and pages through
all of them: nothing is dropped past the first 50."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def anna(settings, django_user_model):
    settings.SEJMI_SEND_TASKS = False
    user = django_user_model.objects.create_user("anna", password="s3cret-pass-1")
    client = Client()
    client.force_login(user)
    games = []
    for _ in range(2):
        created = client.post("/api/games/", {"seats": 2}, content_type="application/json")
        assert created.status_code == 201, created.content
        games.append(created.json()["id"])
    return client, user, games


def told(user, game: int, seq: int, minutes_ago: int, read: bool = False) -> int:
    return Notification.objects.create(
        user=user, kind="your_turn", game_id=game, seq=seq, read=read,
        at=timezone.now() - timedelta(minutes=minutes_ago),
    ).pk  # fmt: skip


def groups(html: str) -> list[tuple[int, list[int]]]:
    """(game, [notification ids]) in the page's order."""
    found = []
    section = r'<section class="notification-game" data-game="(\d+)"(.*?)</section>'
    for game, body in re.findall(section, html, re.S):
        found.append((int(game), [int(n) for n in re.findall(r'data-notification="(\d+)"', body)]))
    return found


def test_the_page_groups_notifications_by_game_newest_game_first(anna):
    client, user, (one, two) = anna
    # Interleaved in time: two (newest), one, two, one.
    a = told(user, two, 1, minutes_ago=1)
    b = told(user, one, 1, minutes_ago=2, read=True)
    c = told(user, two, 2, minutes_ago=3)
    d = told(user, one, 2, minutes_ago=4)
    page = client.get("/notifications/").content.decode()
    assert groups(page) == [(two, [a, c]), (one, [b, d])]
    assert re.search(
        rf'<a href="/games/{two}/">Game {two}</a> <span class="badge[^"]*">2 unread', page
    )
    assert re.search(
        rf'<a href="/games/{one}/">Game {one}</a> <span class="badge[^"]*">1 unread', page
    )
    czech = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert f"Hra {two}</a>" in czech and "2 nepřečtená" in czech


def test_older_notifications_are_a_page_further_never_dropped(anna):
    client, user, (one, two) = anna
    made = {told(user, one if i % 2 else two, i, minutes_ago=i) for i in range(1, 62)}
    first = client.get("/notifications/").content.decode()
    shown = [n for _, ids in groups(first) for n in ids]
    assert len(shown) == 50 and 'rel="next"' in first
    second = client.get("/notifications/?page=2").content.decode()
    rest = [n for _, ids in groups(second) for n in ids]
    assert len(rest) == 11 and set(shown) | set(rest) == made
