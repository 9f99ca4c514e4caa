"""REST endpoints of API.md for accounts and games (replays and audits: replays/): thin —
parse, authorize, call one service or selector."""

from __future__ import annotations

import functools

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, choice_param, int_param, json_object
from games.core import replicas
from games.engine.state import VARIANTS
from games.table import away, commands, lobby, selectors, spectating, vacations
from games.table.replica_reads import replica_may_serve
from games.table.serializers import (
    CommandAnswerSerializer,
    CommandSerializer,
    CreateGameSerializer,
    EventsSerializer,
    GameSummarySerializer,
    JoinSerializer,
    ViewSerializer,
)  # fmt: skip

STATUSES = ("lobby", "active", "ended")


class GamesApi(Api):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        operation_id="games_list",
        parameters=[
            OpenApiParameter("status", str, enum=list(STATUSES)),
            OpenApiParameter("variant", str, enum=list(VARIANTS)),
            OpenApiParameter("player", str, description="games with this username seated"),
        ],
        responses=answers(200, GameSummarySerializer(many=True), 400),
    )
    def get(self, request: Request) -> Response:
        player = request.query_params.get("player")
        # The lobby lists may lag (a replica's); the caller's own games are his own read.
        own = player is not None and player == request.user.username
        read = lobby.lobby if own else functools.partial(replicas.read_lagging, lobby.lobby)
        return Response(read(choice_param(request, "status", STATUSES), request.user,
                             variant=choice_param(request, "variant", VARIANTS),
                             player=player))  # fmt: skip

    @extend_schema(request=CreateGameSerializer,
                   responses=answers(201, ViewSerializer, 400, 401, 429))  # fmt: skip
    def post(self, request: Request) -> Response:
        body = json_object(request, {"seats", "variant", "options", "rig"})
        done = commands.game_create(user=request.user, seats=body.get("seats"),
                                    variant=body.get("variant", "standard"),
                                    options=body.get("options"), rig=body.get("rig"),
                                    capped=True)  # fmt: skip
        view = selectors.game_view(done.game_id, done.state, request.user, seq=done.seq,
                                   deadline=done.deadline_at)  # fmt: skip
        return Response(view, status=status.HTTP_201_CREATED)


class GameApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses=answers(200, ViewSerializer, 404))
    @replica_may_serve  # a spectator's, or of an ended game
    def get(self, request: Request, game_id: int) -> Response:
        return Response(spectating.game_detail(game_id, request.user))


class JoinApi(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=JoinSerializer, responses=answers(200, ViewSerializer, 400, 401, 404, 409)
    )
    def post(self, request: Request, game_id: int) -> Response:
        seat = json_object(request, {"seat"}).get("seat")
        done = commands.game_join(user=request.user, game_id=game_id, seat=seat)
        return Response(selectors.game_view(game_id, done.state, request.user, seq=done.seq,
                                            deadline=done.deadline_at))  # fmt: skip


class CommandsApi(Api):
    permission_classes = [IsAuthenticated]
    throttle_scope = "commands"

    @extend_schema(
        request=CommandSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses=answers(200, CommandAnswerSerializer, 400, 401, 404, 409, 413, 415, 422),
    )
    def post(self, request: Request, game_id: int) -> Response:
        answer = commands.game_command(user=request.user, game_id=game_id, body=request.data,
                                       key=request.headers.get("Idempotency-Key"))  # fmt: skip
        return Response(answer)


class EventsApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("after", int)],
        responses=answers(200, EventsSerializer, 400, 404),
    )
    @replica_may_serve  # a spectator's, or of an ended game
    def get(self, request: Request, game_id: int) -> Response:
        after = int_param(request, "after", 0)
        return Response({"events": spectating.game_events(game_id, request.user, after=after)})


def _answer(request: Request, game_id: int, done) -> Response:
    view = selectors.game_view(game_id, done.state, request.user, seq=done.seq,
                               deadline=done.deadline_at)  # fmt: skip
    return Response({"seq": done.seq, "view": view})


SEAT_ANSWERS = answers(200, CommandAnswerSerializer, 400, 401, 403, 404, 409)


class LeaveApi(Api):
    """Leave a running game: the bot plays your seat to the end (`away: "bot"`); you stay a
    player of the record (you cannot win) and may still read your view."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=SEAT_ANSWERS)
    def post(self, request: Request, game_id: int) -> Response:
        json_object(request, set())
        return _answer(request, game_id, away.game_leave(user=request.user, game_id=game_id))


class ReturnApi(Api):
    """Take your seat back from the bot that took it after your timeouts in a row."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=SEAT_ANSWERS)
    def post(self, request: Request, game_id: int) -> Response:
        json_object(request, set())
        return _answer(request, game_id, away.game_return(user=request.user, game_id=game_id))


VacationSerializer = inline_serializer("Vacation", {
    "until": serializers.DateTimeField(allow_null=True),
    "days_left": serializers.IntegerField(),
    "days_per_year": serializers.IntegerField(),
})  # fmt: skip


class VacationApi(Api):
    """Your vacation: every running game of yours stands still until it ends."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=answers(200, VacationSerializer, 401))
    def get(self, request: Request) -> Response:
        return Response(vacations.vacation_status(request.user))

    @extend_schema(
        request=inline_serializer("VacationDeclare", {"days": serializers.IntegerField()}),
        responses=answers(200, VacationSerializer, 400, 401),
    )
    def post(self, request: Request) -> Response:
        days = json_object(request, {"days"}).get("days")
        return Response(vacations.vacation_start(user=request.user, days=days))

    @extend_schema(request=None, responses=answers(200, VacationSerializer, 400, 401))
    def delete(self, request: Request) -> Response:
        return Response(vacations.vacation_end(user=request.user))
