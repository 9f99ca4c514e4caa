"""Re-execution audit: was every event a legal consequence of the state before it?

Given a game's events and its revealed seed, replay the game through the engine itself:
each player's command is rebuilt from its event and decided again, each automatic step
(rolls and shuffles derived from the seed, R22; resolution; draws; the end) is produced
again, and everything must equal the log. The first difference is named by its seq.

A timeout (R21) is checked against the rule, not re-run: its record must name the awaited
seats, followed by the bot's takeover of each seat whose timeouts in a row reached the option
timeouts_to_bot (away.py); the acts R21 fixes (pass, left neighbour, parity/even, decline)
must be exactly those, values included, and the Kostič's play must be legal in the state
before it. The audit spells R21's acts out itself (`r21_act`) instead of asking the code that
made them (timeouts.py): a wrong act there would otherwise be checked against itself. Which
legal play the built-in bot chose then is not the audit's business: a bot whose strategy
changed since must not turn old games red.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import events as ev
from .away import (
    ABANDONED,
    Abandon,
    AwayCommand,
    Leave,
    Return,
    VacationEnd,
    VacationStart,
    takeovers,
)
from .commands import Bet, Block, ChooseNeighbor, Command, Handoff, Join, Pass, Play
from .decide import command_event, execute
from .errors import IllegalCommand, game_over, illegal
from .events import Event, event
from .evolve import fold
from .flow import auto_events
from .legal import legal_commands
from .rng import commitment
from .rules import left_of
from .standing import STANDING
from .state import BET, BLOCK, CHOOSE_NEIGHBOR, ENDED, HANDOFF, GameState
from .timeouts import timeout_acts

Owed = list[tuple[int, Command | None]]  # a timeout's acts still to come: (seat, R21's act)

# Fields a service may add to an engine event: the chain head sealed into game_ended, and the
# mark of an answer a standing order gave (issue 10; the answer itself is re-executed like any
# other, the order stays private).
SERVICE_FIELDS = {
    ev.GAME_ENDED: ("chain_head",),
    ev.BLOCK_PASSED: (STANDING,),
    ev.PLAY_BLOCKED: (STANDING,),
}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str | None = None


def _away_command_of(e: Event) -> AwayCommand | None:
    """The service's act (away.py) that made event `e`, if it is one."""
    if e.type in AWAY_COMMANDS:
        return AWAY_COMMANDS[e.type](e.data)
    if e.type == ev.GAME_ENDED and e.data.get("reason") == ABANDONED:
        return Abandon()
    return None


def _command_of(e: Event) -> tuple[Command, int | None] | None:
    """The command that made a player's (or the service's join) event, and who sent it."""
    d, t = e.data, e.type
    if t == ev.SEAT_TAKEN:
        return Join(d["name"], d["seat"], bool(d.get("bot"))), None
    if t == ev.CARD_PLAYED:
        return Play(d["card"], d["effect"], d["scope"], d["target"]), d["seat"]
    if t == ev.BLOCK_PASSED:
        return Pass(), d["seat"]
    if t == ev.PLAY_BLOCKED:
        return Block(d["card"]), d["seat"]
    if t == ev.NEIGHBOR_CHOSEN:
        return ChooseNeighbor(d["neighbor"]), d["seat"]
    if t == ev.BET_PLACED:
        return Bet(d["kind"], d["value"]), d["seat"]
    if t == ev.CARD_HANDED_OFF:
        return Handoff(d["card"], d["to"]), d["seat"]
    return None


AWAY_COMMANDS: dict[str, Callable[[dict[str, Any]], AwayCommand]] = {
    ev.SEAT_LEFT: lambda d: Leave(d["seat"]),
    ev.SEAT_RETURNED: lambda d: Return(d["seat"]),
    ev.VACATION_STARTED: lambda d: VacationStart(d["seat"], d["until"]),
    ev.VACATION_ENDED: lambda d: VacationEnd(d["seat"]),
}


def _engine_part(e: Event) -> tuple[str, int, dict[str, Any]]:
    drop = SERVICE_FIELDS.get(e.type, ())
    return e.type, e.v, {k: v for k, v in e.data.items() if k not in drop}


def _first_difference(expected: list[Event], logged: list[Event], start_seq: int) -> Verdict | None:
    for k, want in enumerate(expected):
        seq = start_seq + k
        if k >= len(logged):
            return Verdict(False, seq - 1, seq, f"the log ends where {want.type} must follow")
        if logged[k].data.get(STANDING, True) is not True:
            return Verdict(False, seq - 1, seq, f"{STANDING} is true or absent")
        if _engine_part(logged[k]) != _engine_part(want):
            got = f"{logged[k].type} {logged[k].data}"
            return Verdict(
                False, seq - 1, seq, f"{got} differs from the rules: {want.type} {want.data}"
            )
    return None


