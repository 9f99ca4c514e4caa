"""Checking a game's record without trusting the server's word (R22).

A record is checked in named steps, each naming the first bad seq and why:
- chain: every row's hash covers the previous hash and its own content (event_store);
- signature: every signed head (games.core.signing) verifies with the service's public key and
  names a row of the chain, and an ended game's last event is signed: the chain alone can be
  extended by anyone who may append, a signature only by the holder of the key;
- head, length: the chain ends where its file header says (exported files; a header without
  them fails, since a cut log is a valid prefix of its game);
- seed: the revealed seed matches the commitment published in the first event;
- rederive: every roll, coin toss and shuffle in the log is the one the seed gives;
- rules: re-executing the game through the engine with the seed makes exactly the logged
  events (every move legal, every roll and shuffle the seed's);
- replay: folding the events gives exactly the stored game (stored games only);
- header: an exported file's header describes the game its events make (replays.exports);
- origin: a fork's first event (`forked`, issue 30) names its source's chain hash at `at`,
  and the source stored here has that hash there (stored games only).
A log that has been tampered with is reported, never a crash: it may not even fold.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from games.core import event_store, signing, witness
from games.core.codec import state_to_json
from games.core.errors import ApiError, not_found
from games.core.models import Game, GameEvent, GameProjection
from games.engine import events as ev
from games.engine import fold
from games.engine.audit import rederive, verify_events
from games.engine.errors import Code
from games.engine.setup import game_options


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    first_bad_seq: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Report:
    checks: list[Check]
    head_hash: str
    length: int

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    def named(self, name: str) -> Check:
        """The check `name`, one verify_game always runs (KeyError for any other name)."""
        found = self.check(name)
        if found is None:
            raise KeyError(name)
        return found

    def summary(self) -> str:
        bad = [c for c in self.checks if not c.ok]
        if not bad:
            return f"{self.length} events verified ({', '.join(c.name for c in self.checks)})"
        return "; ".join(
            f"{c.name} fails" + (f" at seq {c.first_bad_seq}" if c.first_bad_seq else "")
            + (f": {c.reason}" if c.reason else "")
            for c in bad
        )  # fmt: skip


UNCHECKED: Any = object()  # verify_record's head_hash / length: not asked (stored games)


@dataclass(frozen=True)
class Signed:
    """A signed head: what games.core.signing signed, and the signature (hex)."""

    seq: int
    head_hash: str
    signature: str


def verify_record(rows: list[GameEvent], *, seed: bytes | None, head_hash: Any = UNCHECKED,
                  length: Any = UNCHECKED, signed: list[Signed] | None = None,
                  public_key: str | None = None, signed_head: bool = False) -> Report:  # fmt: skip
    """Check stored or file rows; `seed` None (a game not ended) checks the chain only. A file
    passes its header's head_hash and event count: missing ones (None) fail their check, since
    without them a file cut short is a valid prefix. `signed` (with the `public_key` to check
    them by) adds the signature check; `signed_head` (a stored game, running or not): its
    last row must be a signed head, as the service signs every batch it appends (issue 32)."""
    chain = event_store.verify_chain(rows)
    checks = [Check("chain", chain.ok, chain.first_bad_seq, chain.reason)]
    if signed is not None:
        checks.append(_signatures(rows, signed, public_key, signed_head))
    if head_hash is not UNCHECKED:
        checks.append(_head(chain, head_hash))
    if length is not UNCHECKED:
        checks.append(_length(rows, length))
    if seed is not None:
        matches = hashlib.sha256(seed).hexdigest() == _commitment(rows)
        checks.append(_check("seed", matches, "the seed does not match its commitment", 1))
        checks.append(_rederive(rows, seed))
        checks.append(_rules(rows, seed))
    return Report(checks, chain.head_hash, len(rows))


def _signatures(rows: list[GameEvent], signed: list[Signed], public_key: str | None,
                signed_head: bool = False) -> Check:  # fmt: skip
    """Every signature verifies and names a row of this chain; an ended game's head is signed,
    and with `signed_head` any game's (a forged append after the last signed head is named:
    the first seq after it; a forged signature does not verify)."""
    if not public_key:
        return Check("signature", False, None, "no public key to check the signatures by")
    hashes = {r.seq: r.hash for r in rows}
    for s in sorted(signed, key=lambda s: s.seq):
        if not signing.verify(public_key, s.seq, s.head_hash, s.signature):
            return Check("signature", False, s.seq, f"the signature of seq {s.seq} is not valid")
        if hashes.get(s.seq) != s.head_hash:
            return Check("signature", False, s.seq, f"seq {s.seq} is not the head that was signed")
    ended = next((r.seq for r in rows if r.type == ev.GAME_ENDED), None)
    last = max((s.seq for s in signed), default=0)
    if ended is not None and last < len(rows):
        bad = ended if last < ended else last + 1
        return Check("signature", False, bad, "the game's end is not the last signed head")
    if signed_head and rows and last < len(rows):
        return Check("signature", False, last + 1,
                     f"no signed head covers seq {last + 1} and after")  # fmt: skip
    return Check("signature", True)


def _check(name: str, ok: bool, why: str, seq: int | None = None) -> Check:
    return Check(name, True) if ok else Check(name, False, seq, why)


def _head(chain: event_store.ChainReport, head_hash: Any) -> Check:
    if not isinstance(head_hash, str):
        return Check("head", False, None, "the header names no head_hash")
    return _check("head", chain.ok and chain.head_hash == head_hash,
                  "the chain does not end at the header's head_hash")  # fmt: skip


def _length(rows: list[GameEvent], length: Any) -> Check:
    """The first seq missing from (or added to) the record is the bad one."""
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        return Check("length", False, None, "the header names no event count")
    if len(rows) == length:
        return Check("length", True)
    return Check("length", False, min(len(rows), length) + 1, f"{len(rows)} events, not {length}")


def verify_game(game_id: int) -> Report:
    """Every check of a stored game, with its (secret until the end) seed."""
    game = Game.objects.get(pk=game_id)
    rows = event_store.load(game_id)
    report = verify_record(rows, seed=bytes(game.seed), signed=stored_signatures(game_id, rows),
                           public_key=signing.public_key(), signed_head=True)  # fmt: skip
    proj = GameProjection.objects.filter(game_id=game_id).first()
    origin = [_origin(rows[0])] if rows and rows[0].type == ev.FORKED else []
    checks = [*report.checks, _replay(rows, proj), _witnessed(rows, witness.ends(game_id))]
    return Report([*checks, *origin], report.head_hash, report.length)


def _origin(first: GameEvent) -> Check:
    """A fork (issue 30) came from where its `forked` event says: the source's event at `at`
    has the chain hash it names."""
    source = first.data.get("source") if isinstance(first.data, dict) else None
    if not isinstance(source, dict):
        return Check("origin", False, 1, "the forked event names no source")
    game, at = source.get("game"), source.get("at")
    if isinstance(game, bool) or not isinstance(game, int) or isinstance(at, bool) or \
            not isinstance(at, int):  # fmt: skip
        return Check("origin", False, 1, "the forked event names no source game and seq")
    stored = GameEvent.objects.filter(game_id=game, seq=at).values_list("hash", flat=True).first()
    return _check(
        "origin",
        stored is not None and stored == source.get("hash"),
        f"game {game} has no event {at} with the hash the fork names",
        1,
    )


def _witnessed(rows: list[GameEvent], ends: list[tuple[int, str]]) -> Check:
    """Every end the witness outside the database holds (games.core.witness) is in the record,
    with its hash: a record rolled back before a signed end, or rewritten under it, is named at
    the first seq it lacks or changed (issue 32)."""
    hashes = {r.seq: r.hash for r in rows}
    for seq, head_hash in sorted(ends):
        if seq not in hashes:
            return Check("witness", False, len(rows) + 1,
                         f"the witness holds a signed end at seq {seq}: the record stops at "
                         f"{len(rows)}")  # fmt: skip
        if hashes[seq] != head_hash:
            return Check("witness", False, seq, f"seq {seq} is not the end the witness holds")
    return Check("witness", True)


def stored_signatures(game_id: int, rows: list[GameEvent] | None = None) -> list[Signed]:
    """The game's signed heads: its HeadSignature rows (checkpoints, the end) and, given its
    `rows`, each batch's own signature (issue 32), one per seq."""
    signed = {s.seq: Signed(s.seq, s.head_hash, s.signature)
              for s in event_store.signatures(game_id)}  # fmt: skip
    for r in rows or ():
        if r.head_signature and r.seq not in signed:
            signed[r.seq] = Signed(r.seq, r.hash, r.head_signature.split(":", 1)[-1])
    return [signed[seq] for seq in sorted(signed)]


