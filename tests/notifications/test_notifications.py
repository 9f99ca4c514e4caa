"""Notifications end to end (issue 10; API.md "Notifications"): games played through the REST
API, a REAL Celery worker (a subprocess on the test database, tests/notifications/notify_stack.py)
deriving the notifications at commit, and a REAL SMTP server on loopback receiving the mails.
R19/R23: a notification goes only to the seat it is about, never to another player or a
spectator."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.notifications import runner
from games.notifications.models import Notification, OutboxMail, Presence
from sejmi.celery import app
from tests.support.notified import (
    WAIT_S,
    barrier,
    game,
    kinds,
    listed,
    player,
    send,
    wait_for,
)
from tests.support.notify_stack import QUEUE, Inbox, Worker, smtp_server, worker_on

pytestmark = pytest.mark.django_db(transaction=True)

QUIET_S = 1.5  # how long nothing more may arrive once something arrived
HANDS = [["C25", "C26", "C29"], ["C30", "C33", "C01"], ["C02", "C03", "C04"]]
PLAY = {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1}  # LOSE_1 on 1


# --- the real processes ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def smtp() -> Inbox:
    with smtp_server() as inbox:
        yield inbox


@pytest.fixture(scope="session")
def notify_worker(django_db_setup, django_db_blocker, smtp) -> Worker:
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
    with worker_on(database, smtp.port) as worker:
        yield worker


@pytest.fixture
def notifying(notify_worker, settings, smtp) -> Inbox:
    """Notification tasks go to the test worker's queue; rigged games allowed."""
    if not settings.SEJMI_SEND_TASKS:
        pytest.fail("notification tests need REDIS_URL set and SEJMI_INPROCESS_RUNNER off")
    settings.SEJMI_NOTIFY_QUEUE = QUEUE
    settings.SEJMI_ALLOW_RIGGED = True
    return smtp


# --- tests ----------------------------------------------------------------------------------


def test_your_turn_is_created_at_commit_and_mailed_once(notifying):
    anna, ben = player(), player()
    gid = game([anna, ben])

    wait_for(lambda: kinds(anna, gid) == ["your_turn"], "anna's your_turn")
    mails = wait_for(lambda: notifying.to(anna.address), "anna's mail")
    barrier(player(None), player(None))
    assert len(notifying.to(anna.address)) == 1
    assert kinds(ben, gid) == []  # not his turn: told nothing, mailed nothing (R23)
    assert notifying.to(ben.address) == []
    body = mails[0].get_content()
    assert f"http://testserver/games/{gid}/" in body
    assert "It is your turn" in mails[0]["Subject"]
    assert re.search(r"http://testserver/unsubscribe/[^/\s]+/", body)
    assert str(mails[0]["List-Unsubscribe"]).strip().startswith("<http://testserver/unsubscribe/")
    assert listed(anna, unread=True)["unread"] == 1


def test_a_notification_or_mail_task_run_twice_delivers_once(notifying):
    anna, ben = player(), player()
    gid = game([anna, ben])
    wait_for(lambda: notifying.to(anna.address), "anna's mail")
    mail = OutboxMail.objects.get(notification__user__username=anna.username)

    for _ in range(2):  # the broker delivers a task twice; beat's sweeper runs beside them
        app.send_task(runner.DERIVE_TASK, (gid,), queue=QUEUE)
        app.send_task(runner.MAIL_TASK, (mail.pk,), queue=QUEUE)
        app.send_task(runner.SWEEP_TASK, (), queue=QUEUE)
    barrier(player(None), player(None))

    assert Notification.objects.filter(game_id=gid).count() == 1
    assert len(notifying.to(anna.address)) == 1
    mail.refresh_from_db()
    assert (mail.state, mail.attempts) == ("sent", 1)


