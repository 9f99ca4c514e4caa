"""The tests run the service as its role (tests/django_fixtures.py, SEJMI_DB_ROLE). A test that
plays the tables' owner — a forger with the triggers off, a check that the triggers bind the
owner too — steps out of the role for a block and back. (`RESET ROLE` would not do: the role
is the connection's default, set when it starts.)"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def as_owner() -> Iterator[None]:
    role = os.environ.get("SEJMI_DB_ROLE")
    with connection.cursor() as cursor:
        cursor.execute("SET ROLE NONE")
    try:
        yield
    finally:
        if role:
            with connection.cursor() as cursor:
                cursor.execute(f"SET ROLE {role}")
