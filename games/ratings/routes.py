"""REST endpoints of API.md's "Players": a profile with its rating history, the leaderboard."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, choice_param
from games.core import replicas
from games.engine.state import VARIANTS
from games.ratings import selectors as rating_selectors


def _rating(name: str) -> serializers.Serializer:
    return inline_serializer(name, {"mu": serializers.FloatField(),
                                    "sigma": serializers.FloatField(),
                                    "ordinal": serializers.FloatField()})  # fmt: skip


VariantStats = inline_serializer("PlayerVariant", {
    "rating": _rating("VariantRating"), "games": serializers.IntegerField(),
    "wins": serializers.IntegerField(),
})  # fmt: skip

Profile = inline_serializer("PlayerProfile", {
    "username": serializers.CharField(),
    "rating": _rating("Rating"),
    "games": serializers.IntegerField(),
    "wins": serializers.IntegerField(),
    "by_variant": serializers.DictField(child=VariantStats),
    "history": inline_serializer("RatingPoint", {
        "game": serializers.IntegerField(), "ordinal": serializers.FloatField(),
        "at": serializers.DateTimeField(),
    }, many=True),
})  # fmt: skip

Standing = inline_serializer("LeaderboardRow", {
    "username": serializers.CharField(), "ordinal": serializers.FloatField(),
    "games": serializers.IntegerField(),
}, many=True)  # fmt: skip


class PlayerApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses=answers(200, Profile, 404))
    def get(self, request: Request, username: str) -> Response:
        if username == request.user.username:  # his own: the primary's (read-your-writes)
            return Response(rating_selectors.player_profile(username))
        return Response(replicas.read_lagging(rating_selectors.player_profile, username))


class LeaderboardApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("variant", str, enum=list(VARIANTS),
                                     description="rank by the rating in this variant only")],
        responses=answers(200, Standing, 400),
    )  # fmt: skip
    @replicas.lagging_reads_ok
    def get(self, request: Request) -> Response:
        variant = choice_param(request, "variant", VARIANTS)
        return Response(rating_selectors.leaderboard(variant))
