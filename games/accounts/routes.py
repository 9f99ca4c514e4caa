"""REST routes of accounts (API.md "Accounts"): register and sign in for a token. Thin: parse,
call games.accounts.services."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games.accounts import services
from games.api.base import Api, answers, json_object
from games.api.serializers import TextField, TextRegexField


class CredentialsSerializer(serializers.Serializer):
    username = TextRegexField(r"^[\w.@+-]{1,40}$", max_length=40)
    password = TextField(max_length=128, trim_whitespace=False)


class RegisteredSerializer(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class CredentialsApi(Api):
    """Anyone may try, at the `register` rate (a password guesser is throttled)."""

    permission_classes = [AllowAny]
    throttle_scope = "register"


class RegisterApi(CredentialsApi):
    @extend_schema(
        request=CredentialsSerializer, responses=answers(201, RegisteredSerializer, 400, 409, 429)
    )
    def post(self, request: Request) -> Response:
        token, username = services.user_register(**_credentials(request))
        return Response({"token": token, "username": username}, status=status.HTTP_201_CREATED)


class TokenApi(CredentialsApi):
    @extend_schema(
        request=CredentialsSerializer, responses=answers(200, TokenSerializer, 400, 401, 429)
    )
    def post(self, request: Request) -> Response:
        return Response({"token": services.token_for(**_credentials(request))})


def _credentials(request: Request) -> dict:
    """{"username", "password"} from the body, or a 400 naming what is wrong."""
    data = CredentialsSerializer(data=json_object(request, {"username", "password"}))
    data.is_valid(raise_exception=True)
    return data.validated_data
