"""Notes at a moment (issue 30; API.md, "Play on from a moment, notes and odds"): private while
the game runs (nobody else reads them, staff included), the public ones everyone's after the
end; staff hide a public note as they hide chat; bad input is a 400 and creates nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.notes.models import GameNote
from tests.support.api import open_table


def post(client, gid, **body):
    return client.post(f"/api/games/{gid}/notes/", body, format="json")


def texts(client, gid) -> list[str]:
    answer = client.get(f"/api/games/{gid}/notes/")
    assert answer.status_code == 200, answer.content
    return [n["text"] for n in answer.json()]


def test_a_players_notes_stay_his_while_the_game_runs(make_player, make_staff):
    table = open_table(make_player, seats=3)
    alice, bob = table.seats[0], table.seats[1]
    staff = make_staff()
    answer = post(alice, table.gid, seq=2, text="bob holds a blue card, I think", public=True)
    assert answer.status_code == 201, answer.content
    note = answer.json()
    assert set(note) == {"id", "seq", "author", "text", "public", "at", "hidden"}
    assert (note["seq"], note["author"], note["public"]) == (2, alice.username, True)
    assert post(bob, table.gid, seq=3, text="mine", public=False).status_code == 201
    assert texts(alice, table.gid) == ["bob holds a blue card, I think"]
    assert texts(bob, table.gid) == ["mine"]
    assert texts(staff, table.gid) == [] and texts(APIClient(), table.gid) == []


def test_after_the_end_public_notes_are_everyones_and_private_ones_their_authors(
    finished_trio, make_player
):
    table = finished_trio
    alice, bob = table.seats[0], table.seats[1]
    post(alice, table.gid, seq=5, text="here I should have blocked", public=True)
    post(alice, table.gid, seq=4, text="just for me", public=False)
    post(bob, table.gid, seq=9, text="nice duel", public=True)
    everyone = ["here I should have blocked", "nice duel"]  # by seq
    assert texts(APIClient(), table.gid) == everyone
    assert texts(make_player(), table.gid) == everyone
    assert texts(alice, table.gid) == ["just for me", *everyone]
    assert texts(bob, table.gid) == everyone


def test_staff_hide_a_public_note_and_nobody_else_may(finished_trio, make_player, make_staff):
    table = finished_trio
    note = post(table.seats[0], table.gid, seq=5, text="rude words", public=True).json()
    secret = post(table.seats[0], table.gid, seq=6, text="private", public=False).json()
    url = f"/api/games/{table.gid}/notes/{note['id']}/hide/"
    assert table.seats[1].post(url, {"reason": "no"}, format="json").status_code == 403
    staff = make_staff()
    hidden = staff.post(url, {"reason": "insults"}, format="json")
    assert hidden.status_code == 200, hidden.content
    assert hidden.json()["hidden"] is True and hidden.json()["text"] == ""
    shown = APIClient().get(f"/api/games/{table.gid}/notes/").json()
    assert [(n["id"], n["hidden"], n["text"]) for n in shown] == [(note["id"], True, "")]
    private = f"/api/games/{table.gid}/notes/{secret['id']}/hide/"
    assert staff.post(private, {"reason": "x"}, format="json").status_code == 404


@pytest.mark.parametrize(("body", "why"), [
    ({"seq": 0, "text": "x", "public": False}, "seq"),
    ({"seq": 100_000, "text": "x", "public": False}, "seq"),
    ({"seq": "3", "text": "x", "public": False}, "seq"),
    ({"seq": 3, "text": "", "public": False}, "text"),
    ({"seq": 3, "text": "   ", "public": False}, "text"),
    ({"seq": 3, "text": "x" * 2001, "public": False}, "text"),
    ({"seq": 3, "text": "x", "public": "yes"}, "public"),
    ({"seq": 3, "text": "x", "public": False, "colour": "red"}, "unknown"),
])  # fmt: skip
def test_bad_notes_are_invalid_and_create_nothing(finished_trio, body, why):
    table = finished_trio
    answer = table.seats[0].post(table.url("notes/"), body, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "invalid" and why in error["message"]
    assert GameNote.objects.count() == 0


def test_a_note_of_2000_characters_is_kept_and_notes_need_a_signed_in_author(finished_trio):
    table = finished_trio
    assert post(table.seats[0], table.gid, seq=3, text="x" * 2000, public=False).status_code == 201
    assert post(APIClient(), table.gid, seq=3, text="x", public=True).status_code == 401
    missing = post(table.seats[0], 999_999, seq=1, text="x", public=False)
    assert missing.status_code == 404
    assert GameNote.objects.count() == 1
