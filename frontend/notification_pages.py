"""Pages of notifications: the unsubscribe link of every mail (a signed token: no login
needed; GET only asks, so a mail client that fetches links unsubscribes nobody; POST turns
mail off, including RFC 8058's one-click POST) and the mail preferences form of /me/."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.core.errors import ApiError
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
