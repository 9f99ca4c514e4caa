"""The staff's case file on a dispute: what the admin page shows (replays/templates/admin/
replays/dispute/).

In reading order: the verification verdict (one OK / FAILED line per check), the disputed
moment with a link to the replay viewer there, the transcript in the admin's language, the
event log one line per event with the card catalogue set apart, and the game's chat (every
channel, hidden messages in full and marked). Each part is computed on its
own: a tampered record may break one of them, and the others must still be shown.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.chat.services import chat_record
from games.core.models import Game
from replays.disputes import services as disputes
from replays.disputes.models import Dispute
from replays.verification import verify_game

log = logging.getLogger(__name__)

# What each check of replays.verification proves, in plain words.
CHECKS = {
    "chain": gettext_lazy("Hash chain: every event is linked to the one before it"),
    "signature": gettext_lazy(
        "Signatures: the service's signed heads verify, and the game's end is one of them"
    ),
    "seed": gettext_lazy("Seed: matches the commitment published in the first event"),
    "rederive": gettext_lazy("Dice, coins and shuffles: each one is what the seed gives"),
    "rules": gettext_lazy(
        "Rules: re-playing the commands through the engine gives exactly these events"
    ),
    "replay": gettext_lazy("Stored game: equal to the fold of its events"),
}


@dataclass(frozen=True)
class Part:
    """One part of the case file, or the reason it could not be computed."""

    value: Any = None
    error: str | None = None


def _part(name: str, dispute: Dispute, build: Callable[[], Any]) -> Part:
    try:
        return Part(build())
    except Exception as err:  # noqa: BLE001 — shown to staff in place, and logged
        log.exception("dispute %s: %s failed", dispute.pk, name)
        return Part(error=f"{type(err).__name__}: {err}")


def replay_url(game_id: int, seq: int) -> str:
    """The replay viewer at event `seq` (a stable URL: the page's ?at= follows the viewer)."""
    return f"/games/{game_id}/replay/?at={seq}"


def build(dispute: Dispute, *, lang: str) -> dict[str, Any]:
    """The template context of the case file; `lang` is "en" or "cs" (the transcript's)."""
    gid = dispute.game_id
    events = _part("event log", dispute, lambda: disputes.game_event_rows(gid))
    last = events.value[-1]["seq"] if events.value else None
    seq = dispute.seq if dispute.seq is not None else last
    return {
        "verdict": _part("verification", dispute, lambda: verdict(gid)),
        "moment": moment(gid, dispute.seq, seq, events.value or []),
        "transcript": _part(
            "transcript", dispute, lambda: "\n".join(disputes.game_transcript(gid, lang=lang))
        ),
        "events": events,
        "lines": _part("event log", dispute, lambda: event_lines(events.value or [], gid, seq)),
        "catalogue": _part("catalogue", dispute, lambda: catalogue(events.value or [])),
        "chat": _part("chat", dispute, lambda: chat_record(gid)),
        "table_url": f"/games/{gid}/",
    }


def verdict(game_id: int) -> dict[str, Any]:
    report = verify_game(game_id)
    lines = [
        {"ok": c.ok, "what": CHECKS.get(c.name, c.name), "name": c.name,
         "seq": c.first_bad_seq, "reason": c.reason,
         "url": replay_url(game_id, c.first_bad_seq) if c.first_bad_seq else None}
        for c in report.checks
    ]  # fmt: skip
    failed = sum(1 for line in lines if not line["ok"])
    seed = bytes(Game.objects.get(pk=game_id).seed).hex()
    return {"ok": report.ok, "lines": lines, "failed": failed, "total": len(lines),
            "length": report.length, "head_hash": report.head_hash, "seed": seed}  # fmt: skip


def moment(game_id: int, named: int | None, seq: int | None, rows: list[dict]) -> dict | None:
    """The disputed event (or, when the player named none, the last one) and its replay URL."""
    if seq is None:
        return None
    row = next((r for r in rows if r["seq"] == seq), None)
    return {"seq": seq, "named": named is not None, "type": row["type"] if row else None,
            "url": replay_url(game_id, seq)}  # fmt: skip


def event_lines(rows: list[dict], game_id: int, disputed: int | None) -> list[dict[str, Any]]:
    return [
        {**row, "summary": summary(row["data"]), "url": replay_url(game_id, row["seq"]),
         "disputed": row["seq"] == disputed, "short_hash": row["hash"][:12]}
        for row in rows
    ]  # fmt: skip


def summary(data: Any) -> str:
    """An event's data on one line; the deck's card catalogue is named, not listed (it is
    folded away in the page's catalogue section)."""
    if not isinstance(data, dict):
        return compact(data)
    parts = []
    for key, value in data.items():
        if key == "deck" and isinstance(value, dict) and "cards" in value:
            cards = len(value["cards"])
            value = _("%(name)s, %(n)d cards (see the card catalogue)") % {
                "name": value.get("name"), "n": cards}  # fmt: skip
        parts.append(f"{key}: {compact(value)}")
    return "; ".join(parts)


def compact(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(compact(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {compact(v)}" for k, v in value.items()) + "}"
    return str(value)


def catalogue(rows: list[dict]) -> dict[str, Any] | None:
    """The deck of the game's first event as rows (id, effect A, effect B), or None."""
    first = rows[0]["data"] if rows and isinstance(rows[0]["data"], dict) else {}
    deck = first.get("deck")
    if not isinstance(deck, dict) or not isinstance(deck.get("cards"), list):
        return None
    cards = [
        {"id": row[0], "a": (row[1], row[2]), "b": (row[3], row[4])}
        for row in deck["cards"]
        if isinstance(row, list) and len(row) == 5
    ]
    return {"name": deck.get("name"), "cards": cards}
