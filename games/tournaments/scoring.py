"""Points for one game (API.md, Tournaments): a player's share of the table's other players he
outlasted, `outlasted / (table players - 1)`; every winner scores 1; players eliminated in the
same turn (one card's effect, as the ratings read "the same event") outlast each other equally,
half each. Pure: it reads the game's events as (type, data) pairs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine import Event, GameState, evolve
from games.engine import events as ev
from games.engine.evolve import ACTS


def game_points(n: int, rows: Iterable[tuple[str, dict[str, Any]]]) -> list[float]:
    """Each seat's points in an ended game of `n` seats."""
    turn, out_turn, winners = 0, {}, []
    for type_, data in rows:
        if type_ == ev.TURN_STARTED:
            turn = data["turn"]
        elif type_ == ev.PLAYER_ELIMINATED:
            out_turn[data["seat"]] = turn
        elif type_ == ev.GAME_ENDED:
            winners = list(data.get("winners") or [])
    last = max(out_turn.values(), default=0) + 1
    # Seats neither eliminated nor winning (an abandoned game) went out together, last.
    when = {s: (float("inf") if s in winners else out_turn.get(s, last)) for s in range(n)}
    points = []
    for s in range(n):
        if s in winners:
            points.append(1.0)
            continue
        before = sum(1 for o in range(n) if o != s and when[o] < when[s])
        together = sum(1 for o in range(n) if o != s and when[o] == when[s])
        points.append(round((before + together / 2) / (n - 1), 9))
    return points


def absent_seats(events: Iterable[Event]) -> list[int]:
    """The seats that timed out every decision of the game (the service or the bot made each
    of them, never their player), among seats that had at least one decision."""
    state: GameState | None = None
    decided: set[int] = set()
    human: set[int] = set()
    for e in events:
        if state is not None and e.type in ACTS:
            seat = e.data["seat"]
            decided.add(seat)
            if seat not in state.owed and not state.plays_bot(seat):
                human.add(seat)
        state = evolve(state, e)
    return sorted(decided - human)
