"""ASGI entry point: HTTP via Django, websockets via Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sejmi.settings")

# Build the Django app before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from games.ws_auth import TokenAuthMiddlewareStack  # noqa: E402


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


application = ProtocolTypeRouter(
    {
        # /static/ (admin, Swagger UI) served async from the finders; everything else is Django.
        "http": ASGIStaticFilesHandler(django_asgi_app),
        "websocket": BrowserOriginValidator(
            TokenAuthMiddlewareStack(URLRouter(websocket_urlpatterns)), _allowed_hosts()
        ),
    }
)
