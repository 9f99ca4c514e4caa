"""REST route of the live stream: the single-use ticket that opens one websocket."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, json_object
from games.live import tickets


class WsTicketApi(Api):
    """A single-use ticket that opens one websocket as the caller (`?ticket=`): unlike the
    token it is worthless once used or expired, so an access log that keeps it leaks nothing."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses=answers(200, inline_serializer("WsTicket", {
            "ticket": serializers.CharField(), "expires_in": serializers.IntegerField(),
        }), 400, 401, 429),
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        json_object(request, set())
        return Response(tickets.ticket_issue(user=request.user))
