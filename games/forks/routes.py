"""REST routes of forks, notes and odds of finished games (API.md, "Play on from a moment,
notes and odds"): thin — parse, call one service."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, json_object
from games.forks import services
from games.table import selectors
from games.table.serializers import ViewSerializer

FORK = inline_serializer("ForkRequest", {
    "at": serializers.IntegerField(help_text="the seq the fork starts right after"),
    "seats": serializers.ListField(child=serializers.ChoiceField(services.SEAT_KINDS),
                                   help_text="one per seat of the source"),
    "deal": serializers.ChoiceField(["same", "fresh"]),
})  # fmt: skip


class ForksApi(Api):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(operation_id="forks_list", responses=answers(200, OpenApiTypes.OBJECT, 404))
    def get(self, request: Request, game_id: int) -> Response:
        return Response(services.fork_list(game_id))

    @extend_schema(operation_id="forks_create", request=FORK,
                   responses=answers(201, ViewSerializer, 400, 401, 404, 409))  # fmt: skip
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object(request, {"at", "seats", "deal"})
        done = services.fork_create(
            user=request.user,
            game_id=game_id,
            at=body.get("at"),
            seats=body.get("seats"),
            deal=body.get("deal", "same"),
        )
        view = selectors.game_view(done.game_id, done.state, request.user, seq=done.seq,
                                   deadline=done.deadline_at)  # fmt: skip
        return Response(view, status=status.HTTP_201_CREATED)
