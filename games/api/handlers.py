"""Every error leaves as `{"error": {"code", "message"}}` with a 4xx status (API.md)."""

from __future__ import annotations

import sys
from urllib.parse import unquote

from asgiref.sync import iscoroutinefunction
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, JsonResponse
from django.utils.decorators import sync_and_async_middleware
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from games.core.db_health import database_away, forget_dead_connections, pool_exhausted
from games.core.errors import ApiError
from games.engine.errors import Code

MAX_BODY_BYTES = 64 * 1024

DRF_CODES = [
    (drf.ParseError, Code.INVALID), (drf.ValidationError, Code.INVALID),
    (drf.NotAuthenticated, Code.NOT_AUTHENTICATED),
    (drf.AuthenticationFailed, Code.NOT_AUTHENTICATED),
    (drf.PermissionDenied, Code.FORBIDDEN), (drf.NotFound, Code.NOT_FOUND),
    (drf.MethodNotAllowed, Code.METHOD_NOT_ALLOWED), (drf.NotAcceptable, Code.NOT_ACCEPTABLE),
    (drf.UnsupportedMediaType, Code.UNSUPPORTED_MEDIA_TYPE), (drf.Throttled, Code.THROTTLED),
]  # fmt: skip


def _message(detail) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_message(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return " ".join(_message(d) for d in detail)
    return str(detail)


def exception_handler(exc, context):
    """DRF's hook: our ApiError, DRF's own exceptions and Django's 404/403, in one shape."""
    if isinstance(exc, ApiError):
        response = Response(exc.body(), status=exc.status)
        if exc.code is Code.UNAVAILABLE:  # a moment's outage: say when to come back
            response["Retry-After"] = str(RETRY_AFTER_S)
        return response
    if pool_exhausted(exc):  # answered here, before Django would log its traceback (cost)
        return busy_response()
    if database_away(exc):
        return away_response()
    if isinstance(exc, RequestDataTooBig):
        too_large = ApiError(Code.TOO_LARGE, "the request body is too large")
        return Response(too_large.body(), status=too_large.status)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf.PermissionDenied()
    response = drf_handler(exc, context)
    if response is None:
        return None  # a real bug: let it be a 500 and be seen
    code = next((c for cls, c in DRF_CODES if isinstance(exc, cls)), Code.INVALID)
    response.data = {"error": {"code": code, "message": _message(exc.detail)}}
    return response


def error_response(code: Code, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=code.status)


@sync_and_async_middleware
def BodyLimitMiddleware(get_response):  # noqa: N802 (a middleware class in all but form)
    """Refuse what no view should read: a huge body (413 too_large) before anything reads it,
    and NUL bytes in the query string or a header (400 invalid), which PostgreSQL cannot
    even compare with a stored text. Async-capable, so ASGI requests need no thread hop."""
    if iscoroutinefunction(get_response):

        async def middleware(request):
            return _refusal(request) or await get_response(request)

    else:

        def middleware(request):
            return _refusal(request) or get_response(request)

    return middleware


def _refusal(request) -> JsonResponse | None:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return error_response(Code.INVALID, "bad Content-Length")
    if length > MAX_BODY_BYTES:
        return error_response(Code.TOO_LARGE, f"bodies are limited to {MAX_BODY_BYTES} bytes")
    if _has_nul(request):
        return error_response(Code.INVALID, "NUL bytes in the query string or a header")
    return None


def _has_nul(request) -> bool:
    if "\x00" in unquote(request.META.get("QUERY_STRING", "")):
        return True
    return any("\x00" in value for name, value in request.META.items()
               if name.startswith("HTTP_") and isinstance(value, str))  # fmt: skip


def not_found_view(request, exception=None):
    return error_response(Code.NOT_FOUND, "no such resource")


RETRY_AFTER_S = 1  # a busy answer's Retry-After: the pool frees a connection within ms


def server_error_view(request):
    """Django's handler500, called while the exception is being handled. A request that found
    every pooled PostgreSQL connection taken past the pool's timeout, or too many requests
    already waiting (settings: SEJMI_DB_POOL_*), is not a failure but overload: 503
    `unavailable` with Retry-After, early, instead of a 500."""
    if pool_exhausted(sys.exc_info()[1]):
        return busy_response()
    if database_away(sys.exc_info()[1]):
        return away_response()
    return error_response(Code.INTERNAL, "the server failed; it has been logged")


def busy_response() -> JsonResponse:
    """503 `unavailable` with Retry-After. The API's views answer it from DRF's exception
    handler, so an overloaded service does not also spend its CPU formatting a traceback per
    refused request (bench-load: a fifth of the web workers' time); Django's one-line
    "Service Unavailable" log entry stays."""
    busy = error_response(Code.UNAVAILABLE, "the service is busy; retry shortly")
    busy["Retry-After"] = str(RETRY_AFTER_S)
    return busy


def away_response() -> JsonResponse:
    """503 `unavailable` with Retry-After for a lost database, its idle connections checked."""
    forget_dead_connections()
    away = error_response(Code.UNAVAILABLE, "the database is unreachable; retry shortly")
    away["Retry-After"] = str(RETRY_AFTER_S)
    return away
