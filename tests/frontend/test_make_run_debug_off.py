"""Issue 32, item 9 (what to build: 8): `make run` runs with DEBUG off unless DEBUG=1 is set
(README): an error shows the service's friendly page, never Django's debug page with its
traceback and settings, and static files are still served (sejmi.asgi serves /static/ itself)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode(errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(errors="replace")


def test_make_run_is_not_in_debug_mode_and_still_serves_static_files(tmp_path):
    """Mutant (before): settings' DEBUG defaulted to on → the 404 page was Django's technical
    one ("Using the URLconf defined in sejmi.urls", every route listed)."""
    env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": "",
                "MIGRATE_DATABASE_URL": "", "SEJMI_DB_ROLE": "", "CACHE_URL": "",
                "DJANGO_SETTINGS_MODULE": "sejmi.settings"})  # fmt: skip
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=env, check=True, timeout=300)  # fmt: skip
    port = _free_port()
    server = subprocess.Popen(  # as the Makefile's `run` starts it
        [sys.executable, "-m", "uvicorn", "sejmi.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        status, body = _get(f"{base}/no-such-page/")
        assert status == 404
        assert "URLconf" not in body and "Traceback" not in body
        status, _ = _get(f"{base}/static/admin/css/base.css")
        assert status == 200
        status, _ = _get(f"{base}/")
        assert status == 200
    finally:
        server.terminate()
        server.wait(timeout=15)
