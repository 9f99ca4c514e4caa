"""The engine's own steps between decisions: first rolls, block window close, resolution,
draw, countdown and the end. `auto_events` returns [] when a seat must decide."""

from __future__ import annotations

from . import rng
from .events import (
    BLOCK_WINDOW_CLOSED,
    CARD_DRAWN,
    COUNTDOWN_STARTED,
    DECK_RESHUFFLED,
    DIE_ROLLED,
    GAME_ENDED,
    TURN_ENDED,
    TURN_SKIPPED,
    TURN_STARTED,
    Event,
    event,
)
from .legal import legal_plays
from .resolution import next_step, roll_event
from .rules import left_of, winners
from .setup import start_events
from .state import (
    ACTIVE,
    BETWEEN,
    BLOCK,
    DRAW,
    ENDING,
    FIRST_ROLL,
    LOBBY,
    PLAY,
    RESOLVE,
    TURN_END,
    GameState,
)

COUNTDOWN_START = 6


def auto_events(s: GameState, seed: bytes) -> list[Event]:
    # The most frequent answer first: a block window still open (about 2.5 times a play). It
    # is the answer the checks below give too: in `block` the game is active and nobody has
    # been eliminated by the pending play yet, so there is no countdown to start. (A fork
    # waiting in the lobby may stand in an open window too: it starts below.)
    if s.phase == BLOCK and s.pending.window and s.status == ACTIVE:  # type: ignore[union-attr]
        return []
    if s.status == LOBBY:
        return start_events(s, seed) if None not in s.names else []
    if s.status != ACTIVE:
        return []
    pending = s.pending
    # R16: the countdown starts at the first elimination.
    if pending is not None and pending.eliminated and s.countdown is None:
        return [event(COUNTDOWN_STARTED, {"value": COUNTDOWN_START})]
    phase = s.phase
    if phase == PLAY:
        return _maybe_skip(s)
    if phase == BLOCK:
        assert pending is not None
        return [] if pending.window else [event(BLOCK_WINDOW_CLOSED, {})]
    if phase == RESOLVE:
        return next_step(s, seed)
    if phase == DRAW:
        return [_draw(s, seed)]
    if phase == TURN_END:
        return [_turn_end(s)]
    if phase == BETWEEN:
        assert s.kostic is not None
        return [event(TURN_STARTED, {"kostic": left_of(s, s.kostic), "turn": s.turn + 1})]
    if phase == FIRST_ROLL:
        return [_first_roll(s, seed)]
    if phase == ENDING:
        return [_end(s, seed)]
    return []  # a seat decides


def _maybe_skip(s: GameState) -> list[Event]:
    """R5: a Kostič with no card, or no legal play, only draws."""
    k = s.kostic
    assert k is not None
    if not s.hands[k]:
        return [event(TURN_SKIPPED, {"seat": k, "reason": "empty_hand"})]
    if not legal_plays(s, k):
        return [event(TURN_SKIPPED, {"seat": k, "reason": "no_legal_play"})]
    return []


def _first_roll(s: GameState, seed: bytes) -> Event:
    """R2/R32: contenders roll in seat order until one is highest."""
    if len(s.contenders) == 1:
        return event(TURN_STARTED, {"kostic": s.contenders[0], "turn": 1})
    seat = next(contender for contender in s.contenders if contender not in s.first_rolls)
    return event(DIE_ROLLED, roll_event(s, seed, "first", seat))


def _draw(s: GameState, seed: bytes) -> Event:
    k = s.kostic
    assert k is not None
    if s.lives[k] == 0:  # R30
        return _turn_end(s)
    if s.draw:
        return event(CARD_DRAWN, {"seat": k, "card": s.draw[0]})
    if s.discard:  # R4
        order = rng.shuffle(seed, s.shuffles, s.discard)
        return event(DECK_RESHUFFLED, {"draw": order, "n": s.shuffles})
    return _turn_end(s)  # both piles empty: no card is drawn


def _turn_end(s: GameState) -> Event:
    """R16/R31: later turns count the countdown down; below 1 the game ends, staying at 1."""
    countdown, over = s.countdown, False
    if countdown is not None and s.countdown_turn != s.turn:
        if countdown == 1:
            over = True
        else:
            countdown -= 1
    return event(TURN_ENDED, {"turn": s.turn, "countdown": countdown, "game_over": over})


def _end(s: GameState, seed: bytes) -> Event:
    reason = "last_standing" if s.alive_count() < 2 else "countdown"
    won = [seat for seat in winners(s) if not s.left[seat]]  # who left the game cannot win
    return event(GAME_ENDED, {"winners": won, "seed": seed.hex(), "reason": reason})