def test_a_digest_gathers_a_days_notifications_in_one_mail(notifying):
    anna = player("digest", language="cs")
    first, second = game([anna, player(None)]), game([anna, player(None)])
    wait_for(lambda: len(listed(anna)["notifications"]) == 2, "two your_turn")
    barrier(player(None), player(None))
    assert notifying.to(anna.address) == []  # digest: no mail per notification

    for _ in range(2):  # beat sends it once a day; a second run sends nothing more
        app.send_task(runner.DIGEST_TASK, (timezone.now().date().isoformat(),), queue=QUEUE)
    mails = wait_for(lambda: notifying.to(anna.address), "the digest")
    barrier(player(None), player(None))

    assert len(notifying.to(anna.address)) == 1
    body = mails[0].get_content()
    assert f"/games/{first}/" in body and f"/games/{second}/" in body
    assert "Jsi na tahu" in body  # her language: Czech, in "ty" as every page (issue 18)
    assert "/unsubscribe/" in body


@pytest.mark.asyncio
async def test_no_mail_while_the_players_game_socket_is_open(notifying):
    anna, ben = await sync_to_async(player)(), await sync_to_async(player)()
    gid = await sync_to_async(_lobby)(anna)
    sock = WebsocketCommunicator(_asgi(), f"/ws/games/{gid}/", headers=_auth(anna))
    assert (await sock.connect(timeout=5))[0]
    assert (await sock.receive_json_from(timeout=5))["type"] == "view"  # sent after its presence
    assert await sync_to_async(Presence.objects.filter(game_id=gid).count)() == 1

    await sync_to_async(_join)(ben, gid, 1)
    await sync_to_async(wait_for)(lambda: kinds(anna, gid) == ["your_turn"], "your_turn")
    await sync_to_async(barrier)(await sync_to_async(player)(None),
                                 await sync_to_async(player)(None))  # fmt: skip
    assert notifying.to(anna.address) == []
    state = await sync_to_async(lambda: OutboxMail.objects.get(notification__game_id=gid).state)()
    assert state == "skipped"

    await sock.disconnect()
    assert await sync_to_async(Presence.objects.filter(game_id=gid).count)() == 0


@pytest.mark.django_db(transaction=True)
def test_one_insert_renews_every_open_socket_of_a_process(settings, django_assert_num_queries):
    """A socket's presence beat was a SELECT and an UPDATE of its own every 20 s: at 600
    sockets, 30 writes a second. A process now renews all its sockets at once, and a row the
    sweeper removed after a missed beat comes back."""
    from games.notifications import presence

    settings.SEJMI_ALLOW_RIGGED = True
    anna, ben = player(None), player(None)
    gid = game([anna, ben])
    users = dict(get_user_model().objects.filter(username__in=[anna.username, ben.username])
                 .values_list("username", "pk"))  # fmt: skip
    rows = [(users[anna.username], gid, "a.1"), (users[ben.username], gid, "b.1"),
            (users[anna.username], gid, "a.2")]  # fmt: skip
    presence.beat(rows[:2])
    Presence.objects.filter(channel="a.1").update(expires_at=timezone.now() - timedelta(1))
    Presence.objects.filter(channel="b.1").delete()  # expired and swept meanwhile
    with django_assert_num_queries(3) as captured:  # one INSERT … ON CONFLICT, in BEGIN/COMMIT
        presence.beat(rows)
    assert [q["sql"].split()[0] for q in captured.captured_queries] == ["BEGIN", "INSERT", "COMMIT"]
    alive = Presence.objects.filter(game_id=gid, expires_at__gt=timezone.now())
    assert sorted(alive.values_list("channel", flat=True)) == ["a.1", "a.2", "b.1"]


def test_the_unsubscribe_link_turns_mail_off_without_login(notifying, client):
    anna, ben = player(), player()
    game([anna, ben])
    body = wait_for(lambda: notifying.to(anna.address), "anna's mail")[0].get_content()
    path = re.search(r"http://testserver(/unsubscribe/[^/\s]+/)", body).group(1)

    page = client.get(path)  # a mail client may fetch links: GET only asks
    assert page.status_code == 200 and b"<form" in page.content
    assert anna.get("/api/me/preferences/").json()["email_mode"] == "immediate"
    done = client.post(path)
    assert done.status_code == 200
    assert anna.get("/api/me/preferences/").json()["email_mode"] == "off"
    assert client.post("/unsubscribe/forged-token/").status_code == 404


def test_mode_off_sends_no_mail(notifying):
    anna = player("off")
    gid = game([anna, player(None)])
    wait_for(lambda: kinds(anna, gid) == ["your_turn"], "your_turn")
    barrier(player(None), player(None))
    assert notifying.to(anna.address) == []


