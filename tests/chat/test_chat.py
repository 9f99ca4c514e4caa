"""The chat (API.md, Correspondence: Chat; games/chat/) end to end: REST on PostgreSQL and the
websocket through the whole ASGI stack on channels_redis. Each channel per role (a seat, his
partner, the other pair, a spectator, staff, anonymous); partner chat never reaches the other
pair nor spectators over either path; the spectators' chat stays closed to players until the
end; limits on length, characters and rate; staff hiding, recorded and shown in the case file."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.utils import DatabaseError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.chat.models import ChatHiding, ChatMessage
from tests.support.api import assert_error
from tests.support.db_roles import as_owner
from tests.support.players import register
from tests.support.sockets import QUIET, TIMEOUT, communicator

OPTIONS = {"block_window_s": 3600, "turn_deadline_s": 86_400}  # no deadline fires mid-test
# Two seats; seat 0's red LOSE_1 on everyone ends the game once seat 1 (one life) passes (R17).
END_RIG = {"lives": [6, 1], "first": 0, "hands": [["C33", "C27", "C03"], ["C25", "C26", "C29"]]}
END_PLAY = {"type": "play", "card": "C33", "effect": 1, "scope": "all", "target": None}


@dataclass
class Game:
    gid: int
    seats: list[APIClient]
    spectator: APIClient
    staff: APIClient
    anonymous: APIClient

    def url(self, query: str = "") -> str:
        return f"/api/games/{self.gid}/chat/" + (f"?{query}" if query else "")

    def post(self, client: APIClient, channel: str, text: object):
        return client.post(self.url(), {"channel": channel, "text": text}, format="json")

    def read(self, client: APIClient, channel: str, after: int | None = None):
        query = f"channel={channel}" + (f"&after={after}" if after is not None else "")
        return client.get(self.url(query))

    def texts(self, client: APIClient, channel: str) -> list[str]:
        answer = self.read(client, channel)
        assert answer.status_code == 200, answer.content
        return [m["text"] for m in answer.json()["messages"]]


def token(client: APIClient) -> str:
    return Token.objects.get(user__username=client.username).key


def start(seats: int, variant: str = "standard", rig: dict | None = None) -> Game:
    clients = [register() for _ in range(seats)]
    body = {"seats": seats, "variant": variant, "options": OPTIONS}
    if rig:
        body["rig"] = rig
    created = clients[0].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, client in enumerate(clients):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    staff = register()
    get_user_model().objects.filter(username=staff.username).update(is_staff=True)
    return Game(gid, clients, register(), staff, APIClient())


def end(game: Game) -> None:
    for seat, body in [(0, END_PLAY), (1, {"type": "pass"})]:
        client = game.seats[seat]
        seq = client.get(f"/api/games/{game.gid}/").json()["seq"]
        done = client.post(f"/api/games/{game.gid}/commands/", {"expected_seq": seq, **body},
                           format="json")  # fmt: skip
        assert done.status_code == 200, done.content
    assert game.seats[0].get(f"/api/games/{game.gid}/").json()["status"] == "ended"


@pytest.fixture
def duel(db, settings) -> Game:
    """A running two-seat game that END_PLAY + a pass would end."""
    settings.SEJMI_ALLOW_RIGGED = True
    return start(2, rig=END_RIG)


@pytest.fixture
def pairs(db) -> Game:
    """A running Pairs game: partners sit opposite, seats 0+2 and 1+3 (section 6)."""
    return start(4, "pairs")


# The table


@pytest.mark.django_db
def test_players_write_the_table_and_everyone_reads_it(duel):
    answer = duel.post(duel.seats[0], "table", "  Good luck!  ")
    assert answer.status_code == 201, answer.content
    message = answer.json()
    assert set(message) == {"id", "channel", "author", "text", "at", "hidden"}
    assert message["channel"] == "table" and message["text"] == "Good luck!"  # trimmed
    assert message["author"] == duel.seats[0].username and message["hidden"] is False
    assert duel.post(duel.seats[1], "table", "you too").status_code == 201
    for reader in [*duel.seats, duel.spectator, duel.staff, duel.anonymous]:
        assert duel.texts(reader, "table") == ["Good luck!", "you too"]


@pytest.mark.django_db
def test_after_pages_by_the_channels_own_number_not_the_rows_id(duel, settings):
    """Issue 32, item 10. Mutant killed: `chat_read` paging with `id__gt=after` (the rows'
    global id) instead of `number__gt=after`; before, only the database's sequence being past
    the numbers (test order) caught it. Here the other channels write first, so the table's
    rows' ids are past its numbers whatever ran before."""
    settings.CHAT_RATE = (100, 10)
    for n in range(3):
        assert duel.post(duel.spectator, "spectators", f"watching {n}").status_code == 201
    ids = [duel.post(duel.seats[0], "table", f"m{i}").json()["id"] for i in range(3)]
    assert ids == [1, 2, 3]
    later = duel.read(duel.seats[1], "table", after=1).json()
    assert [m["text"] for m in later["messages"]] == ["m1", "m2"] and later["more"] is False
    assert duel.read(duel.seats[1], "table", after=3).json()["messages"] == []


