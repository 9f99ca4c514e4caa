"""REST endpoints of API.md: thin — parse, authorize, call one service or selector."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import accounts, selectors, services
from games.errors import ApiError
from games.serializers import (
    CommandSerializer,
    CreateGameSerializer,
    CredentialsSerializer,
    JoinSerializer,
)  # fmt: skip
from replays.verification import audit_report

MAX_KEY_LENGTH = 200


def _object(request: Request) -> dict:
    if not isinstance(request.data, dict):
        raise ApiError("invalid", "the body is a JSON object")
    return request.data


def _int_param(request: Request, name: str, default: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None and default is not None:
        return default
    try:
        value = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ApiError("invalid", f"query parameter {name} must be a whole number") from None
    if value < 0:
        raise ApiError("invalid", f"query parameter {name} must not be negative")
    return value


class RegisterApi(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "register"

    @extend_schema(request=CredentialsSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=_object(request))
        data.is_valid(raise_exception=True)
        token, username = accounts.user_register(**data.validated_data)
        return Response({"token": token, "username": username}, status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "register"

    @extend_schema(request=CredentialsSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=_object(request))
        data.is_valid(raise_exception=True)
        return Response({"token": accounts.token_for(**data.validated_data)})


class GamesApi(APIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=["lobby", "active", "ended"]),
            OpenApiParameter("variant", str, enum=["standard", "pairs", "pairs_extreme"]),
            OpenApiParameter("player", str, description="games with this username seated"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        status_ = request.query_params.get("status")
        if status_ not in (None, "lobby", "active", "ended"):
            raise ApiError("invalid", "status is lobby, active or ended")
        return Response(selectors.lobby(status_, variant=request.query_params.get("variant"),
                                        player=request.query_params.get("player")))  # fmt: skip

    @extend_schema(request=CreateGameSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        body = _object(request)
        unknown = set(body) - {"seats", "variant", "options", "rig"}
        if unknown:
            raise ApiError("invalid", f"unknown fields: {', '.join(sorted(unknown))}")
        done = services.game_create(user=request.user, seats=body.get("seats"),
                                    variant=body.get("variant", "standard"),
                                    options=body.get("options"), rig=body.get("rig"))  # fmt: skip
        view = selectors.game_view(done.game_id, done.state, request.user, seq=done.seq,
                                   deadline=done.deadline_at)  # fmt: skip
        return Response(view, status=status.HTTP_201_CREATED)


class GameApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.game_detail(game_id, request.user))


class JoinApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=JoinSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, game_id: int) -> Response:
        body = request.data if request.data else {}
        if not isinstance(body, dict):
            raise ApiError("invalid", "the body is a JSON object")
        done = services.game_join(user=request.user, game_id=game_id, seat=body.get("seat"))
        return Response(selectors.game_view(game_id, done.state, request.user, seq=done.seq,
                                            deadline=done.deadline_at))  # fmt: skip


class CommandsApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "commands"

    @extend_schema(
        request=CommandSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses={200: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, game_id: int) -> Response:
        key = request.headers.get("Idempotency-Key")
        if key is not None and not 1 <= len(key) <= MAX_KEY_LENGTH:
            raise ApiError("invalid", f"Idempotency-Key is 1..{MAX_KEY_LENGTH} characters")
        answer = services.game_command(user=request.user, game_id=game_id, body=request.data,
                                       key=key)  # fmt: skip
        return Response(answer)


class EventsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("after", int)], responses={200: OpenApiTypes.OBJECT}
    )
    def get(self, request: Request, game_id: int) -> Response:
        after = _int_param(request, "after", 0)
        return Response({"events": selectors.game_events(game_id, request.user, after=after)})


class ReplayApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("at", int, required=True)],
                   responses={200: OpenApiTypes.OBJECT})  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.replay(game_id, request.user, at=_int_param(request, "at")))


class AuditApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game_id: int) -> Response:
        proj, _ = selectors.current(game_id)
        if proj.status != "ended" and not request.user.is_staff:
            raise ApiError("forbidden", "the audit opens when the game ends (or for staff)")
        return Response(audit_report(game_id))
