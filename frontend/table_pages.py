"""The table and the replay viewer pages. The server renders only the frame: the game's id,
its deck's catalogue, the caller's seat and what he saw last time; table.js and replay.js draw
the game from the public API alone (issue 8)."""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from frontend.visits import last_visit, record_visit
from games.core.errors import ApiError
from games.engine import Code, Deck
from games.notifications.services import notifications_seen
from games.table import duplicates, selectors, spectating

# The frame's few words; everything the game says comes from i18n.js.
WORDS = {
    "en": {"game": "Game", "table": "Table", "replay": "Replay", "hand": "Your hand",
           "partner": "Your partner's hand", "log": "Game log", "to_replay": "Replay viewer",
           "to_table": "Back to the table", "needs_js": "The table needs JavaScript.",
           "missing": "There is no such game.", "lobby": "Back to the lobby"},
    "cs": {"game": "Hra", "table": "Stůl", "replay": "Záznam", "hand": "Tvoje karty",
           "partner": "Karty tvého parťáka", "log": "Průběh hry", "to_replay": "Záznam hry",
           "to_table": "Zpět ke stolu", "needs_js": "Stůl potřebuje JavaScript.",
           "missing": "Taková hra neexistuje.", "lobby": "Zpět do herny"},
}  # fmt: skip


def words() -> dict[str, str]:
    return WORDS["cs" if (get_language() or "").startswith("cs") else "en"]


def catalog(deck: Deck) -> dict[str, list[dict[str, str]]]:
    """Card id -> its two effects (colour and effect id), for drawing cards and the log."""
    return {
        card.id: [{"colour": e.colour, "kind": e.kind} for e in card.effects] for card in deck.cards
    }


def _missing(request, game_id: int):
    context = {"game_id": game_id, "words": words()}
    return render(request, "frontend/game_missing.html", context, status=404)


def _page(request, game_id: int, template: str, context: dict, state):
    """A page of one game: its catalog and words beside `context`."""
    context = {"game_id": game_id, **context, "catalog": catalog(state.deck), "words": words()}
    return render(request, template, context)


@ensure_csrf_cookie
def table(request, game_id: int):
    try:  # a spectator of a delayed game has been shown its shown seq (games.table.spectating)
        last, _, state = spectating.last_seq_for(game_id, request.user)
    except ApiError:
        return _missing(request, game_id)
    # Only read: the page reports what it shows while its tab is visible (`seen`), so moves
    # watched live are not "since your last visit", and a tab opened unseen marks nothing.
    since = last_visit(user=request.user, game_id=game_id)
    seat = selectors.seat_of(state, request.user)
    # `?join=<seat>|any` (the lobby's "Create game", issue 29): the page takes the seat once it
    # is drawn and live, so a game that starts with bots asks nothing of its creator before
    # his table is on screen. The hand is drawn for him already.
    joining = (
        seat is None
        and state.status == "lobby"
        and request.user.is_authenticated
        and request.GET.get("join") is not None
    )
    return _page(request, game_id, "frontend/table.html", {
        "seat": seat,
        "joining": joining,
        # The seated player's order (issue 10), while it can still answer a block window for
        # him: not after the end or his elimination (issue 18; table.js hides it live).
        "standing_order": _order_can_answer(state, seat),
        "since": since,
        "tournament": duplicates.tournament_of(game_id),  # the game view's "tournament"
    }, state)  # fmt: skip


def _order_can_answer(state, seat: int | None) -> bool:
    """Whether a standing order may still answer a block window for `seat`."""
    if state.status == "ended":
        return False
    return seat is None or state.status == "lobby" or state.in_game(seat)


@ensure_csrf_cookie
def replay(request, game_id: int):
    try:  # a spectator of a delayed game replays up to its shown seq (games.table.spectating)
        last, _, state = spectating.last_seq_for(game_id, request.user)
    except ApiError:
        return _missing(request, game_id)
    at = _at(request.GET.get("at"), last)
    context = {"at": at, "last": last, "seat": selectors.seat_of(state, request.user)}
    return _page(request, game_id, "frontend/replay.html", context, state)


def _at(raw: str | None, last: int) -> int:
    """The seq asked for, kept within 1..last; the end when missing or not a number."""
    try:
        return min(max(int(raw or last), 1), last)
    except ValueError:
        return last


MAX_SEEN_BODY = 200  # {"seq": n} is a dozen bytes


@require_POST
def seen(request, game_id: int):
    """POST /games/{id}/seen/ `{"seq": n}`: the table page showed the game up to `n` in a
    visible tab (throttled, and when it is hidden or left: table.js). Kept within what the
    caller may see, never moved backwards; the caller's notifications about the game up to the
    seq shown become read (header X-Notifications-Read: how many); 204. Bad input: 400
    `invalid`; anonymous: 403 `forbidden`; an unknown game: 404 `not_found` (API.md's error
    shape)."""
    if not request.user.is_authenticated:
        return _error(ApiError(Code.FORBIDDEN, "sign in to keep your place in a game"))
    try:
        body = json.loads(request.body) if len(request.body) <= MAX_SEEN_BODY else None
    except ValueError:
        body = None
    seq = body.get("seq") if isinstance(body, dict) and set(body) == {"seq"} else None
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        return _error(ApiError(Code.INVALID, 'send {"seq": <the last seq shown, 0 or more>}'))
    try:
        last, _, _ = spectating.last_seq_for(game_id, request.user)
    except ApiError as err:
        return _error(err)
    shown = min(seq, last)
    record_visit(user=request.user, game_id=game_id, seq=shown)
    # What the page showed is read: the bell's count follows (header, read by seen.js).
    answer = HttpResponse(status=204)
    answer["X-Notifications-Read"] = str(
        notifications_seen(user=request.user, game_id=game_id, seq=shown)
    )
    return answer


def _error(err: ApiError) -> JsonResponse:
    return JsonResponse(err.body(), status=err.status)
