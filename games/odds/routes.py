"""REST route of a finished game's odds (API.md, "Play on from a moment, notes and odds")."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers
from games.odds import services


class OddsApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="odds_read",
                   responses=answers(200, OpenApiTypes.OBJECT, 404, 409))  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        code, body = services.odds_get(game_id)
        return Response(body, status=code)
