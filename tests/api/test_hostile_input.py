"""Hostile input gets its documented refusal, never a 500 or a dead socket (API.md,
Errors: never a 500 for bad input; docs/LIVE_STREAM.md).

REST bodies: a NUL anywhere (PostgreSQL stores no NUL in text) and bad game options are 400
invalid. Websockets: a frame nested 30,000 deep, a huge one, a non-JSON or binary one each get
`{"type": "error", "error": {"code": "invalid", ...}}` and the socket stays usable; an unknown
game or websocket path is accepted and closed with 4404 — checked through the real server
(uvicorn), where a refusal before the handshake would be an HTTP 403 or 500 instead."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import pytest_asyncio
import websockets
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connections

from games.core.errors import ApiError
from games.engine.errors import Code, IllegalCommand
from games.engine.setup import creation_events
from replays.disputes.models import Dispute
from replays.disputes.services import dispute_open
from sejmi.asgi import application
from tests.support.hostile import live_server, register, started_game, token_of

TIMEOUT = 5
DEEP_FRAME = "[" * 30_000 + "]" * 30_000  # 60 KB: far over any parser's stack
NUL = "\x00"


# REST: NUL in a body


@pytest.mark.django_db
def test_a_nul_in_a_dispute_reason_is_invalid_and_opens_nothing():
    gid, players = started_game()
    answer = players[0].post(f"/api/games/{gid}/disputes/", {"reason": f"he{NUL}cheated"},
                             format="json")  # fmt: skip
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "invalid")
    assert not Dispute.objects.exists()
    fine = players[0].post(f"/api/games/{gid}/disputes/", {"reason": "he cheated"}, format="json")
    assert fine.status_code == 201, fine.content


@pytest.mark.django_db
def test_the_dispute_service_refuses_a_nul_whoever_calls_it():
    gid, players = started_game()
    user = get_user_model().objects.get(username=players[0].username)
    with pytest.raises(ApiError) as refused:
        dispute_open(user=user, game_id=gid, reason=f"he{NUL}cheated")
    assert refused.value.code == Code.INVALID and not Dispute.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"reason": NUL},
        {"reason": "fine", "seq": None, NUL: 1},
        {"reason": ["a", {"b": [f"x{NUL}"]}]},
        {f"re{NUL}ason": "fine"},
    ],
    ids=["value", "key", "nested", "key_of_a_known_field"],
)
def test_a_nul_anywhere_in_a_body_is_refused_by_the_parser(body):
    gid, players = started_game()
    answer = players[0].post(f"/api/games/{gid}/disputes/", body, format="json")
    error = answer.json()["error"]
    assert (answer.status_code, error["code"]) == (400, "invalid")
    assert "NUL" in error["message"]  # the parser refused it, before any route looked at it


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/auth/register/", {"username": f"a{NUL}b", "password": "s3cret-pass-1"}),
        ("/api/auth/token/", {"username": f"a{NUL}b", "password": "x"}),
        ("/api/games/", {"seats": 2, "variant": f"standard{NUL}"}),
        ("/api/games/{gid}/join/", {"seat": None, "note": NUL}),
        ("/api/games/{gid}/commands/", {"expected_seq": 0, "type": "pass", "x": NUL}),
    ],
    ids=["register", "token", "create", "join", "command"],
)
def test_a_nul_in_the_body_of_any_route_is_invalid(path, body):
    gid, players = started_game()
    answer = players[0].post(path.format(gid=gid), body, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "invalid")


# REST and engine: game options


BAD_OPTIONS = {
    "a list": [],
    "an empty string": "",
    "zero": 0,
    "false": False,
    "a number list": [1],
    "duel_coin as a number": {"duel_coin": 1},
    "duel_coin as text": {"duel_coin": "true"},
    "duel_coin null": {"duel_coin": None},
    "a negative window": {"block_window_s": -5},
    "a huge window": {"block_window_s": 10**12},
    "a float window": {"block_window_s": 1.5},
    "a window as text": {"block_window_s": "60"},
    "a window true": {"block_window_s": True},
    "a zero turn deadline": {"turn_deadline_s": 0},
    "a float turn deadline": {"turn_deadline_s": 60.0},
    "bots not a list": {"bots": 1},
    "bots as text": {"bots": "01"},
    "a bot seat as float": {"bots": [0.0]},
    "a bot seat true": {"bots": [True]},
    "a negative bot seat": {"bots": [-1]},
    "an unknown option": {"speed": 2},
    "rig as an option": {"rig": {}},
}


@pytest.mark.parametrize("case", list(BAD_OPTIONS))
def test_the_engine_refuses_bad_options_as_invalid(case):
    with pytest.raises(IllegalCommand) as refused:
        creation_events(seats=4, seed=bytes(32), variant="standard",
                        options=BAD_OPTIONS[case], deck=None, rig=None)  # fmt: skip
    assert refused.value.code is Code.INVALID


def test_options_left_out_or_null_are_the_defaults():
    for options in (None, {}):
        [created] = creation_events(seats=2, seed=bytes(32), variant="standard",
                                    options=options, deck=None, rig=None)  # fmt: skip
        assert created.data["options"]["block_window_s"] == 60


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["a list", "zero", "false", "a float window", "bots not a list"])
def test_creating_a_game_with_bad_options_is_invalid(case):
    answer = register().post("/api/games/", {"seats": 4, "options": BAD_OPTIONS[case]},
                             format="json")  # fmt: skip
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "invalid")


# Websocket frames (the whole ASGI stack in-process, channels_redis on Redis)


@pytest_asyncio.fixture
async def spectator_socket():
    """A spectator's socket on a started game, its first view read; closed at the end."""
    gid, _ = await sync_to_async(started_game)()
    sock = WebsocketCommunicator(application, f"/ws/games/{gid}/")
    assert (await sock.connect(timeout=TIMEOUT))[0]
    first = await sock.receive_json_from(timeout=TIMEOUT)
    yield sock, first["view"]
    await sock.disconnect()
    await sync_to_async(connections.close_all)()