def verify_events(events: list[Event], seed: bytes) -> Verdict:
    """Check the seed against its commitment (R22), then re-execute the whole game."""
    if not events or events[0].type not in ev.FIRST_EVENTS:
        return Verdict(False, 0, 1, "the first event must be game_created or forked")
    if commitment(seed) != events[0].data.get("seed_commitment"):
        return Verdict(False, 0, 1, "the seed does not match the commitment in event 1")
    try:
        state = fold(events[:1])
    except (KeyError, TypeError, ValueError) as err:
        return Verdict(False, 0, 1, f"{events[0].type} is malformed: {err}")
    owed: Owed = []
    i = 1
    while i < len(events):
        seq = i + 1
        try:
            expected = auto_events(state, seed)
            if expected:
                after = fold(expected, state)
            elif owed:
                seat, act = owed.pop(0)
                command = _owed_command(state, events[i], seat, act)
                expected, after = execute(state, command, actor=seat, seed=seed)
            elif events[i].type == ev.TIMED_OUT:
                expected, owed = _timed_out(state)
                after = fold(expected, state)
            elif (away := _away_command_of(events[i])) is not None:
                expected, after = execute(state, away, seed=seed)
            else:
                made = _command_of(events[i])
                if made is None:
                    why = f"{events[i].type} is no move anyone could make here"
                    return Verdict(False, i, seq, f"{why} (awaiting {state.awaiting})")
                command, actor = made
                expected, after = execute(state, command, actor=actor, seed=seed)
        except IllegalCommand as err:
            return Verdict(False, i, seq, f"illegal {events[i].type}: {err.message} ({err.code})")
        except (KeyError, TypeError, ValueError, IndexError) as err:
            return Verdict(False, i, seq, f"{events[i].type} is malformed: {err!r}")
        difference = _first_difference(expected, events[i : i + len(expected)], seq)
        if difference is not None:
            return difference
        state, i = after, i + len(expected)
    if owed:
        return Verdict(
            False, i, i + 1, f"the log ends where {_event_type(state, *owed[0])} must follow"
        )
    return Verdict(True, len(events))


def _timed_out(state: GameState) -> tuple[list[Event], Owed]:
    """R21's record of a timeout, and the acts that must follow it; raises IllegalCommand."""
    if state.status == ENDED:
        raise game_over()
    seats = [seat for seat, _ in timeout_acts(state)]
    if not seats:
        raise illegal("no decision is pending")
    record = event(ev.TIMED_OUT, {"phase": state.phase, "seats": seats})
    owed = [(seat, r21_act(state, seat)) for seat in seats]
    return [record, *takeovers(fold([record], state))], owed  # K in a row: the bot takes over


def r21_act(state: GameState, seat: int) -> Command | None:
    """R21 as the rules say it, for `seat` awaited at a timeout: block window → pass;
    neighbour choice → the left neighbour (the next seat still in the game, seat+1 mod n);
    duel bet → parity/even (heads with the duel coin, R34); handoff → decline; the Kostič's
    play → None (any legal play)."""
    phase = state.phase
    if phase == BLOCK:
        return Pass()
    if phase == CHOOSE_NEIGHBOR:
        return ChooseNeighbor(left_of(state, seat))
    if phase == BET:
        return Bet("coin", "heads") if state.options.get("duel_coin") else Bet("parity", "even")
    if phase == HANDOFF:
        return Handoff(None, None)
    return None


def _owed_command(state: GameState, e: Event, seat: int, act: Command | None) -> Command:
    """The command of logged event `e` if it is the timeout's act for `seat`; else raises
    IllegalCommand. The Kostič's play (act None) may be any legal play: which one the bot
    chose is not part of the rules."""
    made = _command_of(e)
    if made is None or made[1] != seat:
        raise illegal(f"R21: after the timeout seat {seat} acts next")
    command = made[0]
    if act is None and command not in legal_commands(state, seat):
        raise illegal(f"R21: {command} is not a legal play for seat {seat} at the timeout")
    if act is not None and command != act:
        raise illegal(f"R21: the timeout acts for seat {seat} by {act}, not {command}")
    return command


def _event_type(state: GameState, seat: int, act: Command | None) -> str:
    """The type of the event an owed act makes (the Kostič's play: card_played)."""
    return ev.CARD_PLAYED if act is None else command_event(state, seat, act).type


def rederive(events: list[Event], seed: bytes) -> Verdict:
    """R22: every unrigged roll, toss and shuffle in the log equals what the seed gives."""
    from . import rng

    if not events:
        return Verdict(True, 0)
    try:
        state = fold(events[:1])
    except (KeyError, TypeError, ValueError) as err:
        return Verdict(False, 0, 1, f"game_created is malformed: {err!r}")
    first = events[0].data
    if events[0].type == ev.FORKED and first.get("shuffle") is not None:  # a fresh deal (fork.py)
        order = {card: i for i, card in enumerate(state.deck.ids)}
        try:
            pile = sorted(first["draw"], key=order.__getitem__)
        except KeyError:
            return Verdict(False, 0, 1, "the fork's draw pile names a card not in the deck")
        if first["draw"] != rng.shuffle(seed, first["shuffle"], pile):
            return Verdict(False, 0, 1, "the fork's fresh deal is not the seed's")
    for seq, e in enumerate(events[1:], start=2):
        d = e.data
        try:
            if e.type in (ev.DIE_ROLLED, ev.COIN_TOSSED) and not d.get("rigged"):
                if d["value"] != rng.roll(seed, d["n"]):
                    return Verdict(False, seq - 1, seq, f"roll {d['n']} is not the seed's")
            elif e.type == ev.GAME_STARTED and d.get("shuffle") is not None:
                deal = rng.shuffle(seed, d["shuffle"], state.deck.ids)
                n = state.n
                hands = [deal[seat : 3 * n : n] for seat in range(n)]
                if hands != d["hands"] or deal[3 * n :] != d["draw"]:
                    return Verdict(False, seq - 1, seq, "the deal is not the seed's shuffle")
            elif e.type == ev.DECK_RESHUFFLED:
                if d["draw"] != rng.shuffle(seed, d["n"], state.discard):
                    return Verdict(False, seq - 1, seq, f"reshuffle {d['n']} is not the seed's")
            state = fold([e], state)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            return Verdict(False, seq - 1, seq, f"{e.type} is malformed: {err!r}")
    return Verdict(True, len(events))
