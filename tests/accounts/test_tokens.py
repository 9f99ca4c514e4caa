"""A token names its user in one plain statement per request (games.accounts.tokens), with DRF's
answers: the same user with aware datetimes, 401 `not_authenticated` for an unknown token, for
one revoked a moment ago (nothing is remembered between requests) and for an inactive user."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from games.accounts.tokens import user_for_key
from tests.support.api import assert_error


def test_the_token_names_its_user_as_the_orm_reads_him(player):
    key = player._credentials["HTTP_AUTHORIZATION"].split()[1]
    with CaptureQueriesContext(connection) as statements:
        user, token = user_for_key(key)
    assert len(statements) == 1
    orm = Token.objects.select_related("user").get(key=key)
    fields = [f.attname for f in get_user_model()._meta.concrete_fields]
    assert [getattr(user, f) for f in fields] == [getattr(orm.user, f) for f in fields]
    assert (token.key, token.user_id, token.created) == (orm.key, orm.user_id, orm.created)
    assert token.user is user and user.date_joined.tzinfo is not None
    assert user_for_key("0" * 40) is None


def test_an_unknown_a_revoked_and_an_inactive_users_token_are_refused(make_player):
    player = make_player()
    assert player.get("/api/notifications/").status_code == 200
    key = player._credentials["HTTP_AUTHORIZATION"].split()[1]
    Token.objects.filter(key=key).delete()  # revoked: the next request is refused
    assert_error(player.get("/api/notifications/"), 401, "not_authenticated")

    other = make_player()
    other_key = other._credentials["HTTP_AUTHORIZATION"].split()[1]
    get_user_model().objects.filter(auth_token__key=other_key).update(is_active=False)
    answer = other.get("/api/notifications/")
    assert_error(answer, 401, "not_authenticated")
    assert "inactive" in answer.json()["error"]["message"]
