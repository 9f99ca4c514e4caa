"""The tournaments' reads (API.md, Tournaments): the view, the list and the log, all from the
projection and the log (no game is read)."""

from __future__ import annotations

from typing import Any

from games.core.codec import iso
from games.core.errors import ApiError, not_found
from games.engine.errors import Code
from games.tournaments import fold as tf
from games.tournaments import store
from games.tournaments.models import TournamentProjection

STATUSES = (tf.OPEN, tf.RUNNING, tf.DONE)


def view(proj: TournamentProjection) -> dict[str, Any]:
    state = proj.state
    return {
        "id": proj.tournament_id, "name": state["name"], "format": state["format"],
        "status": state["status"], "organiser": state["organiser"],
        "table_size": state["table_size"], "rounds_planned": state["rounds_planned"],
        "variant": state["variant"], "options": state["options"],
        "max_players": state["max_players"], "duplicate_deals": state["duplicate_deals"],
        "seq": proj.seq,
        "players": [{"username": p["username"], "withdrawn": p["withdrawn"]}
                    for p in state["players"]],
        "rounds": [{"number": r["number"], "status": r["status"],
                    "tables": [{"game": t["game"], "players": t["players"],
                                "points": t["points"]} for t in r["tables"]],
                    "byes": r.get("byes", [])} for r in state["rounds"]],
        "standings": tf.standings(state),
    }  # fmt: skip


def tournament_view(tournament_id: int) -> dict[str, Any]:
    proj = TournamentProjection.objects.filter(tournament_id=tournament_id).first()
    if proj is None:
        raise not_found("tournament")
    return view(proj)


def tournament_list(status: str | None) -> list[dict[str, Any]]:
    rows = TournamentProjection.objects.order_by("-tournament_id")
    if status is not None:
        if status not in STATUSES:
            raise ApiError(Code.INVALID, f"status is one of {', '.join(STATUSES)}")
        rows = rows.filter(status=status)
    return [{"id": p.tournament_id, "name": p.state["name"], "format": p.state["format"],
             "status": p.status, "players": len(p.state["players"]),
             "round": len(p.state["rounds"]) or None} for p in rows[:200]]  # fmt: skip


def tournament_events(tournament_id: int, after: int = 0) -> list[dict[str, Any]]:
    if not TournamentProjection.objects.filter(tournament_id=tournament_id).exists():
        raise not_found("tournament")
    return [{"seq": r.seq, "type": r.type, "at": iso(r.at), "data": r.data, "hash": r.hash}
            for r in store.load(tournament_id, after)]  # fmt: skip
