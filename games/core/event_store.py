"""The append-only, hash-chained event log of each game (PostgreSQL in production).

Each row's hash is SHA-256 over the previous row's hash and the row's canonical content
(seq, type, v, data, at), starting from GENESIS; the game's first event holds the seed's
commitment, so the chain is anchored to the game without naming any database id.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from games.core import plain_sql, signing
from games.core.codec import canonical_json, iso, state_from_json
from games.core.models import GameEvent, GameSnapshot, HeadSignature
from games.engine import Event, GameState, fold
from games.engine.events import GAME_ENDED

GENESIS = "0" * 64
CHECKPOINT_EVERY = 100  # every so many events the head is signed (and a snapshot is written)


def event_hash(prev_hash: str, seq: int, type_: str, v: int, data: dict, at: datetime) -> str:
    content = canonical_json({"seq": seq, "type": type_, "v": v, "data": data, "at": iso(at)})
    return hashlib.sha256((prev_hash + content).encode()).hexdigest()


def append(*, game_id: int, head_seq: int, head_hash: str, events: list[Event],
           at: datetime) -> list[GameEvent]:  # fmt: skip
    """Insert `events` after `head_seq`. Raises IntegrityError if another append took a seq."""
    rows, prev = [], head_hash
    for seq, e in enumerate(events, start=head_seq + 1):
        data = e.data
        if e.type == GAME_ENDED:  # players keep the head: a later edit of history is provable
            data = {**data, "chain_head": prev}
        h = event_hash(prev, seq, e.type, e.v, data, at)
        rows.append(GameEvent(game_id=game_id, seq=seq, type=e.type, v=e.v, data=data,
                              at=at, prev_hash=prev, hash=h))  # fmt: skip
        prev = h
    _insert(rows)
    sign(game_id, [r for r in rows if r.seq % CHECKPOINT_EVERY == 0 or r.type == GAME_ENDED])
    return rows


def sign(game_id: int, heads: list[GameEvent]) -> None:
    """The service signs these heads (games.core.signing), in the transaction that appends
    them: a game's end, and every checkpoint."""
    if not heads:
        return
    key = signing.key_id(signing.public_key())
    now = datetime.now(UTC)
    plain_sql.insert(HeadSignature, ("game", "seq", "head_hash", "key_id", "signature", "at"),
                     [(game_id, r.seq, r.hash, key, signing.sign(r.seq, r.hash), now)
                      for r in heads])  # fmt: skip


def sign_head(game_id: int) -> None:
    """Sign a stored game's last event (an imported game's end, signed as this service read
    it), if it is not signed yet."""
    last = GameEvent.objects.filter(game_id=game_id).order_by("-seq").first()
    if last is not None and not HeadSignature.objects.filter(game_id=game_id,
                                                             seq=last.seq).exists():  # fmt: skip
        sign(game_id, [last])


def signatures(game_id: int) -> list[HeadSignature]:
    """The game's signed heads, by seq."""
    return list(HeadSignature.objects.filter(game_id=game_id).order_by("seq"))


COLUMNS = ("game", "seq", "type", "v", "data", "at", "prev_hash", "hash")


def _insert(rows: list[GameEvent]) -> None:
    """One plain multi-row INSERT: `bulk_create` compiles its query and, on PostgreSQL, sends
    UNNEST arrays whose dumping showed in every command's profile, then reads back ids nobody
    uses."""
    plain_sql.insert(GameEvent, COLUMNS, ((r.game_id, r.seq, r.type, r.v, r.data, r.at,
                                           r.prev_hash, r.hash) for r in rows))  # fmt: skip


def to_event(row: GameEvent) -> Event:
    return Event(row.type, row.data, row.v)


def load(game_id: int, *, after: int = 0, upto: int | None = None) -> list[GameEvent]:
    rows = GameEvent.objects.filter(game_id=game_id, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq"))


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    head_hash: str
    length: int
    first_bad_seq: int | None = None
    reason: str | None = None


def verify_chain(rows: Iterable[GameEvent]) -> ChainReport:
    """Recompute every hash from GENESIS; name the first seq that breaks the chain and why."""
    prev, expected_seq, count = GENESIS, 1, 0
    for row in rows:
        if row.seq != expected_seq:
            why = "an event is missing" if row.seq > expected_seq else "events are out of order"
            return ChainReport(False, prev, count, expected_seq, why)
        if row.prev_hash != prev:
            return ChainReport(False, prev, count, row.seq, "prev_hash does not match")
        if event_hash(prev, row.seq, row.type, row.v, row.data, row.at) != row.hash:
            return ChainReport(False, prev, count, row.seq, "content does not match its hash")
        if row.type == GAME_ENDED and row.data.get("chain_head") != prev:
            return ChainReport(False, prev, count, row.seq, "the sealed chain head does not match")
        prev, expected_seq, count = row.hash, expected_seq + 1, count + 1
    return ChainReport(True, prev, count)


def state_at(game_id: int, seq: int) -> GameState | None:
    """The public state right after event `seq` (None before the first): the nearest snapshot,
    then the events after it. Both are read as plain values, not model instances (a third
    faster; replays and delayed spectators fold up to SNAPSHOT_EVERY - 1 events per request)."""
    if seq == 0:
        return None
    snap = (GameSnapshot.objects.filter(game_id=game_id, seq__lte=seq).order_by("-seq")
            .values_list("seq", "state").first())  # fmt: skip
    start, base = (snap[0], state_from_json(snap[1])) if snap else (0, None)
    rows = (GameEvent.objects.filter(game_id=game_id, seq__gt=start, seq__lte=seq)
            .order_by("seq").values_list("type", "data", "v"))  # fmt: skip
    return fold([Event(type_, data, v) for type_, data, v in rows], base)
