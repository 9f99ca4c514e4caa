"""Issue 18, quiet at the table, the pages' side (docs/NOTIFICATIONS.md): the table page
reports the last seq it showed (`POST /games/{id}/seen/`), from which "since your last visit"
counts, instead of the page load recording the visit; `/notifications/` lists the user's
notifications newest first with mark-read, in English and Czech ("ty"). The born-read rule
itself, with the real Celery worker and SMTP server: tests/notifications/test_notifications.py."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from frontend.models import GameVisit
from games.notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_players(settings, django_user_model):
    """(anna's client, ben's client, a started two-player game's id and head seq)."""
    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True
    users = [django_user_model.objects.create_user(n, password="s3cret-pass-1")
             for n in ("anna", "ben")]  # fmt: skip
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    anna, ben = clients
    created = anna.post("/api/games/", {"seats": 2, "rig": {"first": 0}},
                        content_type="application/json")  # fmt: skip
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, client in enumerate(clients):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat},
                             content_type="application/json")  # fmt: skip
        assert joined.status_code == 200, joined.content
    head = anna.get(f"/api/games/{gid}/").json()["seq"]
    return anna, ben, gid, head


def seen(client: Client, gid: int, body, **extra):
    return client.post(f"/games/{gid}/seen/", body, content_type="application/json", **extra)


def since_on_page(client: Client, gid: int) -> str:
    page = client.get(f"/games/{gid}/").content.decode()
    return re.search(r'data-since="([^"]*)"', page).group(1)


# --- "since your last visit" -----------------------------------------------------------------


def test_opening_the_table_records_nothing_the_page_reports_what_it_showed(two_players):
    """The page load only reads the visit: a tab opened unseen (or moves watched live and then
    reloaded) is not counted from the load. The report is kept within the game's head and
    never moves backwards."""
    anna, _, gid, head = two_players
    assert since_on_page(anna, gid) == ""  # a first visit
    assert not GameVisit.objects.exists()
    assert since_on_page(anna, gid) == "", "opening the page again records nothing"

    assert seen(anna, gid, {"seq": head - 1}).status_code == 204
    assert since_on_page(anna, gid) == str(head - 1)
    assert seen(anna, gid, {"seq": head + 50}).status_code == 204  # past the head: the head
    assert since_on_page(anna, gid) == str(head)
    assert seen(anna, gid, {"seq": 1}).status_code == 204  # an older tab: never backwards
    assert GameVisit.objects.get(game_id=gid).last_seq == head


def test_the_seen_report_refuses_bad_input_with_a_machine_code(two_players):
    anna, _, gid, _ = two_players
    for bad in ({}, {"seq": -1}, {"seq": "7"}, {"seq": True}, {"seq": 1, "more": 2}, [3],
                {"seq": 1.5}):  # fmt: skip
        answer = seen(anna, gid, bad)
        assert answer.status_code == 400, bad
        assert answer.json()["error"]["code"] == "invalid", bad
    garbage = anna.post(f"/games/{gid}/seen/", "{not json", content_type="application/json")
    assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "invalid"
    huge = seen(anna, gid, {"seq": 1, "pad": "x" * 5000})
    assert huge.status_code == 400
    missing = seen(anna, 999_999, {"seq": 1})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    anonymous = seen(Client(), gid, {"seq": 1})
    assert anonymous.status_code == 403 and anonymous.json()["error"]["code"] == "forbidden"
    assert anna.get(f"/games/{gid}/seen/").status_code == 405
    assert not GameVisit.objects.exists()


def test_the_seen_report_needs_the_pages_csrf_token(two_players, django_user_model):
    _, _, gid, head = two_players
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(django_user_model.objects.get(username="anna"))
    assert seen(strict, gid, {"seq": head}).status_code == 403
    strict.get(f"/games/{gid}/")  # the table sets the cookie (ensure_csrf_cookie)
    token = strict.cookies["csrftoken"].value
    assert seen(strict, gid, {"seq": head}, HTTP_X_CSRFTOKEN=token).status_code == 204


# --- /notifications/ ---------------------------------------------------------------------------

KINDS_AGO = [("game_over", 1), ("eliminated", 2), ("deadline_soon", 3), ("block_window", 4)]