@pytest.mark.django_db
def test_spectators_and_staff_not_seated_may_not_write_the_table(duel):
    assert_error(duel.post(duel.spectator, "table", "psst"), 403, "forbidden")
    assert_error(duel.post(duel.staff, "table", "psst"), 403, "forbidden")
    assert_error(duel.post(duel.anonymous, "table", "psst"), 401, "not_authenticated")
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_the_table_chat_defaults_and_pages_by_id(duel):
    ids = [duel.post(duel.seats[0], "table", f"m{i}").json()["id"] for i in range(3)]
    assert [m["id"] for m in duel.seats[1].get(duel.url()).json()["messages"]] == ids
    after = duel.read(duel.seats[1], "table", after=ids[0]).json()
    assert [m["text"] for m in after["messages"]] == ["m1", "m2"] and after["more"] is False
    assert duel.read(duel.seats[1], "table", after=ids[-1]).json()["messages"] == []


# Partners


@pytest.mark.django_db
def test_partners_chat_is_read_by_the_two_partners_only(pairs):
    north, east, south, west = pairs.seats  # pairs 0+2 (north, south) and 1+3
    assert pairs.post(north, "partners", "I hold a blocker").status_code == 201
    assert pairs.post(east, "partners", "we are the other pair").status_code == 201
    assert pairs.texts(south, "partners") == ["I hold a blocker"]
    assert pairs.texts(north, "partners") == ["I hold a blocker"]
    assert pairs.texts(east, "partners") == ["we are the other pair"]
    assert pairs.texts(west, "partners") == ["we are the other pair"]
    for outsider in [pairs.spectator, pairs.staff, pairs.anonymous]:
        assert_error(pairs.read(outsider, "partners"), 403, "forbidden")
        assert pairs.post(outsider, "partners", "let me in").status_code in (401, 403)
    for reader in [*pairs.seats, pairs.spectator, pairs.anonymous]:
        assert "I hold a blocker" not in pairs.texts(reader, "table")


@pytest.mark.django_db
def test_in_pairs_extreme_partners_sit_side_by_side(db):
    game = start(4, "pairs_extreme")
    assert game.post(game.seats[0], "partners", "left pair").status_code == 201
    assert game.texts(game.seats[1], "partners") == ["left pair"]
    assert game.texts(game.seats[2], "partners") == []


@pytest.mark.django_db
def test_a_standard_game_has_no_partners_channel(duel):
    assert_error(duel.post(duel.seats[0], "partners", "hi"), 400, "invalid")
    assert_error(duel.read(duel.seats[0], "partners"), 400, "invalid")
    assert_error(duel.read(duel.seats[0], "gossip"), 400, "invalid")


# Spectators


@pytest.mark.django_db
def test_the_spectators_chat_is_closed_to_players_until_the_end(duel):
    assert duel.post(duel.spectator, "spectators", "seat 1 holds no red").status_code == 201
    assert duel.post(duel.staff, "spectators", "staff watching").status_code == 201
    assert duel.texts(duel.anonymous, "spectators") == ["seat 1 holds no red", "staff watching"]
    for seat in duel.seats:
        assert_error(duel.read(seat, "spectators"), 403, "forbidden")
        assert_error(duel.post(seat, "spectators", "what did you say?"), 403, "forbidden")
    assert_error(duel.post(duel.anonymous, "spectators", "hi"), 401, "not_authenticated")
    end(duel)
    for seat in duel.seats:  # after the end players read it, and still never write it
        assert duel.texts(seat, "spectators") == ["seat 1 holds no red", "staff watching"]
        assert_error(duel.post(seat, "spectators", "now I see"), 403, "forbidden")
    assert duel.post(duel.seats[0], "table", "gg").status_code == 201  # the table stays open


