"""Replays, export files and verification (issue 4), against the real services and PostgreSQL.

A finished game can be exported (manage.py export_game, GET /export/), imported into another
installation (manage.py import_game) and verified there (manage.py verify_game): the import is
the same game under a new id. A file changed in any way is refused by import_game and reported by
verify_game with the check that fails and the first bad seq. Replays at every seq equal the game
folded event by event; markers, transcripts and the list of finished games serve spectators.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.test import APIClient

from games.core import event_store
from games.core.codec import state_to_json
from games.core.models import GameEvent, GameProjection, GameSnapshot, HeadSignature
from games.engine import events as ev
from games.engine import evolve, view_for
from games.table import commands
from games.table.projections import SNAPSHOT_EVERY
from replays.selectors import state_at
from replays.verification import verify_game
from tests.support.api import card_ids
from tests.support.db_roles import as_owner
from tests.support.duel_table import ANNA_HAND, BOB_HAND, CARL_HAND, RIG, Table

_hosts = itertools.count()
TRIGGER = "games_event_append_only"
CARD = re.compile(r"\bC\d\d\b")


# Games


def bot_game(*, seats: int = 3, min_events: int = 0) -> int:
    """A game of built-in bots played to its end through games.table.commands (one commit per bot
    move, as the deadline runner makes them). The bots' game length varies with the secret
    seed: games are played until one has at least `min_events` events."""
    host = get_user_model().objects.create_user(f"host{next(_hosts)}")
    for _ in range(80):
        done = commands.game_create(user=host, seats=seats, options={"bots": list(range(seats))})
        while done.state.status != "ended":
            done = commands.game_bot_moves(game_id=done.game_id, expected_seq=done.seq)
        if done.seq >= min_events:
            return done.game_id
    raise AssertionError(f"no bot game reached {min_events} events")


def staff(client: APIClient) -> APIClient:
    get_user_model().objects.filter(username=client.username).update(is_staff=True)
    return client


def rows_of(gid: int) -> list[tuple]:
    return [(r.seq, r.type, r.v, r.data, r.at, r.prev_hash, r.hash) for r in event_store.load(gid)]


def projection_of(gid: int) -> dict:
    p = GameProjection.objects.get(game_id=gid)
    return {"seq": p.seq, "head_hash": p.head_hash, "status": p.status, "variant": p.variant,
            "seats": p.seats, "players": p.players, "winners": p.winners, "state": p.state,
            "deadline_at": p.deadline_at}  # fmt: skip


def snapshots_of(gid: int) -> list[tuple]:
    rows = GameSnapshot.objects.filter(game_id=gid).order_by("seq")
    return list(rows.values_list("seq", "state"))


# Files


def export_to(tmp_path: Path, gid: int, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    call_command("export_game", gid, output=str(path))
    return path


def import_from(path: Path) -> int:
    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)
    text = out.getvalue().strip()
    assert text.startswith("imported as game "), text
    return int(text.rsplit(" ", 1)[1])


def verify_cli(target: str | int) -> tuple[int, str]:
    """manage.py verify_game TARGET: (exit status, what it printed)."""
    out = io.StringIO()
    try:
        call_command("verify_game", str(target), stdout=out)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


def load_file(path: Path) -> tuple[dict, list[dict]]:
    header, *rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return header, rows


def save_file(path: Path, header: dict, rows: list[dict]) -> None:
    lines = [json.dumps(x, ensure_ascii=False) for x in (header, *rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def rechain(header: dict, rows: list[dict], *, header_too: bool = True) -> None:
    """What a forger with the file alone can do: recompute every hash (and the chain head
    sealed into game_ended) in file order, and, with `header_too`, the header's head_hash."""
    prev = event_store.GENESIS
    for row in rows:
        if row["type"] == ev.GAME_ENDED:
            row["data"]["chain_head"] = prev
        row["prev_hash"] = prev
        at = datetime.fromisoformat(row["at"])
        row["hash"] = prev = event_store.event_hash(prev, row["seq"], row["type"], row["v"],
                                                    row["data"], at)  # fmt: skip
    if header_too:
        header["head_hash"] = prev


def index_of(rows: list[dict], type_: str, **data) -> int:
    def fits(row: dict) -> bool:
        return row["type"] == type_ and all(row["data"].get(k) == v for k, v in data.items())

    return next(i for i, row in enumerate(rows) if fits(row))


