"""What makes the site installable and reachable by Web Push (API.md "Push notifications and the
installable page"): `/manifest.webmanifest`, the service worker `/sw.js` (served from the root so
that its scope is the whole site, `/`) and `/offline/`, the page the service worker shows when a
page cannot be loaded. None of them says anything about a user: the worker caches the offline
page alone, so nothing of one player is kept where another (or a spectator) could read it."""

from __future__ import annotations

import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

THEME = "#1d5a85"  # site.css --accent
BACKGROUND = "#f5f3ee"  # site.css --bg


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Sejmi je",
        "short_name": "Sejmi je",
        "start_url": "/me/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static(f"frontend/icons/icon-{size}.png"), "sizes": f"{size}x{size}",
             "type": "image/png", "purpose": "any"}
            for size in (192, 512)
        ],
    }  # fmt: skip
    answer = HttpResponse(json.dumps(body), content_type="application/manifest+json")
    answer["Cache-Control"] = "public, max-age=3600"
    return answer


@cache
def _source(name: str) -> str:
    path = finders.find(name)
    with open(path, encoding="utf-8") as source:  # type: ignore[arg-type]
        return source.read()


def _worker_source() -> str:
    return _source("frontend/sw.js")


@require_safe
def offline_script(request: HttpRequest) -> HttpResponse:
    """The offline page's script at a fixed address, cached by the worker with the page."""
    answer = HttpResponse(_source("frontend/pages/offline.js"),
                          content_type="text/javascript; charset=utf-8")  # fmt: skip
    answer["Cache-Control"] = "public, max-age=86400"
    return answer


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    answer = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    answer["Service-Worker-Allowed"] = "/"
    answer["Cache-Control"] = "no-cache"  # a new worker is found at the next visit
    return answer


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """Both languages; the page shows the one the player chose (the language cookie) or his
    browser prefers. The same bytes for everyone: no user, no CSRF token, no session read."""
    answer = render(None, "frontend/offline.html")
    answer["Cache-Control"] = "public, max-age=86400"
    return answer
