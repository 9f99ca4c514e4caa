"""A PostgreSQL primary with a synchronous standby of its own, for `make bench-failover` and the
capacity figures of docs/SCALING.md: two clusters initdb'ed into temporary directories as the
`postgres` OS user (this runs as root; runuser), streaming replication on loopback, and
HAProxy in TCP mode in front of them, whose backend the drill switches through HAProxy's
runtime API once the standby is promoted (the service keeps one DATABASE_URL).

Nothing here touches the shared PostgreSQL on 5432: ports 56432 (primary) and 56433 (standby)
by default, and every process started is found again by the cluster_name in its command line.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import env

PG_BIN = Path("/usr/lib/postgresql/15/bin")
OS_USER = "postgres"
STANDBY_NAME = "standby"  # its application_name, which synchronous_standby_names names


def primary_conf(port: int, socket_dir: str, cluster: str, *, synchronous: bool) -> str:
    """postgresql.conf lines of the primary: WAL for a streaming standby, every commit flushed
    here (fsync) and, with `synchronous`, on the standby too before it is acknowledged."""
    names = STANDBY_NAME if synchronous else ""
    return "\n".join([
        f"port = {port}", "listen_addresses = '127.0.0.1'",
        f"unix_socket_directories = '{socket_dir}'", f"cluster_name = '{cluster}'",
        "max_connections = 300", "shared_buffers = 128MB",
        "wal_level = replica", "max_wal_senders = 4", "wal_keep_size = 256MB",
        "hot_standby = on", "fsync = on", "synchronous_commit = on",
        f"synchronous_standby_names = '{names}'",
        "log_min_messages = warning", "log_line_prefix = '%m [%p] '",
    ]) + "\n"  # fmt: skip


def standby_conf(port: int, socket_dir: str, cluster: str, primary_port: int) -> str:
    """Lines appended to the base backup's copy of the primary's postgresql.conf (the later
    line wins). synchronous_standby_names is emptied: once promoted, the standby is a primary
    with no standby of its own, and would otherwise hold every commit for ever. After its
    primary is lost the startup process waits wal_retrieve_retry_interval (5 s by default)
    before it looks again, and a promotion waits for that look: promotion took 5.1 s with the
    default, 0.16 s with 500 ms (measured here, 2026-12-01)."""
    conninfo = (f"host=127.0.0.1 port={primary_port} user={OS_USER} "
                f"application_name={STANDBY_NAME}")  # fmt: skip
    return "\n".join([
        f"port = {port}", f"unix_socket_directories = '{socket_dir}'",
        f"cluster_name = '{cluster}'", "synchronous_standby_names = ''",
        f"primary_conninfo = '{conninfo}'", "hot_standby = on",
        "wal_retrieve_retry_interval = '500ms'",
    ]) + "\n"  # fmt: skip


def haproxy_cfg(listen_port: int, primary_port: int, standby_port: int, stats_socket: str) -> str:
    """HAProxy in TCP mode before the pair: every connection to the primary; the standby is
    configured but in maintenance until the drill promotes it and switches (runtime API). Not
    a `backup` server: HAProxy would send writes to it the moment the primary is marked down,
    while it is still a read-only standby."""
    return "\n".join([
        "global", f"    stats socket {stats_socket} mode 600 level admin", "    maxconn 4000",
        "defaults", "    mode tcp", "    timeout connect 2s",
        "    timeout client 1h", "    timeout server 1h",  # pooled connections idle long
        "listen postgres", f"    bind 127.0.0.1:{listen_port}",
        f"    server primary 127.0.0.1:{primary_port} check inter 1s fall 2 rise 1"
        " on-marked-down shutdown-sessions",
        f"    server standby 127.0.0.1:{standby_port} check inter 1s disabled",
    ]) + "\n"  # fmt: skip


def _as_postgres(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", OS_USER, "--", *argv], check=True,
                          capture_output=True, text=True, timeout=120, **kwargs)  # fmt: skip


def cluster_pids(cluster: str) -> list[int]:
    """Processes whose command line names this cluster (`postgres: <cluster_name>: ...`) or its
    data directory (the postmaster): only ever ours."""
    out = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if f"postgres: {cluster}:" in words or f"/{cluster}/data" in words:
            out.append(int(cmdline.parent.name))
    return out


@dataclass
class Cluster:
    name: str  # cluster_name, and its directory's name
    port: int
    root: Path
    pid: int | None = None  # the postmaster's

    @property
    def data(self) -> Path:
        return self.root / self.name / "data"

    @property
    def log(self) -> Path:
        return self.root / self.name / "server.log"

    @property
    def url(self) -> str:
        return f"postgres://{OS_USER}@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                      "-w", "-t", "60", "start"])  # fmt: skip
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])

    def kill9(self) -> int:
        """kill -9 of the postmaster alone (its backends notice and exit by themselves)."""
        os.kill(self.pid, signal.SIGKILL)
        return self.pid

    def promote(self) -> None:
        _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60",
                      "promote"])  # fmt: skip

    def up(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                pass
        except OSError:
            return False
        done = subprocess.run([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p",
                               str(self.port), "-t", "1"], capture_output=True)  # fmt: skip
        return done.returncode == 0

    def sql(self, query: str, db: str = "postgres") -> list[tuple]:
        import psycopg

        url = self.url.rsplit("/", 1)[0] + f"/{db}"
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(query)
            return cur.fetchall() if cur.description else []

    def stop(self) -> None:
        """pg_ctl stop -m immediate if it runs; then SIGKILL whatever of it is left."""
        if self.pid and self.up():
            subprocess.run(["runuser", "-u", OS_USER, "--", str(PG_BIN / "pg_ctl"), "-D",
                            str(self.data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=60)  # fmt: skip
        for pid in cluster_pids(self.name):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@dataclass
class Proxy:
    """HAProxy before the pair (haproxy_cfg); `switch` points it at the standby."""

    port: int
    cfg: Path
    sock: Path
    proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = env.start(["haproxy", "-db", "-f", str(self.cfg)],
                              self.cfg.with_suffix(".log"))  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not self.sock.exists():
            time.sleep(0.1)

    def command(self, line: str) -> str:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.sock))
            s.sendall(line.encode() + b"\n")
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def switch(self) -> None:
        """Every new connection to the standby; the old primary's sessions cut."""
        self.command("set server postgres/primary state maint")
        self.command("shutdown sessions server postgres/primary")
        self.command("set server postgres/standby state ready")

    def stop(self) -> None:
        if self.proc:
            env.stop(self.proc)