def test_block_window_goes_to_the_asked_seats_only(notifying):
    """R19: everyone else in the game is asked, and knows the play was announced; the Kostič
    is not asked. A spectator is told nothing."""
    anna, ben, cleo = player(None), player(None), player(None)
    gid = game([anna, ben, cleo], hands=HANDS)
    wait_for(lambda: kinds(anna, gid) == ["your_turn"], "your_turn")
    send(anna, gid, PLAY)
    wait_for(lambda: kinds(ben, gid) == ["block_window"], "ben's block_window")
    wait_for(lambda: kinds(cleo, gid) == ["block_window"], "cleo's block_window")
    barrier(player(None), player(None))
    assert kinds(anna, gid) == ["your_turn"]


def test_no_block_window_for_a_seat_whose_standing_order_answered_it(notifying):
    """Issue 10: cleo's standing order passes the window the moment it opens (sealed, R19):
    she is not asked, so she is not told; ben still is."""
    anna, ben, cleo = player(None), player(None), player(None)
    assert cleo.put("/api/me/standing-order/", {"block": "never"},
                    format="json").status_code == 200  # fmt: skip
    gid = game([anna, ben, cleo], hands=HANDS)
    wait_for(lambda: kinds(anna, gid) == ["your_turn"], "your_turn")
    send(anna, gid, PLAY)
    wait_for(lambda: kinds(ben, gid) == ["block_window"], "ben's block_window")
    barrier(player(None), player(None))
    assert kinds(cleo, gid) == []


def test_deadline_soon_at_80_percent_of_the_decision(notifying):
    anna, ben = player(None), player(None)
    gid = game([anna, ben], options={"turn_deadline_s": 10})
    found = wait_for(lambda: "deadline_soon" in kinds(anna, gid), "deadline_soon")
    assert found
    row = Notification.objects.get(game_id=gid, kind="deadline_soon")
    turn = Notification.objects.get(game_id=gid, kind="your_turn")
    assert 7.5 <= (row.at - turn.at).total_seconds() < 10  # 80 % of 10 s, before the deadline
    assert kinds(ben, gid) == []


@pytest.mark.asyncio
async def test_ws_me_pushes_the_notification_with_the_unread_count(notifying):
    anna, ben, watcher = [await sync_to_async(player)(None) for _ in range(3)]
    gid = await sync_to_async(_lobby)(anna)
    mine = WebsocketCommunicator(_asgi(), "/ws/me/", headers=_auth(anna))
    theirs = WebsocketCommunicator(_asgi(), "/ws/me/", headers=_auth(watcher))
    other = WebsocketCommunicator(_asgi(), "/ws/me/", headers=_auth(ben))
    for sock in (mine, theirs, other):
        assert (await sock.connect(timeout=5))[0]

    await sync_to_async(_join)(ben, gid, 1)
    message = await mine.receive_json_from(timeout=WAIT_S)

    assert message["type"] == "notification" and message["unread"] == 1
    assert message["notification"]["kind"] == "your_turn"
    assert message["notification"]["game"] == gid and message["notification"]["read"] is False
    await sync_to_async(barrier)(await sync_to_async(player)(None),
                                 await sync_to_async(player)(None))  # fmt: skip
    assert await theirs.receive_nothing(timeout=QUIET_S)  # a spectator: nothing
    assert await other.receive_nothing(timeout=0.1)  # the other player: nothing of anna's
    for sock in (mine, theirs, other):
        await sock.disconnect()


@pytest.mark.asyncio
async def test_ws_me_refuses_an_anonymous_socket():
    sock = WebsocketCommunicator(_asgi(), "/ws/me/", headers=[(b"origin", b"http://localhost")])
    assert (await sock.connect(timeout=5))[0]
    assert (await sock.receive_output(timeout=5))["code"] == 4401


