"""docker-compose.yml's production shape (issue 9): `docker compose up --scale web=3` works
behind the balancer, and deadlines run without the broker. Docker itself is not run here: the
YAML is read, and deploy/haproxy.cfg is checked by HAProxy (`haproxy -c`) when installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SERVICES = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def test_web_scales_behind_one_balancer():
    web, balancer = SERVICES["web"], SERVICES["balancer"]
    assert "ports" not in web, "replicas must not compete for one host port"
    assert balancer["ports"] and "web" in balancer["depends_on"]
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in balancer["volumes"]
    assert web["environment"]["NUM_PROXIES"] == "1"  # throttles see the client (docs/PRODUCTION.md)
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert "server-template web" in config and "option forwardfor" in config
    assert "cookie" not in config.split("backend web", 1)[1], "no stickiness"


def test_deadlines_run_from_postgresql_beside_celery():
    assert SERVICES["deadlines"]["command"] == "python manage.py run_deadlines"
    assert SERVICES["worker"]["command"].startswith("celery -A sejmi worker")
    assert SERVICES["beat"]["command"].startswith("celery -A sejmi beat")
    for name in ("web", "deadlines", "worker", "beat"):
        assert SERVICES[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )


@pytest.mark.skipif(not shutil.which("haproxy"), reason="HAProxy is not installed")
def test_haproxy_accepts_the_production_config(tmp_path):
    checked = subprocess.run(["haproxy", "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
                             capture_output=True, text=True, timeout=30)  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_compose_owner_is_an_ordinary_role_made_by_the_init_script():
    """Issue 21: the migration owner was the image's superuser. The image's superuser now only
    bootstraps; deploy/postgres-init.sh makes the owner."""
    postgres = SERVICES["postgres"]
    assert postgres["environment"]["POSTGRES_USER"] == "postgres"
    assert postgres["environment"]["OWNER_USER"] == "sejmi"
    owner_url = SERVICES["migrate"]["environment"]["MIGRATE_DATABASE_URL"]
    assert owner_url.startswith("postgres://sejmi:")
    assert ("./deploy/postgres-init.sh:/docker-entrypoint-initdb.d/10-owner.sh:ro"
            in postgres["volumes"])  # fmt: skip


@pytest.mark.skipif(not shutil.which("psql"), reason="psql is not installed")
def test_the_init_script_owner_migrates_and_grants_without_being_a_superuser(tmp_path):
    """The init script as the image runs it, on this machine's PostgreSQL: its owner is no
    superuser, yet `migrate --database owner` and `grant_service_role` succeed as it, and the
    service's role it grants may append events but not update them."""
    import os
    import sys

    import psycopg

    tag = f"t{os.getpid()}"
    owner, app, db = f"sejmi_owner_{tag}", f"sejmi_app_{tag}", f"sejmi_owner_{tag}"
    admin = "postgresql://postgres@127.0.0.1:5432/postgres"
    env = {**os.environ, "PGHOST": "127.0.0.1", "POSTGRES_USER": "postgres",
           "POSTGRES_DB": "postgres", "OWNER_USER": owner, "OWNER_PASSWORD": "pw",
           "OWNER_DB": db}  # fmt: skip
    try:
        made = subprocess.run(["sh", str(ROOT / "deploy" / "postgres-init.sh")], env=env,
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert made.returncode == 0, made.stdout + made.stderr
        with psycopg.connect(admin, autocommit=True) as conn:
            (superuser,) = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s",
                                        [owner]).fetchone()  # fmt: skip
        assert superuser is False
        service = {**os.environ,
                   "MIGRATE_DATABASE_URL": f"postgres://{owner}:pw@127.0.0.1:5432/{db}",
                   "DATABASE_URL": f"postgres://{app}:apppw@127.0.0.1:5432/{db}"}  # fmt: skip
        service.pop("SEJMI_DB_ROLE", None)
        for step in (["migrate", "--database", "owner", "-v", "0"], ["grant_service_role"]):
            done = subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=service,
                                  capture_output=True, text=True, timeout=300)  # fmt: skip
            assert done.returncode == 0, done.stdout + done.stderr
        with psycopg.connect(f"postgresql://{app}:apppw@127.0.0.1:5432/{db}") as conn:
            (may_insert, may_update) = conn.execute(
                "SELECT has_table_privilege('games_gameevent', 'INSERT'),"
                " has_table_privilege('games_gameevent', 'UPDATE')").fetchone()  # fmt: skip
        assert (may_insert, may_update) == (True, False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{app}"')
            conn.execute(f'DROP ROLE IF EXISTS "{owner}"')


def test_a_replica_streams_from_a_base_backup_of_the_primary_and_serves_the_web():
    """Issue 20: `postgres-replica` starts from pg_basebackup -R of the primary, through the
    slot and as the replication role the init script makes; the web reads the reads that may
    lag from it (DATABASE_REPLICA_URLS), as the service's role."""
    primary, replica = SERVICES["postgres"], SERVICES["postgres-replica"]
    assert replica["image"] == primary["image"]  # a standby runs the primary's major version
    assert replica["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert replica["entrypoint"] == ["/deploy/postgres-replica.sh"]
    assert "./deploy/postgres-replica.sh:/deploy/postgres-replica.sh:ro" in replica["volumes"]
    own_data = [v for v in replica["volumes"] if v.endswith(":/var/lib/postgresql/data")]
    assert own_data and own_data[0].split(":")[0] not in {v.split(":")[0]
                                                          for v in primary["volumes"]}  # fmt: skip
    for key in ("REPLICATION_USER", "REPLICATION_PASSWORD", "REPLICATION_SLOT"):
        assert replica["environment"][key] == primary["environment"][key]
    assert replica["environment"]["PRIMARY_HOST"] == "postgres"
    script = (ROOT / "deploy" / "postgres-replica.sh").read_text()
    assert "pg_basebackup" in script and " -R " in script and '-S "$REPLICATION_SLOT"' in script
    assert "exec docker-entrypoint.sh postgres" in script
    urls = SERVICES["web"]["environment"]["DATABASE_REPLICA_URLS"].split(",")
    assert [url.split("@")[1].split(":")[0] for url in urls] == ["postgres-replica"]
    assert all(url.startswith("postgres://sejmi_app:") for url in urls)  # the service's role
    assert "DATABASE_REPLICA_URLS" not in SERVICES["migrate"]["environment"]


def test_the_replica_entrypoint_is_valid_sh():
    for name in ("postgres-replica.sh", "postgres-init.sh"):
        checked = subprocess.run(["sh", "-n", str(ROOT / "deploy" / name)],
                                 capture_output=True, text=True, timeout=30)  # fmt: skip
        assert checked.returncode == 0, checked.stderr


@pytest.mark.skipif(not shutil.which("psql"), reason="psql is not installed")
def test_the_init_script_makes_the_replication_role_its_slot_and_its_pg_hba_line(tmp_path):
    """With REPLICATION_USER set, the init script (on this machine's PostgreSQL) makes a role
    that may stream, the slot the replica streams through, and a pg_hba line that lets it
    (`all` never matches replication connections). Both dropped after: a slot nobody reads
    keeps WAL for ever."""
    import os

    import psycopg

    tag = f"t{os.getpid()}"
    user, slot, owner = f"sejmi_repl_{tag}", f"sejmi_slot_{tag}", f"sejmi_rowner_{tag}"
    (tmp_path / "pg_hba.conf").write_text("host all all all scram-sha-256\n")
    env = {**os.environ, "PGHOST": "127.0.0.1", "POSTGRES_USER": "postgres",
           "POSTGRES_DB": "postgres", "OWNER_USER": owner, "OWNER_PASSWORD": "pw",
           "OWNER_DB": owner, "REPLICATION_USER": user, "REPLICATION_PASSWORD": "rpw",
           "REPLICATION_SLOT": slot, "PGDATA": str(tmp_path)}  # fmt: skip
    admin = "postgresql://postgres@127.0.0.1:5432/postgres"
    try:
        made = subprocess.run(["sh", str(ROOT / "deploy" / "postgres-init.sh")], env=env,
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert made.returncode == 0, made.stdout + made.stderr
        with psycopg.connect(admin, autocommit=True) as conn:
            (may_stream, superuser) = conn.execute(
                "SELECT rolreplication, rolsuper FROM pg_roles WHERE rolname = %s", [user]
            ).fetchone()
            (kind,) = conn.execute("SELECT slot_type FROM pg_replication_slots"
                                   " WHERE slot_name = %s", [slot]).fetchone()  # fmt: skip
        assert (may_stream, superuser, kind) == (True, False, "physical")
        hba = (tmp_path / "pg_hba.conf").read_text().splitlines()
        assert hba[-1] == f"host replication {user} all scram-sha-256"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                         " WHERE slot_name = %s", [slot])  # fmt: skip
            conn.execute(f'DROP DATABASE IF EXISTS "{owner}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{user}"')
            conn.execute(f'DROP ROLE IF EXISTS "{owner}"')


def test_the_service_reaches_postgresql_through_pgbouncer_in_transaction_mode():
    """Issue 20: PgBouncer fronts the primary for every service process; migrations (the
    owner's alias) go straight to PostgreSQL. tests/core/test_pgbouncer.py runs the command path
    through a real one with deploy/pgbouncer.ini's settings."""
    import configparser

    env = SERVICES["web"]["environment"]
    assert "@pgbouncer:6432/" in env["DATABASE_URL"] and env["SEJMI_PGBOUNCER"] == "1"
    assert "@postgres:5432/" in SERVICES["migrate"]["environment"]["MIGRATE_DATABASE_URL"]
    for name in ("web", "deadlines", "worker", "beat"):
        assert "pgbouncer" in SERVICES[name]["depends_on"]
    ini = configparser.ConfigParser(interpolation=None)
    ini.read(ROOT / "deploy" / "pgbouncer.ini")
    assert ini["pgbouncer"]["pool_mode"] == "transaction"
    assert "host=postgres port=5432" in ini["databases"]["sejmi"]
    assert ("./deploy/pgbouncer.ini:/etc/pgbouncer/pgbouncer.ini:ro"
            in SERVICES["pgbouncer"]["volumes"])  # fmt: skip


def test_the_channel_layer_spans_two_redis_and_the_broker_has_its_own():
    env = SERVICES["web"]["environment"]
    shards = env["CHANNEL_REDIS_URLS"].split(",")
    assert len(shards) == 2 and len({url.split("/")[2] for url in shards}) == 2
    broker_host = env["CELERY_BROKER_URL"].split("/")[2]
    assert all(url.split("/")[2] != broker_host for url in shards)
    for shard in ("channels-a", "channels-b"):
        assert shard in SERVICES and shard in SERVICES["web"]["depends_on"]
