"""REST routes of the chat (API.md, Correspondence: Chat): thin — parse, call chat_services."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, json_object
from games.chat import rules as chat_rules
from games.chat import services as chat_services
from games.core.errors import ApiError
from games.engine.errors import Code

MESSAGE = inline_serializer("ChatMessage", {
    "id": serializers.IntegerField(), "channel": serializers.ChoiceField(chat_rules.CHANNELS),
    "author": serializers.CharField(), "text": serializers.CharField(),
    "at": serializers.DateTimeField(),
    "hidden": serializers.BooleanField(help_text="hidden by staff: the text is empty"),
})  # fmt: skip
PAGE = inline_serializer("ChatPage", {
    "messages": serializers.ListField(child=MESSAGE),
    "more": serializers.BooleanField(help_text="a later page exists: ask with after=<last id>"),
})  # fmt: skip
POST = inline_serializer("ChatPost", {
    "channel": serializers.ChoiceField(chat_rules.CHANNELS),
    "text": serializers.CharField(max_length=chat_rules.MAX_LENGTH),
})  # fmt: skip
HIDE = inline_serializer("ChatHide", {
    "channel": serializers.ChoiceField(chat_rules.CHANNELS),
    "id": serializers.IntegerField(help_text="the message's id in its channel"),
    "team": serializers.IntegerField(required=False, help_text="partners only: the pair"),
    "reason": serializers.CharField(max_length=chat_rules.MAX_LENGTH),
})  # fmt: skip


class ChatApi(Api):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        operation_id="chat_read",
        parameters=[
            OpenApiParameter("channel", str, enum=list(chat_rules.CHANNELS),
                             description="default: table"),
            OpenApiParameter("after", int,
                             description="the messages after this id (absent: the newest)"),
        ],
        responses=answers(200, PAGE, 400, 403, 404),
    )  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        after = request.query_params.get("after")
        return Response(chat_services.chat_read(
            user=request.user, game_id=game_id,
            channel=request.query_params.get("channel", chat_rules.TABLE),
            after=None if after is None else _whole(after)))  # fmt: skip

    @extend_schema(operation_id="chat_post", request=POST,
                   responses=answers(201, MESSAGE, 400, 401, 403, 404, 429))  # fmt: skip
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object(request, {"channel", "text"})
        message = chat_services.chat_post(
            user=request.user, game_id=game_id, channel=body.get("channel"), text=body.get("text")
        )
        return Response(message, status=status.HTTP_201_CREATED)


class ChatHideApi(Api):
    """Staff only: hide a message (recorded with who, when and why)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="chat_hide", request=HIDE,
                   responses=answers(200, MESSAGE, 400, 401, 403, 404))  # fmt: skip
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object(request, {"channel", "id", "team", "reason"})
        return Response(chat_services.chat_hide(user=request.user, game_id=game_id,
                                                channel=body.get("channel"),
                                                message_id=body.get("id"), team=body.get("team"),
                                                reason=body.get("reason")))  # fmt: skip


def _whole(raw: str) -> int:
    """An id: digits only, and no more than a bigint holds (a longer one would reach the
    database as an overflow, a 500)."""
    if not raw.isdigit() or len(raw) > 18:
        raise ApiError(Code.INVALID, "query parameter after must be a whole number")
    return int(raw)
