"""REST endpoints of API.md, Tournaments: thin — parse, authorize, call one service or
selector."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, int_param, json_object
from games.tournaments import selectors, services

VIEW = answers(200, OpenApiTypes.OBJECT, 400, 401, 403, 404, 409)


class TournamentsApi(Api):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=list(selectors.STATUSES))],
                   responses=answers(200, OpenApiTypes.OBJECT, 400))  # fmt: skip
    def get(self, request: Request) -> Response:
        return Response(selectors.tournament_list(request.query_params.get("status")))

    @extend_schema(request=OpenApiTypes.OBJECT,
                   responses=answers(201, OpenApiTypes.OBJECT, 400, 401))  # fmt: skip
    def post(self, request: Request) -> Response:
        proj = services.tournament_create(user=request.user, body=request.data)
        return Response(selectors.view(proj), status=status.HTTP_201_CREATED)


class TournamentApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses=answers(200, OpenApiTypes.OBJECT, 404))
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(selectors.tournament_view(tournament_id))


class _Act(Api):
    permission_classes = [IsAuthenticated]
    service: Any = None  # the service a subclass answers with (staticmethod)

    @extend_schema(request=None, responses=VIEW)
    def post(self, request: Request, tournament_id: int) -> Response:
        json_object(request, set())
        proj = type(self).service(user=request.user, tournament_id=tournament_id)
        return Response(selectors.view(proj))


class JoinApi(_Act):
    service = staticmethod(services.tournament_join)


class LeaveApi(_Act):
    service = staticmethod(services.tournament_leave)


class StartApi(_Act):
    service = staticmethod(services.tournament_start)


class EventsApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("after", int)],
                   responses=answers(200, OpenApiTypes.OBJECT, 400, 404))  # fmt: skip
    def get(self, request: Request, tournament_id: int) -> Response:
        after = int_param(request, "after", 0)
        return Response({"events": selectors.tournament_events(tournament_id, after)})
