"""The one base of every REST view (games and replays): how a body is parsed, and the request
helpers that turn bad input into `invalid` (400) in API.md's error shape. The size limit and the
error shape themselves live in games/api/handlers.py (a middleware and DRF's exception hook)."""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer
from games.core.errors import ApiError
from games.engine.errors import Code


class JsonParser(JSONParser):
    """DRF's JSON parser, except that absurd nesting and a NUL character anywhere (a key or a
    value, at any depth) are bad input (400), not a crash (500): PostgreSQL stores no NUL in
    text, so every field a route might store is safe from here on."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            body = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        if _holds_nul(body):
            raise ParseError("JSON parse error - NUL characters are not allowed in text")
        return body


def _holds_nul(body: object) -> bool:
    """Whether any string in the parsed body, key or value, contains NUL. A loop, not
    recursion: the body may be nested nearly as deep as the parser allows."""
    pending = [body]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending += item.keys()
            pending += item.values()
        elif isinstance(item, list):
            pending += item
    return False


# Every view of /api/ subclasses this, so every body goes through `JsonParser`. (A comment, not
# a docstring: drf-spectacular would print an inherited docstring into every operation.)
class Api(APIView):
    parser_classes = [JsonParser]


def answers(ok: int, shape, *errors: int) -> dict:
    """The schema's responses: the answer, and the error shape for each 4xx status."""
    return {ok: shape, **{status_: ErrorSerializer for status_ in errors}}


def json_object(request: Request, allowed: set[str]) -> dict:
    """The body as a JSON object with only `allowed` fields (an empty body is `{}`)."""
    body = request.data
    if not isinstance(body, dict):
        raise ApiError(Code.INVALID, "the body is a JSON object")
    unknown = set(body) - allowed
    if unknown:
        raise ApiError(Code.INVALID, f"unknown fields: {', '.join(sorted(unknown))}")
    return body


def int_param(request: Request, name: str, default: int | None = None) -> int:
    """A whole, non-negative query parameter; `default` when it is absent (if given)."""
    raw = request.query_params.get(name)
    if raw is None and default is not None:
        return default
    try:
        value = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ApiError(Code.INVALID, f"query parameter {name} must be a whole number") from None
    if value < 0:
        raise ApiError(Code.INVALID, f"query parameter {name} must not be negative")
    return value


def choice_param(request: Request, name: str, choices: tuple[str, ...]) -> str | None:
    """A query parameter that is one of `choices`, or None when it is absent."""
    value = request.query_params.get(name)
    if value is not None and value not in choices:
        raise ApiError(Code.INVALID, f"query parameter {name} is one of {', '.join(choices)}")
    return value
