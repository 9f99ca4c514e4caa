"""Who plays the next round, by format (API.md, Tournaments): pure functions of the state.

- swiss: every player in and not withdrawn, by the standings, for `rounds_planned` rounds;
- elimination: each table's winners advance (a winner scored 1 at his table); when they are
  too few to fill the tables of the next round (ceil(winners / max) tables of at least `min`),
  the best of the rest by the standings fill them. A round of one table was the final: the
  tournament ends. The field always shrinks (else the final could never come).
"""

from __future__ import annotations

from typing import Any

from games.tournaments import fold as tf
from games.tournaments.pairing import Pairing, pair, table_sizes


def pair_next(state: dict[str, Any], order: list[str]) -> Pairing:
    """Seat `order` (best first) at tables, avoiding those who sat together before."""
    points, _, _ = tf.totals(state)
    history = [t["players"] for r in state["rounds"] for t in r["tables"]]
    size = state["table_size"]
    return pair(order, points, history, size["min"], size["max"])


def _ranked(state: dict[str, Any]) -> list[str]:
    active = set(tf.active(state))
    return [row["username"] for row in tf.standings(state) if row["username"] in active]


def next_field(state: dict[str, Any]) -> list[str] | None:
    """The next round's players, best first; None when the tournament is over."""
    lo, hi = state["table_size"]["min"], state["table_size"]["max"]
    ranked = _ranked(state)
    if state["format"] == "swiss":
        done = len(state["rounds"]) >= state["rounds_planned"]
        return None if done or not table_sizes(len(ranked), lo, hi) else ranked
    last = state["rounds"][-1]
    if len(last["tables"]) <= 1:
        return None  # that was the final table
    winners = {n for t in last["tables"] for n, p in zip(t["players"], t["points"], strict=True)
               if p >= 1}  # fmt: skip
    field = [n for n in ranked if n in winners]
    tables = max(1, -(-len(field) // hi))
    want = min(max(len(field), tables * lo), len(_seated(last)) - 1)
    field += [n for n in ranked if n not in winners][: max(0, want - len(field))]
    chosen = set(field[:want])
    field = [n for n in ranked if n in chosen]  # best first, winners or not
    return field if table_sizes(len(field), lo, hi) else None


def _seated(round_: dict[str, Any]) -> list[str]:
    return [n for t in round_["tables"] for n in t["players"]]
