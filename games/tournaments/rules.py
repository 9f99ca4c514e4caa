"""What a tournament asks of its settings (API.md, Tournaments), as plain checks: each bad
field an ApiError(invalid) naming it. No database."""

from __future__ import annotations

from typing import Any

from games.core.errors import ApiError
from games.engine.errors import Code

FORMATS = ("swiss", "elimination")
FIELDS = {"name", "format", "rounds", "table_size", "variant", "options", "max_players",
          "duplicate_deals"}  # fmt: skip
MAX_NAME = 80
MAX_ROUNDS = 20
MAX_PLAYERS = 10_000


def _whole(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def settings_of(body: Any) -> dict[str, Any]:
    """The tournament_created data for a POST body, or ApiError(invalid)."""
    if not isinstance(body, dict):
        raise ApiError(Code.INVALID, "the body is a JSON object")
    unknown = set(body) - FIELDS
    if unknown:
        raise ApiError(Code.INVALID, f"unknown fields: {', '.join(sorted(map(str, unknown)))}")
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME or len(name) > MAX_NAME:
        raise ApiError(Code.INVALID, f"name: 1..{MAX_NAME} characters")
    fmt = body.get("format", "swiss")
    if fmt not in FORMATS:
        raise ApiError(Code.INVALID, "format is swiss or elimination")
    rounds = body.get("rounds", 3 if fmt == "swiss" else None)
    if fmt == "swiss" and not _whole(rounds, 1, MAX_ROUNDS):
        raise ApiError(Code.INVALID, f"rounds: a whole number 1..{MAX_ROUNDS}")
    if fmt == "elimination" and rounds is not None:
        raise ApiError(Code.INVALID, "an elimination plays until one table is left: no rounds")
    size = body.get("table_size", {"min": 3, "max": 4})
    if not isinstance(size, dict) or set(size) != {"min", "max"}:
        raise ApiError(Code.INVALID, 'table_size is {"min", "max"}')
    if not (_whole(size["min"], 2, 6) and _whole(size["max"], 2, 6)):
        raise ApiError(Code.INVALID, "table_size: min and max are 2..6")
    if size["min"] > size["max"]:
        raise ApiError(Code.INVALID, "table_size: min is more than max")
    if body.get("variant", "standard") != "standard":
        raise ApiError(Code.INVALID, "only the standard variant for now")
    options = body.get("options") or {}
    if not isinstance(options, dict) or {"bots", "rig"} & set(options):
        raise ApiError(Code.INVALID, "options: an object of game options, without bots or rig")
    cap = body.get("max_players")
    if cap is not None and not _whole(cap, size["min"], MAX_PLAYERS):
        raise ApiError(Code.INVALID, f"max_players: null or {size['min']}..{MAX_PLAYERS}")
    dup = body.get("duplicate_deals", False)
    if not isinstance(dup, bool):
        raise ApiError(Code.INVALID, "duplicate_deals is true or false")
    return {"name": name, "format": fmt, "rounds_planned": rounds,
            "table_size": {"min": size["min"], "max": size["max"]}, "variant": "standard",
            "options": options, "max_players": cap, "duplicate_deals": dup}  # fmt: skip
