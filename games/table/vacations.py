"""A player's vacations: declared for a number of days (an allowance per calendar year), they
stand the clocks of all his running games still — block windows included — until they end: at
`until` (the deadline machinery: DeadlineKind.VACATION), when he ends them, or when a command
of his is accepted. Each game records the pause and the resume as events (vacation_started /
vacation_ended, games.engine.away); his declarations and their ends are append-only rows, and
the allowance left is computed from them.

Charging (docs/AWAY.md "What a vacation costs"): a vacation costs the time the clocks actually
stood still for it — all of the declared days while it runs or once it ran out; ended early,
only the time from its start to its end. The allowance left is the yearly allowance minus the
time used in the calendar year (UTC) of the declarations, rounded to whole days (half a day up):
a vacation ended after seconds costs nothing, 30 hours cost one day, 36 hours two. The year's
total is rounded, not each vacation, so four short vacations of 6 hours still cost a day.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.core.codec import iso
from games.core.errors import ApiError
from games.core.models import GameProjection
from games.engine import GameState
from games.engine.away import AwayCommand, VacationEnd, VacationStart
from games.engine.errors import Code
from games.engine.state import VACATION
from games.table.commit import Committed, game_away_act
from games.table.models import PlayerSeat, VacationDeclaration
from games.table.models import VacationEnd as EndRow

DAY = timedelta(days=1)
ENDED, ACTED, EXPIRED = "ended", "acted", "expired"  # VacationEnd.reason


def days_per_year() -> int:
    return settings.SEJMI_VACATION_DAYS_PER_YEAR


def _used(row: VacationDeclaration) -> timedelta:
    """The time a declaration takes from the allowance: all its days while it runs (or ran
    out); ended early, the time it actually lasted."""
    end = getattr(row, "end", None)
    if end is None:
        return row.days * DAY
    return min(row.days * DAY, max(timedelta(0), end.at - row.declared_at))


def days_left(user, now: datetime) -> int:
    """The allowance left in `now`'s calendar year (UTC), in whole days: the year's allowance
    minus the time its vacations used, rounded to the nearest day (half a day up)."""
    rows = VacationDeclaration.objects.filter(user=user, declared_at__year=now.year)
    used = sum((_used(row) for row in rows.select_related("end")), timedelta(0))
    return max(0, days_per_year() - math.floor(used / DAY + 0.5))


def current(user, now: datetime) -> VacationDeclaration | None:
    """The caller's vacation running now: declared, not ended, `until` still ahead."""
    return (VacationDeclaration.objects.filter(user=user, end__isnull=True, until__gt=now)
            .order_by("-declared_at").first())  # fmt: skip


def vacation_status(user) -> dict[str, Any]:
    """API.md's answer: {"until": ISO time | null, "days_left"}, and the yearly allowance."""
    now = timezone.now()
    running = current(user, now)
    return {"until": iso(running.until) if running else None,
            "days_left": days_left(user, now), "days_per_year": days_per_year()}  # fmt: skip


def vacation_start(*, user, days: Any) -> dict[str, Any]:
    """Declare a vacation of `days` days from now; every running game of the caller pauses.
    ApiError(invalid): not a whole number ≥ 1, past the allowance left, or on vacation already."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise ApiError(Code.INVALID, "days must be a whole number, at least 1")
    now = timezone.now()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
        if current(user, now) is not None:
            raise ApiError(Code.INVALID, "you are on vacation already; end it first")
        left = days_left(user, now)
        if days > left:
            raise ApiError(Code.INVALID, f"only {left} vacation days are left this year")
        row = VacationDeclaration.objects.create(user=user, declared_at=now,
                                                 until=now + days * DAY, days=days)  # fmt: skip
    until = iso(row.until)
    for game_id, seat in _running_seats(user):
        _in_game(game_id, lambda s, seat=seat: _start(s, seat, until))
    return vacation_status(user)


def vacation_end(*, user) -> dict[str, Any]:
    """End the caller's vacation now; his games go on with the time they had left."""
    running = current(user, timezone.now())
    if running is None:
        raise ApiError(Code.INVALID, "you are not on vacation")
    _end(user, running, ENDED, timezone.now())
    return vacation_status(user)


def end_on_acting(user) -> None:
    """A command of his was accepted: his vacation (if any) ends, in all his games."""
    running = current(user, timezone.now())
    if running is not None:
        _end(user, running, ACTED, timezone.now())


def vacation_over(*, game_id: int, expected_seq: int | None = None) -> None:
    """The VACATION deadline of a game (the earliest `until` of its seats) has passed: every
    vacation in it that ran out ends, in all of its player's games. ApiError(stale_seq) when
    nothing changed in this game (the sweeper then does not count it as acted)."""
    proj = GameProjection.objects.filter(game_id=game_id).first()
    if proj is None:
        return
    now, seq = timezone.now(), proj.seq
    users = get_user_model().objects
    for seat, until in enumerate(proj.state.get("vacation_until") or []):
        if until is None or datetime.fromisoformat(until) > now:
            continue
        ids = proj.player_ids or ()
        user = users.filter(pk=ids[seat]).first() if seat < len(ids) and ids[seat] else None
        if user is None:  # an imported game's player: end it in this game only
            _in_game(game_id, lambda s, seat=seat: _stop(s, seat))
            continue
        declared = (VacationDeclaration.objects.filter(user=user, end__isnull=True,
                                                       until__lte=now).first())  # fmt: skip
        _end(user, declared, EXPIRED, declared.until if declared else now)
    if not GameProjection.objects.filter(game_id=game_id, seq__gt=seq).exists():
        raise ApiError(Code.STALE_SEQ, "no vacation of this game ran out")


def _end(user, row: VacationDeclaration | None, reason: str, at: datetime) -> None:
    if row is not None:
        EndRow.objects.get_or_create(declaration=row, defaults={"at": at, "reason": reason})
    for game_id, seat in _running_seats(user):
        _in_game(game_id, lambda s, seat=seat: _stop(s, seat))


def _running_seats(user) -> list[tuple[int, int]]:
    rows = PlayerSeat.objects.filter(user=user, game__projection__status="active")
    return list(rows.order_by("game_id").values_list("game_id", "seat"))


class _Nothing(Exception):
    """This game has nothing to record (the seat is not on vacation, or no longer plays)."""


def _start(state: GameState, seat: int, until: str) -> AwayCommand:
    if state.left[seat] or state.lives[seat] == 0 or state.away[seat] == VACATION:
        raise _Nothing  # out of the game: his vacation stops nobody
    return VacationStart(seat, until)


def _stop(state: GameState, seat: int) -> AwayCommand:
    if state.away[seat] != VACATION:
        raise _Nothing
    return VacationEnd(seat)


def _in_game(game_id: int, act) -> Committed | None:
    """Record a vacation's start or end in one game (its own transaction); a game that ended
    or moved on in between records nothing."""
    try:
        return game_away_act(game_id=game_id, act=act)
    except _Nothing:
        return None
    except ApiError as err:
        if err.code not in (Code.GAME_OVER, Code.INVALID):
            raise
        return None
