"""Disputes: a seated player opens one, staff settle it in the Django admin.

Who sees what: the player who opened a dispute sees it and its status; staff see every dispute;
anyone else is told it does not exist. Game events are never edited; staff notes are their own
append-only records.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import DatabaseError, transaction
from rest_framework.test import APIClient

from games.clock import tasks
from games.core.models import GameEvent
from replays.disputes import services as disputes
from replays.disputes.models import Dispute, DisputeNote
from tests.support.db_roles import as_owner

REASON = "The server skipped my turn after I blocked in time."


def user_of(client: APIClient):
    return get_user_model().objects.get(username=client.username)


def seated_game(client: APIClient) -> int:
    """A two-seat game against a bot, with `client` in seat 0; it starts at once."""
    game = client.post("/api/games/", {"seats": 2, "options": {"bots": [1]}}, format="json")
    assert game.status_code == 201, game.content
    gid = game.json()["id"]
    joined = client.post(f"/api/games/{gid}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["you"] == 0, joined.content
    return gid


def play_to_end(client: APIClient, gid: int) -> dict:
    """`client` plays its first legal command each time; bots answer through the sweeper."""
    for _ in range(2000):
        while tasks.sweep():  # the sweeper, run here (no worker)
            pass
        view = client.get(f"/api/games/{gid}/").json()
        if view["status"] == "ended":
            return view
        if view["legal"]:
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
            assert answer.status_code == 200, answer.content
    raise AssertionError(f"game {gid} did not end")


def open_dispute(client: APIClient, gid: int, reason: str = REASON):
    return client.post(f"/api/games/{gid}/disputes/", {"reason": reason}, format="json")


def error_code(answer) -> str:
    return answer.json()["error"]["code"]


def make_staff(name: str = "referee"):
    """A staff user with just the permissions the dispute queue needs (not a superuser)."""
    staff = get_user_model().objects.create_user(name, password="s3cret-pass-1", is_staff=True)
    codenames = ["view_dispute", "change_dispute", "view_disputenote", "add_disputenote"]
    staff.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    return staff


def staff_api(staff) -> APIClient:
    client = APIClient()
    client.force_authenticate(staff)
    return client


# Opening a dispute over the API


@pytest.mark.django_db
def test_a_seated_player_opens_a_dispute_and_sees_its_status(make_player):
    alice = make_player()
    gid = seated_game(alice)
    answer = open_dispute(alice, gid)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert set(body) == {"id", "game", "status", "reason", "seq", "opened_by", "opened_at",
                         "resolution", "resolved_at"}  # fmt: skip
    assert body["game"] == gid and body["status"] == "open" and body["reason"] == REASON
    assert body["opened_by"] == alice.username
    assert body["resolution"] is None and body["resolved_at"] is None and body["seq"] is None
    assert alice.get(f"/api/disputes/{body['id']}/").json() == body
    assert alice.get("/api/disputes/").json() == {"disputes": [body]}


@pytest.mark.django_db
def test_a_player_of_another_game_may_neither_dispute_this_one_nor_see_its_disputes(
    make_player,
):
    alice, bob = make_player(), make_player()
    gid = seated_game(alice)
    seated_game(bob)
    dispute = open_dispute(alice, gid).json()
    refused = open_dispute(bob, gid)
    assert refused.status_code == 403 and error_code(refused) == "forbidden"
    assert bob.get("/api/disputes/").json() == {"disputes": []}
    hidden = bob.get(f"/api/disputes/{dispute['id']}/")
    assert hidden.status_code == 404 and error_code(hidden) == "not_found"


@pytest.mark.django_db
def test_a_spectator_may_not_dispute_even_the_creator_of_a_bot_game_who_took_no_seat(
    make_player,
):
    creator, spectator = make_player(), make_player()
    bots_only = creator.post("/api/games/", {"seats": 2, "options": {"bots": [0, 1]}},
                             format="json").json()["id"]  # fmt: skip
    assert spectator.get(f"/api/games/{bots_only}/").json()["you"] is None  # watching is fine
    for outsider in (creator, spectator):
        refused = open_dispute(outsider, bots_only)
        assert refused.status_code == 403 and error_code(refused) == "forbidden"
    assert not Dispute.objects.exists()


@pytest.mark.django_db
def test_anonymous_callers_must_authenticate(make_player):
    alice = make_player()
    gid = seated_game(alice)
    dispute = open_dispute(alice, gid).json()
    anonymous = APIClient()
    for answer in (
        anonymous.post(f"/api/games/{gid}/disputes/", {"reason": REASON}, format="json"),
        anonymous.get("/api/disputes/"),
        anonymous.get(f"/api/disputes/{dispute['id']}/"),
    ):
        assert answer.status_code == 401 and error_code(answer) == "not_authenticated"


@pytest.mark.django_db
def test_a_reason_is_required_and_at_most_2000_characters(make_player):
    alice = make_player()
    gid = seated_game(alice)
    bad = [{}, {"reason": ""}, {"reason": "   \n"}, {"reason": 42}, {"reason": None},
           {"reason": "x" * 2001}, {"reason": REASON, "severity": "high"}, [REASON]]  # fmt: skip
    for body in bad:
        answer = alice.post(f"/api/games/{gid}/disputes/", body, format="json")
        assert answer.status_code == 400 and error_code(answer) == "invalid", body
    assert not Dispute.objects.exists()
    longest = open_dispute(alice, gid, "x" * 2000)
    assert longest.status_code == 201 and len(longest.json()["reason"]) == 2000


@pytest.mark.django_db
def test_an_unknown_game_or_dispute_is_not_found(make_player):
    alice = make_player()
    missing = open_dispute(alice, 999_999)
    assert missing.status_code == 404 and error_code(missing) == "not_found"
    assert alice.get("/api/disputes/999999/").status_code == 404


# What staff see


@pytest.mark.django_db
def test_staff_see_every_dispute_and_filter_them_by_status(make_player):
    alice, bob = make_player(), make_player()
    first = open_dispute(alice, seated_game(alice)).json()
    second = open_dispute(bob, seated_game(bob)).json()
    referee = make_staff()
    staff = staff_api(referee)
    disputes.dispute_close(dispute_id=first["id"], by=referee, status="rejected",
                           resolution="The block came after the window closed.")  # fmt: skip

    def ids(query: str = "") -> list[int]:
        answer = staff.get(f"/api/disputes/{query}")
        assert answer.status_code == 200, answer.content
        return [d["id"] for d in answer.json()["disputes"]]

    assert ids() == [first["id"], second["id"]]
    assert ids("?status=open") == [second["id"]]
    assert ids("?status=rejected") == [first["id"]]
    assert ids("?status=resolved") == []
    assert staff.get(f"/api/disputes/{second['id']}/").json() == second
    assert error_code(staff.get("/api/disputes/?status=closed")) == "invalid"
    # a player's filter only ever narrows their own disputes
    assert [d["id"] for d in alice.get("/api/disputes/?status=rejected").json()["disputes"]] == [
        first["id"]
    ]
    assert alice.get("/api/disputes/?status=open").json() == {"disputes": []}


@pytest.mark.django_db
def test_staff_who_are_not_seated_may_not_open_a_dispute(make_player):
    gid = seated_game(make_player())
    refused = staff_api(make_staff()).post(f"/api/games/{gid}/disputes/", {"reason": REASON},
                                           format="json")  # fmt: skip
    assert refused.status_code == 403 and error_code(refused) == "forbidden"


@pytest.mark.django_db
def test_the_player_sees_the_decision_on_their_dispute(make_player):
    alice = make_player()
    dispute = open_dispute(alice, seated_game(alice)).json()
    disputes.dispute_close(dispute_id=dispute["id"], by=make_staff(), status="resolved",
                           resolution="Confirmed: the turn deadline fired early.")  # fmt: skip
    seen = alice.get(f"/api/disputes/{dispute['id']}/").json()
    assert seen["status"] == "resolved"
    assert seen["resolution"] == "Confirmed: the turn deadline fired early."
    assert seen["resolved_at"] is not None


@pytest.mark.django_db
def test_a_decision_is_made_once(make_player):
    alice = make_player()
    dispute = open_dispute(alice, seated_game(alice)).json()
    staff = make_staff()
    disputes.dispute_close(dispute_id=dispute["id"], by=staff, status="rejected", resolution="No.")
    with pytest.raises(ValueError, match="not open"):
        disputes.dispute_close(dispute_id=dispute["id"], by=staff, status="resolved",
                               resolution="Yes after all.")  # fmt: skip
    with pytest.raises(ValueError, match="needs a resolution"):
        disputes.dispute_close(dispute_id=dispute["id"], by=staff, status="resolved",
                               resolution=" ")  # fmt: skip
    assert Dispute.objects.get().status == "rejected"


@pytest.mark.django_db
def test_notes_are_append_only_in_postgresql(make_player):
    alice = make_player()
    dispute = Dispute.objects.get(pk=open_dispute(alice, seated_game(alice)).json()["id"])
    note = disputes.dispute_note_add(dispute=dispute, author=make_staff(), text="Checking.")
    with pytest.raises(DatabaseError, match="append-only"), as_owner(), transaction.atomic():
        DisputeNote.objects.filter(pk=note.pk).update(text="Rewritten.")  # even as the owner
    with pytest.raises(DatabaseError, match="append-only"), as_owner(), transaction.atomic():
        DisputeNote.objects.filter(pk=note.pk).delete()
    assert DisputeNote.objects.get().text == "Checking."


# The admin queue


def admin_form(status: str, resolution: str, notes: list[str], existing: int = 0) -> dict:
    """The change form's POST: the decision, plus one new inline row per note (existing notes
    are view-only rows: only counted in the management form)."""
    data = {
        "status": status, "resolution": resolution, "_save": "Save",
        "notes-TOTAL_FORMS": str(existing + len(notes)), "notes-INITIAL_FORMS": str(existing),
        "notes-MIN_NUM_FORMS": "0", "notes-MAX_NUM_FORMS": "1000",
    }  # fmt: skip
    for i, text in enumerate(notes, start=existing):
        data[f"notes-{i}-text"] = text
    return data


@pytest.mark.django_db
def test_staff_walk_a_dispute_from_open_to_resolved_in_the_admin(make_player, client):
    alice, bob = make_player(), make_player()
    gid = seated_game(alice)
    play_to_end(alice, gid)
    older = open_dispute(bob, seated_game(bob), "The die was rigged.").json()
    dispute = open_dispute(alice, gid).json()
    staff = make_staff()
    disputes.dispute_close(dispute_id=older["id"], by=staff, status="rejected", resolution="No.")
    client.force_login(staff)

    queue = client.get("/admin/replays/dispute/")
    assert queue.status_code == 200
    listed = [int(i) for i in re.findall(r"/admin/replays/dispute/(\d+)/change/", queue.text)]
    assert listed.index(dispute["id"]) < listed.index(older["id"])  # open ones first
    open_only = client.get("/admin/replays/dispute/?status__exact=open").text
    assert f"/admin/replays/dispute/{older['id']}/change/" not in open_only

    url = f"/admin/replays/dispute/{dispute['id']}/change/"
    page = client.get(url)
    assert page.status_code == 200
    last = GameEvent.objects.filter(game_id=gid).order_by("seq").last()
    assert 'class="event-log"' in page.text and "game_created" in page.text
    assert last.type == "game_ended" and last.hash in page.text
    assert 'class="verification-report' in page.text and 'data-check="chain"' in page.text
    assert 'class="transcript"' in page.text and f"Seat 0: {alice.username}" in page.text
    assert "Final standings:" in page.text and REASON in page.text

    note = "Replayed the log: the turn was not skipped; the block came after the window."
    saved = client.post(url, admin_form("open", "", [note]))
    assert saved.status_code == 302, saved.content
    assert Dispute.objects.get(pk=dispute["id"]).status == "open"

    decision = "Rejected: the verification report and the event log agree with the engine."
    saved = client.post(url, admin_form("rejected", decision, ["Told the player."], existing=1))
    assert saved.status_code == 302, saved.content
    settled = Dispute.objects.get(pk=dispute["id"])
    assert (settled.status, settled.resolution) == ("rejected", decision)
    assert settled.resolved_by == staff and settled.resolved_at is not None
    rows = list(DisputeNote.objects.filter(dispute=settled).values_list("author", "text"))
    assert rows == [(staff.pk, note), (staff.pk, "Told the player.")]
    assert alice.get(f"/api/disputes/{dispute['id']}/").json()["status"] == "rejected"

    # once decided, the decision is read-only; notes may still be added
    client.post(url, admin_form("open", "changed my mind", ["Reopen?"], existing=2))
    final = Dispute.objects.get(pk=dispute["id"])
    assert (final.status, final.resolution, final.resolved_at) == (
        "rejected", decision, settled.resolved_at
    )  # fmt: skip
    assert DisputeNote.objects.filter(dispute=settled).count() == 3


@pytest.mark.django_db
def test_the_admin_form_pairs_a_closing_status_with_a_resolution(make_player, client):
    alice = make_player()
    dispute = open_dispute(alice, seated_game(alice)).json()
    client.force_login(make_staff())
    url = f"/admin/replays/dispute/{dispute['id']}/change/"
    for status, resolution in (("resolved", ""), ("open", "a decision without a status")):
        answer = client.post(url, admin_form(status, resolution, []))
        assert answer.status_code == 200 and "errorlist" in answer.text
        assert 'name="resolution"' in answer.text  # still editable, to be corrected
    assert Dispute.objects.get(pk=dispute["id"]).status == "open"


@pytest.mark.django_db
def test_the_admin_neither_edits_game_events_nor_deletes_disputes_or_notes(make_player, client):
    alice = make_player()
    dispute = open_dispute(alice, seated_game(alice)).json()
    staff = make_staff()
    staff.user_permissions.add(*Permission.objects.filter(codename__startswith="delete_dispute"))
    client.force_login(staff)
    assert client.get("/admin/games/gameevent/").status_code == 404  # not registered
    assert client.get("/admin/replays/disputenote/").status_code == 404  # only inline
    assert client.get("/admin/replays/dispute/add/").status_code == 403
    assert client.get(f"/admin/replays/dispute/{dispute['id']}/delete/").status_code == 403


@pytest.mark.django_db
def test_players_cannot_reach_the_admin_queue(make_player, client):
    alice = make_player()
    open_dispute(alice, seated_game(alice))
    client.force_login(user_of(alice))
    assert client.get("/admin/replays/dispute/").status_code == 302  # to the admin login