def test_another_player_can_neither_list_nor_mark_anothers_notifications(notifying):
    anna, ben = player(None), player(None)
    gid = game([anna, ben])
    wait_for(lambda: kinds(anna, gid) == ["your_turn"], "your_turn")
    mine = listed(anna)["notifications"][0]["id"]

    assert listed(ben)["notifications"] == []
    assert ben.post("/api/notifications/read/", {"ids": [mine]}, format="json").json() == {
        "unread": 0}  # fmt: skip
    assert listed(anna)["unread"] == 1
    assert anna.post("/api/notifications/read/", {"all": True}, format="json").json() == {
        "unread": 0}  # fmt: skip
    assert listed(anna, unread=True)["notifications"] == []
    bad = anna.post("/api/notifications/read/", {"all": "yes"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    assert APIClient().get("/api/notifications/").status_code == 401


def test_preferences_are_checked(db):
    anna = player(None)
    assert anna.get("/api/me/preferences/").json() == {
        "email": None, "email_mode": "immediate", "language": "en", "push": True}  # fmt: skip
    for bad in ({"email": "not an address"}, {"email_mode": "weekly"}, {"language": "de"},
                {"colour": "red"}, {"push": "yes"}, {"push": 1}):  # fmt: skip
        answer = anna.put("/api/me/preferences/", bad, format="json")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", bad


# --- socket helpers ---------------------------------------------------------------------------


def _asgi():
    from sejmi.asgi import application

    return application


def _auth(client: APIClient) -> list[tuple[bytes, bytes]]:
    return [(b"origin", b"http://localhost"),
            (b"authorization", f"Token {client.token}".encode())]  # fmt: skip


def _lobby(creator: APIClient, seats: int = 2, hands=None) -> int:
    rig = {"first": 0, **({"hands": hands} if hands else {})}
    created = creator.post("/api/games/", {"seats": seats, "rig": rig}, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    _join(creator, gid, 0)
    return gid


def _join(client: APIClient, gid: int, seat: int) -> None:
    joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
    assert joined.status_code == 200, joined.content


def test_a_mail_whose_sender_died_mid_send_is_marked_lost_not_sent_again(mailoutbox, settings):
    """At most once: a row left `sending` (its worker died between the claim and the end of
    the SMTP exchange) may or may not have reached the server, so it is never sent again.
    In-process, without Celery (as `make run`), Django's test mail outbox as the server."""
    from datetime import timedelta

    from games.notifications import outbox

    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True
    anna = player()
    gid = _lobby(anna)
    _join(player(None), gid, 1)
    runner.derive(gid)  # in-process here: the same code as the task
    mail = OutboxMail.objects.get(notification__game_id=gid)
    assert mail.state == "sent" and len(mailoutbox) == 1
    OutboxMail.objects.filter(pk=mail.pk).update(state="pending")  # as if not sent yet
    assert outbox.claim(mail.pk)  # a sender claims it ... and dies
    assert outbox.send(mail.pk) == "taken"  # nobody else may send it meanwhile
    OutboxMail.objects.filter(pk=mail.pk).update(lease_until=timezone.now() - timedelta(seconds=1))

    runner.sweep()

    mail.refresh_from_db()
    assert mail.state == "lost" and len(mailoutbox) == 1
    runner.sweep()
    assert len(mailoutbox) == 1


def test_the_me_page_sets_the_mail_preferences_in_czech(client, django_user_model):
    from games.notifications.mails import unsubscribe_token

    user = django_user_model.objects.create_user("petra", password="s3cret-pass-1")
    client.force_login(user)
    page = client.get("/me/", HTTP_ACCEPT_LANGUAGE="cs")
    assert "Upozornění e-mailem" in page.content.decode()
    saved = client.post("/me/preferences/", {"email": "petra@example.test",
                                             "email_mode": "digest", "language": "cs"})  # fmt: skip
    assert saved.status_code == 302
    assert user.notification_prefs.email_mode == "digest"
    refused = client.post("/me/preferences/", {"email": "nope", "email_mode": "off"})
    assert refused.url.endswith("prefs=invalid#notification-prefs")
    client.logout()
    page = client.get(f"/unsubscribe/{unsubscribe_token(user.pk)}/", HTTP_ACCEPT_LANGUAGE="cs")
    assert "Zastavit e-maily" in page.content.decode()


def _cursor(gid: int) -> int | None:
    from games.core.models import FollowerCursor

    row = FollowerCursor.objects.filter(follower="notifications", game_id=gid).first()
    return row.seq if row is not None else None


@pytest.mark.django_db(transaction=True)
def test_the_notifications_follow_the_log_after_commit(settings):
    """The command's transaction tells nobody (games.core.followers): with the followers woken
    through a queue nobody drains yet, the join that starts the game has created no
    notification; the follower then tells anna's `your_turn` and plans its reminder, once."""
    from games.core import followers
    from games.notifications.models import DeadlineReminder

    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True  # no worker at all
    anna = player()
    gid = _lobby(anna)
    settings.SEJMI_FOLLOW = "queue"
    _join(player(None), gid, 1)
    assert kinds(anna, gid) == [], "told inside the command's transaction"
    head = anna.get(f"/api/games/{gid}/").json()["seq"]
    assert _cursor(gid) != head
    assert followers.follow(gid) > 0
    assert followers.follow(gid) == 0, "a second wake-up tells nothing more"
    assert kinds(anna, gid) == ["your_turn"]
    assert _cursor(gid) == head
    assert DeadlineReminder.objects.filter(game_id=gid, seq=head).exists()


def _left_behind(gid: int) -> None:
    """As if the game's events had been committed without being told (a lost wake-up)."""
    from games.core.models import FollowerCursor

    Notification.objects.filter(game_id=gid).delete()
    FollowerCursor.objects.filter(follower="notifications", game_id=gid).update(seq=0)


@pytest.mark.django_db(transaction=True)
def test_a_cursor_left_behind_is_caught_up_by_the_sweeper_once(settings):
    """A lost wake-up (the queue's, with no follower to drain it) is the sweeper's: it tells
    each thing once, and the next wake-up finds the cursor at the head."""
    from games.core.models import GameProjection

    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True
    anna, ben = player(), player(None)
    gid = _lobby(anna)
    _join(ben, gid, 1)
    _left_behind(gid)
    settings.SEJMI_FOLLOW = "queue"
    legal = anna.get(f"/api/games/{gid}/").json()["legal"]
    send(anna, gid, next(c for c in legal if c["type"] == "play"))
    assert kinds(anna, gid) == [] and kinds(ben, gid) == [], "nobody has followed yet"
    GameProjection.objects.filter(game_id=gid).update(
        updated_at=timezone.now() - runner.SWEEP_MIN_AGE - timedelta(seconds=1)
    )
    runner.sweep()
    runner.sweep()  # a second sweep finds nothing more to tell
    assert "your_turn" in kinds(anna, gid) and kinds(ben, gid) != []
    head = anna.get(f"/api/games/{gid}/").json()["seq"]
    assert _cursor(gid) == head
    settings.SEJMI_FOLLOW = "inline"
    mover = next(c for c in (anna, ben) if c.get(f"/api/games/{gid}/").json()["legal"])
    send(mover, gid, mover.get(f"/api/games/{gid}/").json()["legal"][0])
    head = anna.get(f"/api/games/{gid}/").json()["seq"]
    assert _cursor(gid) == head, "caught up: followed after its commit"


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_leaves_fresh_events_to_their_own_derive_task(settings):
    """Under load the derive tasks queued up, and the sweeper (every 5 s) derived every game
    they had not reached yet as well: 40 % of the workers' time in bench-load. It takes only
    games whose events are older than its minimum age; `make run`'s thread (no Celery) takes
    every game at once."""
    from games.core.models import GameProjection
    from games.notifications import derive as deriving

    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True  # no derive task
    anna = player()
    gid = _lobby(anna)
    _join(player(None), gid, 1)
    _left_behind(gid)
    assert gid not in deriving.behind(runner.SWEEP_MIN_AGE), "fresh: its task's"
    assert gid in deriving.behind(timedelta(0))
    GameProjection.objects.filter(game_id=gid).update(
        updated_at=timezone.now() - runner.SWEEP_MIN_AGE - timedelta(seconds=1)
    )
    assert gid in deriving.behind(runner.SWEEP_MIN_AGE), "its task was lost: the sweeper's"
    runner.sweep()
    assert gid not in deriving.behind(timedelta(0))
    assert kinds(anna, gid) == ["your_turn"]


@pytest.mark.django_db(transaction=True)
def test_reminders_of_decisions_answered_in_time_are_settled_in_bulk(
    settings, django_assert_num_queries
):
    """Most decisions are answered before their 80 %: their reminders are moot. The sweeper
    marks those done in one statement instead of reminding them one by one (a remind task
    with four statements each took a third of the workers' time in bench-load), and the
    pending decision's reminder stays."""
    from games.notifications import derive as deriving
    from games.notifications.models import DeadlineReminder

    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True
    anna, ben = player(None), player(None)
    gid = game([anna, ben], options={"turn_deadline_s": 60})
    first = anna.get(f"/api/games/{gid}/").json()
    send(anna, gid, next(c for c in first["legal"] if c["type"] == "play"))
    head = anna.get(f"/api/games/{gid}/").json()["seq"]
    reminders = DeadlineReminder.objects.filter(game_id=gid)
    assert set(reminders.values_list("seq", flat=True)) >= {first["seq"], head}
    reminders.update(remind_at=timezone.now() - timedelta(seconds=1))
    with django_assert_num_queries(1):
        settled = deriving.settle_moot(timezone.now())
    assert settled == reminders.exclude(seq=head).count() >= 1
    assert list(reminders.filter(done=False).values_list("seq", flat=True)) == [head]
    assert deriving.remind(gid, first["seq"]) == []  # its task, come late: one read, nothing


@pytest.mark.django_db(transaction=True)
def test_with_the_runner_deployed_the_runner_reminds_and_no_celery_task_waits(
    settings, monkeypatch
):
    """SEJMI_DEADLINE_RUNNER=1 (docker-compose, the bench stack): a decision sends no `remind`
    task with an ETA (one per move, held by the worker and mostly moot: half the Celery
    workers' CPU in bench-load); the runner's each-second step reminds what is due, once.
    Without the runner the task is sent as before."""
    import threading

    from games.clock import runner as clock_runner
    from games.core.models import GameProjection
    from games.notifications.models import DeadlineReminder

    sent: list[str] = []
    monkeypatch.setattr(runner, "_send_task",
                        lambda name, *args, eta=None: sent.append(name) or True)  # fmt: skip
    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = True, True
    settings.SEJMI_DEADLINE_RUNNER = True
    anna, ben = player(None), player(None)
    gid = game([anna, ben], options={"turn_deadline_s": 60})
    head = anna.get(f"/api/games/{gid}/").json()["seq"]
    reminder = DeadlineReminder.objects.get(game_id=gid, seq=head)
    assert runner.REMIND_TASK not in sent, "the runner's, not a task's"

    now = timezone.now()  # 50 of the decision's 60 s gone: past its 80 %
    GameProjection.objects.filter(game_id=gid).update(
        decision_since=now - timedelta(seconds=50), deadline_at=now + timedelta(seconds=10)
    )
    reminder.remind_at = now - timedelta(seconds=2)
    reminder.save(update_fields=["remind_at"])
    stop = threading.Event()
    sweeping = threading.Thread(target=clock_runner.run, kwargs={
        "interval": 0.05, "stop": stop, "beside": runner.remind_due})  # fmt: skip
    sweeping.start()
    try:
        give_up = time.monotonic() + 20
        while "deadline_soon" not in kinds(anna, gid) and time.monotonic() < give_up:
            time.sleep(0.1)
        time.sleep(1.2)  # another each-second step: nothing twice
    finally:
        stop.set()
        sweeping.join(10)
    assert kinds(anna, gid) == ["deadline_soon", "your_turn"]
    assert kinds(ben, gid) == []
    assert DeadlineReminder.objects.get(pk=reminder.pk).done

    settings.SEJMI_DEADLINE_RUNNER = False
    reminder.remind_at = timezone.now() + timedelta(seconds=5)
    runner._schedule_reminder(reminder)
    assert sent.count(runner.REMIND_TASK) == 1


# --- quiet at the table (issue 18) ------------------------------------------------------------
# A notification about a game whose table its player has open in a visible tab is born read:
# stored read, the unread count not raised, pushed as read, never mailed (API.md "More pages";
# docs/NOTIFICATIONS.md "Quiet at the table").


async def _table_socket(client: APIClient, gid: int, visible: bool | None):
    """The player's game socket, its first view read; `visible`: the page's visibility frame
    (None: none sent), and its presence row written before this returns."""
    from games.notifications import presence

    sock = WebsocketCommunicator(_asgi(), f"/ws/games/{gid}/", headers=_auth(client))
    assert (await sock.connect(timeout=5))[0]
    assert (await sock.receive_json_from(timeout=5))["type"] == "view"
    if visible is not None:
        await sock.send_json_to({"type": "visibility", "visible": visible})
        user_id = await sync_to_async(_user_id)(client)
        await sync_to_async(wait_for)(
            lambda: presence.sees_table(user_id, gid) is visible, "the visibility's row"
        )
    return sock


def _user_id(client: APIClient) -> int:
    return get_user_model().objects.get(username=client.username).pk


def _mine(client: APIClient, gid: int, kind: str) -> dict:
    return next(n for n in listed(client)["notifications"]
                if n["game"] == gid and n["kind"] == kind)  # fmt: skip


@pytest.mark.asyncio
async def test_told_while_the_table_is_open_in_a_visible_tab_is_born_read_never_mailed(
    notifying,
):
    """Anna watches game G in a visible tab: her `your_turn` is stored read, /ws/me/ pushes it
    read with unread 0, and no mail row exists at all (not even a skipped one). In the same
    moves ben, whose tab went hidden, and cleo, with no tab, are told as before: unread (ben
    is not mailed while his socket is open, cleo is mailed). All three want mail at once."""
    anna, ben, cleo = [await sync_to_async(player)() for _ in range(3)]
    gid = await sync_to_async(_lobby)(anna, 3, HANDS)
    await sync_to_async(_join)(ben, gid, 1)
    hers = await _table_socket(anna, gid, visible=True)
    his = await _table_socket(ben, gid, visible=True)
    await his.send_json_to({"type": "visibility", "visible": False})  # he switched tabs
    ben_id = await sync_to_async(_user_id)(ben)
    from games.notifications import presence

    await sync_to_async(wait_for)(lambda: not presence.sees_table(ben_id, gid), "ben hidden")
    me = WebsocketCommunicator(_asgi(), "/ws/me/", headers=_auth(anna))
    assert (await me.connect(timeout=5))[0]

    await sync_to_async(_join)(cleo, gid, 2)  # the game starts: anna's turn
    pushed = await me.receive_json_from(timeout=WAIT_S)
    assert pushed["notification"]["kind"] == "your_turn"
    assert pushed["notification"]["read"] is True and pushed["unread"] == 0
    await sync_to_async(send)(anna, gid, PLAY)  # a block window asks ben and cleo (R19)
    await sync_to_async(wait_for)(lambda: notifying.to(cleo.address), "cleo's mail")
    await sync_to_async(barrier)(await sync_to_async(player)(None),
                                 await sync_to_async(player)(None))  # fmt: skip

    turn = await sync_to_async(_mine)(anna, gid, "your_turn")
    assert turn["read"] is True
    assert (await sync_to_async(listed)(anna, True))["unread"] == 0
    row = await sync_to_async(Notification.objects.get)(pk=turn["id"])
    assert row.born_read
    assert not await sync_to_async(OutboxMail.objects.filter(notification=row).exists)()
    assert notifying.to(anna.address) == []
    assert (await sync_to_async(_mine)(ben, gid, "block_window"))["read"] is False
    assert (await sync_to_async(_mine)(cleo, gid, "block_window"))["read"] is False
    states = await sync_to_async(lambda: dict(OutboxMail.objects.filter(
        notification__game_id=gid).values_list("user__username", "state")))()  # fmt: skip
    assert states == {ben.username: "skipped", cleo.username: "sent"}
    assert len(notifying.to(cleo.address)) == 1

    await hers.disconnect()  # the tab is closed: her next notification is unread again
    anna_id = await sync_to_async(_user_id)(anna)
    assert not await sync_to_async(presence.sees_table)(anna_id, gid)
    for sock in (his, me):
        await sock.disconnect()


@pytest.mark.asyncio
async def test_a_reminder_made_by_the_worker_process_is_born_read_too(notifying):
    """Across processes: the worker (another process) makes `deadline_soon` at 80 % of the
    turn's time and finds anna's visible table in the shared presence rows: born read."""
    anna, ben = await sync_to_async(player)(), await sync_to_async(player)()
    created = await sync_to_async(anna.post)(
        "/api/games/", {"seats": 2, "rig": {"first": 0}, "options": {"turn_deadline_s": 5}},
        format="json")  # fmt: skip
    gid = created.json()["id"]
    await sync_to_async(_join)(anna, gid, 0)
    sock = await _table_socket(anna, gid, visible=True)
    await sync_to_async(_join)(ben, gid, 1)
    await sync_to_async(wait_for)(lambda: "deadline_soon" in kinds(anna, gid), "deadline_soon")
    reminder = await sync_to_async(_mine)(anna, gid, "deadline_soon")
    assert reminder["read"] is True
    assert (await sync_to_async(listed)(anna, True))["unread"] == 0
    await sync_to_async(barrier)(await sync_to_async(player)(None),
                                 await sync_to_async(player)(None))  # fmt: skip
    assert notifying.to(anna.address) == []
    await sock.disconnect()


def test_the_digest_leaves_out_what_was_born_read(notifying):
    """Born read is never mailed, not even gathered in the day's digest."""
    from games.notifications import presence

    anna = player("digest")
    watched = _lobby(anna)
    presence.show((_user_id(anna), watched, "test.watched-tab"), True)
    _join(player(None), watched, 1)
    unwatched = game([anna, player(None)])
    wait_for(lambda: len(listed(anna)["notifications"]) == 2, "two your_turn")
    assert [n["read"] for n in listed(anna)["notifications"]
            if n["game"] == watched] == [True]  # fmt: skip

    app.send_task(runner.DIGEST_TASK, (timezone.now().date().isoformat(),), queue=QUEUE)
    mail = wait_for(lambda: notifying.to(anna.address), "the digest")[0].get_content()
    assert f"/games/{unwatched}/" in mail
    assert f"/games/{watched}/" not in mail


@pytest.mark.django_db(transaction=True)
def test_the_visible_tables_presence_expires(settings):
    """A tab counts as visible while its socket's row lives: a row whose process stopped
    beating (a crashed web worker) stops counting after its TTL, and the sweeper removes it;
    what is told then is unread. A beat renews a row without undoing a visibility change made
    meanwhile, and brings a swept row back as its socket last said."""
    from games.notifications import presence
    from games.notifications.models import Presence

    settings.SEJMI_SEND_TASKS, settings.SEJMI_ALLOW_RIGGED = False, True
    anna = player(None)
    gid = _lobby(anna)
    row = (_user_id(anna), gid, "test.tab")
    presence.show(row, True)
    assert presence.sees_table(*row[:2])
    presence.beat([row])  # a beat read before ...
    presence.show(row, False)  # ... the tab was hidden, written after
    presence.beat([row], visible=[row[2]])
    assert not presence.sees_table(*row[:2]), "the beat keeps the socket's own word"
    presence.show(row, True)
    Presence.objects.filter(channel="test.tab").update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )  # its process stopped beating
    assert not presence.sees_table(*row[:2])
    runner.sweep()
    assert not Presence.objects.filter(channel="test.tab").exists()

    _join(player(None), gid, 1)
    assert [n["read"] for n in listed(anna)["notifications"]] == [False]
    presence.beat([row], visible=[row[2]])  # the socket lives after all: back, as it said
    assert presence.sees_table(*row[:2])


@pytest.mark.asyncio
async def test_a_visibility_frame_is_checked_and_an_anonymous_socket_changes_nothing(notifying):
    anna = await sync_to_async(player)(None)
    gid = await sync_to_async(_lobby)(anna)
    sock = await _table_socket(anna, gid, visible=None)
    await sock.send_json_to({"type": "visibility", "visible": "yes"})
    error = await sock.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["error"]["code"] == "invalid"
    await sock.disconnect()
    anonymous = WebsocketCommunicator(_asgi(), f"/ws/games/{gid}/",
                                      headers=[(b"origin", b"http://localhost")])  # fmt: skip
    assert (await anonymous.connect(timeout=5))[0]
    assert (await anonymous.receive_json_from(timeout=5))["type"] == "view"
    await anonymous.send_json_to({"type": "visibility", "visible": True})
    assert await anonymous.receive_nothing(timeout=0.5)
    from games.notifications.models import Presence

    assert not await sync_to_async(Presence.objects.filter(game_id=gid).exists)()
    await anonymous.disconnect()
