"""Read models, updated in the same transaction as each append, and rebuildable from events.

`project_batch` is the one function that turns a batch of events (one command's) into the game's
own read rows; the live path and `rebuild_projections` both call it, so they agree. What spans
games (stats, ratings, notifications, …) follows the log after COMMIT (games.core.followers);
`rebuild_all` rebuilds each follower's read models after the games' own.
Sealed passes (games.core.sealed_passes, R19) are not events and not projected: they stay in
their own table through a rebuild; only the deadline is judged with them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache
from itertools import groupby

from django.contrib.auth import get_user_model
from django.db import connection, connections, router

from games.core import event_store, followers, plain_sql, sealed_passes
from games.core.codec import state_to_json
from games.core.models import Game, GameEvent, GameProjection, GameSnapshot
from games.engine import Event, GameState, fold
from games.engine import events as ev
from games.table import deadline
from games.table.models import PlayerSeat

SNAPSHOT_EVERY = event_store.CHECKPOINT_EVERY  # a snapshot where the head is signed


def project_batch(*, game_id: int, proj: GameProjection | None, before: GameState | None,
                  events: list[Event], after: GameState, head_seq: int, head_hash: str,
                  at: datetime, deadline_state: GameState | None = None,
                  acted_at: datetime | None = None) -> GameProjection:  # fmt: skip
    """Update every read model for one appended batch ending at `head_seq`. `after` is the
    public state; the deadline is judged on `deadline_state` when given: the public state
    with the open window's sealed passes (R19), so bots that passed are not awaited.
    `acted_at`: when the batch's last human act was made, if not at `at` (a sealed pass)."""
    since, human_at, paused_at = (proj.decision_since, proj.human_acted_at, proj.paused_at) \
        if proj is not None else (None, None, None)  # fmt: skip
    if any(ev.kind_of(e.type).new_decision for e in events):  # R19: passes do not
        since = at
    if before is None or after.human_acts > before.human_acts:
        human_at = acted_at or at
    since, human_at, paused_at = _pause_or_resume(since, human_at, paused_at,
                                                  deadline.paused(after), at)  # fmt: skip
    kind, due = deadline.due(deadline_state or after, since, human_at=human_at)  # R21
    ids = _seated_ids(proj, events, after)
    fields = {
        "seq": head_seq, "head_hash": head_hash, "status": after.status,
        "variant": after.variant, "seats": after.n, "players": list(after.names),
        "player_ids": ids,
        "winners": after.winners, "state": state_to_json(after), "decision_since": since,
        "deadline_at": due, "deadline_kind": kind, "updated_at": at,
        "paused_at": paused_at, "human_acted_at": human_at,
    }  # fmt: skip
    if proj is None:
        proj = GameProjection.objects.create(game_id=game_id, **fields)
    else:
        for name, value in fields.items():
            setattr(proj, name, value)
        _update(game_id, fields)
    _seats(game_id, events, ids)
    _snapshots(game_id, before, events, head_seq)
    return proj


Clocks = tuple[datetime | None, datetime | None, datetime | None]


def _pause_or_resume(since: datetime | None, human_at: datetime | None,
                     paused_at: datetime | None, paused: bool, at: datetime) -> Clocks:  # fmt: skip
    """A vacation stands the game's clocks still at `at`; when the last one ends, they go on
    with the time they had left (the decision's and the abandonment's)."""
    if paused and paused_at is None:
        return since, human_at, at
    if paused or paused_at is None:
        return since, human_at, paused_at

    def resumed(t: datetime | None) -> datetime | None:
        return None if t is None else at - max(paused_at - t, timedelta(0))

    return resumed(since), resumed(human_at), None


_COLUMNS = tuple(f.name for f in GameProjection._meta.concrete_fields)
_ATTNAMES = [f.attname for f in GameProjection._meta.concrete_fields]


def lock_read(game_id: int) -> plain_sql.Read:
    """The game's projection, its row locked for this transaction (FOR UPDATE where the
    database has it), with the game's seed (`proj.game.seed`) and its head row's (hash,
    signature) (`proj.head_row`); None for an unknown game. A read sent with the command's
    others (games.table.commit). Plain SQL: the ORM compiled this query anew for every
    command."""
    # The head's own row comes along (issue 32): the command checks that the service signed
    # the head it builds on (games.core.event_store.check_head), at no extra statement.
    sql = _head_sql() + plain_sql.for_update(of="p")
    return plain_sql.Read(sql, [game_id], lambda rows: _found(game_id, rows, connection.alias))


def read_head(game_id: int) -> GameProjection | None:
    """`lock_read`'s projection without the lock, read at once on the connection the router
    picks for a read (a replica's, for a read that may lag: games.core.replicas). The views'
    read (`games.table.selectors.current`): the ORM's query with the head's signature as a
    subquery was four fifths of a GET of a view (issue 31's py-spy of `make run`)."""
    alias = router.db_for_read(GameProjection)
    with connections[alias].cursor() as cursor:
        cursor.execute(_head_sql(), [game_id])
        return _found(game_id, cursor.fetchall(), alias)


@cache
def _head_sql() -> str:
    meta, game, event = GameProjection._meta, Game._meta, GameEvent._meta
    columns = ", ".join(f"p.{meta.get_field(name).column}" for name in _COLUMNS)
    return (f"SELECT {columns}, g.seed, e.hash, e.head_signature FROM {meta.db_table} p"
            f" JOIN {game.db_table} g ON g.{game.pk.column} = p.{meta.pk.column}"
            f" LEFT JOIN {event.db_table} e ON e.game_id = p.{meta.pk.column} AND e.seq = p.seq"
            f" WHERE p.{meta.pk.column} = %s")  # fmt: skip


