"""The tournaments' pages (issue 27): /tournaments/ (open, running and ended ones, and a form
to organise one) and /tournaments/{id}/ (players, rounds with links to each table, standings;
join, leave, start). Server-rendered from games.tournaments' selectors; the forms post here and
call the same services as the API (API.md, Tournaments), and a refusal is shown in the page's
language."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games.core.errors import ApiError
from games.tournaments import selectors, services


def _words(err: ApiError) -> str:
    return {
        "game_full": _("The tournament is full."),
        "forbidden": _("Only the organiser may do that."),
        "not_found": _("No such tournament."),
    }.get(err.code.value, err.message)


@ensure_csrf_cookie
def tournaments(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST" and request.user.is_authenticated:
        body: dict[str, Any] = {
            "name": request.POST.get("name", ""), "format": request.POST.get("format"),
            "table_size": {"min": _int(request.POST.get("min")),
                           "max": _int(request.POST.get("max"))},
            "duplicate_deals": request.POST.get("duplicate_deals") == "on"}  # fmt: skip
        if body["format"] == "swiss":
            body["rounds"] = _int(request.POST.get("rounds"))
        try:
            proj = services.tournament_create(user=request.user, body=body)
            return redirect("tournament-page", proj.tournament_id)
        except ApiError as err:
            error = _words(err)
    lists = [(_("Open tournaments"), selectors.tournament_list("open")),
             (_("Running tournaments"), selectors.tournament_list("running")),
             (_("Ended tournaments"), selectors.tournament_list("ended"))]  # fmt: skip
    return render(request, "frontend/tournaments.html", {"lists": lists, "error": error},
                  status=400 if error else 200)  # fmt: skip


def _int(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None


@ensure_csrf_cookie
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        view = selectors.tournament_view(tournament_id)
    except ApiError:
        return render(request, "frontend/tournament.html", {"missing": True}, status=404)
    return _page(request, view, None)


def _page(request: HttpRequest, view: dict, error: str | None) -> HttpResponse:
    names = [p["username"] for p in view["players"] if not p["withdrawn"]]
    me = request.user.username if request.user.is_authenticated else None
    for round_ in view["rounds"]:
        for table in round_["tables"]:
            points = table["points"] or [None] * len(table["players"])
            table["seats"] = list(zip(table["players"], points, strict=True))
    context = {"t": view, "error": error, "playing": me in names,
               "organiser": me == view["organiser"]}  # fmt: skip
    return render(request, "frontend/tournament.html", context, status=400 if error else 200)


ACTS = {"join": services.tournament_join, "leave": services.tournament_leave,
        "start": services.tournament_start}  # fmt: skip


@login_required
@require_POST
def tournament_act(request: HttpRequest, tournament_id: int, act: str) -> HttpResponse:
    if act not in ACTS:
        return redirect("tournament-page", tournament_id)
    try:
        ACTS[act](user=request.user, tournament_id=tournament_id)
    except ApiError as err:
        try:
            return _page(request, selectors.tournament_view(tournament_id), _words(err))
        except ApiError:
            return render(request, "frontend/tournament.html", {"missing": True}, status=404)
    return redirect("tournament-page", tournament_id)
