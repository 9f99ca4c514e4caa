"""Account, lobby and my-games pages (owned by the pages work).

Every page sets the csrftoken cookie (`ensure_csrf_cookie`): the page's scripts send it back
as `X-CSRFToken` on their API calls (static/frontend/api.js).
"""

from __future__ import annotations

from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from frontend import listings
from frontend.forms import VARIANT_NAMES, FinishedFilterForm, LoginForm, SignupForm
from games.core import replicas

SEAT_COUNTS = range(2, 7)


@ensure_csrf_cookie
@replicas.lagging_reads_ok  # the lobby's lists may lag
def lobby(request: HttpRequest) -> HttpResponse:
    filters = FinishedFilterForm(request.GET or None)
    wanted = filters.cleaned_data if filters.is_valid() else {}
    me = request.user.username if request.user.is_authenticated else None
    context = {
        "open_games": [
            (g, me is not None and g.seat_of(me) is not None) for g in listings.open_games()
        ],
        # (game, whether I sit in it): my own game is opened, not watched, and not "delayed"
        # (a player sees his game live; the delay is for spectators, issue 18).
        "running_games": [
            (g, me is not None and g.seat_of(me) is not None) for g in listings.running_games()
        ],
        "finished_games": listings.finished_games(
            player=wanted.get("player", "").strip(), variant=wanted.get("variant", "")
        ),
        "filters": filters,
        "variants": VARIANT_NAMES,
        "seat_counts": SEAT_COUNTS,
        "seat_numbers": range(max(SEAT_COUNTS)),
    }
    return render(request, "frontend/lobby.html", context)


@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    """Django's UserCreationForm; a new account is logged in at once and sent to the lobby."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("lobby")
    return render(request, "frontend/signup.html", {"form": form})


@ensure_csrf_cookie
def login_page(request: HttpRequest) -> HttpResponse:
    """Log in, then go to `?next=` when it is a path of this site, else to the lobby."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = LoginForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.get_user())
        return redirect(_safe(request, next_url))
    return render(request, "frontend/login.html", {"form": form, "next": next_url})


def _safe(request: HttpRequest, url: str) -> str:
    allowed = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if url and allowed else "/"


@require_POST
def logout_page(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("lobby")


@ensure_csrf_cookie
@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    current, finished = listings.my_games(request.user)
    rows = [(game, game.waits_for(request.user.username)) for game in current]
    context = {
        "games": rows,
        "finished_games": finished,
        "waiting": sum(1 for _, waits in rows if waits),
        "variants": VARIANT_NAMES,
    }
    return render(request, "frontend/me.html", context)
