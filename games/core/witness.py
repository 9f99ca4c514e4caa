"""A witness of signed ends outside PostgreSQL (issue 32): every game end the service signs is
appended, after COMMIT, to a file of this node (SEJMI_WITNESS_DIR/<id mod 1000>/<id>.jsonl, one
JSON line per end: seq, head_hash, signature). The database's owner can delete a game's events
and signature rows and rebuild its projection — every head left is one the service signed — but
not this file: the audit (replays.verification) compares the record against it and names the
first seq it lacks.

Why a file per node: it needs nothing the service does not have (no second store to run), the
database's roles cannot reach it, and it is appended with O_APPEND, never rewritten. Keep the
directory on storage the database's operators cannot write, and back it up with the key. A
witness only knows the ends its own node signed: with several web nodes, each holds its own
ends, and the audit of a game checks the node it runs on (docs/INTEGRITY.md)."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from django.conf import settings

log = logging.getLogger(__name__)


def _path(game_id: int) -> Path:
    return Path(settings.SEJMI_WITNESS_DIR) / f"{game_id % 1000:03d}" / f"{game_id}.jsonl"


def record(game_id: int, seq: int, head_hash: str, signature: str) -> None:
    """Append one signed end (after COMMIT), with the game's seed commitment (its first
    event's): an id used again by another database (a reset, a test run) is another game. A
    witness that cannot be written is logged at ERROR, never raised: the game's record is in
    the database already."""
    line = json.dumps({"seq": seq, "head_hash": head_hash, "signature": signature,
                       "game": _commitment(game_id)}) + "\n"  # fmt: skip
    path = _path(game_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o640)
        try:
            os.write(fd, line.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as err:
        log.error("witness of game %s seq %s not written: %s", game_id, seq, err)


def _commitment(game_id: int) -> str | None:
    from games.core.models import GameEvent

    data = GameEvent.objects.filter(game_id=game_id, seq=1).values_list("data", flat=True).first()
    return data.get("seed_commitment") if isinstance(data, dict) else None


def ends(game_id: int) -> list[tuple[int, str]]:
    """The (seq, head_hash) of every end of this game the witness holds, in the order written:
    the ends witnessed for its id and its seed commitment (the same id in another database's
    life is another game)."""
    mine = _commitment(game_id)
    try:
        text = _path(game_id).read_text()
    except FileNotFoundError:
        return []
    out = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
            if entry.get("game") == mine:
                out.append((int(entry["seq"]), str(entry["head_hash"])))
        except (ValueError, KeyError, TypeError):
            continue  # a torn last line (a crash mid-write) witnesses nothing
    return out
