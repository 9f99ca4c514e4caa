"""Debian's PgBouncer (1.18, `apt-get install pgbouncer`) on loopback in front of this machine's
PostgreSQL, as deploy/pgbouncer.ini configures production's: its [pgbouncer] settings (pool_mode
= transaction, the pool sizes) with the address, auth and files of a local run. bench-nodes and
tests/core/test_pgbouncer.py run the service through it.

Any database name is passed through to the same name on 127.0.0.1:5432 (`*`); clients are
trusted (the local PostgreSQL trusts loopback), but only the users named may connect.
"""

from __future__ import annotations

import configparser
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_INI = ROOT / "deploy" / "pgbouncer.ini"


def installed() -> str | None:
    return shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer",) if os.access(p, os.X_OK)), None
    )


def settings(**overrides: str) -> dict[str, str]:
    """deploy/pgbouncer.ini's [pgbouncer] settings, with `overrides`."""
    ini = configparser.ConfigParser(interpolation=None)
    ini.read(PRODUCTION_INI)
    return {**dict(ini["pgbouncer"]), **overrides}


def write_config(workdir: Path, port: int, users: Iterable[str], **overrides: str) -> Path:
    (workdir / "userlist.txt").write_text("".join(f'"{u}" ""\n' for u in users))
    local = settings(listen_addr="127.0.0.1", listen_port=str(port), unix_socket_dir="",
                     auth_type="trust", auth_file=str(workdir / "userlist.txt"),
                     logfile=str(workdir / "pgbouncer.log"),
                     pidfile=str(workdir / "pgbouncer.pid"), admin_users="postgres",
                     **overrides)  # fmt: skip
    lines = ["[databases]", "* = host=127.0.0.1 port=5432", "", "[pgbouncer]"]
    lines += [f"{key} = {value}" for key, value in local.items()]
    path = workdir / "pgbouncer.ini"
    path.write_text("\n".join(lines) + "\n")
    return path


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


@contextmanager
def running(port: int, users: Iterable[str] = ("postgres",), **overrides: str) -> Iterator[Path]:
    """PgBouncer on 127.0.0.1:`port` for the duration; yields its work directory (its log is
    pgbouncer.log there). As root it drops to the `postgres` user (it refuses to run as root)."""
    binary = installed()
    if not binary:
        raise RuntimeError("pgbouncer is not installed (apt-get install -y pgbouncer)")
    if _answers(port):
        raise RuntimeError(f"something already answers on port {port}")
    workdir = Path(tempfile.mkdtemp(prefix=f"sejmi-pgbouncer-{port}-"))
    config = write_config(workdir, port, users, **overrides)
    argv = [binary, str(config)]
    if os.getuid() == 0:
        shutil.chown(workdir, "postgres")
        for path in workdir.iterdir():
            shutil.chown(path, "postgres")
        argv[1:1] = ["-u", "postgres"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 15
        while not _answers(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"pgbouncer did not come up: {log_tail(workdir)}")
            time.sleep(0.05)
        yield workdir
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        shutil.rmtree(workdir, ignore_errors=True)


def log_tail(workdir: Path, chars: int = 2000) -> str:
    try:
        return (workdir / "pgbouncer.log").read_text()[-chars:]
    except OSError:
        return "(no log)"


def show(port: int, what: str) -> list[list[str]]:
    """`SHOW <what>` on the admin console (simple protocol only: psql), as rows of fields."""
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                          "-d", "pgbouncer", "-AtF", "\t", "-c", f"SHOW {what}"],
                         capture_output=True, text=True, timeout=10, check=True)  # fmt: skip
    return [line.split("\t") for line in out.stdout.splitlines() if line]
