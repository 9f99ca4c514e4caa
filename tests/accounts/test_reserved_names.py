"""Issue 32, item 1: user names are compared after NFKC and case folding, reserved names cannot
be taken by any spelling, and seats are a user's by id, never by name: an account called "bot"
(made before the fix, or by the admin) is not the built-in bot anywhere."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


def _register(client_name: str):
    from rest_framework.test import APIClient

    return APIClient().post("/api/auth/register/",
                            {"username": client_name, "password": "s3cret-pass-1"},
                            format="json")  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["ｂｏｔ", "BOT", "ｉｍｐｏｒｔｅｒ", "Importer", "admin", "ＳＴＡＦＦ", "system"]
)
def test_a_reserved_name_cannot_be_taken_by_any_spelling(name):
    """Mutant: the reserved check on the raw name (before NFKC) → "ｂｏｔ" became "bot" (201)."""
    answer = _register(name)
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"]["code"] == "username_taken"


@pytest.mark.django_db
def test_a_look_alike_of_a_taken_name_is_taken():
    """Mutant: uniqueness by the stored spelling only → "ＥＶＡ" and "Eva" beside "eva" (201)."""
    assert _register("eva").status_code == 201
    for look_alike in ("Eva", "ＥＶＡ", "EVA"):
        answer = _register(look_alike)
        assert answer.status_code == 409, (look_alike, answer.content)
        assert answer.json()["error"]["code"] == "username_taken"
    assert _register("straße").status_code == 201
    assert _register("STRASSE").status_code == 409  # casefold, not lower()


@pytest.mark.django_db
def test_the_signup_page_refuses_a_look_alike_of_a_reserved_name(client):
    page = client.post("/signup/", {"username": "ｂｏｔ", "password1": "s3cret-pass-1x",
                                     "password2": "s3cret-pass-1x"})  # fmt: skip
    assert page.status_code == 200  # the form again, with its error
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="bot").exists()


@pytest.mark.django_db
def test_an_account_named_bot_holds_no_bot_seat(make_player, legacy_account):
    """Mutant: `commit._seated` by user name → the account "bot" passes the seat check of a
    bot seat, and its command is judged on the seq (409 stale_seq naming the present)."""
    eva = make_player()
    created = eva.post("/api/games/", {"seats": 2, "options": {"bots": [1]}}, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    assert eva.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json").status_code == 200
    impostor = legacy_account("bot")
    answer = impostor.post(f"/api/games/{gid}/commands/", {"expected_seq": 0, "type": "pass"},
                           format="json")  # fmt: skip
    assert answer.status_code == 403, answer.content
    assert answer.json()["error"]["code"] == "forbidden"
    assert impostor.get(f"/api/games/{gid}/").json()["you"] is None


@pytest.mark.django_db
def test_an_account_named_bot_is_no_bots_partner(make_player, legacy_account):
    """Mutant: `chat_seat` matching bot seats by name → the account "bot" reads and writes the
    partners' chat of a pair whose partner is a bot."""
    eva = make_player()
    created = eva.post("/api/games/", {"seats": 4, "variant": "pairs",
                                       "options": {"bots": [2]}}, format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, who in ((0, eva), (1, make_player()), (3, make_player())):
        joined = who.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    said = eva.post(f"/api/games/{gid}/chat/", {"channel": "partners", "text": "psst"},
                    format="json")  # fmt: skip
    assert said.status_code == 201, said.content
    impostor = legacy_account("bot")
    read = impostor.get(f"/api/games/{gid}/chat/?channel=partners")
    assert read.status_code == 403, read.content  # eva's partner is the bot at seat 2
    wrote = impostor.post(f"/api/games/{gid}/chat/", {"channel": "partners", "text": "hi"},
                          format="json")  # fmt: skip
    assert wrote.status_code == 403, wrote.content


@pytest.mark.django_db
def test_look_alike_accounts_are_listed(legacy_account):
    """The management command lists existing accounts whose folded names collide with each
    other or with a reserved name."""
    legacy_account("bot")
    legacy_account("Eva")
    legacy_account("eva")
    legacy_account("alone")
    out = io.StringIO()
    call_command("look_alike_accounts", stdout=out)
    text = out.getvalue()
    assert "bot" in text and "reserved" in text
    assert "Eva" in text and "eva" in text
    assert "alone" not in text
