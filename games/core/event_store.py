"""The append-only, hash-chained event log of each game (PostgreSQL in production).

Each row's hash is SHA-256 over the previous row's hash and the row's canonical content
(seq, type, v, data, at), starting from GENESIS; the game's first event holds the seed's
commitment, so the chain is anchored to the game without naming any database id.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial

from django.db import IntegrityError, transaction

from games.core import plain_sql, signing, witness
from games.core.codec import canonical_json, iso, state_from_json
from games.core.errors import ApiError
from games.core.models import GameEvent, GameProjection, GameSnapshot, HeadSignature
from games.engine import Event, GameState, fold
from games.engine.errors import Code
from games.engine.events import GAME_ENDED

log = logging.getLogger(__name__)

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
    head = rows[-1]
    head.head_signature = head_signature(head.seq, head.hash)  # the batch's head (issue 32)
    _insert(rows)
    _signed_here(game_id, (head.seq, head.hash, head.head_signature))
    sign(game_id, [r for r in rows if r.seq % CHECKPOINT_EVERY == 0 or r.type == GAME_ENDED])
    return rows


def head_signature(seq: int, head_hash: str) -> str:
    """What a batch's last row carries: "<key id>:<signature of (seq, hash)>" (issue 32)."""
    return f"{signing.key_id(signing.public_key())}:{signing.sign(seq, head_hash)}"


def inline_signed(row_signature: str | None, seq: int, head_hash: str) -> bool:
    """Whether a row's own `head_signature` is this service's signature of (seq, head_hash)."""
    if not row_signature or ":" not in row_signature:
        return False
    _, sig = row_signature.split(":", 1)
    return signing.verify(signing.public_key(), seq, head_hash, sig)


# The last head this process signed or verified, per game: the next command on the game
# finds that row as its head and skips verifying it. A row that differs in any of the three
# is verified again; a forger cannot make the same signature for another hash.
_SIGNED: OrderedDict[int, tuple[int, str, str | None]] = OrderedDict()
_SIGNED_KEPT = 10_000


def _signed_here(game_id: int, head: tuple[int, str, str | None]) -> None:
    _SIGNED[game_id] = head
    _SIGNED.move_to_end(game_id)
    while len(_SIGNED) > _SIGNED_KEPT:
        _SIGNED.popitem(last=False)


def signed_here(game_id: int, seq: int) -> tuple[int, str, str] | None:
    """(seq, hash, "<key id>:<signature>") of the game's head at `seq` if this process signed
    or verified it last (no statement: a command's answer carries it, games.table.selectors)."""
    head = _SIGNED.get(game_id)
    if head is None or head[0] != seq or not head[2]:
        return None
    return head[0], head[1], head[2]


TAMPERED = "tampered"  # GameProjection.status of a game stopped by `stop_tampered`


class Tampered(ApiError):
    """The game's head is not one the service signed (or a row it did not write holds the next
    seq): nothing is built on it. `stop_tampered` records it, outside the refused transaction."""

    def __init__(self, game_id: int, seq: int, why: str, *, known: bool = False) -> None:
        super().__init__(Code.GAME_TAMPERED, f"this game's record was altered at seq {seq}: "
                                             "it is stopped for staff to look at")  # fmt: skip
        self.game_id, self.seq, self.why, self.known = game_id, seq, why, known


def check_head(proj: GameProjection) -> None:
    """Raise Tampered unless the projection's head is a head the service signed: the row at
    `proj.seq` exists, has `proj.head_hash`, and carries a valid signature (its own, or, for a
    head older than issue 32, a HeadSignature row: `manage.py sign_heads` signs them). The head
    row comes with the projection's locked read (games.table.projections.lock_read: no
    statement added); a legacy head costs one more read, once."""
    if proj.status == TAMPERED:
        raise Tampered(proj.game_id, proj.seq, "stopped before", known=True)
    head = getattr(proj, "head_row", None)
    if head is None or head[0] != proj.head_hash:
        # Read without the head's row, or the lock waited for another command: PostgreSQL then
        # hands back the projection's new row beside the head row of the old snapshot (or
        # none). The head is read again, now that the row is locked: one statement, only then.
        head = GameEvent.objects.filter(game_id=proj.game_id, seq=proj.seq).values_list(
            "hash", "head_signature").first() or (None, None)  # fmt: skip
    row_hash, row_signature = head
    if row_hash is None:
        raise Tampered(proj.game_id, proj.seq, "the projection's head has no event")
    if row_hash != proj.head_hash:
        raise Tampered(proj.game_id, proj.seq, "the projection's head is not the event's hash")
    if _SIGNED.get(proj.game_id) == (proj.seq, row_hash, row_signature):
        return  # the very row this process signed (no second verification: ~0.5 ms)
    if inline_signed(row_signature, proj.seq, row_hash):
        _signed_here(proj.game_id, (proj.seq, row_hash, row_signature))
        return
    if row_signature is None:  # a head older than inline signatures, or an unsigned insert
        old = HeadSignature.objects.filter(game_id=proj.game_id, seq=proj.seq,
                                           head_hash=row_hash).first()  # fmt: skip
        if old is not None and signing.verify(signing.public_key(), old.seq, old.head_hash,
                                              old.signature):  # fmt: skip
            return
    raise Tampered(proj.game_id, proj.seq, "the head is not signed by this service")


