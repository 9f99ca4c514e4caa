"""Issue 32 (STYLE.md: no signals): a user's folded name (`AccountName`) is written by explicit
calls, not a post_save receiver: `games.accounts.services.user_create` is the one way a user is
made, and the admin's saves and createsuperuser write it in their transactions. Each path that
makes a user is walked here and must leave his folded name; the guard at the end fails if a new
path makes users without `user_create`.

Before: with the receiver removed and nothing in its place, every path but none left the name
(the paths' tests fail); with the receiver, the guard failed (it names `post_save`)."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from games.accounts.models import AccountName
from games.accounts.names import folded

ROOT = Path(__file__).resolve().parents[2]


def _named(username: str) -> bool:
    user = get_user_model().objects.get(username=username)
    return AccountName.objects.filter(user=user, folded=folded(username)).exists()


@pytest.mark.django_db
def test_the_api_writes_the_name():
    body = {"username": "Eva", "password": "s3cret-pass-1"}
    answer = APIClient().post("/api/auth/register/", body, format="json")
    assert answer.status_code == 201 and _named("Eva")


@pytest.mark.django_db
def test_the_sign_up_page_writes_the_name():
    answer = Client().post("/signup/", {"username": "Olga", "password1": "s3cret-pass-1",
                                        "password2": "s3cret-pass-1"})  # fmt: skip
    assert answer.status_code == 302, answer.content[:500]
    assert _named("Olga")


@pytest.mark.django_db
def test_createsuperuser_writes_the_name_and_refuses_a_look_alike(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "s3cret-pass-1")
    call_command("createsuperuser", "--noinput", username="Marta", email="r@example.org",
                 stdout=io.StringIO())  # fmt: skip
    assert _named("Marta") and get_user_model().objects.get(username="Marta").is_superuser
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("createsuperuser", "--noinput", username="ＭＡＲＴＡ", email="x@example.org",
                     stdout=io.StringIO())  # fmt: skip
    assert not get_user_model().objects.filter(username="ＭＡＲＴＡ").exists()


@pytest.mark.django_db
def test_the_admin_writes_the_name_on_adding_and_renaming(admin_client):
    added = admin_client.post("/admin/auth/user/add/", {"username": "Petr",
                              "password1": "s3cret-pass-1", "password2": "s3cret-pass-1",
                              "usable_password": "true"})  # fmt: skip
    assert added.status_code == 302, added.content[:2000]
    assert _named("Petr")
    petr = get_user_model().objects.get(username="Petr")
    look_alike = admin_client.post("/admin/auth/user/add/", {"username": "ＰＥＴＲ",
                                   "password1": "s3cret-pass-1", "password2": "s3cret-pass-1",
                                   "usable_password": "true"})  # fmt: skip
    assert look_alike.status_code == 200  # the form again, with its error
    assert not get_user_model().objects.filter(username="ＰＥＴＲ").exists()
    renamed = admin_client.post(f"/admin/auth/user/{petr.pk}/change/", {
        "username": "Pavel", "is_active": "on", "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00"})  # fmt: skip
    assert renamed.status_code == 302, renamed.content[:2000]
    assert _named("Pavel")
    assert not AccountName.objects.filter(folded=folded("Petr")).exists()


@pytest.mark.django_db
def test_the_importer_writes_the_name(settings):
    settings.SEJMI_ALLOW_RIGGED = True
    from replays.exports import export_lines, import_file, read_file
    from tests.support.ended_game import ended_game
    from tests.support.players import register as player

    gid = ended_game(player(), player())
    import_file(read_file(list(export_lines(gid))))
    from games.accounts.names import IMPORTER

    assert _named(IMPORTER)


# The guard: nothing outside the accounts' services makes users, and nothing listens for it.

MAKERS = {"create_user", "create_superuser", "bulk_create"}


def _calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in {"create_user", "create_superuser"}:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.attr}")
        if isinstance(node, ast.Attribute) and node.attr in {"post_save", "pre_save"}:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}")
        if isinstance(node, ast.alias) and node.name in {"post_save", "pre_save", "receiver"}:
            found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)} {node.name}")
    return found


def test_no_path_makes_users_but_user_create_and_no_signal_listens():
    """Mutants caught: a new `create_user` outside games/accounts/services.py (its user would
    have no folded name, and a look-alike could be made), and a post_save receiver back."""
    allowed = {"games/accounts/services.py"}
    found = [
        call
        for package in ("games", "replays", "frontend", "sejmi")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and str(path.relative_to(ROOT)) not in allowed
        for call in _calls(path)
    ]
    assert found == [], found
