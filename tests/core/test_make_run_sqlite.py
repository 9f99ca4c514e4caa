"""`make run` is SQLite with the in-memory channel layer: the command path's plain SQL must
run there too (`= ANY(%s)` is PostgreSQL's alone: on SQLite every move that told a player
something failed), and what it reads back must be what the ORM gives (aware datetimes). A
game between three accounts, through the API, in a process of its own: the first of two
passes in a block window is sealed (R19) and read back when the second closes it; what is told
a player with the table open in a visible tab is born read (issue 18: the presence's SQL). The
file is kept in write-ahead-log mode (sejmi/databases.py: issue 31, a commit without a file
made, synced and deleted); its requests share one thread and its connection (sejmi.handlers)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from rest_framework.test import APIClient

def player(name):
    client = APIClient(HTTP_HOST="127.0.0.1")  # make run serves 127.0.0.1
    answer = client.post("/api/auth/register/", {"username": name, "password": "s3cret-pass-1"},
                         format="json")
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION="Token " + answer.json()["token"])
    return client

anna, ben, cyril = player("anna"), player("ben"), player("cyril")
gid = anna.post("/api/games/", {"seats": 3}, format="json").json()["id"]
from django.contrib.auth import get_user_model
from games.notifications import presence
cyril_id = get_user_model().objects.get(username="cyril").pk
presence.show((cyril_id, gid, "sqlite.tab"), True)  # his table open in a visible tab (issue 18)
for client in (anna, ben, cyril):
    assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
for _ in range(6):  # plays open block windows; passes close them
    for client in (anna, ben, cyril):
        view = client.get(f"/api/games/{gid}/").json()
        command = next((c for c in view["legal"] if c["type"] in ("pass", "play")), None)
        if command is not None:
            answer = client.post(f"/api/games/{gid}/commands/",
                                 {"expected_seq": view["seq"], **command}, format="json")
            assert answer.status_code == 200, answer.content
told = [n["kind"] for client in (anna, ben, cyril)
        for n in client.get("/api/notifications/").json()["notifications"]]
assert "your_turn" in told and "block_window" in told, told
his = cyril.get("/api/notifications/").json()["notifications"]
assert his and all(n["read"] for n in his), his  # born read: the presence read on SQLite too
assert not all(n["read"] for n in anna.get("/api/notifications/").json()["notifications"])
events = anna.get(f"/api/games/{gid}/events/").json()["events"]
passes = [e for e in events if e["type"] == "block_passed"]
assert passes and all(e["at"].endswith(("Z", "+00:00")) for e in events), passes
print("played", view["seq"], "with", len(passes), "passes")
"""


def test_make_runs_sqlite_plays_a_game_that_tells_its_players(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": "",
           "MIGRATE_DATABASE_URL": "", "DJANGO_SETTINGS_MODULE": "sejmi.settings"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("played")
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


SERVE = """
import asyncio, threading
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.db.backends.signals import connection_created
opened = []
connection_created.connect(lambda sender, connection, **kw: opened.append(
    threading.current_thread().name), weak=False)
import httpx
from sejmi.asgi import application

async def main():
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        for _ in range(5):
            answer = await client.get("/api/games/")
            assert answer.status_code == 200, answer.text

asyncio.run(main())
print("opened", len(opened), len(set(opened)))
"""


def test_make_runs_requests_share_one_thread_and_its_connection(tmp_path):
    """Issue 31: Django gave each request a thread of its own, and so a SQLite connection of
    its own, opened and closed per request. `make run` serves its views on one thread
    (sejmi.handlers.ViewsOnOneThread), which keeps its connection: five requests, one opened."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": "",
           "MIGRATE_DATABASE_URL": "", "DJANGO_SETTINGS_MODULE": "sejmi.settings"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", SERVE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["opened", "1", "1"], done.stdout