def _told(user, gid: int) -> list[int]:
    """Four more notifications of `user` in game `gid`, 1..4 minutes ago; their ids, newest
    first (the game's own `your_turn` is the newest of all)."""
    now = timezone.now()
    rows = [Notification.objects.create(user=user, kind=kind, game_id=gid, seq=100 + ago,
                                        at=now - timedelta(minutes=ago))
            for kind, ago in KINDS_AGO]  # fmt: skip
    return [row.pk for row in rows]


def shown_ids(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-notification="(\d+)"', html)]


def test_the_page_lists_mine_newest_first_in_english_and_czech(two_players, django_user_model):
    anna, ben, gid, _ = two_players
    user = django_user_model.objects.get(username="anna")
    turn = Notification.objects.get(user=user, kind="your_turn")
    Notification.objects.filter(pk=turn.pk).update(at=timezone.now())
    ids = [turn.pk, *_told(user, gid)]

    page = anna.get("/notifications/").content.decode()
    assert shown_ids(page) == ids
    for text in (f"Your turn in game {gid}", f"You may block in game {gid}",
                 f"Time is running out in game {gid}", f"You are out of game {gid}",
                 f"Game {gid} is over"):  # fmt: skip
        assert re.search(rf'href="/games/{gid}/">{re.escape(text)}</a>', page), text
    assert "5 unread." in page

    czech = anna.get("/notifications/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    for text in (f"Jsi na tahu ve hře {gid}", f"Ve hře {gid} můžeš blokovat",
                 f"Ve hře {gid} ti dochází čas", f"Ve hře {gid} ti došly životy",
                 f"Hra {gid} skončila", "Označit vše jako přečtené",
                 "5 nepřečtených."):  # fmt: skip
        assert text in czech, text
    mine = czech.split("<main")[1]
    assert not re.search(r"\b(Jste|můžete|vám|Označte)\b", mine), "Czech says ty, not vy"

    assert shown_ids(ben.get("/notifications/").content.decode()) == []  # not his
    assert Client().get("/notifications/").status_code == 302  # to the login page


def test_mark_one_then_all_read_on_the_page(two_players, django_user_model):
    anna, ben, gid, _ = two_players
    user = django_user_model.objects.get(username="anna")
    first, *rest = _told(user, gid)

    done = anna.post("/notifications/read/", {"id": first})
    assert done.status_code == 302 and done.url == "/notifications/"
    assert Notification.objects.get(pk=first).read
    assert Notification.objects.filter(user=user, read=False).count() == 4
    page = anna.get("/notifications/").content.decode()
    assert re.search(rf'data-notification="{first}" data-kind="\w+" data-read="1"', page)
    assert "4 unread." in page

    assert ben.post("/notifications/read/", {"id": rest[0]}).status_code == 302
    assert not Notification.objects.get(pk=rest[0]).read, "another's: ignored"
    bad = ben.post("/notifications/read/", {"id": "x"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    assert anna.get("/notifications/read/").status_code == 405

    assert anna.post("/notifications/read/", {"all": "1"}).status_code == 302
    assert not Notification.objects.filter(user=user, read=False).exists()
    page = anna.get("/notifications/").content.decode()
    assert "Nothing unread." in page and "Mark all read" not in page.split("<main")[1]


def test_what_the_page_showed_is_read_and_the_bell_is_told(two_players, django_user_model):
    """A game that started before its table opened told its player `your_turn` with no table
    to be quiet at: the page's report of what it showed makes that read (not a later moment,
    not a dispute's decision, not another player's); the answer says how many."""
    anna, ben, gid, head = two_players
    user = django_user_model.objects.get(username="anna")
    other = django_user_model.objects.get(username="ben")
    Notification.objects.filter(game_id=gid).delete()  # only the rows made here

    def told(kind: str, seq: int, who=user) -> Notification:
        return Notification.objects.create(user=who, kind=kind, game_id=gid, seq=seq,
                                           at=timezone.now())  # fmt: skip

    shown, later = told("your_turn", head), told("block_window", head + 1)
    decided, bens = told("dispute_decided", 1), told("your_turn", head, who=other)
    answer = seen(anna, gid, {"seq": head})
    assert answer.status_code == 204
    assert answer["X-Notifications-Read"] == "1"
    read = {n.pk: n.read for n in Notification.objects.filter(game_id=gid)}
    assert read == {shown.pk: True, later.pk: False, decided.pk: False, bens.pk: False}
    assert seen(anna, gid, {"seq": head})["X-Notifications-Read"] == "0"
