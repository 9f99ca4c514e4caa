"""Read replicas (issue 20; games.core.replicas, docs/PRODUCTION.md "Read replicas"), against a
REAL streaming standby of the test's own PostgreSQL on 127.0.0.1:55433 (tests.support.standby):
started here when none answers there (and stopped after), skipped with the reason when none can
start — except under CI, where a missing standby fails.

Which query goes where is read from each connection's own query log (CaptureQueriesContext):
the lists, a spectator's reads and the replays of an ended game on the replica; a player's own
reads of his game in play and a command's whole path on the primary. Then read-your-writes with
the replica's replay paused (its reads provably old), and the fallbacks: a replica lagging past
the bound, and one stopped under a read, are skipped without an error."""

from __future__ import annotations

import copy
import os
import time

import pytest
from django.db import connections
from django.test.utils import CaptureQueriesContext

from games.core.models import GameProjection
from games.core.replicas import health
from games.table import commands
from tests.support.api import open_table, send
from tests.support.standby import Standby, StandbyUnavailable

PORT = 55433  # this test's standby (other tests and benches use other ports)
ALIAS = "replica1"
pytestmark = pytest.mark.django_db(transaction=True, databases=["default", ALIAS])


@pytest.fixture(scope="session")
def standby(django_db_setup, django_db_blocker):
    """A standby of the whole cluster streaming from the test's primary, the test database
    on it too: the one already answering on PORT, or one started here. It is the database
    `replica1` for the session, as settings make one from DATABASE_REPLICA_URLS: the primary's
    settings (its pool, the service's role) on the standby's port, a test mirror of the
    primary (so no test flushes it). Registered after the test databases were set up, so
    none is created for it."""
    node = Standby(PORT)
    started = False
    try:
        if not node.answers():
            node.create()
            node.start()
            started = True
        if not node.follows_primary():
            raise StandbyUnavailable(f"what answers on {PORT} is no standby of this primary")
        node.caught_up()
    except (StandbyUnavailable, OSError) as why:
        if started:
            node.stop("immediate")
        message = f"no streaming replica on 127.0.0.1:{PORT}: {why}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    primary = connections["default"].settings_dict
    connections.settings[ALIAS] = {**copy.deepcopy(primary), "HOST": "127.0.0.1",
                                   "PORT": str(PORT), "TEST": {**primary["TEST"],
                                                              "MIRROR": "default"}}  # fmt: skip
    yield node
    connections[ALIAS].close()
    connections[ALIAS].close_pool()
    del connections[ALIAS]
    del connections.settings[ALIAS]
    if started:
        node.stop("immediate")  # thrown away next
        node.remove()


@pytest.fixture
def replica(standby, settings):
    """The standby as the service's one replica; looks only when a test says
    (`health.look_now`)."""
    settings.DATABASE_REPLICAS = [ALIAS]
    settings.SEJMI_REPLICA_CHECK_S = 3600  # no look of its own in a test: look_now decides
    health.forget()
    yield standby
    standby.resume_replay()
    health.forget()
    connections[ALIAS].close()


def fresh(standby: Standby) -> None:
    """The standby has replayed everything so far, and a look has judged it fresh (the
    cluster is shared: a look or two until the replica is past the bar of the first)."""
    standby.caught_up()
    give_up = time.monotonic() + 10
    while health.look_now() != {ALIAS: True}:
        assert time.monotonic() < give_up, "the caught-up standby is never judged fresh"
        time.sleep(0.05)


class Where:
    """The queries each database ran inside the block."""

    def __enter__(self) -> Where:
        self._on = {alias: CaptureQueriesContext(connections[alias])
                    for alias in ("default", ALIAS)}  # fmt: skip
        for capture in self._on.values():
            capture.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        for capture in self._on.values():
            capture.__exit__(*exc)

    @property
    def replica(self) -> list[str]:
        return [q["sql"] for q in self._on[ALIAS].captured_queries]

    @property
    def primary(self) -> list[str]:
        return [q["sql"] for q in self._on["default"].captured_queries]


def ended_game(make_player) -> tuple:
    """A two-player game whose players both left, played to its end by the bot."""
    table = open_table(make_player, 2)
    for client in table.seats:
        assert client.post(table.url("leave/"), {}, format="json").status_code == 200
    for _ in range(2000):
        proj = GameProjection.objects.get(game_id=table.gid)
        if proj.status == "ended":
            return table, proj.seq
        commands.game_bot_moves(game_id=table.gid, expected_seq=proj.seq)
    raise AssertionError("the bots did not end the game")


def view_as(client, table) -> dict:
    answer = client.get(table.url())
    assert answer.status_code == 200, answer.content
    return answer.json()


