"""Accounts: registration and tokens (DRF's Token model)."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games.core.errors import ApiError
from games.engine.errors import Code
from games.engine.setup import BOT_NAME

IMPORTER = "importer"  # owns imported games (replays.exports); their players are not rated here


def user_register(*, username: str, password: str) -> tuple[str, str]:
    """Create a user; returns (token, username). The bot's name is reserved."""
    if username.lower() == BOT_NAME:
        raise ApiError(Code.USERNAME_TAKEN, "that name is reserved for the built-in bot")
    if username.lower() == IMPORTER:
        raise ApiError(Code.USERNAME_TAKEN, "that name is reserved for imported games")
    users = get_user_model()
    try:
        validate_password(password, users(username=username))
    except ValidationError as err:
        raise ApiError(Code.INVALID, " ".join(err.messages)) from None
    try:
        with transaction.atomic():
            user = users.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise ApiError(Code.USERNAME_TAKEN, "that username is taken") from None
    return Token.objects.create(user=user).key, user.username


def token_for(*, username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None:
        raise ApiError(Code.NOT_AUTHENTICATED, "wrong username or password")
    return Token.objects.get_or_create(user=user)[0].key
