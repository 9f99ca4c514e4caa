"""Self-contained game files (JSON Lines): a header, then every event with its hash.

    {"format": "sejmi-game", "version": 1, "variant", "seats", "deck", "players",
     "seed_commitment", "seed" (once ended, else null), "status", "events", "head_hash",
     "public_key", "signatures": [{"seq", "head_hash", "signature"}],
     "signed_head": {"seq", "hash", "key_id", "signature"} (the latest signed head), ...}
    {"seq", "type", "v", "data", "at", "prev_hash", "hash"}   one line per event

`read_file` parses and checks a file without a database; `verify_file` checks it offline, the
signatures by a public key known beforehand (GET /api/signing-key/ of the service that made
it) or else the one the header names; `import_file` loads a verified, finished game into this
installation under a new id (the chain is kept as it was, and this service signs its head).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.accounts.services import IMPORTER, user_create
from games.core import event_store, signing
from games.core.codec import iso
from games.core.models import Game, GameEvent
from games.engine import GameState, fold
from games.engine.events import GAME_ENDED
from games.table import stats
from games.table.projections import rebuild_game
from replays.verification import Check, Report, Signed, stored_signatures, verify_record

FORMAT, VERSION = "sejmi-game", 1


@dataclass
class GameFile:
    header: dict[str, Any]
    rows: list[GameEvent]  # unsaved rows, to check with the same code as stored ones

    @property
    def seed(self) -> bytes | None:
        seed = self.header.get("seed")
        return bytes.fromhex(seed) if seed else None


def export_lines(game_id: int) -> Iterator[str]:
    """The file, line by line (the caller decides who may have it: R23)."""
    game = Game.objects.get(pk=game_id)
    rows = event_store.load(game_id)
    state = fold([event_store.to_event(r) for r in rows])
    ended = state.status == "ended"
    signed = sorted(stored_signatures(game_id, rows), key=lambda s: s.seq)
    header = {
        "format": FORMAT, "version": VERSION, "game": game_id, **describe(state),
        "seed": bytes(game.seed).hex() if ended else None, "events": len(rows),
        "head_hash": rows[-1].hash if rows else event_store.GENESIS,
        "public_key": signing.public_key(),
        "signatures": [{"seq": s.seq, "head_hash": s.head_hash, "signature": s.signature}
                       for s in signed],  # every batch head
        # The latest of them, as a player's view carries it (games.table.selectors)
        "signed_head": {"seq": signed[-1].seq, "hash": signed[-1].head_hash,
                        "key_id": signing.key_id(signing.public_key()),
                        "signature": signed[-1].signature} if signed else None,
        "exported_at": iso(timezone.now()),
    }  # fmt: skip
    yield json.dumps(header, ensure_ascii=False)
    for r in rows:
        yield json.dumps({"seq": r.seq, "type": r.type, "v": r.v, "data": r.data,
                          "at": iso(r.at), "prev_hash": r.prev_hash,
                          "hash": r.hash}, ensure_ascii=False)  # fmt: skip


def describe(state: GameState) -> dict[str, Any]:
    """What a header says about the game, as its events fold (checked by `verify_file`)."""
    return json.loads(json.dumps({
        "variant": state.variant, "seats": state.n,
        "deck": {"name": state.deck.name, "cards": state.deck.rows()},
        "players": state.names, "seed_commitment": state.seed_commitment,
        "status": state.status, "winners": state.winners,
    }))  # fmt: skip


class BadFile(ValueError):
    pass


def read_file(lines: Iterable[str]) -> GameFile:
    """Parse a game file; BadFile if it is not one (verification is a separate step)."""
    it = (line for line in lines if line.strip())
    try:
        header = json.loads(next(it))
    except (StopIteration, json.JSONDecodeError) as err:
        raise BadFile(f"no header line: {err}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BadFile("not a sejmi-game file")
    if header.get("version") != VERSION:
        raise BadFile(f"unknown version {header.get('version')!r}")
    seed = header.get("seed")
    if seed is not None and not (isinstance(seed, str) and _is_hex(seed)):
        raise BadFile("the header's seed is not hex digits")
    rows = []
    for number, line in enumerate(it, start=2):
        try:
            raw = json.loads(line)
            if not isinstance(raw.get("data"), dict):
                raise TypeError("data is not an object")
            at = datetime.fromisoformat(raw["at"])
            if at.tzinfo is None:
                raise ValueError("at has no time zone")
            row = GameEvent(seq=int(raw["seq"]), type=str(raw["type"]), v=int(raw["v"]),
                            data=raw["data"], at=at, prev_hash=str(raw["prev_hash"]),
                            hash=str(raw["hash"]))  # fmt: skip
            rows.append(row)
        except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as err:
            raise BadFile(f"line {number} is not an event: {err}") from None
    return GameFile(header, rows)


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


def verify_file(f: GameFile, *, public_key: str | None = None) -> Report:
    """Chain, signatures, head and length (the header's), seed, rules, as for a stored game
    (replays.verification), then whether the header describes the game its events make. The
    signatures are checked by `public_key` (known beforehand), else by the header's."""
    report = verify_record(f.rows, seed=f.seed, head_hash=f.header.get("head_hash"),
                           length=f.header.get("events"), signed=_signed(f.header),
                           public_key=public_key or _text(f.header.get("public_key")))  # fmt: skip
    return Report([*report.checks, _header(f)], report.head_hash, report.length)


def _signed(header: dict[str, Any]) -> list[Signed]:
    """The header's signed heads; a malformed entry is kept as one that cannot verify."""
    found = header.get("signatures")
    out = []
    for s in found if isinstance(found, list) else []:
        s = s if isinstance(s, dict) else {}
        seq = s.get("seq")
        seq = seq if isinstance(seq, int) else -1
        out.append(Signed(seq, _text(s.get("head_hash")) or "", _text(s.get("signature")) or ""))
    return out


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _header(f: GameFile) -> Check:
    try:
        state = fold([event_store.to_event(r) for r in f.rows])
        told = describe(state)
    except Exception as err:  # an edited log can break any rule evolve relies on
        return Check("header", False, None, f"the events do not fold: {err!r}")
    wrong = [key for key, value in told.items() if f.header.get(key) != value]
    if wrong:
        why = f"the header's {', '.join(wrong)} differ from the events"
        return Check("header", False, None, why)
    return Check("header", True)


def import_file(f: GameFile, *, username: str = IMPORTER) -> int:
    """Load a verified, finished game under a new id; ValueError with the report if not."""
    report = verify_file(f)
    if not report.ok:
        raise ValueError(f"refused: {report.summary()}")
    if f.seed is None or not f.rows or f.rows[-1].type != GAME_ENDED:
        raise ValueError("refused: only finished games (with their revealed seed) can be imported")
    users = get_user_model().objects
    owner = users.filter(username=username).first() or user_create(
        username=username, is_active=False
    )
    with transaction.atomic():
        game = Game.objects.create(seed=f.seed, created_by=owner)
        for r in f.rows:
            r.game = game
        GameEvent.objects.bulk_create(f.rows)
        event_store.sign_head(game.pk)  # this service vouches for the file it verified
        rebuild_game(game.pk)
        stats.follow(game.pk)  # its players' games and wins; no one is notified of an old game
    return game.pk
