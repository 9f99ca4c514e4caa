"""Delayed spectating (issue 10; API.md "Correspondence", the `spectator_delay` option): a
spectator cannot relay a running game to a player.

Who: a *spectator* is anyone not seated in the game — anonymous, other users, a socket with no
token or a bad one — and not staff. Players (seated: eliminated ones and partners too) and staff
see the present. When: while the game is active and its `spectator_delay` is above 0. The lobby
is public and live; once the game has ended everything is shown at once (R23), and replays of
an ended game are never delayed.

What: the game as it stood at the *shown seq*, max(seq - delay, the seq of game_started) — the
deal is shown at once (it carries no decision and, redacted, no card: so a started game never
reads "lobby" to anyone), then spectators stay there until `delay` more events have been
played, and from then on exactly `delay` events behind. Every path shows that moment as a
spectator saw it then: the public state folded up to it, events up to it redacted on it
(R23; the pass of a window still open there stays hidden, R19), and the view with `legal` [],
`deadline` null (the present's deadline would tell when the last move was made) and
`"delayed": true`. The view, events, replays, markers, transcript, lobby list and websocket
all read it from here.

The websocket computes each committed batch's delayed frames once per process (`delayed_batch`)
and every spectator socket of that process sends the same text.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.table import selectors
from games.engine import GameState
from games.engine.events import GAME_STARTED
from games.engine.state import ACTIVE
from games.live.frames import frame_text
from games.core.models import GameEvent, GameProjection
from games.live.socket_db import socket_db


@dataclass(frozen=True)
class Shown:
    """The moment a spectator is shown: its seq and the public state right after it."""

    seq: int
    state: GameState


def delay_of(state: GameState) -> int:
    return state.options["spectator_delay"]


def sees_present(state: GameState, user) -> bool:
    """Whether `user` sees this game as it is now (see the module docstring)."""
    if state.status != ACTIVE or delay_of(state) == 0:
        return True
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    return selectors.seat_of(state, user) is not None


def _starts(game_ids: list[int]) -> dict[int, int]:
    """The seq of each started game's game_started event."""
    rows = GameEvent.objects.filter(game_id__in=game_ids, type=GAME_STARTED)
    return dict(rows.values_list("game_id", "seq"))


def _behind(seq: int, delay: int, start: int | None) -> int:
    if start is None or seq <= start:  # the lobby and the deal: public, live
        return seq
    return max(seq - delay, start)


def shown_seq(game_id: int, seq: int, state: GameState) -> int:
    """The seq a spectator of this active game is shown when the game stands at `seq`."""
    return _behind(seq, delay_of(state), _starts([game_id]).get(game_id))


def shown_for(game_id: int, user, seq: int, state: GameState) -> Shown | None:
    """The moment `user` is shown of the game standing at `seq` in `state`; None: the present."""
    if sees_present(state, user):
        return None
    at = shown_seq(game_id, seq, state)
    return Shown(at, selectors.state_at(game_id, at))


def last_seq_for(game_id: int, user) -> tuple[int, GameProjection, GameState]:
    """(the last seq `user` may see, the projection, the present state)."""
    proj, state = selectors.current(game_id)
    if sees_present(state, user):
        return proj.seq, proj, state
    return shown_seq(game_id, proj.seq, state), proj, state


def shown_view(game_id: int, shown: Shown) -> dict[str, Any]:
    return selectors.game_view(game_id, shown.state, None, seq=shown.seq, deadline=None,
                               replay=True, delayed=True)  # fmt: skip


def shown_events(game_id: int, shown: Shown, after: int, upto: int | None = None) -> list[dict]:
    """The events (after, upto] (upto None: the shown seq), as a spectator saw them then."""
    upto = shown.seq if upto is None else min(upto, shown.seq)
    return selectors.events_between(game_id, after, upto, shown.state, None)


# --- REST reads for any caller ------------------------------------------------------------


def game_detail(game_id: int, user) -> dict[str, Any]:
    """GET /api/games/{id}/: the present, or a spectator's delayed view."""
    proj, state = selectors.current(game_id)
    shown = shown_for(game_id, user, proj.seq, state)
    if shown is None:
        return selectors.game_view(game_id, state, user, seq=proj.seq,
                                   deadline=proj.deadline_at)  # fmt: skip
    return shown_view(game_id, shown)


