"""Heads recorded before the service signed every batch (issue 32): a running game whose head
row carries no signature and has no HeadSignature row would stop as `game_tampered` at its next
command. `sign_unsigned_heads` finds exactly those games with one read and signs their heads
(after checking each chain); it is idempotent and cheap when there is nothing to do, so the
migration that introduced it runs it (games/migrations/0021_holes_sign_legacy_heads.py: nobody
has to remember `manage.py sign_heads`), and `sign_heads` does the same and more."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Exists, OuterRef

from games.core import event_store
from games.core.models import GameEvent, GameProjection, HeadSignature


def unsigned_heads() -> list[int]:
    """The games whose projection's head is signed neither in its row nor by a HeadSignature."""
    inline = GameEvent.objects.filter(game_id=OuterRef("game_id"), seq=OuterRef("seq"),
                                      head_signature__isnull=False)  # fmt: skip
    legacy = HeadSignature.objects.filter(game_id=OuterRef("game_id"), seq=OuterRef("seq"))
    found = GameProjection.objects.filter(seq__gt=0).exclude(Exists(inline)).exclude(Exists(legacy))
    return list(found.order_by("game_id").values_list("game_id", flat=True))


def sign_unsigned_heads(warn: Callable[[str], object] = print) -> int:
    """Sign the head of every game `unsigned_heads` finds whose chain holds; a game whose chain
    does not hold is named through `warn` and left unsigned (it stops, for staff to look at).
    Returns how many heads were signed."""
    signed = 0
    for game_id in unsigned_heads():
        rows = event_store.load(game_id)
        if not event_store.verify_chain(rows).ok:
            warn(f"game {game_id}: the chain does not hold; its head is not signed")
            continue
        proj = GameProjection.objects.get(game_id=game_id)
        head = [r for r in rows if r.seq == proj.seq and r.hash == proj.head_hash]
        if not head:
            warn(f"game {game_id}: its projection's head is not a row of its chain; not signed")
            continue
        event_store.sign(game_id, head)
        signed += 1
    return signed
