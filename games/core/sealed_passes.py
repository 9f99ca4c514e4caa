"""R19: a pass that leaves its block window open reveals nothing until the window closes.

Such a pass is *sealed*: stored durably (a `SealedPass` row, written in the transaction that
decided it, under the game's row lock) but not appended to the public log, not broadcast, and
the game's `seq` does not move. Every decision is judged on the public state folded with the
sealed passes (`folded`), so a player who passed may not pass again or block (R26), bots are
not asked twice, and the window closes as soon as the last asked player has passed. When the
window closes — by the last pass, a block or the deadline (R21) — games.table.commit appends the
sealed passes as ordinary `block_passed` events, each with the `at` it was received, in that
order, followed by the closing events, in one transaction and one broadcast. The log therefore
holds exactly the engine's order (the play, the passes, what closed the window): the hash
chain, exports, audits and replays need not know that sealing exists.

What each viewer sees: the public state, plus only his own sealed pass (`seen_by`), so his
answer shows `legal: []` while nobody else's view, events, frames, `seq` or `awaiting` depend
on whether anyone passed. After COMMIT, games.table.publish.tell_the_passer asks the game's
sockets to send the
passer's own sockets (his other tabs) his new view; every other socket sends nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime
from itertools import groupby

from games.core import plain_sql
from games.core.models import GameProjection, SealedPass
from games.engine import Event, GameState, fold, window_open
from games.engine.events import BLOCK_PASSED

log = logging.getLogger(__name__)


def load(game_id: int, window_seq: int) -> list[SealedPass]:
    """The passes sealed in the window open at `window_seq`, in the order received. Plain SQL
    (games.core.plain_sql): it runs in every command decided in a block window."""
    return plain_sql.together(_read(game_id, "%s", [window_seq]))[0]


def at_head_read(game_id: int) -> plain_sql.Read:
    """`load` at the game's present seq, as a read sent with the command's others
    (games.table.commit): passes exist there only while its window is open."""
    head = f"(SELECT seq FROM {GameProjection._meta.db_table} WHERE game_id = %s)"
    return _read(game_id, head, [game_id])


def _read(game_id: int, window_seq_sql: str, params: list) -> plain_sql.Read:
    read = plain_sql.reader(SealedPass, ("id", "window_seq", "seat", "v", "data", "at"))

    def rows(found: list[tuple]) -> list[SealedPass]:
        return [SealedPass(pk=pk, game_id=game_id, window_seq=window_seq, seat=seat, v=v,
                           data=data, at=at)
                for pk, window_seq, seat, v, data, at in map(read, found)]  # fmt: skip

    sql = (f"SELECT id, window_seq, seat, v, data, at FROM {SealedPass._meta.db_table}"
           f" WHERE game_id = %s AND window_seq = {window_seq_sql} ORDER BY id")  # fmt: skip
    return plain_sql.Read(sql, [game_id, *params], rows)


def as_events(rows: list[SealedPass]) -> list[Event]:
    return [Event(BLOCK_PASSED, row.data, row.v) for row in rows]


def folded(state: GameState, rows: list[SealedPass]) -> GameState:
    """The state every decision is judged on: the public one with the sealed passes."""
    return fold(as_events(rows), state) if rows else state


def seal(game_id: int, window_seq: int, passes: list[Event], at: datetime) -> None:
    plain_sql.insert(
        SealedPass,
        ("game", "window_seq", "seat", "v", "data", "at"),
        [(game_id, window_seq, e.data["seat"], e.v, e.data, at) for e in passes],
    )


def runs(rows: list[SealedPass]) -> list[tuple[datetime, list[Event]]]:
    """The sealed passes as batches of one `at` each, to be appended in the order received."""
    return [(at, as_events(list(batch))) for at, batch in groupby(rows, key=lambda r: r.at)]


def seen_by(game_id: int, seq: int, state: GameState, seat: int | None) -> GameState:
    """The public state at `seq` as `seat` may know it: with his own sealed pass, if any."""
    if seat is None or not window_open(state) or seat not in state.awaiting:
        return state
    return folded(state, list(SealedPass.objects.filter(game_id=game_id, window_seq=seq,
                                                        seat=seat)))  # fmt: skip


def sealed_seats(windows: dict[int, int]) -> dict[int, set[int]]:
    """For games (id → the seq of their open window), the seats whose pass is sealed there.
    Private: for a player's own lists only (R19)."""
    found: dict[int, set[int]] = {}
    rows = SealedPass.objects.filter(game_id__in=list(windows)).values_list(
        "game_id", "window_seq", "seat")  # fmt: skip
    for game_id, window_seq, seat in rows:
        if windows[game_id] == window_seq:
            found.setdefault(game_id, set()).add(seat)
    return found


def carry(game_id: int, rows: list[SealedPass], window_seq: int) -> None:
    """The window stays open while its seq moves (someone came or went: games.table.commit): its
    sealed passes move with it, each with its own time, in the order received."""
    SealedPass.objects.bulk_create(
        SealedPass(
            game_id=game_id, window_seq=window_seq, seat=r.seat, v=r.v, data=r.data, at=r.at
        )  # fmt: skip
        for r in rows
    )
