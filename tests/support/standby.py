"""A streaming standby of the local PostgreSQL cluster on loopback, for the replica router's
tests (tests/core/test_replica_router.py) and `make bench-nodes`: `pg_basebackup -R` of the
whole cluster (every database, the tests' own too) into a directory of its own, started with
pg_ctl as the postgres OS user. No replication slot: nothing is kept on the primary for a
standby that is gone. The primary's pg_hba.conf must let 127.0.0.1 connect for replication
(`.ci/run` adds `host replication all 127.0.0.1/32 trust`)."""

from __future__ import annotations

import functools
import os
import pwd
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

# Hot standby refuses to start with less of these than its primary has.
MUST_MATCH = ("max_connections", "max_worker_processes", "max_wal_senders",
              "max_prepared_transactions", "max_locks_per_transaction")  # fmt: skip
STANDBY_HBA = "local all all trust\nhost all all 127.0.0.1/32 trust\n"  # loopback only
HBA_HINT = "add `host replication all 127.0.0.1/32 trust` to the primary's pg_hba.conf (.ci/run)"


class StandbyUnavailable(RuntimeError):
    """No standby can be started here; the message says why."""


@dataclass
class Standby:
    port: int
    primary_port: int = 5432
    user: str = "postgres"

    @functools.cached_property
    def bindir(self) -> Path:
        """Debian's binaries of the primary's major version (pg_ctl is not on PATH there)."""
        with self._primary() as primary:
            version = primary.execute("SHOW server_version_num").fetchone()[0]
        return Path(f"/usr/lib/postgresql/{int(version) // 10000}/bin")

    @property
    def datadir(self) -> Path:
        return Path(f"/tmp/sejmi-standby-{self.port}")

    def url(self, database: str, user: str | None = None) -> str:
        return f"postgres://{user or self.user}@127.0.0.1:{self.port}/{database}"

    def _primary(self) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.primary_port, user=self.user,
                               dbname="postgres", autocommit=True, connect_timeout=5)  # fmt: skip

    def _connect(self) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.port, user=self.user,
                               dbname="postgres", autocommit=True, connect_timeout=5)  # fmt: skip

    def answers(self) -> bool:
        try:
            with self._connect():
                return True
        except psycopg.Error:
            return False

    def follows_primary(self) -> bool:
        """Whether what answers on the port is a standby of this primary (same system id)."""
        query = "SELECT system_identifier FROM pg_control_system()"
        with self._connect() as standby, self._primary() as primary:
            recovering = standby.execute("SELECT pg_is_in_recovery()").fetchone()[0]
            return recovering and (standby.execute(query).fetchone()
                                   == primary.execute(query).fetchone())  # fmt: skip

    def create(self) -> None:
        """A fresh base backup of the primary into `datadir`, configured to stream from it."""
        with self._primary() as primary:
            must = {n: primary.execute(f"SHOW {n}").fetchone()[0] for n in MUST_MATCH}
        shutil.rmtree(self.datadir, ignore_errors=True)
        self.datadir.mkdir(mode=0o700)
        _chown_to_postgres(self.datadir)
        done = self._as_postgres("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary_port),
                                 "-U", self.user, "-D", str(self.datadir), "-R", "-X", "stream",
                                 "-c", "fast")  # fmt: skip
        if done.returncode:
            hint = f"; {HBA_HINT}" if "replication" in done.stderr else ""
            raise StandbyUnavailable(f"pg_basebackup failed: {done.stderr.strip()}{hint}")
        conf = {"port": self.port, "listen_addresses": "'127.0.0.1'",
                "unix_socket_directories": f"'{self.datadir}'", "hot_standby": "on",
                "hot_standby_feedback": "on", "shared_buffers": "'32MB'", **must}  # fmt: skip
        settings = "".join(f"{k} = {v}\n" for k, v in conf.items())
        (self.datadir / "postgresql.conf").write_text(settings)
        (self.datadir / "pg_hba.conf").write_text(STANDBY_HBA)
        for name in ("postgresql.conf", "pg_hba.conf"):
            _chown_to_postgres(self.datadir / name)

    def start(self) -> None:
        done = self._as_postgres("pg_ctl", "-D", str(self.datadir), "-l",
                                 str(self.datadir / "log"), "-w", "-t", "120", "start")  # fmt: skip
        if done.returncode or not self.answers():
            raise StandbyUnavailable(f"the standby did not start: {done.stderr.strip()}"
                                     f" (log: {self.datadir / 'log'})")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """pg_ctl's stop; "immediate" is a crash (no restartpoint first: fast, and replay picks
        up from the last one at the next start)."""
        self._as_postgres("pg_ctl", "-D", str(self.datadir), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        shutil.rmtree(self.datadir, ignore_errors=True)

    def caught_up(self, timeout: float = 60) -> None:
        """Wait until the standby has replayed what the primary has written by now."""
        with self._primary() as primary:
            target = primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
        give_up = time.monotonic() + timeout
        with self._connect() as standby:
            while not standby.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn",
                                      (target,)).fetchone()[0]:  # fmt: skip
                if time.monotonic() > give_up:
                    raise StandbyUnavailable(f"the standby did not reach {target} in {timeout} s")
                time.sleep(0.05)

    def pause_replay(self) -> None:
        with self._connect() as standby:
            standby.execute("SELECT pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        with self._connect() as standby:
            standby.execute("SELECT pg_wal_replay_resume()")

    def _as_postgres(self, program: str, *args: str) -> subprocess.CompletedProcess:
        argv = [str(self.bindir / program), *args]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        elif pwd.getpwuid(os.geteuid()).pw_name != "postgres":
            raise StandbyUnavailable("starting a standby needs root or the postgres OS user")
        return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def _chown_to_postgres(path: Path) -> None:
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(path, entry.pw_uid, entry.pw_gid)