def audit_for_user(*, game_id: int, user) -> dict[str, Any]:
    """The audit as `user` may ask for it: once the game has ended (its seed is public then,
    R22), or at any time for staff. ApiError not_found / forbidden."""
    proj = GameProjection.objects.filter(game_id=game_id).only("status").first()
    if proj is None:
        raise not_found()
    if proj.status != "ended" and not user.is_staff:
        raise ApiError(Code.FORBIDDEN, "the audit opens when the game ends (or for staff)")
    return audit_report(game_id)


def audit_report(game_id: int) -> dict[str, Any]:
    """API.md's audit answer (seed, seed_commitment, chain_ok, head_hash, replay_ok) and the
    other checks, each with its first bad seq and reason."""
    report = verify_game(game_id)
    chain, signature, seed, rederived, rules, replay, witnessed = (
        report.named(n)
        for n in ("chain", "signature", "seed", "rederive", "rules", "replay", "witness")
    )
    # A record extended by anyone without the key is no chain of this service's: chain_ok
    # says so (API.md), and signature_ok says why.
    broken = chain if not chain.ok else signature
    rows = GameEvent.objects.filter(game_id=game_id, seq=1)
    return {
        "seed": bytes(Game.objects.get(pk=game_id).seed).hex(),
        "seed_commitment": _commitment(list(rows)),
        "seed_ok": seed.ok,
        "rederive_ok": rederived.ok,
        "chain_ok": chain.ok and signature.ok,
        "signature_ok": signature.ok,
        "public_key": signing.public_key(),
        "head_hash": report.head_hash,
        "first_bad_seq": broken.first_bad_seq,
        "reason": broken.reason,
        "replay_ok": replay.ok,
        "rules_ok": rules.ok,
        "rules_first_bad_seq": rules.first_bad_seq,
        "rules_reason": rules.reason,
        "witness_ok": witnessed.ok,  # the record holds every end witnessed outside PostgreSQL
        "witness_first_bad_seq": witnessed.first_bad_seq,
        "witness_reason": witnessed.reason,
        # A fork's proof of where it came from; null for any other game.
        "origin_ok": origin.ok if (origin := report.check("origin")) is not None else None,
    }


