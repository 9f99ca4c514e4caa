"""A tournament's state folded from its log: pure (plain dicts, JSON as stored in the
projection), no Django. `standings(state)` ranks the players (API.md, Tournaments)."""

from __future__ import annotations

from typing import Any

CREATED = "tournament_created"
JOINED = "player_joined"
LEFT = "player_left"
WITHDRAWN = "player_withdrawn"
STARTED = "tournament_started"
ROUND_PAIRED = "round_paired"
GAME_SCORED = "game_scored"
ROUND_ENDED = "round_ended"
ENDED = "tournament_ended"

OPEN, RUNNING, DONE = "open", "running", "ended"
BYE_POINTS = 0.5  # a bye (no table could be formed for him): half a win, docs/TOURNAMENTS.md

State = dict[str, Any]


def evolve(state: State | None, type_: str, data: dict[str, Any]) -> State:
    """The state after one event (a new dict at creation; later events change it in place)."""
    if type_ == CREATED:
        return {**data, "status": OPEN, "players": [], "rounds": []}
    assert state is not None
    players = state["players"]
    if type_ == JOINED:
        players.append({"username": data["username"], "withdrawn": False})
    elif type_ == LEFT:
        state["players"] = [p for p in players if p["username"] != data["username"]]
    elif type_ == WITHDRAWN:
        for p in players:
            if p["username"] == data["username"]:
                p["withdrawn"] = True
    elif type_ == STARTED:
        state["status"] = RUNNING
    elif type_ == ROUND_PAIRED:
        tables = [{"game": t["game"], "players": list(t["players"]), "points": None}
                  for t in data["tables"]]  # fmt: skip
        state["rounds"].append({"number": data["round"], "status": RUNNING, "tables": tables,
                                "byes": list(data.get("byes", []))})  # fmt: skip
    elif type_ == GAME_SCORED:
        for table in state["rounds"][data["round"] - 1]["tables"]:
            if table["game"] == data["game"]:
                table["points"] = list(data["points"])
    elif type_ == ROUND_ENDED:
        state["rounds"][data["round"] - 1]["status"] = DONE
    elif type_ == ENDED:
        state["status"] = DONE
    return state


def fold(events: list[tuple[str, dict[str, Any]]], state: State | None = None) -> State:
    for type_, data in events:
        state = evolve(state, type_, data)
    assert state is not None
    return state


def active(state: State) -> list[str]:
    """The players in and not withdrawn, in the order they joined."""
    return [p["username"] for p in state["players"] if not p["withdrawn"]]


def totals(state: State) -> tuple[dict[str, float], dict[str, float], dict[str, int]]:
    """(points, tie-break, games) per player: the sum of his tables' points and byes; the sum
    of his table-mates' points; the games scored."""
    names = [p["username"] for p in state["players"]]
    points = dict.fromkeys(names, 0.0)
    games = dict.fromkeys(names, 0)
    mates: dict[str, list[str]] = {n: [] for n in names}
    for rnd in state["rounds"]:
        for name in rnd.get("byes", []):
            points[name] = points.get(name, 0.0) + BYE_POINTS
        for table in rnd["tables"]:
            if table["points"] is None:
                continue
            for name, got in zip(table["players"], table["points"], strict=True):
                points[name] = points.get(name, 0.0) + got
                games[name] = games.get(name, 0) + 1
                mates.setdefault(name, []).extend(q for q in table["players"] if q != name)
    tiebreak = {n: sum(points.get(q, 0.0) for q in mates.get(n, [])) for n in points}
    return points, tiebreak, games


def standings(state: State) -> list[dict[str, Any]]:
    """Best first: points, then the tie-break, then fewer games; equal on all three share a
    rank (1, 2, 2, 4)."""
    points, tiebreak, games = totals(state)
    order = sorted(points, key=lambda n: (-round(points[n], 9), -round(tiebreak[n], 9),
                                          games[n], n))  # fmt: skip
    out: list[dict[str, Any]] = []
    for i, name in enumerate(order):
        key = (round(points[name], 9), round(tiebreak[name], 9), games[name])
        prev = out[-1] if out else None
        same = prev is not None and key == (prev["points"], prev["tiebreak"], prev["games"])
        rank = prev["rank"] if prev is not None and same else i + 1
        out.append({"rank": rank, "username": name,
                    "points": key[0], "tiebreak": key[1], "games": key[2]})  # fmt: skip
    return out