@pytest.mark.django_db
def test_players_of_a_lobby_are_players_for_the_spectators_chat(settings, db):
    host = register()
    gid = host.post("/api/games/", {"seats": 2}, format="json").json()["id"]
    assert host.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    url = f"/api/games/{gid}/chat/?channel=spectators"
    assert_error(host.get(url), 403, "forbidden")


# Limits


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "x" * 501, " " + "é" * 501], ids=[
    "empty", "blank", "whitespace", "501", "501_accented"])  # fmt: skip
@pytest.mark.django_db
def test_a_text_of_no_or_over_500_characters_is_invalid(duel, text):
    assert_error(duel.post(duel.seats[0], "table", text), 400, "invalid")
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_500_characters_pass_and_line_breaks_stay(duel):
    assert duel.post(duel.seats[0], "table", "ž" * 500).status_code == 201
    answer = duel.post(duel.seats[0], "table", "two\r\nlines\tand a tab")
    assert answer.json()["text"] == "two\nlines\tand a tab"


@pytest.mark.parametrize("raw", ['"a\\u0000b"', '"bell\\u0007"', '"esc\\u001b[31m"',
                                 '"del\\u007f"', '"\\ud800"', "42", "null", '["a"]'])  # fmt: skip
@pytest.mark.django_db
def test_nul_control_characters_lone_surrogates_and_non_strings_are_invalid(duel, raw):
    body = '{"channel": "table", "text": ' + raw + "}"
    answer = duel.seats[0].post(duel.url(), body, content_type="application/json")
    assert_error(answer, 400, "invalid")
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_bad_bodies_and_queries_are_invalid(duel):
    deep = '{"channel": "table", "text": ' + "[" * 20_000 + "]" * 20_000 + "}"
    client = duel.seats[0]
    for body in [deep, "[]", '"text"', '{"channel": "table", "text": "hi", "to": 1}', "{"]:
        answer = client.post(duel.url(), body, content_type="application/json")
        assert_error(answer, 400, "invalid")
    for query in ["after=-1", "after=x", "after=" + "9" * 30, "channel="]:
        assert_error(client.get(duel.url(query)), 400, "invalid")
    assert_error(client.get("/api/games/987654321/chat/"), 404, "not_found")
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_over_five_messages_in_ten_seconds_is_429_throttled(duel, pairs):
    for i in range(5):
        assert duel.post(duel.seats[0], "table", f"spam {i}").status_code == 201
    assert_error(duel.post(duel.seats[0], "table", "one more"), 429, "throttled")
    assert duel.post(duel.seats[1], "table", "my turn to talk").status_code == 201  # per user
    assert duel.post(duel.spectator, "spectators", "and mine").status_code == 201
    assert ChatMessage.objects.filter(author__username=duel.seats[0].username).count() == 5
    # Per game too: the same user, watching another game, is not slowed down there.
    assert pairs.post(duel.seats[0], "spectators", "over here").status_code == 201


@pytest.mark.django_db
def test_refused_posts_do_not_count_towards_the_rate(duel):
    for _ in range(6):
        assert_error(duel.post(duel.seats[0], "table", ""), 400, "invalid")
    assert duel.post(duel.seats[0], "table", "finally").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_chat_rows_are_append_only_in_postgresql(duel):
    said = duel.post(duel.seats[0], "table", "written once").json()
    assert hide(duel, duel.staff, said["id"], "a test").status_code == 200
    for sql in ["UPDATE games_chatmessage SET text = 'rewritten'", "DELETE FROM games_chatmessage",
                "TRUNCATE games_chatmessage CASCADE", "UPDATE games_chathiding SET reason = ''",
                "DELETE FROM games_chathiding", "TRUNCATE games_chathiding"]:  # fmt: skip
        # The triggers bind even the tables' owner (the service's role has no such rights).
        with pytest.raises(DatabaseError, match="append-only"), as_owner():
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql)
    assert ChatMessage.objects.get().text == "written once"
    assert ChatHiding.objects.get().reason == "a test"


