"""Racing and idempotency over real HTTP (issue 9): a uvicorn with two worker processes, so
racing requests meet only in PostgreSQL, as in production. tests/table/test_api_racing.py
and test_api_idempotency.py race inside one process; this adds different keys racing one
command, one key racing from two processes, a sweeper moving a bot in the middle of the race,
and a whole game played so, ending with a green audit."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import pytest
from django.db import connections

from games.clock import tasks
from games.core import event_store
from games.core.models import GameEvent, IdempotentAnswer, SealedPass
from tests.support.canary import token_of

THREADS = 8
LOSERS = {"stale_seq", "not_your_turn"}


@dataclass
class Seat:
    gid: int
    base: str
    token: str

    def url(self, tail: str = "") -> str:
        return f"{self.base}/api/games/{self.gid}/{tail}"

    def view(self) -> dict:
        return httpx.get(self.url(), headers=self.auth(), timeout=30).json()

    def send(self, body: dict, key: str | None = None) -> httpx.Response:
        headers = {**self.auth(), **({"Idempotency-Key": key} if key else {})}
        return httpx.post(self.url("commands/"), json=body, headers=headers, timeout=30)

    def auth(self) -> dict:
        return {"Authorization": f"Token {self.token}"}


def race(calls: list[Callable[[], object]]) -> list:
    """Run every call in its own thread, released at once; their results in order."""
    barrier, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = call()
        finally:
            connections.close_all()  # a call that used the ORM (the sweeper) lets go of it

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(r is not None for r in results), "a racer did not finish"
    return results


def outcome(answer: httpx.Response) -> str:
    assert answer.status_code < 500, answer.text
    return "landed" if answer.status_code == 200 else answer.json()["error"]["code"]


def log_is_whole(gid: int) -> None:
    seqs = list(GameEvent.objects.filter(game_id=gid).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
    assert event_store.verify_chain(event_store.load(gid)).ok


def seated(make_player, base: str, seats: int, **body) -> list[Seat]:
    """A game started over in-process REST (committed: the server sees it), one Seat per
    human (the bot seats, if any, last)."""
    clients = [make_player() for _ in range(seats - len(body.get("options", {}).get("bots", [])))]
    created = clients[0].post("/api/games/", {"seats": seats, **body}, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for client in clients:
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    return [Seat(gid, base, token_of(client)) for client in clients]


@pytest.mark.django_db(transaction=True)
def test_one_command_under_different_keys_lands_once_and_only_its_key_is_kept(
    uvicorn_server, make_player, no_celery
):
    seats = seated(make_player, uvicorn_server, 3)
    kostic = seats[seats[0].view()["kostic"]]
    view = kostic.view()
    body = {"expected_seq": view["seq"], **view["legal"][0]}
    answers = race([lambda i=i: kostic.send(body, key=f"key-{i}") for i in range(THREADS)])
    outcomes = [outcome(a) for a in answers]
    assert outcomes.count("landed") == 1 and set(outcomes) - {"landed"} <= LOSERS, outcomes
    winner = outcomes.index("landed")
    assert IdempotentAnswer.objects.filter(game_id=kostic.gid).count() == 1
    # A loser's key stored nothing: the same request under it is judged afresh (stale now),
    # never handed the winner's answer; the winner's key, raced again, only repeats its answer.
    for i in range(THREADS):
        again = kostic.send(body, key=f"key-{i}")
        if i == winner:
            assert again.json() == answers[winner].json()
        else:
            assert outcome(again) in LOSERS
    replays = race([lambda: kostic.send(body, key=f"key-{winner}")] * THREADS)
    assert all(r.json() == answers[winner].json() for r in replays)
    assert GameEvent.objects.filter(game_id=kostic.gid).count() == answers[winner].json()["seq"]
    log_is_whole(kostic.gid)


@pytest.mark.django_db(transaction=True)
def test_one_key_racing_from_both_server_processes_appends_once(
    uvicorn_server, make_player, no_celery
):
    seats = seated(make_player, uvicorn_server, 4)
    kostic = seats[seats[0].view()["kostic"]]
    view = kostic.view()
    assert kostic.send({"expected_seq": view["seq"], **view["legal"][0]}).status_code == 200
    asked = seats[(kostic.view()["kostic"] + 1) % 4]
    window = asked.view()
    assert window["phase"] == "block" and {"type": "pass"} in window["legal"]
    before = GameEvent.objects.filter(game_id=asked.gid).count()
    body = {"expected_seq": window["seq"], "type": "pass"}
    answers = race([lambda: asked.send(body, key="one-pass")] * THREADS)
    assert [a.status_code for a in answers] == [200] * THREADS, [a.text for a in answers]
    assert all(a.json() == answers[0].json() for a in answers)
    # The pass leaves the window open (three others asked): sealed, not appended (R19).
    assert GameEvent.objects.filter(game_id=asked.gid).count() == before
    assert SealedPass.objects.filter(game_id=asked.gid, window_seq=window["seq"]).count() == 1
    assert IdempotentAnswer.objects.filter(game_id=asked.gid, key="one-pass").count() == 1
    log_is_whole(asked.gid)


def burst(seats: list[Seat], views: list[dict], step: int, rnd: random.Random):
    """([call], [key]) for one step: the sweeper (the bot's moves), then for each human with
    something legal to do a random legal command twice under one key and once under none, and
    for each other human a pass (not his turn)."""
    calls, keys = [lambda: tasks.sweep() + 1], [None]  # +1: a result, even when nothing moved
    for seat, view in zip(seats, views, strict=True):
        if view["legal"]:
            body, key = {"expected_seq": view["seq"], **rnd.choice(view["legal"])}, f"s{step}"
            sends = [(body, key), (body, key), (body, None)]
        else:
            sends = [({"expected_seq": view["seq"], "type": "pass"}, None)]
        for body, key in sends:
            calls.append(lambda seat=seat, body=body, key=key: seat.send(body, key))
            keys.append(key and f"{key}-{seat.token}")
    return calls, keys


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_of_racing_commands_keeps_a_whole_log_and_a_green_audit(
    uvicorn_server, make_player, make_staff, rigged, no_celery
):
    options = {"bots": [2], "block_window_s": 3600, "turn_deadline_s": 86_400}
    # Few lives: the first elimination comes soon, and six turns later the game ends (R16).
    seats = seated(make_player, uvicorn_server, 3, options=options, rig={"lives": [1, 2, 2]})
    gid, rnd, landed_keys = seats[0].gid, random.Random(9), set()
    for step in range(500):
        views = [seat.view() for seat in seats]
        if views[0]["status"] == "ended":
            break
        calls, keys = burst(seats, views, step, rnd)
        moved, *answers = race(calls)
        assert all(outcome(a) in LOSERS | {"landed"} for a in answers), [a.text for a in answers]
        assert moved > 1 or any(a.status_code == 200 for a in answers)  # something landed
        same_key: dict[str, list] = {}
        for key, answer in zip(keys[1:], answers, strict=True):
            if key:
                same_key.setdefault(key, []).append((answer.status_code, answer.json()))
        for key, (first, second) in same_key.items():
            # One key, one landed answer (compared as JSON: jsonb hands a stored answer back
            # reordered). Refusals are not stored (docs/CHOICES.md), so two refusals of one key
            # may name
            # different losing races: a pass sealed meanwhile (R26) or a seq moved on.
            if 200 in (first[0], second[0]):
                assert first == second, (first, second)
                landed_keys.add(key)
        if step == 3:  # the staff's audit of a running game is green too
            audit = make_staff().get(f"/api/games/{gid}/audit/").json()
            assert audit["chain_ok"] and audit["replay_ok"] and audit["rules_ok"], audit
    else:
        raise AssertionError("the game did not end")
    log_is_whole(gid)
    stored = IdempotentAnswer.objects.filter(game_id=gid).values_list("key", "user__auth_token")
    assert {f"{key}-{token}" for key, token in stored} == landed_keys  # no refusal was kept
    audit = httpx.get(f"{uvicorn_server}/api/games/{gid}/audit/", timeout=60).json()
    for check in ("chain_ok", "seed_ok", "rederive_ok", "replay_ok", "rules_ok"):
        assert audit[check] is True, audit
