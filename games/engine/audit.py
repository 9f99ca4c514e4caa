"""Re-execution audit: was every event a legal consequence of the state before it?

Given a game's events and its revealed seed, replay the game through the engine itself:
each player's command is rebuilt from its event and decided again, each automatic step
(rolls and shuffles derived from the seed, R22; resolution; draws; the end) is produced
again, and everything must equal the log. The first difference is named by its seq.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import events as ev
from .commands import Bet, Block, ChooseNeighbor, Command, Handoff, Join, Pass, Play, Timeout
from .decide import execute
from .errors import IllegalCommand
from .events import Event
from .evolve import fold
from .flow import auto_events
from .rng import commitment

# Fields a service may add to an engine event (the chain head sealed into game_ended).
SERVICE_FIELDS = {ev.GAME_ENDED: ("chain_head",)}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    events: int
    first_bad_seq: int | None = None
    reason: str | None = None


def _command_of(e: Event) -> tuple[Command, int | None] | None:
    """The command that made a player's (or the service's) event, and who sent it."""
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
    if t == ev.TIMED_OUT:
        return Timeout(), None
    return None


def _engine_part(e: Event) -> tuple[str, int, dict[str, Any]]:
    drop = SERVICE_FIELDS.get(e.type, ())
    return e.type, e.v, {k: v for k, v in e.data.items() if k not in drop}


def _first_difference(expected: list[Event], logged: list[Event], start_seq: int) -> Verdict | None:
    for k, want in enumerate(expected):
        seq = start_seq + k
        if k >= len(logged):
            return Verdict(False, seq - 1, seq, f"the log ends where {want.type} must follow")
        if _engine_part(logged[k]) != _engine_part(want):
            got = f"{logged[k].type} {logged[k].data}"
            return Verdict(
                False, seq - 1, seq, f"{got} differs from the rules: {want.type} {want.data}"
            )
    return None


def verify_events(events: list[Event], seed: bytes) -> Verdict:
    """Check the seed against its commitment (R22), then re-execute the whole game."""
    if not events or events[0].type != ev.GAME_CREATED:
        return Verdict(False, 0, 1, "the first event must be game_created")
    if commitment(seed) != events[0].data.get("seed_commitment"):
        return Verdict(False, 0, 1, "the seed does not match the commitment in event 1")
    try:
        state = fold(events[:1])
    except (KeyError, TypeError, ValueError) as err:
        return Verdict(False, 0, 1, f"game_created is malformed: {err}")
    i = 1
    while i < len(events):
        seq = i + 1
        try:
            expected = auto_events(state, seed)
            if not expected:
                made = _command_of(events[i])
                if made is None:
                    why = f"{events[i].type} is no move anyone could make here"
                    return Verdict(False, i, seq, f"{why} (awaiting {state.awaiting})")
                command, actor = made
                expected, after = execute(state, command, actor=actor, seed=seed)
            else:
                after = fold(expected, state)
        except IllegalCommand as err:
            return Verdict(False, i, seq, f"illegal {events[i].type}: {err.message} ({err.code})")
        except (KeyError, TypeError, ValueError, IndexError) as err:
            return Verdict(False, i, seq, f"{events[i].type} is malformed: {err!r}")
        difference = _first_difference(expected, events[i : i + len(expected)], seq)
        if difference is not None:
            return difference
        state, i = after, i + len(expected)
    return Verdict(True, len(events))


def rederive(events: list[Event], seed: bytes) -> Verdict:
    """R22: every unrigged roll, toss and shuffle in the log equals what the seed gives."""
    from . import rng

    if not events:
        return Verdict(True, 0)
    try:
        state = fold(events[:1])
    except (KeyError, TypeError, ValueError) as err:
        return Verdict(False, 0, 1, f"game_created is malformed: {err!r}")
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
