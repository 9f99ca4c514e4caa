"""REST routes of notifications and mail preferences (API.md "Notifications"): thin."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, json_object
from games.notifications import services
from games.notifications.derive import KINDS
from games.notifications.models import NotificationPrefs

NOTIFICATION_FIELDS: dict[str, serializers.Field] = {
    "id": serializers.IntegerField(),
    "kind": serializers.ChoiceField(KINDS),
    "game": serializers.IntegerField(),
    "seq": serializers.IntegerField(),
    "at": serializers.DateTimeField(),
    "read": serializers.BooleanField(),
}
ListShape = inline_serializer(
    "Notifications",
    {
        "notifications": inline_serializer("Notification", NOTIFICATION_FIELDS, many=True),
        "unread": serializers.IntegerField(),
    },
)
UnreadShape = inline_serializer("Unread", {"unread": serializers.IntegerField()})
ReadBody = inline_serializer("NotificationsRead", {
    "ids": serializers.ListField(child=serializers.IntegerField(), required=False),
    "all": serializers.BooleanField(required=False),
})  # fmt: skip
PrefsShape = inline_serializer("Preferences", {
    "email": serializers.EmailField(allow_null=True),
    "email_mode": serializers.ChoiceField(NotificationPrefs.MODES),
    "language": serializers.ChoiceField(NotificationPrefs.LANGUAGES),
    "push": serializers.BooleanField(),
})  # fmt: skip


class NotificationsApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("unread", int, enum=[0, 1], description="1: unread only")],
        responses=answers(200, ListShape, 401),
    )
    def get(self, request: Request) -> Response:
        only = request.query_params.get("unread") in ("1", "true")
        return Response(services.notifications_list(user=request.user, unread_only=only))


class NotificationsReadApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReadBody, responses=answers(200, UnreadShape, 400, 401))
    def post(self, request: Request) -> Response:
        body = json_object(request, {"ids", "all"})
        return Response(services.notifications_read(user=request.user, body=body))


class PreferencesApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=answers(200, PrefsShape, 401))
    def get(self, request: Request) -> Response:
        return Response(services.prefs_get(user=request.user))

    @extend_schema(request=PrefsShape, responses=answers(200, PrefsShape, 400, 401))
    def put(self, request: Request) -> Response:
        body = json_object(request, {"email", "email_mode", "language", "push"})
        return Response(services.prefs_set(user=request.user, body=body))
