"""A tournament's log: append-only and hash-chained exactly as a game's (games.core.event_store:
the same hash over the previous hash and the canonical (seq, type, v, data, at), from GENESIS),
(tournament, seq) unique; and its projection, folded from it in the same transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.core.event_store import GENESIS, event_hash
from games.tournaments import fold as tfold
from games.tournaments.models import (
    Tournament,
    TournamentEvent,
    TournamentGame,
    TournamentProjection,
)


def lock(tournament_id: int) -> TournamentProjection | None:
    """The projection, its row locked: every write to the tournament's log queues here."""
    return (TournamentProjection.objects.select_for_update()
            .filter(tournament_id=tournament_id).first())  # fmt: skip


def append(tournament: Tournament, proj: TournamentProjection | None,
           events: list[tuple[str, dict[str, Any]]]) -> TournamentProjection:  # fmt: skip
    """Append `events` after the projection's head and fold them into it (the caller holds its
    lock, or creates the tournament). The unique (tournament, seq) is the final guard."""
    at = timezone.now()
    seq = proj.seq if proj else 0
    prev = proj.head_hash if proj else GENESIS
    state = proj.state if proj else None
    rows = []
    for type_, data in events:
        seq += 1
        h = event_hash(prev, seq, type_, 1, data, at)
        rows.append(TournamentEvent(tournament=tournament, seq=seq, type=type_, v=1, data=data,
                                    at=at, prev_hash=prev, hash=h))  # fmt: skip
        prev = h
        state = tfold.evolve(state, type_, data)
        _project_games(tournament.pk, type_, data)
    TournamentEvent.objects.bulk_create(rows)
    assert state is not None  # at least one event was appended
    return _save(tournament, proj, seq, prev, state, at)


def _project_games(tournament_id: int, type_: str, data: dict[str, Any]) -> None:
    if type_ == tfold.ROUND_PAIRED:
        TournamentGame.objects.bulk_create(
            [
                TournamentGame(
                    game_id=t["game"], tournament_id=tournament_id, round=data["round"], table=i
                )
                for i, t in enumerate(data["tables"])
            ]  # fmt: skip
        )


def _save(tournament: Tournament, proj: TournamentProjection | None, seq: int, head: str,
          state: dict[str, Any], at: datetime) -> TournamentProjection:  # fmt: skip
    if proj is None:
        proj = TournamentProjection(tournament=tournament)
    proj.seq, proj.head_hash, proj.state, proj.status = seq, head, state, state["status"]
    proj.updated_at = at
    proj.save()
    return proj


def load(tournament_id: int, after: int = 0) -> list[TournamentEvent]:
    return list(TournamentEvent.objects.filter(tournament_id=tournament_id, seq__gt=after)
                .order_by("seq"))  # fmt: skip


def rebuild() -> int:
    """Drop the tournaments' projections and fold each log again (rebuild_projections)."""
    TournamentGame.objects.all().delete()
    TournamentProjection.objects.all().delete()
    count = 0
    for tournament in Tournament.objects.order_by("pk"):
        rows = load(tournament.pk)
        if not rows:
            continue
        state = None
        for row in rows:
            state = tfold.evolve(state, row.type, row.data)
            _project_games(tournament.pk, row.type, row.data)
        assert state is not None  # a tournament with no event was skipped above
        _save(tournament, None, rows[-1].seq, rows[-1].hash, state, rows[-1].at)
        count += 1
    return count


def verify(tournament_id: int) -> bool:
    """The chain holds from GENESIS."""
    prev = GENESIS
    for i, row in enumerate(load(tournament_id), start=1):
        if (
            row.seq != i
            or row.prev_hash != prev
            or event_hash(prev, row.seq, row.type, row.v, row.data, row.at) != row.hash
        ):
            return False
        prev = row.hash
    return True
