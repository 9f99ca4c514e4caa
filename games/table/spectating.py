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

The lobby list reads it in games.table.lobby; the websocket computes each committed batch's
delayed frames once per process (games.live.delayed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import event_store
from games.core.models import GameEvent, GameProjection
from games.engine import GameState
from games.engine.events import GAME_STARTED
from games.engine.state import ACTIVE
from games.table import selectors


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


def game_starts(game_ids: list[int]) -> dict[int, int]:
    """The seq of each started game's game_started event."""
    rows = GameEvent.objects.filter(game_id__in=game_ids, type=GAME_STARTED)
    return dict(rows.values_list("game_id", "seq"))


def shown_behind(seq: int, delay: int, start: int | None) -> int:
    if start is None or seq <= start:  # the lobby and the deal: public, live
        return seq
    return max(seq - delay, start)


def shown_seq(game_id: int, seq: int, state: GameState) -> int:
    """The seq a spectator of this active game is shown when the game stands at `seq`."""
    return shown_behind(seq, delay_of(state), game_starts([game_id]).get(game_id))


def shown_for(game_id: int, user, seq: int, state: GameState) -> Shown | None:
    """The moment `user` is shown of the game standing at `seq` in `state`; None: the present."""
    if sees_present(state, user):
        return None
    at = shown_seq(game_id, seq, state)
    return Shown(at, event_store.state_at(game_id, at))


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
                                   deadline=proj.deadline_at,
                                   signed_head=selectors.head_of(proj))  # fmt: skip
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
