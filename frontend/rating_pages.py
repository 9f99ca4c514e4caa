"""A player's profile and the leaderboard: server-rendered from the ratings' read
side (games.ratings.selectors); rating_chart.js draws the profile's rating history."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from frontend import listings
from frontend.forms import VARIANT_NAMES
from games.core import replicas
from games.core.errors import ApiError
from games.ratings import selectors as rating_selectors

RECENT_GAMES = 10


class LeaderboardFilter(forms.Form):
    """The leaderboard's variant (GET); an unknown one shows the overall board."""

    variant = forms.ChoiceField(
        label=_("Variant"), required=False,
        choices=[("", _("All variants")), *VARIANT_NAMES.items()],
    )  # fmt: skip

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


def player(request: HttpRequest, username: str) -> HttpResponse:
    if username == request.user.username:  # his own: the primary's (read-your-writes)
        return _player(request, username)
    return replicas.read_lagging(_player, request, username)


def _player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        profile = rating_selectors.player_profile(username)
    except ApiError:
        return render(request, "frontend/player_missing.html", {"username": username},
                      status=404)  # fmt: skip
    rated = {point["game"] for point in profile["history"]}
    name = profile["username"]  # the lobby's filter ignores case; usernames do not
    recent = [g for g in listings.finished_games(player=name) if g.seat_of(name) is not None]
    context = {
        "profile": profile,
        "variants": [(VARIANT_NAMES[v], stats) for v, stats in profile["by_variant"].items()],
        "recent": [(game, game.seat_of(name), game.id in rated) for game in recent[:RECENT_GAMES]],
        "history": profile["history"],  # for the chart (json_script)
        "history_rows": [
            {**point, "at": parse_datetime(point["at"])} for point in reversed(profile["history"])
        ],  # fmt: skip
    }
    return render(request, "frontend/player.html", context)


@replicas.lagging_reads_ok
def leaderboard(request: HttpRequest) -> HttpResponse:
    filters = LeaderboardFilter(request.GET or None)
    variant = filters.cleaned_data.get("variant") if filters.is_valid() else ""
    context = {
        "filters": filters,
        "variant_name": VARIANT_NAMES.get(variant or ""),
        "rows": rating_selectors.leaderboard(variant or None),
    }
    return render(request, "frontend/leaderboard.html", context)
