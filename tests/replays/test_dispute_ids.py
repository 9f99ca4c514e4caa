"""Issue 32, item 9 (what to build: 8): a dispute's id tells nothing of how many disputes the
service holds: ids are random numbers below 2^53 (exact in JavaScript), not 1, 2, 3 … (a
player's two disputes in a row showed how many others had been filed between them)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.table import commands


@pytest.mark.django_db
def test_dispute_ids_do_not_count_disputes():
    """Mutant (before): an auto-increment id → the ids are consecutive small numbers."""
    user = get_user_model().objects.create_user("eva", password="s3cret-pass-1")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    gid = commands.game_create(user=user, seats=2, options={"bots": [1]}).game_id
    assert client.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json").status_code == 200
    ids = []
    for seq in range(1, 5):
        answer = client.post(f"/api/games/{gid}/disputes/", {"reason": "x", "seq": seq},
                             format="json")  # fmt: skip
        assert answer.status_code == 201, answer.content
        ids.append(answer.json()["id"])
    assert all(2**32 <= i < 2**53 for i in ids), ids  # exact as a JavaScript number too
    assert sorted(ids) != list(range(min(ids), min(ids) + 4))
    assert client.get(f"/api/disputes/{ids[2]}/").json()["id"] == ids[2]
