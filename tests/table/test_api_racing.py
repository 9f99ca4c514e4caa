"""Optimistic concurrency: commands racing on one `expected_seq` land exactly once, and the
event log stays 1, 2, 3 … without a gap or a duplicate (issue 3, event store)."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.core import event_store
from games.core.models import GameEvent, IdempotentAnswer
from tests.support.api import (
    Table,
    open_table,
    send,
    step,
)

THREADS = 8


def race(requests: list[tuple[APIClient, str, dict, str | None]]) -> list:
    """Each (client, url, body, key) is posted from its own thread and client, all at once."""
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def run(i: int, owner: APIClient, url: str, body: dict, key: str | None) -> None:
        client = APIClient()
        client.credentials(**owner._credentials)
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
        try:
            barrier.wait(timeout=10)
            answers[i] = client.post(url, body, format="json", **headers)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, *r)) for i, r in enumerate(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(a is not None for a in answers), "a sender did not finish"
    return answers


def commands(table: Table, senders: list[tuple[int, dict, str | None]]) -> list:
    """Race (seat, body, key) commands on one game."""
    return race([(table.seats[seat], table.url("commands/"), body, key)
                 for seat, body, key in senders])  # fmt: skip


def log_is_whole(gid: int) -> None:
    seqs = list(GameEvent.objects.filter(game_id=gid).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
    assert event_store.verify_chain(event_store.load(gid)).ok


def outcomes(answers: list) -> list[str]:
    """ "landed" for a 200, else the error code; sorted so the winner comes first."""
    return sorted("landed" if a.status_code == 200 else a.json()["error"]["code"] for a in answers)


@pytest.mark.django_db(transaction=True)
def test_racing_plays_on_the_same_seq_land_exactly_once(make_player):
    table, rnd = open_table(make_player, 2), random.Random(3)
    for _ in range(3):  # a few rounds, each a fresh race on the new head
        view = table.seats[0].get(table.url()).json()
        kostic = view["kostic"]
        mine = table.seats[kostic].get(table.url()).json()
        plays = mine["legal"]
        bodies = [{"expected_seq": mine["seq"], **plays[i % len(plays)]} for i in range(THREADS)]
        answers = commands(table, [(kostic, body, None) for body in bodies])
        assert outcomes(answers) == ["landed"] + ["stale_seq"] * (THREADS - 1)
        assert all(a.status_code in (200, 409) for a in answers)
        winner = next(a for a in answers if a.status_code == 200).json()
        assert winner["seq"] == GameEvent.objects.filter(game_id=table.gid).count()
        log_is_whole(table.gid)
        view = winner["view"]
        while view is not None and view["phase"] != "play":  # on to the next Kostič's play
            view = step(table, rnd, view)
        if view is None:
            break


@pytest.mark.django_db(transaction=True)
def test_r19_racing_passes_of_different_seats_in_one_block_window_all_land_once(make_player):
    table = open_table(make_player, 6)
    view = table.seats[0].get(table.url()).json()
    kostic = view["kostic"]
    mine = table.seats[kostic].get(table.url()).json()
    assert send(table.seats[kostic], table.gid, {"expected_seq": mine["seq"], **mine["legal"][0]}
                ).status_code == 200  # fmt: skip
    view = table.seats[0].get(table.url()).json()
    assert view["phase"] == "block"
    asked = view["awaiting"]
    body = {"expected_seq": view["seq"], "type": "pass"}
    answers = commands(table, [(seat, body, None) for seat in asked])
    # R19: each pass is sealed until the last one closes the window, so none is refused for
    # a pass it could not see; each lands exactly once, and the window closes once.
    assert outcomes(answers) == ["landed"] * len(asked)
    passes = GameEvent.objects.filter(game_id=table.gid, type="block_passed")
    assert sorted(passes.values_list("data__seat", flat=True)) == sorted(asked)
    assert GameEvent.objects.filter(game_id=table.gid, type="block_window_closed").count() == 1
    log_is_whole(table.gid)


@pytest.mark.django_db(transaction=True)
def test_racing_retries_with_one_idempotency_key_all_get_the_first_answer(make_player):
    table = open_table(make_player, 2)
    view = table.seats[0].get(table.url()).json()
    kostic = view["kostic"]
    mine = table.seats[kostic].get(table.url()).json()
    body = {"expected_seq": mine["seq"], **mine["legal"][0]}
    before = GameEvent.objects.filter(game_id=table.gid).count()
    answers = commands(table, [(kostic, body, "retry-me")] * THREADS)
    assert [a.status_code for a in answers] == [200] * THREADS
    first = answers[0].json()
    assert all(a.json() == first for a in answers)
    assert GameEvent.objects.filter(game_id=table.gid).count() == first["seq"] > before
    assert IdempotentAnswer.objects.filter(game_id=table.gid).count() == 1
    log_is_whole(table.gid)


@pytest.mark.django_db(transaction=True)
def test_racing_joins_fill_every_seat_once_and_refuse_the_rest(make_player):
    host = make_player()
    gid = host.post("/api/games/", {"seats": 3}, format="json").json()["id"]
    players = [make_player() for _ in range(THREADS)]
    answers = race([(p, f"/api/games/{gid}/join/", {}, None) for p in players])
    assert outcomes(answers) == ["game_full"] * (THREADS - 3) + ["landed"] * 3
    seated = sorted(a.json()["you"] for a in answers if a.status_code == 200)
    assert seated == [0, 1, 2]
    assert host.get(f"/api/games/{gid}/").json()["status"] == "active"
    log_is_whole(gid)