@pytest.mark.django_db
def test_chat_ids_tell_nothing_across_channels(pairs, settings):
    """Issue 21: ids were shared by the channels, so a reader of `table` saw 1, 3, 5, 7, 11 and
    learned when and how much the partners and spectators wrote. Each channel (each pair's
    partners channel apart) numbers its own messages 1, 2, 3, …; `after` pages within it."""
    north, east, south = pairs.seats[0], pairs.seats[1], pairs.seats[2]
    settings.CHAT_RATE = (100, 10)  # north writes six lines at once
    for n in range(3):
        pairs.post(north, "table", f"table {n}")
        pairs.post(north, "partners", f"north-south {n}")
        pairs.post(east, "partners", f"east-west {n}")
        pairs.post(pairs.spectator, "spectators", f"watching {n}")
    for reader, channel in [(east, "table"), (pairs.spectator, "table"), (south, "partners"),
                            (east, "partners"), (pairs.spectator, "spectators")]:  # fmt: skip
        ids = [m["id"] for m in pairs.read(reader, channel).json()["messages"]]
        assert ids == [1, 2, 3], (channel, ids)
    later = pairs.read(east, "table", after=1).json()["messages"]
    assert [m["text"] for m in later] == ["table 1", "table 2"]


# Hiding


def hide(game: Game, client: APIClient, message_id: object, reason: object = "insult", *,
         channel: str = "table", team: int | None = None):  # fmt: skip
    body = {"channel": channel, "id": message_id, "reason": reason}
    if team is not None:
        body["team"] = team
    return client.post(f"/api/games/{game.gid}/chat/hide/", body, format="json")


@pytest.mark.django_db
def test_staff_hide_a_message_players_see_it_hidden_the_hiding_is_recorded(duel):
    rude = duel.post(duel.seats[0], "table", "you cheat!").json()
    duel.post(duel.seats[1], "table", "calm down")
    assert_error(hide(duel, duel.seats[1], rude["id"]), 403, "forbidden")
    assert_error(hide(duel, duel.staff, 987654321), 404, "not_found")
    assert_error(hide(duel, duel.staff, rude["id"], ""), 400, "invalid")
    answer = hide(duel, duel.staff, rude["id"], "insult")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {**rude, "text": "", "hidden": True}
    for reader in [*duel.seats, duel.spectator, duel.anonymous]:
        messages = duel.read(reader, "table").json()["messages"]
        assert [(m["text"], m["hidden"]) for m in messages] == [("", True), ("calm down", False)]
        assert "you cheat" not in json.dumps(messages)
    assert hide(duel, duel.staff, rude["id"], "again").status_code == 200  # once is enough
    [hiding] = ChatHiding.objects.all()
    assert (hiding.by.username, hiding.reason, hiding.message.number) == (
        duel.staff.username, "insult", rude["id"])  # fmt: skip


@pytest.mark.django_db
def test_hiding_a_message_of_another_game_is_404_and_hides_nothing(duel, settings):
    """Issue 21: through another game's URL a message is not found (it was a 500 as the
    service role, whose SELECT FOR UPDATE needs a right it lacks)."""
    other = start(2, rig=END_RIG)
    said = duel.post(duel.seats[0], "table", "hello").json()
    elsewhere = Game(other.gid, other.seats, other.spectator, duel.staff, other.anonymous)
    assert_error(hide(elsewhere, duel.staff, said["id"]), 404, "not_found")
    assert not ChatHiding.objects.exists()
    assert [m["hidden"] for m in duel.read(duel.seats[1], "table").json()["messages"]] == [False]