# Export → import → verify


def assert_same_game(original: int, imported: int) -> None:
    assert imported != original
    assert rows_of(imported) == rows_of(original)  # identical events, times and hashes
    assert projection_of(imported) == projection_of(original)
    assert snapshots_of(imported) == snapshots_of(original)
    report = verify_game(imported)
    assert report.ok, report.summary()
    assert [c.name for c in report.checks] == ["chain", "signature", "seed", "rederive", "rules",
                                               "replay", "witness"]  # fmt: skip
    audit = APIClient().get(f"/api/games/{imported}/audit/").json()
    assert all(audit[k] for k in ("chain_ok", "seed_ok", "rederive_ok", "rules_ok", "replay_ok"))
    assert audit["head_hash"] == GameEvent.objects.filter(game_id=original).last().hash


@pytest.mark.django_db
def test_a_game_exported_by_the_command_imports_as_the_same_game_under_a_new_id(tmp_path):
    gid = bot_game(min_events=SNAPSHOT_EVERY + 1)
    path = export_to(tmp_path, gid)
    status, out = verify_cli(path)
    assert status == 0 and out.splitlines()[-1].startswith("verified in"), out
    checks = ["chain", "signature", "head", "length", "seed", "rederive", "rules", "header"]
    assert out.startswith("key ")  # the key it checked by, named first (issue 32)
    assert [line.split()[:2] for line in out.splitlines()[1:-1]] == [["ok", c] for c in checks]
    assert_same_game(gid, import_from(path))


@pytest.mark.django_db
def test_a_game_downloaded_from_the_export_endpoint_imports_as_the_same_game(tmp_path, player):
    gid = bot_game()
    answer = player.get(f"/api/games/{gid}/export/")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/x-ndjson"
    assert f'filename="sejmi-game-{gid}.jsonl"' in answer["Content-Disposition"]
    path = tmp_path / "downloaded.jsonl"
    path.write_bytes(answer.content)
    header, rows = load_file(path)
    assert header["format"] == "sejmi-game" and header["version"] == 1
    assert header["status"] == "ended" and header["events"] == len(rows)
    assert header["head_hash"] == rows[-1]["hash"]
    assert bytes.fromhex(header["seed"]).hex() == header["seed"]  # R22: revealed once ended
    assert header["seed"] == rows[-1]["data"]["seed"]
    assert_same_game(gid, import_from(path))


@pytest.mark.django_db
def test_the_command_and_the_endpoint_write_the_same_events(tmp_path, player):
    gid = bot_game()
    by_command = load_file(export_to(tmp_path, gid))
    by_http = tmp_path / "http.jsonl"
    by_http.write_bytes(player.get(f"/api/games/{gid}/export/").content)
    by_endpoint = load_file(by_http)
    assert by_command[1] == by_endpoint[1]
    strip = lambda header: {k: v for k, v in header.items() if k != "exported_at"}  # noqa: E731
    assert strip(by_command[0]) == strip(by_endpoint[0])


@pytest.mark.django_db
def test_an_imported_game_verifies_by_id_and_can_be_exported_again(tmp_path):
    gid = bot_game()
    imported = import_from(export_to(tmp_path, gid))
    status, out = verify_cli(imported)
    assert status == 0 and out.splitlines()[-1].startswith("verified in")
    assert [line.split()[:2] for line in out.splitlines()[1:-1]] == [
        ["ok", "chain"], ["ok", "signature"], ["ok", "seed"], ["ok", "rederive"], ["ok", "rules"],
        ["ok", "replay"], ["ok", "witness"],
    ]  # fmt: skip
    again = load_file(export_to(tmp_path, imported, "again.jsonl"))
    first = load_file(tmp_path / "game.jsonl")
    assert again[1] == first[1]
    assert again[0]["game"] == imported and first[0]["game"] == gid


# Tampering with a file: import refuses it, verify_game names the check and the seq


def edit_without_rehash(header: dict, rows: list[dict]) -> dict:
    i = index_of(rows, ev.CARD_PLAYED)
    rows[i]["data"]["target"] = (rows[i]["data"]["target"] or 0) + 1
    return {"chain": i + 1}


