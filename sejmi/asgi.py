"""ASGI entry point: HTTP via Django, websockets via Channels, and the server's lifespan (where
`make run` starts its deadline runner)."""

import asyncio
import os

from sejmi.handlers import http_app

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sejmi.settings")

# Build the Django app before importing anything that touches models.
django_asgi_app = http_app()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.core.exceptions import SuspiciousFileOperation  # noqa: E402
from django.http import Http404  # noqa: E402

from games.clock import runner as clock_runner  # noqa: E402
from games.core import pubsub  # noqa: E402
from games.live.auth import TokenAuthMiddlewareStack  # noqa: E402
from games.live.guard import OverloadGuard, SocketCap  # noqa: E402
from games.live.wire import ServerSend  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402


class BrowserOriginValidator(OriginValidator):
    """Refuse a foreign Origin: a browser always sends one, and a page of another site must not
    ride the player's session cookie (cross-site websocket hijacking). Bots and scripts send no
    Origin and authenticate with `?token=` (API.md, Live stream), so no Origin is let through."""

    def valid_origin(self, parsed_origin) -> bool:
        return parsed_origin is None or self.validate_origin(parsed_origin)


def _allowed_hosts() -> list[str]:
    if settings.DEBUG and not settings.ALLOWED_HOSTS:  # as Channels' AllowedHostsOriginValidator
        return ["localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


class StaticFiles(ASGIStaticFilesHandler):
    """/static/ from the finders; a path that climbs out of a static root (`/static/%2e%2e/x`)
    is a file that is not there (404), not a 500: the finders raise SuspiciousFileOperation,
    which Django's handler does not catch (issue 32)."""

    def serve(self, request):
        try:
            return super().serve(request)
        except SuspiciousFileOperation:
            raise Http404("no such static file") from None


async def lifespan(scope, receive, send) -> None:
    """The server's startup and shutdown (ASGI lifespan protocol; uvicorn sends it, tests and
    management commands never do). With SEJMI_INPROCESS_RUNNER on, as in `make run`, deadlines
    and bot moves are swept in a thread of this process instead of by Celery."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            pubsub.serve_on(asyncio.get_running_loop())
            if settings.SEJMI_INPROCESS_RUNNER:
                clock_runner.start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})  # the runner is a daemon thread
            return


application = ProtocolTypeRouter(
    {
        "lifespan": lifespan,
        # /static/ (admin, Swagger UI) served async from the finders; everything else is Django.
        "http": StaticFiles(django_asgi_app),
        "websocket": ServerSend(  # outermost: keeps the server's own send (games.live.wire)
            BrowserOriginValidator(
                OverloadGuard(
                    TokenAuthMiddlewareStack(SocketCap(URLRouter(websocket_urlpatterns)))
                ),
                _allowed_hosts(),
            )
        ),
    }
)
