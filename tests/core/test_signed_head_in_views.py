"""Issue 32, item 3: signed heads leave the database. Every player's view — the REST view, a
command's answer, the socket's first view — and the export carry `signed_head` (seq, hash,
key_id, signature), the latest head the service signed at or before the view's seq, which the
player checks by the key of GET /api/signing-key/ alone (docs/INTEGRITY.md): a copy the
owner's rollback of a running game cannot reach.

Before: views had no `signed_head` (KeyError in each test below)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games.core import signing
from games.core.models import GameEvent
from replays.exports import export_lines
from tests.support.sockets import PLAY


def _verifies(head: dict) -> bool:
    key = APIClient().get("/api/signing-key/").json()["public_key"]
    return signing.verify(key, head["seq"], head["hash"], head["signature"])


def _the_head_row(gid: int, seq: int) -> str:
    return GameEvent.objects.get(game_id=gid, seq=seq).hash


@pytest.mark.django_db
def test_every_players_rest_view_carries_the_signed_head_of_its_seq(table):
    for client in [*table.seats, table.spectator]:
        view = client.get(f"/api/games/{table.gid}/").json()
        head = view["signed_head"]
        assert head["seq"] == view["seq"] and head["hash"] == _the_head_row(table.gid, view["seq"])
        assert head["key_id"] == signing.key_id(signing.public_key())
        assert _verifies(head)


@pytest.mark.django_db
def test_a_commands_answer_carries_the_new_signed_head(table):
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    answer = table.seats[0].post(f"/api/games/{table.gid}/commands/",
                                 {"expected_seq": seq, **PLAY}, format="json").json()  # fmt: skip
    head = answer["view"]["signed_head"]
    assert answer["seq"] > seq and head["seq"] == answer["seq"]
    assert head["hash"] == _the_head_row(table.gid, answer["seq"]) and _verifies(head)


@pytest.mark.django_db
def test_a_forged_head_is_not_what_the_view_calls_signed(table):
    """A signature is checkable: the same one over another hash does not verify."""
    head = table.seats[1].get(f"/api/games/{table.gid}/").json()["signed_head"]
    assert not _verifies({**head, "hash": "0" * 64})


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_sockets_first_view_carries_the_signed_head(table, sockets):
    _, view = await sockets(table.gid, table.tokens[0])
    head = view["signed_head"]
    assert head["seq"] == view["seq"]
    from asgiref.sync import sync_to_async

    assert await sync_to_async(_verifies)(head)


@pytest.mark.django_db
def test_the_export_carries_the_latest_signed_head(table):
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    table.seats[0].post(f"/api/games/{table.gid}/commands/", {"expected_seq": seq, **PLAY},
                        format="json")  # fmt: skip
    header = json.loads(next(export_lines(table.gid)))
    last = GameEvent.objects.filter(game_id=table.gid).order_by("-seq").first()
    assert header["signed_head"]["seq"] == last.seq == header["signatures"][-1]["seq"]
    assert header["signed_head"]["hash"] == last.hash and _verifies(header["signed_head"])
