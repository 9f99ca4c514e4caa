"""Accounts: registration and tokens (DRF's Token model). Names are compared folded
(games.accounts.names): a reserved name or a look-alike of a taken one is `username_taken`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games.accounts.models import AccountName
from games.accounts.names import IMPORTER, folded, reserved
from games.core.errors import ApiError
from games.engine.errors import Code

__all__ = ["IMPORTER", "account_renamed", "name_taken", "token_for", "user_create",
           "user_register"]  # fmt: skip


def name_taken(username: str) -> str | None:
    """Why `username` cannot be registered (any spelling of a reserved or taken name), or None."""
    if reserved(username):
        return "that name is reserved"
    if AccountName.objects.filter(folded=folded(username)).exists():
        return "that username is taken"
    return None


def user_register(*, username: str, password: str) -> tuple[str, str]:
    """Create a user; returns (token, username). Reserved names and look-alikes of taken ones
    (NFKC, case folding) are refused `username_taken`."""
    why = name_taken(username)
    if why is not None:
        raise ApiError(Code.USERNAME_TAKEN, why)
    users = get_user_model()
    try:
        validate_password(password, users(username=username))
    except ValidationError as err:
        raise ApiError(Code.INVALID, " ".join(err.messages)) from None
    try:
        user = user_create(username=username, password=password)
    except IntegrityError:
        raise ApiError(Code.USERNAME_TAKEN, "that username is taken") from None
    return Token.objects.create(user=user).key, user.username


def token_for(*, username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None:
        raise ApiError(Code.NOT_AUTHENTICATED, "wrong username or password")
    return Token.objects.get_or_create(user=user)[0].key


def user_create(*, username: str, password: str | None = None, superuser: bool = False,
                **fields: Any):  # fmt: skip
    """The one way a user is made (the API, the sign-up page, the importer, createsuperuser,
    the admin's form through `account_named`): the user and his folded name in one transaction.
    IntegrityError: the name, or a look-alike of it (games.accounts.names), is taken. No
    signal (STYLE.md): tests/accounts/test_account_names.py fails if a path makes users
    otherwise."""
    users = get_user_model()
    make = users.objects.create_superuser if superuser else users.objects.create_user
    with transaction.atomic():
        user = make(username=username, password=password, **fields)
        account_named(user)
    return user


def account_named(user) -> None:
    """Write the folded name of a user just saved by a form that made him (the admin's):
    inside the caller's transaction. IntegrityError: a look-alike of a taken name."""
    AccountName.objects.create(user=user, folded=folded(user.username))


def account_renamed(user) -> None:
    """After a user's name was changed (the admin's form): his folded name follows, inside the
    caller's transaction (IntegrityError: a look-alike of a taken name)."""
    AccountName.objects.update_or_create(user=user, defaults={"folded": folded(user.username)})
