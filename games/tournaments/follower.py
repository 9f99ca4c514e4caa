"""Tournaments follow the games' logs (games.core.followers): when a tournament game's
`game_ended` is past this follower's cursor, its points are logged in the tournament
(`game_scored`), in the follower's own transaction under the cursor's row lock, so once
(services.game_ended also skips a table already scored: a rebuild or a second follower
process finds nothing to do). A game of no tournament is not followed at all: no cursor."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone

from games.core import event_store, followers
from games.core.event_store import Logged
from games.core.models import FollowerCursor, GameProjection
from games.engine import events as ev
from games.table import duplicates
from games.tournaments import scoring, services, store
from games.tournaments.models import TournamentGame

NAME = "tournaments"


def applies(game_id: int) -> bool:
    """Only a tournament's games are followed (cached: a game's tournament never changes)."""
    return duplicates.context(game_id) is not None


def handle(game_id: int, _before, rows: list[Logged]) -> int:
    found = duplicates.context(game_id)
    assert found is not None  # `applies`
    events = [event_store.to_event(r) for r in event_store.load(game_id)]
    state = event_store.state_at(game_id, rows[-1].seq)
    assert state is not None  # the game has ended: it has events
    points = scoring.game_points(state.n, [(e.type, e.data) for e in events])
    absent = [name for s in scoring.absent_seats(events) if (name := state.names[s])]
    return int(services.game_ended(tournament_id=found[0], game_id=game_id,
                                   points=points, absent=absent))  # fmt: skip


def behind(min_age: timedelta, limit: int) -> list[int]:
    """Tournament games whose log is ahead of this follower's cursor (the sweeper's list)."""
    now = timezone.now()
    seq = FollowerCursor.objects.filter(follower=NAME, game_id=OuterRef("game_id")).values("seq")
    rows = (GameProjection.objects
            .filter(game_id__in=TournamentGame.objects.values("game_id"),
                    updated_at__lte=now - min_age)
            .annotate(cursor=Subquery(seq[:1]))
            .filter(Q(cursor__isnull=True) | Q(cursor__lt=F("seq"))))  # fmt: skip
    return list(rows.order_by("updated_at").values_list("game_id", flat=True)[:limit])


def rebuild() -> int:
    """The tournaments' projections folded again from their logs. The cursors stay: what the
    log says was scored was scored (the log is the truth, not the cursor)."""
    return store.rebuild()


FOLLOWER = followers.Follower(name=NAME, handle=handle, wants=frozenset({ev.GAME_ENDED}),
                              applies=applies, behind=behind, rebuild=rebuild)  # fmt: skip


def register() -> None:
    followers.register(FOLLOWER)
