"""Fixtures for every Django test (loaded by tests/conftest.py when pytest-django is active).
pytest-django supplies the client, db and settings fixtures.

Tests run against PostgreSQL: `make test` exports DATABASE_URL (and REDIS_URL). It cannot be
set here, because pytest-django loads the settings before any conftest is imported.
"""

import pytest
from django.db import connection


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Refuse to run database tests on the SQLite dev default."""
    if connection.vendor != "postgresql":
        pytest.fail(
            "database tests need PostgreSQL: run `make test` or set "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/sejmi"
        )


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Registration hashes a password; the default hasher costs ~0.3 s a user on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
        return [*off, *sql, *on]

    with mock.patch.object(DatabaseOperations, "sql_flush", sql_flush):
        yield