def _commitment(rows: list[GameEvent]) -> str | None:
    """The seed's commitment as the game's first event published it (R22)."""
    if not rows or rows[0].seq != 1 or rows[0].type not in ev.FIRST_EVENTS:
        return None
    value = rows[0].data.get("seed_commitment") if isinstance(rows[0].data, dict) else None
    return value if isinstance(value, str) else None


def _rederive(rows: list[GameEvent], seed: bytes) -> Check:
    """R22: every roll, toss and shuffle in the log is the seed's."""
    verdict = rederive([event_store.to_event(r) for r in rows], seed)
    return Check("rederive", verdict.ok, verdict.first_bad_seq, verdict.reason)


def _rules(rows: list[GameEvent], seed: bytes) -> Check:
    try:
        verdict = verify_events([event_store.to_event(r) for r in rows], seed)
    except Exception as err:  # an edited log is data, not a server failure
        return Check("rules", False, None, f"the log cannot be re-executed: {err!r}")
    return Check("rules", verdict.ok, verdict.first_bad_seq, verdict.reason)


def _replay(rows: list[GameEvent], proj: GameProjection | None) -> Check:
    """Folding every event gives exactly the stored game at the stored seq."""
    if proj is None:
        return Check("replay", False, None, "the game has no projection")
    if not rows or proj.seq != len(rows) or rows[-1].seq != proj.seq:
        return Check("replay", False, None, f"{len(rows)} events, the game stands at {proj.seq}")
    try:
        state = fold([event_store.to_event(r) for r in rows])
    except Exception as err:  # an edited log can break any rule evolve relies on
        return Check("replay", False, None, f"the events do not fold: {err!r}")
    # A state stored before an option existed reads with that option's old-game value (the
    # codec upcasts it, as the fold upcasts the game_created event).
    stored = proj.state
    if isinstance(stored, dict) and isinstance(stored.get("options"), dict):
        stored = {**stored, "options": game_options(stored["options"])}
    return _check("replay", state_to_json(state) == stored, "the stored game is not the fold")