def forge_a_play(header: dict, rows: list[dict], *, header_too: bool = True) -> int:
    """A card_played changed to a card its player does not hold, every hash recomputed."""
    i = index_of(rows, ev.CARD_PLAYED)
    seat = rows[i]["data"]["seat"]
    started = rows[index_of(rows, ev.GAME_STARTED)]["data"]
    rows[i]["data"]["card"] = next(c for c in started["draw"] if c not in started["hands"][seat])
    rechain(header, rows, header_too=header_too)
    return i + 1


def edit_and_rehash_everything(header: dict, rows: list[dict]) -> dict:
    """The chain and the header agree with the forgery: re-execution finds it (R22)."""
    return {"rules": forge_a_play(header, rows)}


def edit_and_rehash_the_rows_only(header: dict, rows: list[dict]) -> dict:
    seq = forge_a_play(header, rows, header_too=False)
    return {"head": None, "rules": seq}


def delete_a_line(header: dict, rows: list[dict]) -> dict:
    i = index_of(rows, ev.CARD_PLAYED)
    del rows[i]
    return {"chain": i + 1, "length": len(rows) + 1}


def swap_two_lines(header: dict, rows: list[dict]) -> dict:
    i = index_of(rows, ev.CARD_PLAYED)
    rows[i], rows[i + 1] = rows[i + 1], rows[i]
    return {"chain": i + 1}


def cut_at_turn_3(rows: list[dict]) -> int:
    """Cut the log where turn 3's Kostič must play (where a running game's log can end)."""
    keep = index_of(rows, ev.TURN_STARTED, turn=3) + 1
    del rows[keep:]
    return keep


def truncate_the_tail(header: dict, rows: list[dict]) -> dict:
    """A cut log is a valid prefix (the rules pass); the header's count and head say more."""
    keep = cut_at_turn_3(rows)
    return {"length": keep + 1, "head": None}


def change_the_revealed_seed(header: dict, rows: list[dict]) -> dict:
    header["seed"] = "00" * 32
    return {"seed": 1, "rules": 1, "rederive": index_of(rows, ev.GAME_STARTED) + 1}


def change_a_die_roll_and_rehash(header: dict, rows: list[dict]) -> dict:
    i = index_of(rows, ev.DIE_ROLLED, purpose="first")
    rows[i]["data"]["value"] = rows[i]["data"]["value"] % 6 + 1
    rechain(header, rows)
    return {"rederive": i + 1, "rules": i + 1}


# What a forger keeps whole: the checks that still pass
STILL_OK = {
    "edit_and_rehash_everything": ["chain", "head", "length", "seed"],
    "edit_and_rehash_the_rows_only": ["chain", "length", "seed"],
    "truncate_the_tail": ["chain", "seed", "rederive", "rules"],
    "change_a_die_roll_and_rehash": ["chain", "head", "length", "seed"],
}
TAMPERINGS = [
    edit_without_rehash,
    edit_and_rehash_everything,
    edit_and_rehash_the_rows_only,
    delete_a_line,
    swap_two_lines,
    truncate_the_tail,
    change_the_revealed_seed,
    change_a_die_roll_and_rehash,
]


@pytest.fixture
def exported(tmp_path) -> Path:
    """The file of a finished bot game (unrigged: its rolls are the seed's)."""
    return export_to(tmp_path, bot_game())


@pytest.mark.django_db
@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_a_tampered_file_is_refused_and_reported_with_the_check_and_seq(exported, tamper):
    assert verify_cli(exported)[0] == 0
    header, rows = load_file(exported)
    expected = tamper(header, rows)
    save_file(exported, header, rows)

    status, out = verify_cli(exported)
    assert status == 1 and out.splitlines()[-1].startswith("FAILED")
    for name, seq in expected.items():
        where = f" at seq {seq}" if seq is not None else ""
        assert any(line.startswith(f"BAD {name}{where}:") for line in out.splitlines()), out
    for name in STILL_OK.get(tamper.__name__, []):
        assert any(line.startswith(f"ok  {name}") for line in out.splitlines()), out

    games_before = GameProjection.objects.count()
    with pytest.raises(CommandError, match="^refused: ") as refused:
        call_command("import_game", str(exported), stdout=io.StringIO())
    first_name, first_seq = next(iter(expected.items()))
    assert f"{first_name} fails" + (f" at seq {first_seq}" if first_seq else "") in str(
        refused.value
    )
    assert GameProjection.objects.count() == games_before  # nothing was loaded