@pytest.mark.django_db
def test_the_case_file_shows_every_channel_hidden_ones_in_full(pairs, client):
    north, east = pairs.seats[0], pairs.seats[1]
    pairs.post(north, "table", "hello table")
    secret = pairs.post(north, "partners", "our secret plan").json()
    pairs.post(east, "partners", "their plan")
    pairs.post(pairs.spectator, "spectators", "watching")
    assert (
        hide(
            pairs, pairs.staff, secret["id"], "cheating talk", channel="partners", team=0
        ).status_code
        == 200
    )  # north's pair: seats 0 and 2 (ids are per stream)
    dispute = north.post(f"/api/games/{pairs.gid}/disputes/", {"reason": "chat"}, format="json")
    user = get_user_model().objects.get(username=pairs.staff.username)
    user.is_superuser = True
    user.save(update_fields=["is_superuser"])
    client.force_login(user)
    page = client.get(f"/admin/replays/dispute/{dispute.json()['id']}/change/").text
    order = [page.index(t) for t in ["hello table", "our secret plan", "their plan", "watching"]]
    assert order == sorted(order)  # in time order
    assert "case-chat--hidden" in page and "cheating talk" in page
    assert page.count('class="case-chat case-chat--hidden"') == 1


# The websocket


async def opened(gid: int, client: APIClient | None):
    key = await sync_to_async(token)(client) if client is not None else None
    sock = communicator(gid, key)
    connected, code = await sock.connect(timeout=TIMEOUT)
    assert connected, code
    assert (await sock.receive_json_from(timeout=TIMEOUT))["type"] == "view"
    return sock


async def chat_frames(sock) -> list[dict]:
    """Every frame the socket has for us now (none is due after QUIET)."""
    frames = []
    while not await sock.receive_nothing(timeout=QUIET):
        frames.append(await sock.receive_json_from(timeout=TIMEOUT))
    return frames


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_partner_chat_never_reaches_the_other_pair_nor_spectators_over_the_socket(pairs):
    north, east, south, west = pairs.seats
    viewers = {"north": north, "east": east, "south": south, "west": west,
               "spectator": pairs.spectator, "staff": pairs.staff, "anonymous": None}  # fmt: skip
    socks = {name: await opened(pairs.gid, c) for name, c in viewers.items()}
    try:
        said = (await sync_to_async(pairs.post)(north, "partners", "block the duel")).json()
        table = (await sync_to_async(pairs.post)(west, "table", "hi all")).json()
        seen = {name: await chat_frames(sock) for name, sock in socks.items()}
    finally:
        for sock in socks.values():
            await sock.disconnect()
    for name, frames in seen.items():
        expected = [said, table] if name in ("north", "south") else [table]
        assert frames == [{"type": "chat", "message": m} for m in expected], name
        assert "block the duel" not in json.dumps(frames) or name in ("north", "south")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_spectators_chat_reaches_no_player_socket_while_the_game_runs(duel):
    viewers = {"seat0": duel.seats[0], "seat1": duel.seats[1], "spectator": duel.spectator,
               "anonymous": None}  # fmt: skip
    socks = {name: await opened(duel.gid, c) for name, c in viewers.items()}
    try:
        said = (await sync_to_async(duel.post)(duel.spectator, "spectators", "no red!")).json()
        seen = {name: await chat_frames(sock) for name, sock in socks.items()}
        await sync_to_async(end)(duel)
        for sock in socks.values():
            await chat_frames(sock)  # the game's events and views
        after = (await sync_to_async(duel.post)(duel.staff, "spectators", "well played")).json()
        seen_after = {name: await chat_frames(sock) for name, sock in socks.items()}
    finally:
        for sock in socks.values():
            await sock.disconnect()
    assert seen["seat0"] == seen["seat1"] == []
    assert seen["spectator"] == seen["anonymous"] == [{"type": "chat", "message": said}]
    for name, frames in seen_after.items():  # after the end players read it
        assert frames == [{"type": "chat", "message": after}], name


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_hiding_replaces_the_message_on_every_socket_that_had_it(duel):
    sock = await opened(duel.gid, duel.seats[1])
    try:
        said = (await sync_to_async(duel.post)(duel.seats[0], "table", "rude words")).json()
        await sync_to_async(hide)(duel, duel.staff, said["id"], "rude")
        frames = await chat_frames(sock)
    finally:
        await sock.disconnect()
    hidden = {**said, "text": "", "hidden": True}
    assert frames == [{"type": "chat", "message": said}, {"type": "chat", "message": hidden}]