FRAMES = {
    "nested 30,000 deep": {"text_data": DEEP_FRAME},
    "a resync nested deep": {"text_data": '{"type": "resync", "after": ' + DEEP_FRAME + "}"},
    "a megabyte": {"text_data": json.dumps({"type": "resync", "after": 0, "pad": "x" * 2**20})},
    "not json": {"text_data": "resync please"},
    "binary": {"bytes_data": b'{"type": "resync", "after": 0}'},
    "an unknown type": {"text_data": '{"type": "command"}'},
}


@pytest.mark.parametrize("frame", list(FRAMES))
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_hostile_frame_gets_an_invalid_error_and_the_socket_stays_usable(
    spectator_socket, frame
):
    sock, view = spectator_socket
    await sock.send_to(**FRAMES[frame])
    answer = await sock.receive_json_from(timeout=TIMEOUT)
    assert answer["type"] == "error" and answer["error"]["code"] == "invalid", answer
    await sock.send_json_to({"type": "resync", "after": view["seq"]})
    assert await sock.receive_json_from(timeout=TIMEOUT) == {"type": "view", "view": view}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_unknown_game_is_accepted_then_closed_with_4404():
    sock = WebsocketCommunicator(application, "/ws/games/987654321/")
    assert await sock.connect(timeout=TIMEOUT) == (True, None)  # accepted: no HTTP 403
    assert await sock.receive_output(timeout=TIMEOUT) == {"type": "websocket.close",
                                                           "code": 4404}  # fmt: skip
    await sync_to_async(connections.close_all)()


# Through the real server: what a browser or script sees of the handshake


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory) -> str:
    """The real server on the test database (set up first, so its name is the test one)."""
    log = Path(tmp_path_factory.mktemp("uvicorn")) / "server.log"
    with live_server(log) as base:
        yield base


async def close_code(url: str) -> int | None:
    """The close code a client gets at `url` (None if the socket stayed open); an HTTP
    refusal of the handshake raises websockets.InvalidStatus."""
    async with websockets.connect(url, open_timeout=TIMEOUT) as ws:
        try:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
            await asyncio.wait_for(ws.recv(), 0.5)  # the view, then nothing: still open
        except TimeoutError:
            return None
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
    return None


@pytest.mark.parametrize(
    "path", ["/ws/games/987654321/", "/ws/games/abc/", "/ws/nothing/", "/ws/games/1/extra/", "/"]
)
@pytest.mark.django_db(transaction=True)
def test_a_socket_to_nothing_is_closed_with_4404_not_refused_over_http(server, path):
    assert asyncio.run(close_code(server + path)) == 4404


@pytest.mark.django_db(transaction=True)
def test_a_deep_frame_over_a_real_socket_gets_an_error_and_the_socket_lives_on(server):
    gid, players = started_game()
    url = f"{server}/ws/games/{gid}/?token={token_of(players[0])}"

    async def talk() -> tuple[dict, dict, dict]:
        async with websockets.connect(url, open_timeout=TIMEOUT, max_size=None) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            await ws.send(DEEP_FRAME)
            error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            await ws.send(json.dumps({"type": "resync", "after": first["view"]["seq"]}))
            return first, error, json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))

    first, error, again = asyncio.run(talk())
    assert error["type"] == "error" and error["error"]["code"] == "invalid"
    assert again == first and first["view"]["you"] == 0