@pytest.mark.django_db
def test_a_file_whose_header_lost_its_count_and_head_is_refused(exported):
    header, rows = load_file(exported)
    cut_at_turn_3(rows)
    del header["events"], header["head_hash"]  # so that the cut could not be seen
    save_file(exported, header, rows)
    status, out = verify_cli(exported)
    assert status == 1 and "BAD head" in out and "BAD length" in out
    with pytest.raises(CommandError, match="refused"):
        call_command("import_game", str(exported), stdout=io.StringIO())


@pytest.mark.django_db
def test_a_finished_file_cut_back_to_a_running_game_is_not_imported(exported):
    """Even with its header made to agree, a cut file is a game that has not ended: an
    import would be a running game whose seed is public (R22)."""
    header, rows = load_file(exported)
    cut_at_turn_3(rows)
    header.update(
        events=len(rows),
        head_hash=rows[-1]["hash"],
        status="active",
        winners=None,
        signatures=[s for s in header["signatures"] if s["seq"] <= len(rows)],
    )
    save_file(exported, header, rows)
    assert verify_cli(exported)[0] == 0  # a true record of the game's first turns
    with pytest.raises(CommandError, match="only finished games"):
        call_command("import_game", str(exported), stdout=io.StringIO())


@pytest.mark.django_db
def test_a_header_that_lies_about_the_players_is_reported(exported):
    header, rows = load_file(exported)
    header["players"] = ["mallory", *header["players"][1:]]
    save_file(exported, header, rows)
    status, out = verify_cli(exported)
    assert status == 1 and "BAD header" in out and "players" in out
    with pytest.raises(CommandError, match="refused"):
        call_command("import_game", str(exported), stdout=io.StringIO())


@pytest.mark.django_db
def test_something_that_is_not_a_game_file_is_an_error_not_a_crash(tmp_path):
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"format": "something-else"}\n')
    for command in ("import_game", "verify_game"):
        with pytest.raises(CommandError, match="not a sejmi-game file"):
            call_command(command, str(junk), stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("verify_game", str(tmp_path / "missing.jsonl"), stdout=io.StringIO())
    with pytest.raises(CommandError, match="no game"):
        call_command("export_game", 999_999, stdout=io.StringIO())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "spoil, why",
    [(lambda header, rows: header.update(seed="not hex"), "seed is not hex digits"),
     (lambda header, rows: rows[3].update(data=[1, 2]), "line 5 is not an event"),
     (lambda header, rows: rows[3].update(at="2026-01-01T00:00:00"), "at has no time zone"),
     (lambda header, rows: rows[3].pop("hash"), "line 5 is not an event")],
    ids=["seed", "data", "at", "hash"],
)  # fmt: skip
def test_a_malformed_file_is_an_error_naming_the_line_not_a_crash(exported, spoil, why):
    header, rows = load_file(exported)
    spoil(header, rows)
    save_file(exported, header, rows)
    for command in ("import_game", "verify_game"):
        with pytest.raises(CommandError, match=why):
            call_command(command, str(exported), stdout=io.StringIO())


# A running game


def running_game(alice: APIClient, bob: APIClient) -> int:
    gid = alice.post("/api/games/", {"seats": 2}, format="json").json()["id"]
    for client in (alice, bob):
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    return gid


@pytest.mark.django_db
def test_r22_a_running_game_is_exported_to_staff_only_without_its_seed(tmp_path, make_player):
    alice, bob, carol = make_player(), make_player(), make_player()
    gid = running_game(alice, bob)
    for client in (alice, bob, carol, APIClient()):
        answer = client.get(f"/api/games/{gid}/export/")
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    answer = staff(carol).get(f"/api/games/{gid}/export/")
    assert answer.status_code == 200
    path = tmp_path / "running.jsonl"
    path.write_bytes(answer.content)
    header, rows = load_file(path)
    assert header["status"] == "active" and header["seed"] is None
    assert header["events"] == len(rows) == GameEvent.objects.filter(game_id=gid).count()
    assert verify_cli(path)[0] == 0  # the chain and the header verify; the seed is still secret
    with pytest.raises(CommandError, match="only finished games"):
        call_command("import_game", str(path), stdout=io.StringIO())


@pytest.mark.django_db
def test_export_of_an_unknown_game_is_not_found(player):
    answer = player.get("/api/games/999999/export/")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


# Verifying a stored game