def _found(game_id: int, rows: list[tuple], alias: str) -> GameProjection | None:
    if not rows:
        return None
    *values, seed, head_hash, head_signature = rows[0]
    # Rows of `alias`, as the ORM makes them (`from_db`): linking them then asks the router
    # nothing (an unsaved row would ask where to write, and the read would leave a replica).
    proj = GameProjection.from_db(
        alias, _ATTNAMES, plain_sql.reader(GameProjection, _COLUMNS)(tuple(values))
    )
    proj.game = Game.from_db(alias, ["id", "seed"], [game_id, bytes(seed)])
    proj.head_row = (head_hash, head_signature)
    return proj


def _update(game_id: int, fields: dict) -> None:
    """UPDATE the projection's row with `fields` in one plain statement (`save()` compiled
    it anew for every command)."""
    meta = GameProjection._meta
    columns, params = [], []
    for name, value in fields.items():
        field = meta.get_field(name)
        columns.append(f"{field.column} = %s")
        params.append(field.get_db_prep_save(value, connection))
    # Its row is locked by this transaction (`lock`): no count to wait for.
    plain_sql.changed(f"UPDATE {meta.db_table} SET {', '.join(columns)}"
                      f" WHERE {meta.pk.column} = %s", [*params, game_id], wait=False)  # fmt: skip


def refresh_deadline(proj: GameProjection, state: GameState) -> bool:
    """Judge the deadline again on `state` (the public one with the sealed passes) when
    nothing was appended; returns whether it changed. It changes only for a window whose
    bots had not answered yet (opened before bots answered windows at once, or rebuilt)."""
    kind, due = deadline.due(state, proj.decision_since, human_at=proj.human_acted_at)
    if (kind, due) == (proj.deadline_kind, proj.deadline_at):
        return False
    proj.deadline_kind, proj.deadline_at = kind, due
    proj.save(update_fields=["deadline_kind", "deadline_at"])
    return True


def _seated_ids(proj: GameProjection | None, events: list[Event],
                after: GameState) -> list[int | None]:  # fmt: skip
    """The user id of each seat's player (None: free, a bot's, or an imported game's player
    without an account here): a seat is a user's by id, never by name. A `seat_taken` of a
    human is the only event that names a user, and the only one read here (a join's command,
    which reads the account anyway)."""
    ids = list((proj.player_ids if proj is not None else None) or [None] * after.n)
    taken = [e.data for e in events if e.type == ev.SEAT_TAKEN and not e.data.get("bot")]
    if taken:
        found = dict(get_user_model().objects.filter(username__in=[d["name"] for d in taken])
                     .values_list("username", "pk"))  # fmt: skip
        for d in taken:
            ids[d["seat"]] = found.get(d["name"])
    return ids


def _seats(game_id: int, events: list[Event], ids: list[int | None]) -> None:
    for e in events:
        if e.type == ev.SEAT_TAKEN and not e.data.get("bot") and ids[e.data["seat"]] is not None:
            PlayerSeat.objects.create(game_id=game_id, seat=e.data["seat"],
                                      user_id=ids[e.data["seat"]])  # fmt: skip


def _snapshots(game_id: int, before: GameState | None, events: list[Event], head: int) -> None:
    """A snapshot right after every SNAPSHOT_EVERY-th event, whatever the batch boundaries."""
    first = head - len(events) + 1
    for seq in range(first, head + 1):
        if seq % SNAPSHOT_EVERY == 0:
            state = fold(events[: seq - first + 1], before)
            GameSnapshot.objects.create(game_id=game_id, seq=seq, state=state_to_json(state))


def rebuild_all() -> int:
    """Drop every read model and rebuild each game's from its events, then every follower's
    (games.core.followers: stats, ratings in the order games ended, …). Returns the number of
    games rebuilt."""
    GameSnapshot.objects.all().delete()
    PlayerSeat.objects.all().delete()
    GameProjection.objects.all().delete()
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    for game_id in ids:
        rebuild_game(game_id)
    for follower in followers.registered():
        if follower.rebuild is not None:
            follower.rebuild()
    return len(ids)


def rebuild_game(game_id: int) -> GameProjection | None:
    """Build one game's own read models from its events alone, batch by batch as the live path
    did (the events of one command share their `at`); its own rows are dropped first. The
    followers catch it up as any game (a fresh import: `followers.wake`)."""
    GameSnapshot.objects.filter(game_id=game_id).delete()
    PlayerSeat.objects.filter(game_id=game_id).delete()
    GameProjection.objects.filter(game_id=game_id).delete()
    proj, state = None, None
    for at, batch in groupby(event_store.load(game_id), key=lambda row: row.at):
        rows = list(batch)
        events = [event_store.to_event(r) for r in rows]
        after = fold(events, state)
        proj = project_batch(game_id=game_id, proj=proj, before=state, events=events,
                             after=after, head_seq=rows[-1].seq, head_hash=rows[-1].hash,
                             at=at)  # fmt: skip
        state = after
    if proj is not None and state is not None:  # an open window's sealed passes (R19)
        refresh_deadline(proj, sealed_passes.folded(state, sealed_passes.load(game_id, proj.seq)))
    return proj
