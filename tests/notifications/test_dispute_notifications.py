"""When staff decide a dispute in the admin, the player who opened it is told once
(`dispute_decided`: the bell, and a mail by their preference), through the notifications'
own machinery: a REAL Celery worker and a REAL SMTP server (tests/notifications/notify_stack.py).
Nobody else is told: not the other player of the game, not a spectator (R23: a dispute is
its player's own)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client

from games.notifications import runner
from games.notifications.models import Notification, OutboxMail
from replays.disputes import services as disputes
from replays.disputes.models import Dispute
from sejmi.celery import app
from tests.support.notified import barrier, listed, player, wait_for
from tests.support.notify_stack import QUEUE, Inbox, Worker, smtp_server, worker_on

# A worker and an SMTP server of this module's own, on a queue of its own: the session fixtures
# of test_notifications.py, imported here, would be second instances on the same queue when
# both modules run, and the first worker would take (and mail to its own inbox) some tasks.
OWN_QUEUE = f"{QUEUE}-disputes"


@pytest.fixture(scope="module")
def inbox() -> Inbox:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def worker(django_db_setup, django_db_blocker, inbox) -> Worker:
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
    with worker_on(database, inbox.port, queue=OWN_QUEUE) as started:
        yield started


@pytest.fixture
def notifying(worker, settings, inbox) -> Inbox:
    """Notification tasks go to this module's worker; rigged games allowed."""
    if not settings.SEJMI_SEND_TASKS:
        pytest.fail("notification tests need REDIS_URL set and SEJMI_INPROCESS_RUNNER off")
    settings.SEJMI_NOTIFY_QUEUE = OWN_QUEUE
    settings.SEJMI_ALLOW_RIGGED = True
    return inbox


pytestmark = pytest.mark.django_db(transaction=True)

DECISION = "Resolved: the block came in time; the log shows it."


def seated_pair(first, second) -> int:
    """A two-seat game of `first` (seat 0) and `second` (seat 1); it starts at once."""
    gid = first.post("/api/games/", {"seats": 2, "rig": {"first": 0}}, format="json").json()["id"]
    for seat, client in enumerate((first, second)):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return gid


def dispute(client, gid: int, seq: int | None) -> int:
    body = {"reason": "My block was ignored.", **({"seq": seq} if seq else {})}
    answer = client.post(f"/api/games/{gid}/disputes/", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def admin() -> Client:
    """Staff with the dispute queue's permissions, logged in to the Django admin."""
    n = get_user_model().objects.filter(is_staff=True).count()
    staff = get_user_model().objects.create_user(f"referee{n}", password="s3cret-pass-1",
                                                 is_staff=True)  # fmt: skip
    codenames = ["view_dispute", "change_dispute", "view_disputenote", "add_disputenote"]
    staff.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(staff)
    return client


def decide_in_admin(client: Client, dispute_id: int, status: str = "resolved") -> int:
    """The admin's own change form, as staff submit it (replays/disputes/admin.py)."""
    form = {"status": status, "resolution": DECISION, "_save": "Save",
            "notes-TOTAL_FORMS": "0", "notes-INITIAL_FORMS": "0",
            "notes-MIN_NUM_FORMS": "0", "notes-MAX_NUM_FORMS": "1000"}  # fmt: skip
    return client.post(f"/admin/replays/dispute/{dispute_id}/change/", form).status_code


def decided(client, gid: int) -> list[dict]:
    return [n for n in listed(client)["notifications"]
            if n["kind"] == "dispute_decided" and n["game"] == gid]  # fmt: skip


def test_the_player_is_told_once_and_mailed_when_staff_decide(notifying):
    anna, ben = player(), player()
    gid = seated_pair(anna, ben)
    dispute_id = dispute(anna, gid, seq=2)
    assert decided(anna, gid) == []  # nothing while it is open

    staff = admin()
    assert decide_in_admin(staff, dispute_id) == 302
    told = wait_for(lambda: decided(anna, gid), "anna's dispute_decided")
    assert told[0]["seq"] == 2 and told[0]["read"] is False
    mails = wait_for(lambda: [m for m in notifying.to(anna.address)
                              if "dispute" in str(m["Subject"])], "the mail")  # fmt: skip
    body = mails[0].get_content()
    assert f"game {gid}" in str(mails[0]["Subject"]) and "http://testserver/disputes/" in body

    # A second decision changes nothing (the admin shows a decided dispute read-only, the
    # service refuses it: the first stands); a mail task delivered twice and the sweeper
    # beside it send nothing more.
    decide_in_admin(admin(), dispute_id, status="rejected")
    first = Dispute.objects.get(pk=dispute_id)
    with pytest.raises(ValueError, match="not open"):
        disputes.dispute_close(dispute_id=dispute_id, by=first.resolved_by, status="rejected",
                               resolution="again")  # fmt: skip
    mail = OutboxMail.objects.get(notification__kind="dispute_decided")
    for _ in range(2):
        app.send_task(runner.MAIL_TASK, (mail.pk,), queue=OWN_QUEUE)
        app.send_task(runner.SWEEP_TASK, (), queue=OWN_QUEUE)
    barrier(player(None), player(None))
    assert Notification.objects.filter(kind="dispute_decided").count() == 1
    assert len([m for m in notifying.to(anna.address) if "dispute" in str(m["Subject"])]) == 1
    assert Dispute.objects.get(pk=dispute_id).status == "resolved"
    # Only she is told: ben plays in the same game, and is told nothing of her dispute.
    assert decided(ben, gid) == []
    assert not [m for m in notifying.to(ben.address) if "dispute" in str(m["Subject"])]


@pytest.mark.parametrize("mode", ["digest", "off", None])
def test_the_mail_follows_the_players_preference(notifying, mode):
    """digest: no mail of its own (the day's digest gathers it); off, or no address: none."""
    anna = player(mode)
    gid = seated_pair(anna, player(None))
    dispute_id = dispute(anna, gid, seq=None)  # the whole game: told at seq 0
    assert decide_in_admin(admin(), dispute_id, status="rejected") == 302
    told = wait_for(lambda: decided(anna, gid), "anna's dispute_decided")
    assert told[0]["seq"] == 0
    barrier(player(None), player(None))
    assert not OutboxMail.objects.filter(notification__kind="dispute_decided").exists()
    if mode is not None:
        assert [m for m in notifying.to(anna.address) if "dispute" in str(m["Subject"])] == []


def test_the_mail_is_in_the_players_language(notifying):
    anna = player("immediate", language="cs")
    gid = seated_pair(anna, player(None))
    assert decide_in_admin(admin(), dispute(anna, gid, seq=1)) == 302
    mails = wait_for(lambda: [m for m in notifying.to(anna.address)
                              if "námitce" in str(m["Subject"])], "the Czech mail")  # fmt: skip
    assert "Přečti si rozhodnutí: http://testserver/disputes/" in mails[0].get_content()
