"""Pages of notifications: `/notifications/` (the signed-in user's notifications, newest first,
with mark-read, one or all: API.md "More pages"), the unsubscribe link of every mail (a signed
token: no login needed; GET only asks, so a mail client that fetches links unsubscribes
nobody; POST turns mail off, including RFC 8058's one-click POST) and the mail preferences
form of /me/."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.core.errors import ApiError
from games.engine import Code
from games.notifications import services
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


def _link(row) -> str:
    """The game's table; a decided dispute's resolution is on /disputes/ (issue 18)."""
    return "/disputes/" if row.kind == "dispute_decided" else f"/games/{row.game_id}/"


@login_required
@require_POST
def preferences(request: HttpRequest) -> HttpResponse:
    body = {name: request.POST[name] for name in ("email_mode", "language") if name in request.POST}
    body["email"] = request.POST.get("email", "").strip() or None
    try:
        services.prefs_set(user=request.user, body=body)
    except ApiError:
        return redirect("/me/?prefs=invalid#notification-prefs")
    return redirect("/me/?prefs=saved#notification-prefs")


# What each kind says, with a link to its game ("ty" in Czech: django.po).
KIND_TEXTS = {
    "your_turn": _("Your turn in game %(game)s"),
    "block_window": _("You may block in game %(game)s"),
    "deadline_soon": _("Time is running out in game %(game)s"),
    "eliminated": _("You are out of game %(game)s"),
    "game_over": _("Game %(game)s is over"),
    "dispute_decided": _("Staff decided your dispute about game %(game)s"),
    "tournament_round": _("Your tournament table is ready: game %(game)s."),
    "tournament_ended": _("A tournament you played in has ended (your last game: %(game)s)."),
    "tournament_withdrawn": _("You were withdrawn from a tournament: the bot played all of "
                              "game %(game)s for you."),  # fmt: skip
}
PER_PAGE = 50


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """The signed-in user's notifications, newest first, PER_PAGE a page."""
    page = Paginator(services.notifications_page(user=request.user), PER_PAGE).get_page(
        request.GET.get("page")
    )
    items = [{"row": row, "text": KIND_TEXTS.get(row.kind, row.kind) % {"game": row.game_id},
              "url": _link(row)} for row in page]  # fmt: skip
    context = {"page": page, "items": items, "unread": services.unread_count(user=request.user)}
    return render(request, "frontend/notifications.html", context)


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    """The page's "Mark read" (`id`) and "Mark all read" (`all`); back to the same page."""
    raw = request.POST.get("id", "")
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