def forged_next(err: IntegrityError, game_id: int) -> Tampered | None:
    """A (game, seq) collision met while the game's row lock was held: no command of the
    service wrote that row (every append moves the projection in its transaction), so a writer
    of the database did. Tampered for that seq (checked again under the lock), else None."""
    cause = getattr(err, "__cause__", None)
    if getattr(getattr(cause, "diag", None), "constraint_name", None) != "event_game_seq":
        return None
    with transaction.atomic():
        proj = (GameProjection.objects.select_for_update().filter(game_id=game_id)
                .only("seq").first())  # fmt: skip
        if proj is None or not GameEvent.objects.filter(game_id=game_id,
                                                        seq=proj.seq + 1).exists():  # fmt: skip
            return None
        return Tampered(game_id, proj.seq + 1, "a row the service did not write holds this seq")


def stop_tampered(err: Tampered) -> None:
    """The game stops: its projection says `tampered` (staff see it; the deadline sweeps skip
    anything not active, so nothing retries), and the log raises one alert. In a transaction of
    its own: the command's was refused."""
    if err.known:
        return
    with transaction.atomic():
        changed = GameProjection.objects.filter(game_id=err.game_id).exclude(
            status=TAMPERED).update(status=TAMPERED, deadline_at=None,
                                    deadline_kind=None)  # fmt: skip
    if changed:
        log.error("ALERT game %s tampered at seq %s: %s; stopped (game_tampered) for staff",
                  err.game_id, err.seq, err.why)  # fmt: skip


def sign(game_id: int, heads: list[GameEvent]) -> None:
    """The service signs these heads (games.core.signing), in the transaction that appends
    them: a game's end, and every checkpoint."""
    if not heads:
        return
    key = signing.key_id(signing.public_key())
    now = datetime.now(UTC)
    signed = [(game_id, r.seq, r.hash, key, signing.sign(r.seq, r.hash), now) for r in heads]
    plain_sql.insert(HeadSignature, ("game", "seq", "head_hash", "key_id", "signature", "at"),
                     signed)  # fmt: skip
    for row, (_, seq, head_hash, _, signature, _) in zip(heads, signed, strict=True):
        if row.type == GAME_ENDED:  # an end: witnessed outside the database too
            transaction.on_commit(partial(witness.record, game_id, seq, head_hash, signature))


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


COLUMNS = ("game", "seq", "type", "v", "data", "at", "prev_hash", "hash", "head_signature")


def _insert(rows: list[GameEvent]) -> None:
    """One plain multi-row INSERT: `bulk_create` compiles its query and, on PostgreSQL, sends
    UNNEST arrays whose dumping showed in every command's profile, then reads back ids nobody
    uses."""
    plain_sql.insert(GameEvent, COLUMNS, ((r.game_id, r.seq, r.type, r.v, r.data, r.at,
                                           r.prev_hash, r.hash, r.head_signature)
                                          for r in rows))  # fmt: skip


def to_event(row: GameEvent | Logged) -> Event:
    return Event(row.type, row.data, row.v)


@dataclass(frozen=True)
class Logged:
    """An event as the followers read it (`tail`): its row's fields but the chain's."""

    game_id: int
    seq: int
    type: str
    v: int
    data: dict
    at: datetime


_TAIL_FIELDS = ("game", "seq", "type", "v", "data", "at")
_tail_reader: Callable[[tuple], tuple] | None = None


def tail(game_id: int, after: int = 0) -> list[Logged]:
    """The game's events past `after`, in one plain read (the followers' read after every
    move: the ORM's model instances were a tenth of their CPU)."""
    global _tail_reader
    if _tail_reader is None:
        _tail_reader = plain_sql.reader(GameEvent, _TAIL_FIELDS)
    read = _tail_reader
    found = plain_sql.rows(
        f"SELECT game_id, seq, type, v, data, at FROM {GameEvent._meta.db_table}"
        " WHERE game_id = %s AND seq > %s ORDER BY seq", [game_id, after])  # fmt: skip
    return [Logged(*read(row)) for row in found]


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
