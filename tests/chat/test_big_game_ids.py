"""Issue 32, item 7 (what to build: 6): a game id up to 2^63 - 1 (the ids are bigint) works
wherever ids are used, and an id past it is an unknown game (404), never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.core.models import Game
from games.engine import fold, new_game, new_seed
from games.table.commit import append

LARGEST = 2**63 - 1


def _client(name: str) -> tuple[APIClient, object]:
    user = get_user_model().objects.create_user(username=name, password="s3cret-pass-1")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client, user


def _game_with_id(game_id: int, creator) -> int:
    """A new 2-seat game under `game_id` (as games.table.commands.game_create makes one)."""
    seed = new_seed()
    events = new_game(seats=2, seed=seed, variant="standard", options=None, rig=None)
    with transaction.atomic():
        game = Game.objects.create(pk=game_id, seed=seed, created_by=creator)
        append(game.pk, None, None, [(timezone.now(), events)], fold(events))
    return game.pk


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_id", [2**31, LARGEST])
def test_a_game_past_2_to_the_31_plays_and_chats(game_id):
    """Failed before the fix: the chat's lock was pg_advisory_xact_lock(integer, integer),
    and `pg_advisory_xact_lock(integer, bigint)` does not exist → 500."""
    eva, eva_user = _client("eva")
    jan, _ = _client("jan")
    gid = _game_with_id(game_id, eva_user)
    for seat, who in enumerate((eva, jan)):
        joined = who.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    said = eva.post(f"/api/games/{gid}/chat/", {"channel": "table", "text": "hello"},
                    format="json")  # fmt: skip
    assert said.status_code == 201, said.content
    read = jan.get(f"/api/games/{gid}/chat/?channel=table")
    assert [m["text"] for m in read.json()["messages"]] == ["hello"]
    assert jan.get(f"/api/games/{gid}/").status_code == 200
    assert jan.get(f"/api/games/{gid}/events/").status_code == 200
    assert jan.get(f"/api/games/{gid}/replay/?at=1").status_code in (200, 403, 409)


@pytest.mark.django_db
@pytest.mark.parametrize("tail", ["", "events/", "chat/?channel=table", "replay/?at=1"])
def test_an_id_past_bigint_is_an_unknown_game(tail):
    eva, _ = _client("eva")
    for gid in (LARGEST, LARGEST + 1, 10**30):
        answer = eva.get(f"/api/games/{gid}/{tail}")
        assert answer.status_code == 404, (gid, tail, answer.content)
    answer = eva.post(f"/api/games/{LARGEST + 1}/chat/", {"channel": "table", "text": "x"},
                      format="json")  # fmt: skip
    assert answer.status_code == 404, answer.content