@dataclass
class Pair:
    """The primary, its synchronous standby and the proxy, in a temporary directory."""

    primary: Cluster
    standby: Cluster
    proxy: Proxy
    root: Path
    timeline: dict[str, float] = field(default_factory=dict)

    def url(self, db: str) -> str:
        """The service's DATABASE_URL: through the proxy."""
        return f"postgres://{OS_USER}@127.0.0.1:{self.proxy.port}/{db}"

    def set_synchronous(self, on: bool) -> None:
        """synchronous_standby_names on the primary, reloaded; waits until the walsender
        reports the standby as `sync` (on) or `async` (off)."""
        names = STANDBY_NAME if on else ""
        self.primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = '{names}'")
        self.primary.sql("SELECT pg_reload_conf()")
        want = "sync" if on else "async"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            rows = self.primary.sql("SELECT sync_state FROM pg_stat_replication "
                                    f"WHERE application_name = '{STANDBY_NAME}'")  # fmt: skip
            if rows and rows[0][0] == want:
                time.sleep(0.3)  # every backend reloads at its next command
                return
            time.sleep(0.1)
        raise RuntimeError(f"the standby did not become {want}")

    def replication(self) -> dict:
        rows = self.primary.sql(
            "SELECT sync_state, state, pg_wal_lsn_diff(pg_current_wal_lsn(), flush_lsn)"
            f" FROM pg_stat_replication WHERE application_name = '{STANDBY_NAME}'")  # fmt: skip
        return {"sync_state": rows[0][0], "state": rows[0][1], "flush_lag_bytes": int(rows[0][2])}

    def stop(self, keep_logs: Path | None = None) -> None:
        self.proxy.stop()
        self.standby.stop()
        self.primary.stop()
        if keep_logs is not None:
            for c in (self.primary, self.standby):
                if c.log.exists():
                    shutil.copy(c.log, keep_logs / f"{c.name}.log")
        shutil.rmtree(self.root, ignore_errors=True)


def start_pair(primary_port: int = 56432, standby_port: int = 56433,
               proxy_port: int | None = None) -> Pair:  # fmt: skip
    """initdb the primary, start it, base-backup the standby from it, start the standby and
    wait until it streams as the synchronous standby; then HAProxy before them."""
    for port in (primary_port, standby_port):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                raise SystemExit(f"something already listens on port {port}")
    root = Path(tempfile.mkdtemp(prefix="sejmi-failover-"))
    os.chmod(root, 0o755)
    pg = pwd.getpwnam(OS_USER)
    primary = Cluster("sejmi_fo_primary", primary_port, root)
    standby = Cluster("sejmi_fo_standby", standby_port, root)
    for c in (primary, standby):
        (root / c.name).mkdir()
        os.chown(root / c.name, pg.pw_uid, pg.pw_gid)
    _as_postgres([str(PG_BIN / "initdb"), "-D", str(primary.data), "-A", "trust", "-U", OS_USER,
                  "--no-sync"])  # fmt: skip
    with open(primary.data / "postgresql.conf", "a") as conf:
        conf.write(primary_conf(primary_port, str(root / primary.name), primary.name,
                                synchronous=True))  # fmt: skip
    pair = Pair(primary, standby, None, root)  # type: ignore[arg-type]
    try:
        primary.start()
        _as_postgres([str(PG_BIN / "pg_basebackup"), "-h", "127.0.0.1", "-p",
                      str(primary_port), "-U", OS_USER, "-D", str(standby.data), "-X", "stream",
                      "-c", "fast"])  # fmt: skip
        with open(standby.data / "postgresql.conf", "a") as conf:
            conf.write(standby_conf(standby_port, str(root / standby.name), standby.name,
                                    primary_port))  # fmt: skip
        (standby.data / "standby.signal").touch()
        os.chown(standby.data / "standby.signal", pg.pw_uid, pg.pw_gid)
        standby.start()
        port = proxy_port or env.free_port()
        cfg = root / "haproxy.cfg"
        sock = root / "haproxy.sock"
        cfg.write_text(haproxy_cfg(port, primary_port, standby_port, str(sock)))
        pair.proxy = Proxy(port, cfg, sock)
        pair.proxy.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            rows = primary.sql("SELECT sync_state FROM pg_stat_replication")
            if rows and rows[0][0] == "sync":
                return pair
            time.sleep(0.2)
        raise RuntimeError("the standby never became synchronous")
    except BaseException:
        pair.stop() if pair.proxy else (standby.stop(), primary.stop(),
                                        shutil.rmtree(root, ignore_errors=True))  # fmt: skip
        raise
