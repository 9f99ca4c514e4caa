"""`game_command(landed=…)`, the socket's early ack (issue 31): told at COMMIT, before the
broadcast, and never at the broadcast's expense."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.core.errors import ApiError
from games.table import commands, publish
from tests.support.sockets import PLAY

pytestmark = pytest.mark.django_db(transaction=True)


def test_landed_is_told_first_and_a_failure_there_keeps_the_broadcast(table, monkeypatch):
    order: list[str] = []
    broadcast = publish.broadcast

    def recorded(*args, **kwargs) -> None:
        order.append("broadcast")
        broadcast(*args, **kwargs)

    def landed(seq: int) -> None:
        order.append(f"landed {seq}")
        raise RuntimeError("the socket's loop is gone")

    monkeypatch.setattr(publish, "broadcast", recorded)
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    answer = commands.game_command(user=user, game_id=table.gid, key="l1", view=False,
                                   body={"expected_seq": seq, **PLAY}, landed=landed)  # fmt: skip
    assert order == [f"landed {answer['seq']}", "broadcast"]


def test_a_refused_command_tells_landed_nothing(table):
    told: list[int] = []
    user = get_user_model().objects.get(username=table.seats[0].username)
    seq = table.seats[0].get(f"/api/games/{table.gid}/").json()["seq"]
    body = {"expected_seq": seq + 5, **PLAY}
    with pytest.raises(ApiError) as refused:
        commands.game_command(user=user, game_id=table.gid, key="l2", view=False, body=body,
                              landed=told.append)  # fmt: skip
    assert refused.value.code == "stale_seq"
    assert told == []
