"""REST routes of notes at a moment (API.md, "Play on from a moment, notes and odds")."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.base import Api, answers, json_object
from games.notes import services

NOTE = inline_serializer("Note", {
    "id": serializers.IntegerField(), "seq": serializers.IntegerField(),
    "author": serializers.CharField(), "text": serializers.CharField(),
    "public": serializers.BooleanField(), "at": serializers.DateTimeField(),
    "hidden": serializers.BooleanField(help_text="hidden by staff: the text is empty"),
})  # fmt: skip
POST = inline_serializer("NotePost", {
    "seq": serializers.IntegerField(),
    "text": serializers.CharField(max_length=services.MAX_LENGTH),
    "public": serializers.BooleanField(),
})  # fmt: skip
HIDE = inline_serializer("NoteHide", {
    "reason": serializers.CharField(max_length=services.MAX_REASON)})  # fmt: skip


class NotesApi(Api):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(operation_id="notes_list", responses=answers(200, NOTE, 404))
    def get(self, request: Request, game_id: int) -> Response:
        return Response(services.note_list(user=request.user, game_id=game_id))

    @extend_schema(operation_id="notes_post", request=POST,
                   responses=answers(201, NOTE, 400, 401, 404))  # fmt: skip
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object(request, {"seq", "text", "public"})
        note = services.note_post(
            user=request.user,
            game_id=game_id,
            seq=body.get("seq"),
            text=body.get("text"),
            public=body.get("public", False),
        )
        return Response(note, status=status.HTTP_201_CREATED)


class NoteHideApi(Api):
    """Staff only: hide a public note (who, when and why are kept)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="notes_hide", request=HIDE,
                   responses=answers(200, NOTE, 400, 401, 403, 404))  # fmt: skip
    def post(self, request: Request, game_id: int, note_id: int) -> Response:
        body = json_object(request, {"reason"})
        return Response(services.note_hide(user=request.user, game_id=game_id, note_id=note_id,
                                           reason=body.get("reason")))  # fmt: skip