def tamper_stored(statement: str) -> None:
    """Edit the log the way only the tables' owner could: with the trigger off."""
    with as_owner(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE games_gameevent DISABLE TRIGGER {TRIGGER}")
        try:
            cursor.execute(statement)
        finally:
            cursor.execute(f"ALTER TABLE games_gameevent ENABLE TRIGGER {TRIGGER}")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.mark.django_db
def test_verify_game_exits_0_on_a_stored_game_and_1_naming_the_seq_once_edited():
    gid = bot_game()
    status, out = verify_cli(gid)
    assert status == 0 and "verified in" in out
    seq = GameEvent.objects.filter(game_id=gid, type=ev.CARD_PLAYED).first().seq
    tamper_stored(f"DELETE FROM games_gameevent WHERE game_id = {gid} AND seq = {seq}")
    status, out = verify_cli(gid)
    assert status == 1
    assert f"BAD chain at seq {seq}: an event is missing" in out
    assert f"BAD rules at seq {seq}:" in out
    assert "BAD replay" in out and out.splitlines()[-1].startswith("FAILED")


@pytest.mark.django_db
def test_verify_game_names_an_edited_roll_of_a_stored_game(tmp_path):
    gid = bot_game()
    roll = GameEvent.objects.filter(game_id=gid, type=ev.DIE_ROLLED).first()
    value = roll.data["value"] % 6 + 1
    tamper_stored(
        "UPDATE games_gameevent SET data = jsonb_set(data, '{value}', "
        f"'{value}') WHERE game_id = {gid} AND seq = {roll.seq}"
    )
    status, out = verify_cli(gid)
    assert status == 1
    for check in ("chain", "rederive", "rules"):
        assert f"BAD {check} at seq {roll.seq}:" in out, out


# Replays


@pytest.mark.django_db
def test_replay_at_every_seq_equals_the_game_folded_event_by_event(make_player):
    gid = bot_game(min_events=3 * SNAPSHOT_EVERY + 1)  # the nearest snapshot, then a fold
    rows = event_store.load(gid)
    assert [s for s, _ in snapshots_of(gid)] == list(
        range(SNAPSHOT_EVERY, len(rows) + 1, SNAPSHOT_EVERY)
    )
    spectator = make_player()
    heads = [{"seq": r.seq, "hash": r.hash, "key_id": r.head_signature.partition(":")[0],
              "signature": r.head_signature.partition(":")[2]}
             for r in rows if r.head_signature]  # fmt: skip
    heads += [{"seq": h.seq, "hash": h.head_hash, "key_id": h.key_id, "signature": h.signature}
              for h in HeadSignature.objects.filter(game_id=gid)]  # fmt: skip
    state = None
    for row in rows:
        state = evolve(state, event_store.to_event(row))
        replayed = state_at(gid, row.seq)
        assert replayed == state and state_to_json(replayed) == state_to_json(state), row.seq
        answer = spectator.get(f"/api/games/{gid}/replay/?at={row.seq}")
        assert answer.status_code == 200, answer.content
        # issue 32: the latest signed head at or before the seq (a batch's or a checkpoint's)
        head = max((h for h in heads if h["seq"] <= row.seq), key=lambda h: h["seq"],
                   default=None)  # fmt: skip
        expected = {"id": gid, "seq": row.seq, **view_for(state, None, reveal=True), "legal": [],
                    "deadline": None, "delayed": False, "tournament": None,
                    "signed_head": head}  # fmt: skip
        assert answer.json() == json.loads(json.dumps(expected)), row.seq
    assert state_to_json(state) == GameProjection.objects.get(game_id=gid).state


@pytest.mark.django_db
def test_replay_outside_the_log_is_invalid(player):
    gid = bot_game()
    last = GameProjection.objects.get(game_id=gid).seq
    for at in ("0", str(last + 1), "x", "-3"):
        answer = player.get(f"/api/games/{gid}/replay/?at={at}")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid", at
    assert player.get("/api/games/999999/replay/?at=1").status_code == 404


# A rigged game with a block, a duel, an elimination, the countdown and the end:
# tests/support/duel_table.py


@pytest.fixture
def table(make_player, settings) -> Table:
    settings.SEJMI_ALLOW_RIGGED = True
    return Table(make_player)


def seq_of(events: list[dict], type_: str) -> int:
    return next(e["seq"] for e in events if e["type"] == type_)


@pytest.mark.django_db
def test_markers_name_the_block_the_duel_the_elimination_the_countdown_and_the_end(table):
    table.to_the_elimination()
    events = table.events()
    running = APIClient().get(f"/api/games/{table.gid}/markers/").json()["markers"]
    assert running == [
        {"seq": seq_of(events, ev.PLAY_BLOCKED), "kind": "block", "turn": 1, "seats": [2]},
        {"seq": seq_of(events, ev.DUEL_STARTED), "kind": "duel", "turn": 2, "seats": [2, 1]},
        {"seq": seq_of(events, ev.PLAYER_ELIMINATED), "kind": "elimination", "turn": 2,
         "seats": [2, 1]},
        {"seq": seq_of(events, ev.COUNTDOWN_STARTED), "kind": "countdown", "turn": 2, "seats": []},
    ]  # fmt: skip
    assert running[0]["seq"] == seq_of(events, ev.CARD_PLAYED) + 1  # R18: the block answers it
    final = table.to_the_end()
    events = table.events()
    markers = APIClient().get(f"/api/games/{table.gid}/markers/").json()["markers"]
    assert markers[:4] == running
    assert markers[-1] == {"seq": events[-1]["seq"], "kind": "end",
                           "turn": final["turn"], "seats": final["winners"]}  # fmt: skip
    kinds = {ev.PLAY_BLOCKED: "block", ev.DUEL_STARTED: "duel", ev.PLAYER_ELIMINATED:
             "elimination", ev.COUNTDOWN_STARTED: "countdown", ev.GAME_ENDED: "end"}  # fmt: skip
    assert [(m["seq"], m["kind"]) for m in markers] == [
        (e["seq"], kinds[e["type"]]) for e in events if e["type"] in kinds
    ]
    assert APIClient().get("/api/games/999999/markers/").status_code == 404


@pytest.mark.django_db
def test_r23_a_replay_of_a_running_game_shows_the_caller_only_his_own_hand(table):
    table.to_the_elimination()
    at = seq_of(table.events(), ev.CARD_PLAYED)  # anna's duel card is on the table
    anna = table.seats[0].get(f"/api/games/{table.gid}/replay/?at={at}").json()
    assert anna["you"] == 0 and anna["hand"] == ["C29", "C30"] and anna["hands"] is None
    assert anna["legal"] == [] and anna["seq"] == at
    spectator = APIClient().get(f"/api/games/{table.gid}/replay/?at={at}").json()
    assert spectator["you"] is None and spectator["hand"] == [] and spectator["hands"] is None
    assert not card_ids(spectator) & set(BOB_HAND + CARL_HAND + ANNA_HAND[1:])
    table.to_the_end()
    after = APIClient().get(f"/api/games/{table.gid}/replay/?at={at}").json()
    assert after["hands"] == [["C29", "C30"], BOB_HAND, CARL_HAND]  # R23: public after the end


# Transcripts


def cards_named(lines: list[str]) -> set[str]:
    return {card for line in lines for card in CARD.findall(line)}


def transcript(client: APIClient, gid: int, lang: str | None = None):
    return client.get(f"/api/games/{gid}/transcript/" + (f"?lang={lang}" if lang else ""))


@pytest.mark.django_db
def test_the_transcript_tells_the_game_in_english_and_czech(table):
    table.to_the_elimination()
    names = [c.username for c in table.seats]
    en = transcript(APIClient(), table.gid).json()
    assert en["lang"] == "en"
    assert f"Turn 1 — Kostič: {names[0]}" in en["lines"]
    assert f"  {names[2]} blocks with C25; the effect is cancelled" in en["lines"]
    assert f"  Duel: {names[2]} against {names[1]}; {names[2]} bets first" in en["lines"]
    assert f"  {names[2]} is eliminated by {names[1]}" in en["lines"]
    assert "  Countdown starts at 6" in en["lines"]
    cs = transcript(APIClient(), table.gid, "cs").json()
    assert cs["lang"] == "cs" and len(cs["lines"]) == len(en["lines"])
    assert f"Tah 1 — Kostič: {names[0]}" in cs["lines"]
    assert f"  {names[2]} blokuje kartou C25; efekt se ruší" in cs["lines"]
    assert f"  {names[2]} vypadává ze hry, vyřadil ho {names[1]}" in cs["lines"]
    assert "  Začíná závěrečný odpočet: 6" in cs["lines"]
    table.to_the_end()
    for lang, word in (("en", "Final standings:"), ("cs", "Konečné pořadí:")):
        lines = transcript(APIClient(), table.gid, lang).json()["lines"]
        assert word in lines and any("★" in line for line in lines)


@pytest.mark.django_db
def test_an_unknown_transcript_language_is_invalid(table, player):
    answer = transcript(player, table.gid, "de")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
    assert transcript(player, 999_999).status_code == 404


@pytest.mark.django_db
def test_r23_a_spectators_transcript_never_names_a_card_in_a_hand(table, make_player):
    table.to_the_elimination()
    state = GameProjection.objects.get(game_id=table.gid).state
    in_hands = {card for hand in state["hands"] for card in hand}
    public = set(state["discard"])  # no reshuffle yet: every card named so far was shown
    for spectator in (APIClient(), make_player()):
        lines = transcript(spectator, table.gid).json()["lines"]
        named = cards_named(lines)
        assert named and named <= public and not named & in_hands
        assert not any(" holds " in line for line in lines)
    anna = transcript(table.seats[0], table.gid).json()["lines"]
    assert f"{table.seats[0].username} holds {' '.join(ANNA_HAND)}" in anna  # her own hand
    assert not cards_named(anna) & (set(state["hands"][1]) | set(state["hands"][2]))
    table.to_the_end()
    lines = transcript(APIClient(), table.gid).json()["lines"]  # R23: all is public now
    for seat, hand in enumerate(RIG["hands"]):
        assert f"{table.seats[seat].username} holds {' '.join(hand)}" in lines


# Finished games to watch


def quick_game(clients: list[APIClient], variant: str = "standard", end: bool = True) -> int:
    """A rigged game of one-life players that seat 0 ends at once with a red LOSE_1 on all
    (R17), unless `end` is False."""
    n = len(clients)
    others = [[f"C{7 + 3 * p + k:02d}" for k in range(3)] for p in range(n - 1)]
    hands = [["C06", "C02", "C03"], *others]
    rig = {"lives": [1] * n, "hands": hands, "first": 0}
    gid = clients[0].post("/api/games/", {"seats": n, "variant": variant, "rig": rig},
                          format="json").json()["id"]  # fmt: skip
    for client in clients:
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    if end:
        body = {"type": "play", "card": "C06", "effect": 1, "scope": "all", "target": None}
        for seat, client in enumerate(clients):
            view = client.get(f"/api/games/{gid}/").json()
            if view["legal"]:
                answer = client.post(f"/api/games/{gid}/commands/",
                                     {"expected_seq": view["seq"], **(body if seat == 0 else
                                                                      {"type": "pass"})},
                                     format="json")  # fmt: skip
                assert answer.status_code == 200, answer.content
        assert clients[0].get(f"/api/games/{gid}/").json()["status"] == "ended"
    return gid


@pytest.mark.django_db
def test_the_finished_games_list_filters_by_player_and_variant(make_player, settings):
    settings.SEJMI_ALLOW_RIGGED = True
    alice, bob, carol, dan, erin = (make_player() for _ in range(5))
    duel = quick_game([alice, bob])
    pairs = quick_game([carol, alice, dan, erin], "pairs")
    running = quick_game([bob, carol], end=False)
    bots = bot_game()

    def ids(query: str = "") -> list[int]:
        answer = APIClient().get(f"/api/replays/{query}")
        assert answer.status_code == 200, answer.content
        return [g["id"] for g in answer.json()]

    assert ids() == [bots, pairs, duel]  # newest first; never a running game
    assert running not in ids(f"?player={bob.username}")
    assert ids(f"?player={alice.username}") == [pairs, duel]
    assert ids(f"?player={bob.username}") == [duel]
    assert ids("?variant=pairs") == [pairs]
    assert ids("?variant=standard") == [bots, duel]
    assert ids(f"?player={alice.username}&variant=standard") == [duel]
    assert ids(f"?player={bob.username}&variant=pairs") == []
    assert ids("?player=nobody") == []
    listed = APIClient().get(f"/api/replays/?player={bob.username}").json()[0]
    assert listed["status"] == "ended" and listed["variant"] == "standard"
    assert listed["players"] == [alice.username, bob.username] and listed["winners"] is not None


@pytest.mark.django_db
def test_an_unknown_variant_in_the_finished_games_list_is_invalid(player):
    answer = APIClient().get("/api/replays/?variant=chess")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
