"""REST routes of standing orders (issue 10; API.md "Correspondence"): the caller's own order
for one game he sits in, and his default. Thin: parse, authorize,
call games.table.standing_orders."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers
from games.engine import ORDERS
from games.table import standing_orders


class StandingOrderBodySerializer(serializers.Serializer):
    block = serializers.ChoiceField(choices=list(ORDERS), allow_null=True,
                                    help_text="null removes the order")  # fmt: skip


class StandingOrderSerializer(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True, help_text="null: the default")
    block = serializers.ChoiceField(choices=list(ORDERS), allow_null=True)
    at = serializers.DateTimeField(allow_null=True, help_text="when it was set")
    applies = serializers.ChoiceField(
        choices=list(ORDERS), allow_null=True,
        help_text="what answers the caller's block windows here: the game's order, else the "
        "default; null: he is asked",
    )  # fmt: skip


class GameStandingOrderApi(Api):
    """The caller's standing order for this game (a seated player only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=answers(200, StandingOrderSerializer, 401, 403, 404))
    def get(self, request: Request, game_id: int) -> Response:
        return Response(standing_orders.order_get(user=request.user, game_id=game_id))

    @extend_schema(
        request=StandingOrderBodySerializer,
        responses=answers(200, StandingOrderSerializer, 400, 401, 403, 404, 409),
    )
    def put(self, request: Request, game_id: int) -> Response:
        return Response(standing_orders.order_set(user=request.user, game_id=game_id,
                                                  body=request.data))  # fmt: skip


class MyStandingOrderApi(Api):
    """The caller's default standing order, for every game without an order of its own."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=answers(200, StandingOrderSerializer, 401))
    def get(self, request: Request) -> Response:
        return Response(standing_orders.order_get(user=request.user, game_id=None))

    @extend_schema(
        request=StandingOrderBodySerializer,
        responses=answers(200, StandingOrderSerializer, 400, 401),
    )
    def put(self, request: Request) -> Response:
        return Response(standing_orders.order_set(user=request.user, game_id=None,
                                                  body=request.data))  # fmt: skip
