"""The player's page of their own disputes, `/disputes/` (API.md "More pages"): game, moment,
reason, status and the staff's resolution, newest first. It lives beside the staff's case file
(admin.py) because frontend/ may not import replays/ (pyproject's contracts); it wears
the site's frame (frontend/base.html). Filing happens on the replay viewer and the table
(frontend/static/frontend/dispute.js, through the public API)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from replays.disputes import services as disputes
from replays.disputes.case_file import replay_url


@ensure_csrf_cookie
@login_required
def my_disputes(request: HttpRequest) -> HttpResponse:
    rows = [{"dispute": d, "url": _replay_at(d.game_id, d.seq)}
            for d in disputes.my_disputes(request.user)]  # fmt: skip
    return render(request, "replays/disputes.html", {"rows": rows})


def _replay_at(game_id: int, seq: int | None) -> str:
    """The replay at the disputed event; at the end when the dispute named none."""
    return replay_url(game_id, seq) if seq else f"/games/{game_id}/replay/"
