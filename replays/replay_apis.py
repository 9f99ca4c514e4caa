"""Replays for spectators: finished games to watch, a game at any seq, markers, transcripts,
export files, and the audit that proves a game fair."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, choice_param, int_param
from games.core import event_store, replicas, signing
from games.core.errors import ApiError
from games.engine.errors import Code
from games.engine.state import VARIANTS
from games.table import duplicates, lobby, selectors, spectating
from games.table.replica_reads import replica_may_serve
from games.table.serializers import GameSummarySerializer, ViewSerializer
from replays import selectors as replay_selectors
from replays.exports import export_lines
from replays.markers import markers
from replays.transcript import transcript
from replays.verification import audit_for_user


class FinishedGameSerializer(GameSummarySerializer):
    """A finished game as GET /api/replays/ lists it: the lobby's summary, and how it ended."""

    seq = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    updated_at = serializers.DateTimeField()


def _events(game_id: int, upto: int):
    """The game's events up to `upto`: the last seq the caller may see (games.table.spectating)."""
    return [event_store.to_event(r) for r in event_store.load(game_id, upto=upto)]


class FinishedGamesApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("player", str),
                    OpenApiParameter("variant", str, enum=list(VARIANTS))],
        responses=answers(200, FinishedGameSerializer(many=True), 400),  # a list (issue 32)
    )  # fmt: skip
    @replicas.lagging_reads_ok  # ended games: a list that may lag
    def get(self, request: Request) -> Response:
        variant = choice_param(request, "variant", VARIANTS)
        games = lobby.lobby("ended", request.user, variant=variant,
                                 player=request.query_params.get("player"))  # fmt: skip
        return Response(games)


class ReplayApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("at", int, required=True)],
                   responses=answers(200, ViewSerializer, 400, 404))  # fmt: skip
    @replica_may_serve
    def get(self, request: Request, game_id: int) -> Response:
        at = int_param(request, "at")
        return Response(replay_selectors.replay(game_id, request.user, at=at))


class AuditSerializer(serializers.Serializer):
    seed = serializers.CharField(help_text="32 bytes as 64 hex digits")
    seed_commitment = serializers.CharField(allow_null=True, help_text="SHA-256 of the seed")
    seed_ok = serializers.BooleanField()
    chain_ok = serializers.BooleanField(
        help_text="the hash chain holds and every signed head verifies (signature_ok)"
    )
    signature_ok = serializers.BooleanField(
        help_text="every signature verifies with public_key; an ended game's end is signed"
    )
    public_key = serializers.CharField(help_text="the service's Ed25519 public key, hex")
    head_hash = serializers.CharField()
    first_bad_seq = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_null=True)
    replay_ok = serializers.BooleanField()


class SigningKeySerializer(serializers.Serializer):
    algorithm = serializers.CharField(help_text="ed25519")
    public_key = serializers.CharField(help_text="32 bytes as 64 hex digits")
    key_id = serializers.CharField(help_text="the first 16 hex digits of its SHA-256")
    signs = serializers.CharField()


class SigningKeyApi(Api):
    """The key the service signs games' heads with (docs/INTEGRITY.md): keep it, and check any
    export or audit by it alone."""

    permission_classes = [AllowAny]

    @extend_schema(responses=answers(200, SigningKeySerializer))
    def get(self, request: Request) -> Response:
        key = signing.public_key()
        return Response({"algorithm": signing.ALGORITHM, "public_key": key,
                         "key_id": signing.key_id(key),
                         "signs": signing.message(0, "<head_hash>").decode().replace(
                             ":0:", ":<seq>:")})  # fmt: skip


class AuditApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses=answers(200, AuditSerializer, 403, 404))
    @replica_may_serve
    def get(self, request: Request, game_id: int) -> Response:
        duplicates.refuse_while_open(game_id)  # a duplicate deal still played elsewhere
        return Response(audit_for_user(game_id=game_id, user=request.user))


class MarkersApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @replica_may_serve
    def get(self, request: Request, game_id: int) -> Response:
        last, _, _ = spectating.last_seq_for(game_id, request.user)  # 404 for an unknown game
        return Response({"markers": markers(_events(game_id, last))})


class TranscriptApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("lang", str, enum=["en", "cs"])],
                   responses={200: OpenApiTypes.OBJECT})  # fmt: skip
    @replica_may_serve
    def get(self, request: Request, game_id: int) -> Response:
        lang = request.query_params.get("lang", "en")
        if lang not in ("en", "cs"):
            raise ApiError(Code.INVALID, "lang is en or cs")
        last, _, state = spectating.last_seq_for(game_id, request.user)
        if state.status == "ended":
            duplicates.refuse_while_open(game_id)  # its end tells the seed and every hand
        viewer = selectors.seat_of(state, request.user)  # secrets judged at `last` (R23)
        return Response({"lang": lang, "lines": transcript(_events(game_id, last), viewer=viewer,
                                                           lang=lang)})  # fmt: skip


class ExportApi(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "application/x-ndjson"): OpenApiTypes.STR})
    @replica_may_serve
    def get(self, request: Request, game_id: int) -> HttpResponse:
        proj, _ = selectors.current(game_id)
        if proj.status != "ended" and not request.user.is_staff:
            raise ApiError(Code.FORBIDDEN, "a game can be exported when it ends (or by staff)")
        if not request.user.is_staff:
            duplicates.refuse_while_open(game_id)
        # A whole game is a few hundred KiB at most: one body (ASGI would buffer a stream anyway).
        body = "".join(line + "\n" for line in export_lines(game_id))
        response = HttpResponse(body, content_type="application/x-ndjson")
        response["Content-Disposition"] = f'attachment; filename="sejmi-game-{game_id}.jsonl"'
        return response
