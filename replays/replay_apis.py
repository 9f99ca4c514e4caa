"""Replays for spectators: finished games to watch, markers, transcripts and export files."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import event_store, selectors
from games.engine.state import VARIANTS
from games.errors import ApiError
from replays.exports import export_lines
from replays.markers import markers
from replays.transcript import transcript


def _events(game_id: int):
    return [event_store.to_event(r) for r in event_store.load(game_id)]


class FinishedGamesApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("player", str),
                    OpenApiParameter("variant", str, enum=list(VARIANTS))],
        responses={200: OpenApiTypes.OBJECT},
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        variant = request.query_params.get("variant")
        if variant is not None and variant not in VARIANTS:  # as GET /api/games/ answers
            raise ApiError("invalid", f"query parameter variant is one of {', '.join(VARIANTS)}")
        games = selectors.lobby("ended", variant=variant,
                                player=request.query_params.get("player"))  # fmt: skip
        return Response(games)


class MarkersApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game_id: int) -> Response:
        selectors.current(game_id)  # 404 for an unknown game
        return Response({"markers": markers(_events(game_id))})


class TranscriptApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("lang", str, enum=["en", "cs"])],
                   responses={200: OpenApiTypes.OBJECT})  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        lang = request.query_params.get("lang", "en")
        if lang not in ("en", "cs"):
            raise ApiError("invalid", "lang is en or cs")
        _, state = selectors.current(game_id)
        viewer = selectors.seat_of(state, request.user)
        return Response({"lang": lang, "lines": transcript(_events(game_id), viewer=viewer,
                                                           lang=lang)})  # fmt: skip


class ExportApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "application/x-ndjson"): OpenApiTypes.STR})
    def get(self, request: Request, game_id: int) -> HttpResponse:
        proj, _ = selectors.current(game_id)
        if proj.status != "ended" and not request.user.is_staff:
            raise ApiError("forbidden", "a game can be exported when it ends (or by staff)")
        # A whole game is a few hundred KiB at most: one body (ASGI would buffer a stream anyway).
        body = "".join(line + "\n" for line in export_lines(game_id))
        response = HttpResponse(body, content_type="application/x-ndjson")
        response["Content-Disposition"] = f'attachment; filename="sejmi-game-{game_id}.jsonl"'
        return response
