"""Folding events into state. Every change of state happens here, and only here.

`apply` changes a state in place (private, for speed); `evolve` and `fold` are the public doors
and never change a state a caller holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import events as ev
from .away_folds import AWAY_FOLDS
from .cards import Deck
from .effects import AGAINST_KOSTIC, EFFECTS
from .forked import apply_forked
from .rules import affected_order
from .setup import game_options
from .state import (
    ACTIVE,
    BET,
    BETWEEN,
    BLOCK,
    BOT_AWAY,
    CHOOSE_NEIGHBOR,
    DRAW,
    ENDED,
    ENDING,
    FIRST_ROLL,
    HANDOFF,
    MAX_LIVES,
    PLAY,
    RESOLVE,
    TURN_END,
    VACATION,
    Duel,
    GameState,
    Pending,
)

Data = dict[str, Any]


def _created(_: GameState | None, d: Data) -> GameState:
    n = d["seats"]
    deck = Deck.from_rows(d["deck"]["name"], d["deck"]["cards"])
    return GameState(
        variant=d["variant"],
        n=n,
        deck=deck,
        options=game_options(d["options"]),
        seed_commitment=d["seed_commitment"],
        rigged=d["rig"] is not None,
        rig=d["rig"],
        names=[None] * n,
        bots=[False] * n,
        lives=[MAX_LIVES] * n,
        hands=[[] for _ in range(n)],
        away=[None] * n,
        left=[False] * n,
        vacation_until=[None] * n,
        timeouts=[0] * n,
    )


def _forked(_: GameState | None, d: Data) -> GameState:
    s = _created(None, {**d, "rig": None})
    apply_forked(s, d)
    return s


def _seat_taken(s: GameState, d: Data) -> None:
    s.names[d["seat"]] = d["name"]
    s.bots[d["seat"]] = bool(d.get("bot"))
    if not d.get("bot"):
        s.human_acts += 1


def _started(s: GameState, d: Data) -> None:
    s.status = ACTIVE
    if d.get("forked"):  # a fork starts where its `forked` event put it (fork.py)
        return
    s.lives = list(d["lives"])
    s.hands = [list(h) for h in d["hands"]]
    s.draw = list(d["draw"])
    if d.get("shuffle") is not None:
        s.shuffles += 1
    s.phase = FIRST_ROLL
    s.contenders = list(range(s.n))


def _first_roll(s: GameState, d: Data) -> None:
    """R2/R32: once every contender rolled, the tied highest roll again (or one is left)."""
    s.first_rolls[d["seat"]] = d["value"]
    if len(s.first_rolls) == len(s.contenders):
        top = max(s.first_rolls.values())
        s.contenders = [seat for seat in s.contenders if s.first_rolls[seat] == top]
        s.first_rolls = {}


def _duel_roll(s: GameState, d: Data) -> None:
    assert s.pending is not None and s.pending.duel is not None
    duel = s.pending.duel
    if d["hit"]:
        duel.bettor = duel.other(duel.bettor)
        duel.bet = None
        s.phase, s.awaiting = BET, [duel.bettor]
    else:
        duel.loser = duel.bettor
        s.phase = RESOLVE


def _rolled(s: GameState, d: Data) -> None:
    s.rolls += 1
    if d["purpose"] == "first":
        _first_roll(s, d)
    else:
        _duel_roll(s, d)


def _turn_started(s: GameState, d: Data) -> None:
    s.kostic, s.turn = d["kostic"], d["turn"]
    s.phase, s.awaiting, s.pending = PLAY, [d["kostic"]], None
    s.contenders, s.first_rolls = [], {}


def _turn_skipped(s: GameState, d: Data) -> None:
    s.phase, s.awaiting = DRAW, []


def _played(s: GameState, d: Data) -> None:
    seat, card = d["seat"], s.deck.card(d["card"])
    s.hands[seat].remove(card.id)  # R25: the card leaves the hand when announced
    n, lives = s.n, s.lives
    # Everyone else in the game, from the Kostič's left. Loops here and in the other hot
    # handlers: in Python 3.11 a comprehension is a call of its own (bench-engine).
    window = []
    for step in range(1, n):
        other = (seat + step) % n
        if lives[other] > 0:
            window.append(other)
    asked = tuple(window)
    # Positional, in Pending's field order: keywords here cost ~5% of a fold (bench-engine).
    s.pending = Pending(
        seat, card, d["effect"], d["scope"], d["target"], tuple(lives), asked, window
    )
    s.phase, s.awaiting = BLOCK, list(asked)


def _passed(s: GameState, d: Data) -> None:
    s.pending.window.remove(d["seat"])  # type: ignore[union-attr]
    s.awaiting.remove(d["seat"])


def _blocked(s: GameState, d: Data) -> None:
    s.hands[d["seat"]].remove(d["card"])
    s.discard.append(s.pending.card.id)  # type: ignore[union-attr]  # R25: played card first
    s.discard.append(d["card"])
    s.pending, s.phase, s.awaiting = None, DRAW, []


def _window_closed(s: GameState, d: Data) -> None:
    pending = s.pending
    assert pending is not None
    pending.window = []
    kind = pending.card.effects[pending.effect_index].kind  # pending.effect.kind, with no call
    pending.queue = affected_order(
        s, pending.seat, kind, pending.scope, pending.target, pending.snapshot
    )
    s.phase, s.awaiting = RESOLVE, []


def _neighbor_requested(s: GameState, d: Data) -> None:
    s.pending.neighbor_options = tuple(d["options"])  # type: ignore[union-attr]
    s.phase, s.awaiting = CHOOSE_NEIGHBOR, [d["seat"]]


def _neighbor_chosen(s: GameState, d: Data) -> None:
    s.pending.neighbor = d["neighbor"]  # type: ignore[union-attr]
    s.phase, s.awaiting = RESOLVE, []


def _duel_started(s: GameState, d: Data) -> None:
    affected, kostic = d["seats"]
    duel = Duel(affected=affected, kostic=kostic, bettor=affected)  # the affected player bets first
    s.pending.duel = duel  # type: ignore[union-attr]
    s.phase, s.awaiting = BET, [affected]


def _bet(s: GameState, d: Data) -> None:
    s.pending.duel.bet = (d["kind"], d["value"])  # type: ignore[union-attr]
    s.phase, s.awaiting = RESOLVE, []


def _lives_changed(s: GameState, d: Data) -> None:
    for seat, lives in d["changes"]:
        s.lives[seat] = lives
    pending = s.pending
    if pending is not None and d.get("resolved"):
        queue = pending.queue
        for seat in d["resolved"]:
            if seat in queue:
                queue.remove(seat)
        pending.neighbor, pending.neighbor_options, pending.duel = None, (), None


def _eliminated(s: GameState, d: Data) -> None:
    seat, pending = d["seat"], s.pending
    s.lives[seat] = 0
    assert pending is not None
    pending.eliminated.append((seat, d["by"]))
    if seat in pending.queue:  # R11: a player eliminated earlier in the order is skipped
        pending.queue.remove(seat)
    # No Kostič, no more duels (an all-players duel is against him, R33).
    if seat == pending.seat and EFFECTS[pending.effect.kind].reach == AGAINST_KOSTIC:
        pending.queue.clear()


def _countdown_started(s: GameState, d: Data) -> None:
    s.countdown, s.countdown_turn = d["value"], s.turn


def _effect_resolved(s: GameState, d: Data) -> None:
    pending = s.pending
    assert pending is not None
    for seat, lives in d["bonus"]:
        s.lives[seat] = lives
    s.discard.append(pending.card.id)  # R25
    if d.get("game_over"):  # R29: no handoffs; eliminated hands go to the discard pile
        for seat, _ in pending.eliminated:
            s.discard.extend(s.hands[seat])
            s.hands[seat] = []
        s.phase, s.awaiting = ENDING, []
        return
    # R28 (no comprehension, which is a call, when nobody was eliminated: the usual case)
    eliminated = pending.eliminated
    pending.handoffs = [seat for seat, _ in eliminated if s.hands[seat]] if eliminated else []
    _next_handoff(s)


def _next_handoff(s: GameState) -> None:
    handoffs = s.pending.handoffs  # type: ignore[union-attr]
    if handoffs:
        s.phase, s.awaiting = HANDOFF, [handoffs[0]]
    else:
        s.phase, s.awaiting = DRAW, []


def _handed_off(s: GameState, d: Data) -> None:
    seat, card = d["seat"], d["card"]
    hand = s.hands[seat]
    if card is not None:
        hand.remove(card)
        s.hands[d["to"]].append(card)
    s.discard.extend(hand)  # R15: the rest of his hand goes to the discard pile
    s.hands[seat] = []
    s.pending.handoffs.pop(0)  # type: ignore[union-attr]
    _next_handoff(s)


def _reshuffled(s: GameState, d: Data) -> None:
    s.draw, s.discard = list(d["draw"]), []
    s.shuffles += 1


def _drawn(s: GameState, d: Data) -> None:
    s.hands[d["seat"]].append(s.draw.pop(0))
    s.phase = TURN_END


def _turn_ended(s: GameState, d: Data) -> None:
    s.countdown = d["countdown"]
    s.pending, s.awaiting = None, []
    s.phase = ENDING if d.get("game_over") else BETWEEN


def _timed_out(s: GameState, d: Data) -> None:
    """The acts taken for the absent follow as their own events; each counts as his timeout."""
    for seat in d["seats"]:
        if not s.bots[seat]:
            s.timeouts[seat] += 1
        s.owed.append(seat)


def _ended(s: GameState, d: Data) -> None:
    s.status, s.winners, s.seed = ENDED, list(d["winners"]), d["seed"]
    s.phase, s.kostic, s.awaiting, s.pending = None, None, [], None  # R31
    for seat in range(s.n):  # a vacation ends with the game
        if s.away[seat] == VACATION:
            s.away[seat], s.vacation_until[seat] = None, None


APPLY: dict[str, Callable[[GameState, Data], None]] = {
    ev.SEAT_TAKEN: _seat_taken,
    ev.GAME_STARTED: _started,
    ev.DIE_ROLLED: _rolled,
    ev.COIN_TOSSED: _rolled,
    ev.TURN_STARTED: _turn_started,
    ev.TURN_SKIPPED: _turn_skipped,
    ev.CARD_PLAYED: _played,
    ev.BLOCK_PASSED: _passed,
    ev.PLAY_BLOCKED: _blocked,
    ev.BLOCK_WINDOW_CLOSED: _window_closed,
    ev.NEIGHBOR_REQUESTED: _neighbor_requested,
    ev.NEIGHBOR_CHOSEN: _neighbor_chosen,
    ev.DUEL_STARTED: _duel_started,
    ev.BET_PLACED: _bet,
    ev.LIVES_CHANGED: _lives_changed,
    ev.PLAYER_ELIMINATED: _eliminated,
    ev.COUNTDOWN_STARTED: _countdown_started,
    ev.EFFECT_RESOLVED: _effect_resolved,
    ev.CARD_HANDED_OFF: _handed_off,
    ev.DECK_RESHUFFLED: _reshuffled,
    ev.CARD_DRAWN: _drawn,
    ev.TURN_ENDED: _turn_ended,
    ev.TIMED_OUT: _timed_out,
    ev.GAME_ENDED: _ended,
    **AWAY_FOLDS,
}
# A seat's own decisions (made by its player, its bot, or the service at a timeout).
ACTS = frozenset({ev.CARD_PLAYED, ev.BLOCK_PASSED, ev.PLAY_BLOCKED, ev.NEIGHBOR_CHOSEN,
                  ev.BET_PLACED, ev.CARD_HANDED_OFF})  # fmt: skip


def apply(s: GameState | None, e: ev.Event) -> GameState:
    """Apply one event in place (the first event makes the state). Private to the engine."""
    if e.type == ev.GAME_CREATED:
        return _created(s, e.data)
    if e.type == ev.FORKED:
        return _forked(s, e.data)
    if s is None:
        raise ValueError("the first event must be game_created or forked")
    apply_all(s, (e,))
    return s


def apply_all(s: GameState, events: Iterable[ev.Event]) -> None:
    """Apply events that follow the game's first in place: `apply` for a batch, with no
    call per event (a bot game applies ~350 events; a fold, a whole log)."""
    for e in events:
        APPLY[e.type](s, e.data)
        if e.type in ACTS:
            # A seat's decision was made: by the service after a timeout (owed), else by its
            # player (or the bot that plays it), which ends a run of timeouts.
            seat = e.data["seat"]
            if seat in s.owed:
                s.owed.remove(seat)
            else:
                s.timeouts[seat] = 0
                if not (s.bots[seat] or s.away[seat] == BOT_AWAY):  # s.plays_bot(seat)
                    s.human_acts += 1


def evolve(s: GameState | None, e: ev.Event) -> GameState:
    """The state after event `e`; `s` is left as it was."""
    return apply(s.copy() if s is not None else None, e)


def fold(events: Iterable[ev.Event], initial: GameState | None = None) -> GameState:
    """Replay events onto `initial` (or from nothing); the only way a state is made."""
    state = initial.copy() if initial is not None else None
    run: list[ev.Event] = []  # events after a game_created (or forked), applied in one call
    first = ev.FIRST_EVENTS
    for e in events:
        if state is not None and e.type not in first:
            run.append(e)
            continue
        if run:
            assert state is not None  # a run only follows a state
            apply_all(state, run)
            run = []
        state = apply(state, e)  # the first event, or a game_created / forked (a new state)
    if state is None:
        raise ValueError("no events")
    apply_all(state, run)
    return state
