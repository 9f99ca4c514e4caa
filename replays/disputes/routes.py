"""REST endpoints for disputes: thin — parse, authorize, call one service or selector."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, json_object
from replays.disputes import services as disputes
from replays.disputes.models import REASON_MAX_LENGTH


class DisputeOpenSerializer(serializers.Serializer):
    """The request shape, for the schema; `disputes.dispute_open` checks it."""

    reason = serializers.CharField(max_length=REASON_MAX_LENGTH)
    seq = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, help_text="the event the dispute is about"
    )


class GameDisputesApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DisputeOpenSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object(request, {"reason", "seq"})
        dispute = disputes.dispute_open(user=request.user, game_id=game_id,
                                        reason=body.get("reason"), seq=body.get("seq"))  # fmt: skip
        return Response(disputes.dispute_payload(dispute), status=status.HTTP_201_CREATED)


class DisputesApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="disputes_list",
        parameters=[OpenApiParameter("status", str, enum=["open", "resolved", "rejected"])],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        status_ = request.query_params.get("status")
        return Response({"disputes": disputes.dispute_list(request.user, status=status_)})


class DisputeApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, dispute_id: int) -> Response:
        return Response(disputes.dispute_detail(request.user, dispute_id))