def game_events(game_id: int, user, *, after: int = 0) -> list[dict[str, Any]]:
    """GET /api/games/{id}/events/: every event after `after` the caller may see. All of them:
    a client folds the list, so a silently cut one would be a wrong game (long games run to
    thousands of events). Read up to the seq of the state that redacts them: a row appended
    after that state was read would be judged against an older game (a pass that state does
    not know shows its seat while its window is open: R19)."""
    proj, state = selectors.current(game_id)
    shown = shown_for(game_id, user, proj.seq, state)
    if shown is None:
        return selectors.events_between(game_id, after, proj.seq, state,
                                        selectors.seat_of(state, user))  # fmt: skip
    return shown_events(game_id, shown, after)


def lobby(status: str | None, user, *, variant: str | None = None,
          player: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """GET /api/games/: a delayed game a caller only watches is listed at its shown seq (and
    that event's time), so the list does not tell more than the game's own view."""
    rows = selectors.lobby_rows(status, variant=variant, player=player)
    delayed = {p.game_id: p for p in rows if _delayed_row(p, user)}
    if not delayed:
        return [selectors.summary(p) for p in rows]
    ends = _starts(list(delayed))
    seqs = {g: _behind(p.seq, _row_delay(p), ends.get(g)) for g, p in delayed.items()}
    ats = _event_times(seqs)
    return [selectors.summary(p, seq=seqs.get(p.game_id), updated_at=ats.get(p.game_id))
            for p in rows]  # fmt: skip


def _row_delay(p: GameProjection) -> int:
    options = p.state.get("options") or {}
    return options.get("spectator_delay", 0)  # a state stored before the option: 0 (live)


def _delayed_row(p: GameProjection, user) -> bool:
    if p.status != ACTIVE or _row_delay(p) == 0:
        return False
    if user is not None and user.is_authenticated:
        return not user.is_staff and user.username not in p.players  # "bot" is reserved
    return True


def _event_times(seqs: dict[int, int]) -> dict[int, datetime]:
    if not seqs:
        return {}
    rows = GameEvent.objects.filter(game_id__in=list(seqs), seq__in=set(seqs.values()))
    return {g: at for g, seq, at in rows.values_list("game_id", "seq", "at") if seqs[g] == seq}


# --- the websocket ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DelayedBatch:
    """What one committed batch brings a spectator socket of a delayed game: the events
    (first - 1, seq] as text frames (seq, text), then the view at `seq`; `state` judges any
    older event a socket still lacks (a batch the channel layer dropped)."""

    first: int
    seq: int
    state: GameState
    events: tuple[tuple[int, str], ...]
    view: str


_BATCHES: OrderedDict[tuple[int, int], asyncio.Future] = OrderedDict()


async def delayed_batch(message: dict[str, Any], present: GameState) -> DelayedBatch:
    """The delayed frames of a committed batch (games.table.publish; `present` is its state),
    computed once per process: every spectator socket awaits the same computation."""
    key = (message["game"], message["seq"])
    task = _BATCHES.get(key)
    if task is None:
        task = asyncio.ensure_future(socket_db(_compute)(message, present))
        _BATCHES[key] = task
        while len(_BATCHES) > 64:
            _BATCHES.popitem(last=False)
    try:
        return await asyncio.shield(task)  # a socket that goes away cancels only its wait
    except Exception:
        _BATCHES.pop(key, None)  # the next socket tries again; this one resyncs
        raise


def _compute(message: dict[str, Any], present: GameState) -> DelayedBatch:
    game_id, delay = message["game"], delay_of(present)
    start = _starts([game_id]).get(game_id)
    before = message["events"][0]["seq"] - 1  # where the game stood before this batch
    first = _behind(before, delay, start) + 1
    seq = _behind(message["seq"], delay, start)
    shown = Shown(seq, selectors.state_at(game_id, seq))
    events = tuple(
        (e["seq"], frame_text({"type": "event", "event": e}))
        for e in shown_events(game_id, shown, first - 1)
    )
    view = frame_text({"type": "view", "view": shown_view(game_id, shown)})
    return DelayedBatch(first, shown.seq, shown.state, events, view)
