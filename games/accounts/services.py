"""Accounts: registration and tokens (DRF's Token model). Names are compared folded
(games.accounts.names): a reserved name or a look-alike of a taken one is `username_taken`."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games.accounts.models import AccountName
from games.accounts.names import IMPORTER, folded, reserved
from games.core.errors import ApiError
from games.engine.errors import Code

__all__ = ["IMPORTER", "name_taken", "token_for", "user_register"]


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
        with transaction.atomic():  # the user's AccountName is written with him (unique)
            user = users.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ApiError(Code.USERNAME_TAKEN, "that username is taken") from None
    return Token.objects.create(user=user).key, user.username


def token_for(*, username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None:
        raise ApiError(Code.NOT_AUTHENTICATED, "wrong username or password")
    return Token.objects.get_or_create(user=user)[0].key


def account_made(sender, instance, created: bool, raw: bool = False, **_) -> None:
    """post_save of the user model: a new user's folded name, in his transaction (a look-alike
    of a taken name fails there with IntegrityError)."""
    if created and not raw:
        AccountName.objects.create(user=instance, folded=folded(instance.username))
