"""REST routes of Web Push (API.md "Push notifications and the installable page"): thin."""

from __future__ import annotations

from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, json_object
from games.webpush import services

KeyShape = inline_serializer("PushKey", {"public_key": serializers.CharField()})
SUBSCRIPTION_FIELDS = {
    "endpoint": serializers.URLField(),
    "created": serializers.DateTimeField(),
    "last_used": serializers.DateTimeField(allow_null=True),
}
SubscriptionShape = inline_serializer("PushSubscription", SUBSCRIPTION_FIELDS)
SubscriptionList = inline_serializer("PushSubscriptions", SUBSCRIPTION_FIELDS, many=True)
SubscribeBody = inline_serializer("PushSubscribe", {
    "endpoint": serializers.URLField(),
    "keys": inline_serializer("PushKeys", {"p256dh": serializers.CharField(),
                                           "auth": serializers.CharField()}),
    "expirationTime": serializers.IntegerField(allow_null=True, required=False),
})  # fmt: skip
UnsubscribeBody = inline_serializer("PushUnsubscribe", {"endpoint": serializers.URLField()})


class PushKeyApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses=answers(200, KeyShape))
    def get(self, request: Request) -> Response:
        return Response(services.key_view())


class PushSubscriptionsApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=answers(200, SubscriptionList, 401))
    def get(self, request: Request) -> Response:
        return Response(services.subscriptions(user=request.user))

    @extend_schema(request=SubscribeBody, responses=answers(201, SubscriptionShape, 400, 401))
    def post(self, request: Request) -> Response:
        body = json_object(request, {"endpoint", "keys", "expirationTime"})
        view, new = services.subscribe(user=request.user, body=body, language=get_language())
        return Response(view, status=201 if new else 200)

    @extend_schema(request=UnsubscribeBody, responses=answers(204, None, 400, 401))
    def delete(self, request: Request) -> Response:
        services.unsubscribe(user=request.user, body=json_object(request, {"endpoint"}))
        return Response(status=204)
