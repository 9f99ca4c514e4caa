"""REST endpoints for disputes: thin — parse, authorize, call one service or selector."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
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
        parameters=[
            OpenApiParameter("status", str, enum=["open", "resolved", "rejected"]),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        """One page (`?page=`, from 1; `?page_size=`, 50 by default, at most 200), oldest first:
        `{"disputes": [...], "count", "next", "previous"}` (next/previous: URLs or null).
        A page past the last → 404 not_found (issue 32: staff's list was one 954 KB answer)."""
        status_ = request.query_params.get("status")
        pages = DisputePages()
        page = pages.paginate_queryset(disputes.dispute_rows(request.user, status=status_),
                                       request, view=self)  # fmt: skip
        assert page is not None and pages.page is not None  # a page size is always set
        return Response({"disputes": [disputes.dispute_payload(d) for d in page],
                         "count": pages.page.paginator.count, "next": pages.get_next_link(),
                         "previous": pages.get_previous_link()})  # fmt: skip


class DisputePages(PageNumberPagination):
    page_size, page_size_query_param, max_page_size = 50, "page_size", 200


class DisputeApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, dispute_id: int) -> Response:
        return Response(disputes.dispute_detail(request.user, dispute_id))