def play_one(table) -> int:
    """The awaited seat plays its first legal command; the seq it made."""
    view = view_as(table.seats[0], table)
    seat = view["awaiting"][0]
    mine = view_as(table.seats[seat], table)
    answer = send(table.seats[seat], table.gid, {"expected_seq": mine["seq"], **mine["legal"][0]})
    assert answer.status_code == 200, answer.content
    return answer.json()["seq"]


def test_the_lists_and_an_ended_games_replays_are_read_on_the_replica(replica, make_player,
                                                                      client):  # fmt: skip
    table, last = ended_game(make_player)
    fresh(replica)
    with Where() as lists:
        ended = client.get("/api/games/?status=ended")
        finished = client.get("/api/replays/")
        board = client.get("/api/leaderboard/")
        page = client.get("/")
    assert [r.status_code for r in (ended, finished, board, page)] == [200] * 4
    assert table.gid in [g["id"] for g in ended.json()]
    assert table.gid in [g["id"] for g in finished.json()]
    assert any("games_gameprojection" in q for q in lists.replica)
    assert not any("games_gameprojection" in q for q in lists.primary)
    # A seated player's replay, transcript, markers and export of his ended game: the replica's.
    player = table.seats[0]
    with Where() as replays:
        shown = player.get(table.url(f"replay/?at={last}"))
        told = player.get(table.url("transcript/"))
        marked = player.get(table.url("markers/"))
        exported = player.get(table.url("export/"))
    assert [r.status_code for r in (shown, told, marked, exported)] == [200] * 4
    assert shown.json()["seq"] == last and shown.json()["status"] == "ended"
    assert any("games_gameevent" in q for q in replays.replica)
    assert not any("games_gameevent" in q for q in replays.primary)


def test_a_players_own_reads_and_a_commands_path_stay_on_the_primary(replica, make_player,
                                                                     client):  # fmt: skip
    table = open_table(make_player, 2)
    fresh(replica)
    with Where() as own:
        view_as(table.seats[0], table)
        table.seats[0].get(table.url("events/"))
        table.seats[0].get(f"/api/games/?player={table.seats[0].username}")
        table.seats[0].get(f"/api/players/{table.seats[0].username}/")
        play_one(table)
    assert own.replica == []
    assert any("games_gameevent" in q for q in own.primary)
    with Where() as spectator:
        assert client.get(table.url()).status_code == 200
        assert make_player().get(table.url("events/")).status_code == 200
    assert any("games_gameprojection" in q for q in spectator.replica)


def test_a_player_reads_his_own_write_while_the_replica_lags(replica, make_player, client):
    table = open_table(make_player, 2, options={"spectator_delay": 0})
    fresh(replica)
    before = view_as(client, table)["seq"]
    replica.pause_replay()  # the replica keeps the past; the look still trusts it
    seq = play_one(table)
    with Where() as where:
        mine = view_as(table.seats[0], table)
        events = table.seats[1].get(table.url(f"events/?after={before}")).json()["events"]
        watched = view_as(client, table)
    assert mine["seq"] == seq > before  # the player: his command's state, the primary's
    assert [e["seq"] for e in events][-1] == seq
    assert watched["seq"] == before  # a spectator: the replica's past (delayed anyway)
    assert any("games_gameprojection" in q for q in where.replica)


def test_a_replica_lagging_past_the_bound_is_skipped(replica, make_player, client, settings):
    settings.SEJMI_REPLICA_MAX_LAG_S = 1.0
    table = open_table(make_player, 2, options={"spectator_delay": 0})
    fresh(replica)
    replica.pause_replay()
    seq = play_one(table)  # the primary moves on, the replica stays behind
    time.sleep(1.2)
    assert health.look_now() == {ALIAS: False}
    with Where() as where:
        watched = view_as(client, table)
    assert watched["seq"] == seq  # the present, from the primary, without an error
    assert where.replica == []
    replica.resume_replay()
    fresh(replica)  # caught up: used again
    with Where() as where:
        assert view_as(client, table)["seq"] == seq
    assert any("games_gameprojection" in q for q in where.replica)


def test_a_replica_stopped_under_a_read_falls_back_to_the_primary(replica, make_player, client):
    table = open_table(make_player, 2)
    fresh(replica)
    assert client.get("/api/games/?status=active").status_code == 200  # a pooled connection
    replica.stop("immediate")  # as a crash: no goodbye to its clients
    try:
        listed = client.get("/api/games/?status=active")  # the look still says fresh
        watched = client.get(table.url())
        assert listed.status_code == 200 and watched.status_code == 200
        assert table.gid in [g["id"] for g in listed.json()]
        assert watched.json()["id"] == table.gid
        assert health.pick() is None  # the failed read marked it down, before any look
        assert health.look_now() == {ALIAS: False}  # and the next look skips it
    finally:
        replica.start()
        replica.caught_up()
    fresh(replica)
