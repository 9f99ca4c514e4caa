"""Fixtures for every Django test (loaded by tests/conftest.py when pytest-django is active).
pytest-django supplies the client, db and settings fixtures.

Tests run against PostgreSQL: `make test` exports DATABASE_URL (and REDIS_URL). It cannot be
set here, because pytest-django loads the settings before any conftest is imported.
"""

import io
import os

import pytest
from django.db import connection

SERVICE_ROLE = "sejmi_app"  # the role docker-compose's service runs as (grant_service_role)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Refuse to run database tests on the SQLite dev default. Then the tests run the service
    as production does (issue 21): the test database is migrated as its owner, the service's
    role gets its grants (`grant_service_role`), and every connection of the service — this
    process's, and the servers and workers the tests start (SEJMI_DB_ROLE) — acts as that
    role, so a statement needing a right the service lacks fails here as it would there."""
    if connection.vendor != "postgresql":
        pytest.fail(
            "database tests need PostgreSQL: run `make test` or set "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/sejmi"
        )
    from django.core.management import call_command
    from django.db import connections

    with django_db_blocker.unblock():
        call_command("grant_service_role", database="default", role=SERVICE_ROLE,
                     stdout=io.StringIO())  # fmt: skip
    service = connections["default"]
    os.environ["SEJMI_DB_ROLE"] = SERVICE_ROLE
    service.settings_dict["OPTIONS"]["options"] = f"-c role={SERVICE_ROLE}"  # as settings do
    service.close()
    service.close_pool()  # pooled connections were opened as the owner
    yield
    # pytest-django drops the test database next: only its owner may.
    os.environ.pop("SEJMI_DB_ROLE", None)
    service.settings_dict["OPTIONS"].pop("options", None)
    service.close()
    service.close_pool()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Registration hashes a password; the default hasher costs ~0.3 s a user on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _followers_inline(settings):
    """The followers (notifications, ratings, stats: games.core.followers) catch a game up
    right after each COMMIT in the committing thread, so a test reads what they did at once.
    Tests of the other ways of waking them set SEJMI_FOLLOW themselves."""
    settings.SEJMI_FOLLOW = "inline"


@pytest.fixture(scope="session", autouse=True)
def _flush_through_the_truncate_guard():
    """transactional_db tests end with a flush: one TRUNCATE of every table, which the
    append-only tables refuse (games/append_only.py). Between tests only, the flush switches
    their TRUNCATE guard off and on again in its own transaction, as the tables' owner may."""
    from unittest import mock

    from django.db.backends.postgresql.operations import DatabaseOperations

    from games.append_only import APPEND_ONLY

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, **options):
        sql = original(self, style, tables, **options)
        guards = [(table, guard) for table, (_, guard) in APPEND_ONLY.items() if table in tables]
        if not sql or not guards:
            return sql
        off = [f"ALTER TABLE {table} DISABLE TRIGGER {guard};" for table, guard in guards]
        on = [f"ALTER TABLE {table} ENABLE TRIGGER {guard};" for table, guard in guards]
        # Only the owner may switch a trigger off, or TRUNCATE: the flush steps out of the
        # service's role (SET ROLE, above) and back.
        role = os.environ.get("SEJMI_DB_ROLE")
        out, back = (["SET ROLE NONE;"], [f"SET ROLE {role};"]) if role else ([], [])
        return [*out, *off, *sql, *on, *back]

    with mock.patch.object(DatabaseOperations, "sql_flush", sql_flush):
        yield
