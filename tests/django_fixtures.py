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
