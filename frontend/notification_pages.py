"""Pages of notifications: `/notifications/` (the signed-in user's notifications, newest first,
with mark-read, one or all: API.md "More pages"), the unsubscribe link of every mail (a signed
token: no login needed; GET only asks, so a mail client that fetches links unsubscribes
nobody; POST turns mail off, including RFC 8058's one-click POST) and the mail preferences
form of /me/."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.core.errors import ApiError
from games.engine import Code
from games.notifications import kinds, services
from games.notifications.mails import user_of_token


@csrf_exempt  # the signed token is the authority; mail clients' one-click POST has no cookie
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user_id = user_of_token(token)
    if user_id is None:
        raise Http404("no such link")
    done = request.method == "POST"
    if done:
        services.unsubscribe(user_id=user_id)
    return render(request, "frontend/unsubscribe.html", {"done": done})


@login_required
@require_POST
def preferences(request: HttpRequest) -> HttpResponse:
    body: dict[str, Any] = {name: request.POST[name] for name in ("email_mode", "language")
                            if name in request.POST}  # fmt: skip
    body["email"] = request.POST.get("email", "").strip() or None
    try:
        services.prefs_set(user=request.user, body=body)
    except ApiError:
        return redirect("/me/?prefs=invalid#notification-prefs")
    return redirect("/me/?prefs=saved#notification-prefs")


PER_PAGE = 50  # a page; older ones are a page further ("Older"), none is dropped


def by_game(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A page's notifications grouped by game (issue 29): one group per game, the game with the
    newest notification first, each group newest first, with its unread count."""
    groups: dict[int, dict[str, Any]] = {}
    for item in items:
        game = item["row"].game_id
        group = groups.setdefault(game, {"game": game, "items": [], "unread": 0})
        group["items"].append(item)
        group["unread"] += not item["row"].read
    return list(groups.values())


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The signed-in user's notifications, newest first, PER_PAGE a page."""
    page = Paginator(services.notifications_page(user=request.user), PER_PAGE).get_page(
        request.GET.get("page")
    )
    lang = get_language()
    items = [{"row": row, "text": kinds.summary(row, lang), "url": kinds.path(row)}
             for row in page]  # fmt: skip
    context = {
        "page": page,
        "items": items,
        "groups": by_game(items),
        "unread": services.unread_count(user=request.user),
    }
    return render(request, "frontend/notifications.html", context)


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    """The page's "Mark read" (`id`) and "Mark all read" (`all`); back to the same page."""
    raw = request.POST.get("id", "")
    body: dict[str, Any]
    if "all" in request.POST:
        body = {"all": True}
    elif raw.isdigit():
        body = {"ids": [int(raw)]}
    else:
        err = ApiError(Code.INVALID, "say which notification: id=<number> or all=1")
        return JsonResponse(err.body(), status=err.status)
    services.notifications_read(user=request.user, body=body)
    page = request.POST.get("page", "")
    return redirect("/notifications/" + (f"?page={page}" if page.isdigit() else ""))
