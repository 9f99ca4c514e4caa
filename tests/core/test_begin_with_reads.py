"""A command's BEGIN travels with its reads (games.core.plain_sql.together, issue 31): psycopg
would send it alone, a round trip of its own. The transaction must stay the same: open once the
reads return (their lock held), undone whole by a rollback, and the connection as psycopg and
Django expect it afterwards."""

from __future__ import annotations

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from psycopg.pq import TransactionStatus

from games.core import plain_sql
from games.core.plain_sql import Read
from tests.support.statements import round_trips

pytestmark = pytest.mark.django_db(transaction=True)


class _Undo(Exception):
    pass


def _user(make_player):
    return get_user_model().objects.get(username=make_player().username)


def _reads(user_id: int) -> tuple[Read, Read]:
    return (Read('SELECT id FROM auth_user WHERE id = %s FOR UPDATE', [user_id]),
            Read("SELECT 1", []))  # fmt: skip


def _locked_elsewhere(user_id: int) -> bool:
    """Whether another connection finds the user's row locked."""
    dsn = connection.get_connection_params()
    params = {k: v for k, v in dsn.items() if k in ("dbname", "user", "host", "port", "password")}
    with psycopg.connect(**params, autocommit=True) as other:
        try:
            other.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE NOWAIT", [user_id])
        except psycopg.errors.LockNotAvailable:
            return True
    return False


def test_the_first_reads_of_a_transaction_carry_its_begin_in_one_round_trip(make_player):
    user = _user(make_player)
    with plain_sql.command_transaction():
        rows: list = []
        trips = round_trips(lambda: rows.extend(plain_sql.together(*_reads(user.pk))))
        assert trips == 1
        assert rows == [[(user.pk,)], [(1,)]]
        raw = connection.connection
        assert raw.info.transaction_status == TransactionStatus.INTRANS
        assert raw.autocommit is False  # psycopg's flag is back
        assert _locked_elsewhere(user.pk)  # the lock is the transaction's, held until it ends
    assert not _locked_elsewhere(user.pk)
    assert connection.get_autocommit() and connection.connection.autocommit


def test_a_rollback_undoes_what_followed_the_reads(make_player):
    user = _user(make_player)
    with pytest.raises(_Undo), transaction.atomic():
        plain_sql.together(*_reads(user.pk))
        get_user_model().objects.filter(pk=user.pk).update(first_name="changed")
        raise _Undo
    assert get_user_model().objects.get(pk=user.pk).first_name != "changed"


def test_reads_later_in_a_transaction_send_no_begin(make_player):
    user = _user(make_player)
    with transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).update(first_name="first")
        rows = plain_sql.together(*_reads(user.pk))  # BEGIN was sent with the UPDATE
        assert rows[0] == [(user.pk,)]
    assert get_user_model().objects.get(pk=user.pk).first_name == "first"
