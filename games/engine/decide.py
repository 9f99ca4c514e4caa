"""Commands in, events out. `decide` validates a command against the state (R35 order) and
returns the events it causes, followed by every automatic step up to the next decision."""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import is_
from typing import Any, Required, TypedDict, Unpack

from .away import AwayCommand, away_events, takeovers
from .cards import Deck
from .commands import Bet, Block, ChooseNeighbor, Command, Handoff, Join, Pass, Play, Timeout
from .errors import Code, IllegalCommand, game_over, illegal, invalid, not_your_turn
from .events import (
    BET_PLACED,
    BLOCK_PASSED,
    CARD_HANDED_OFF,
    CARD_PLAYED,
    NEIGHBOR_CHOSEN,
    PLAY_BLOCKED,
    SEAT_TAKEN,
    TIMED_OUT,
    Event,
    event,
)
from .evolve import apply_all, fold
from .flow import auto_events
from .legal import explain_play, legal_bets, legal_blocks, legal_handoffs, legal_plays
from .setup import creation_events
from .state import ACTIVE, BET, BLOCK, CHOOSE_NEIGHBOR, ENDED, HANDOFF, LOBBY, PLAY, GameState
from .timeouts import timeout_commands

MAX_AUTO_STEPS = 10_000  # a guard against an engine bug looping; no game comes near it


class GameSettings(TypedDict, total=False):
    """`start_game`'s keyword arguments, which `new_game` passes on as they are."""

    seats: Required[int]
    seed: Required[bytes]
    variant: str
    options: dict | None
    deck: Deck | None
    rig: dict | None


def new_game(**settings: Unpack[GameSettings]) -> list[Event]:
    """The events that create a game (R22: the seed's commitment comes first).

    Bot seats (option `bots`) are seated at once, and a game of bots only starts at once;
    players take the other seats with Join. Raises IllegalCommand(Code.INVALID) for bad settings.
    """
    return start_game(**settings)[0]


def start_game(
    *,
    seats: int,
    seed: bytes,
    variant: str = "standard",
    options: dict | None = None,
    deck: Deck | None = None,
    rig: dict | None = None,
) -> tuple[list[Event], GameState]:
    """Like `new_game`, and also the state its events fold into (so callers need not refold)."""
    events = creation_events(
        seats=seats, seed=seed, variant=variant, options=options, deck=deck, rig=rig
    )
    work = fold(events)
    _take(work, events, [], seed)
    return events, work


def decide(
    s: GameState, command: Command | AwayCommand, *, actor: int | None = None, seed: bytes
) -> list[Event]:
    """The events `command` by seat `actor` causes; raises IllegalCommand, changes nothing."""
    return execute(s, command, actor=actor, seed=seed)[0]


def execute(
    s: GameState, command: Command | AwayCommand, *, actor: int | None = None, seed: bytes
) -> tuple[list[Event], GameState]:
    """Like `decide`, and also the state those events fold into (so callers need not refold)."""
    work = s.copy()
    return execute_in_place(work, command, actor=actor, seed=seed), work


def execute_in_place(
    work: GameState, command: Command | AwayCommand, *, actor: int | None = None, seed: bytes
) -> list[Event]:
    """`execute` for a caller that owns `work` and keeps no other reference to it (like
    `fold`, the simulator): `work` becomes the state after the command, with no copy, which
    is about a fifth of a bot game's cost (bench-engine). A command refused raises before
    anything changes, except that a timeout's later acts are checked after its first."""
    out: list[Event] = []
    if type(command) in SEAT_COMMANDS:  # the common case first: a seat decides
        _take(work, out, [command_event(work, actor, command)], seed)  # type: ignore[arg-type]
    elif isinstance(command, Join):
        _take(work, out, _join(work, command), seed)
    elif isinstance(command, Timeout):
        _timeout(work, out, seed)
    else:  # the service's acts (away.py)
        assert not isinstance(command, Play | Block | Pass | ChooseNeighbor | Bet | Handoff)
        _take(work, out, away_events(work, command, seed), seed)
    return out


def _take(work: GameState, out: list[Event], events: list[Event], seed: bytes) -> None:
    """Apply `events`, then every automatic step until a seat must decide or the game ends."""
    for _ in range(MAX_AUTO_STEPS):
        apply_all(work, events)
        out += events
        events = auto_events(work, seed)
        if not events:
            return
    raise RuntimeError("the engine did not reach a decision")  # pragma: no cover


def command_event(s: GameState, actor: int | None, command: Command) -> Event:
    """Check a seat's command in the R35 order and return its event."""
    if s.status == ENDED:
        raise game_over()
    if s.status != ACTIVE or actor is None or actor not in s.awaiting:
        raise not_your_turn()  # also a player who already passed (R26)
    if type(command) is Pass and s.phase == BLOCK:  # the most frequent act (~60 %), no call
        return event(BLOCK_PASSED, {"seat": actor, "turn": s.turn})
    check = CHECKS.get((s.phase, type(command)))
    if check is None:
        raise illegal(f"a {type(command).__name__.lower()} is not what is asked now ({s.phase})")
    return check(s, actor, command)


def _play(s: GameState, seat: int, play: Play) -> Event:
    if isinstance(play.effect, bool) or isinstance(play.target, bool):
        raise invalid("effect and target are numbers, not true/false")
    plays = legal_plays(s, seat)
    # A bot's play is one of these very objects: looked for by identity first, in C, as `in`
    # calls Play.__eq__ (Python) on every other play it passes.
    if not any(map(is_, plays, repeat(play))) and play not in plays:
        raise illegal(explain_play(s, seat, play))
    data = {
        "seat": seat,
        "card": play.card,
        "effect": play.effect,
        "scope": play.scope,
        "target": play.target,
    }
    return event(CARD_PLAYED, data)


# --- each phase's command, checked (R35's last step: the move's own rules) ---------------------
def _block(s: GameState, seat: int, command: Block) -> Event:
    if command not in legal_blocks(s, seat):
        raise illegal(_block_problem(s, seat, command))
    return event(PLAY_BLOCKED, {"seat": seat, "card": command.card})


def _choose_neighbor(s: GameState, seat: int, command: ChooseNeighbor) -> Event:
    if command.neighbor not in s.pending.neighbor_options:  # type: ignore[union-attr]
        raise illegal("choose one of your neighbours (R8)")
    return event(NEIGHBOR_CHOSEN, {"seat": seat, "neighbor": command.neighbor})


def _bet(s: GameState, seat: int, command: Bet) -> Event:
    if command not in legal_bets(s):
        raise illegal("with duel_coin bet on the coin, else on parity or size (R34)")
    return event(BET_PLACED, {"seat": seat, "kind": command.kind, "value": command.value})


def _handoff(s: GameState, seat: int, command: Handoff) -> Event:
    if command not in legal_handoffs(s, seat):
        raise illegal("hand one of your cards to a player still in the game (R15)")
    rest = list(s.hands[seat])
    if command.card is not None:
        rest.remove(command.card)
    data = {"seat": seat, "card": command.card, "to": command.to, "discarded": rest}
    return event(CARD_HANDED_OFF, data)


def _block_problem(s: GameState, seat: int, block: Block) -> str:
    if block.card not in s.hands[seat]:
        return f"{block.card} is not in your hand"
    if len(s.hands[seat]) < 2:
        return "the last card in hand cannot block"
    return "a block needs a card with an effect of the played colour"


def _join(s: GameState, join: Join) -> list[Event]:
    if s.status == ENDED:
        raise game_over()
    if s.status != LOBBY:
        raise IllegalCommand(Code.GAME_FULL, "the game has already started")
    free = [seat for seat, name in enumerate(s.names) if name is None]
    if not free:
        raise IllegalCommand(Code.GAME_FULL, "every seat is taken")
    seat = free[0] if join.seat is None else join.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise invalid(f"seat must be 0..{s.n - 1}")
    if seat not in free:
        raise IllegalCommand(Code.SEAT_TAKEN, f"seat {seat} is taken")
    return [event(SEAT_TAKEN, {"seat": seat, "name": join.name, "bot": join.bot})]


def _timeout(work: GameState, out: list[Event], seed: bytes) -> None:
    """R21: the deadline passed; act for every seat still awaited, by the timeout policy."""
    if work.status == ENDED:
        raise game_over()
    acts = timeout_commands(work)
    if not acts:
        raise illegal("no decision is pending")
    record = event(TIMED_OUT, {"phase": work.phase, "seats": [seat for seat, _ in acts]})
    _take(work, out, [record], seed)
    _take(work, out, takeovers(work), seed)  # K timeouts in a row: the bot takes the seat
    for seat, command in acts:
        _take(work, out, [command_event(work, seat, command)], seed)


# Which command each phase asks for, and its check: a dict lookup on the command's class instead
# of a chain of isinstance tests, as nearly every command passes here (bench-engine).
CHECKS: dict[tuple[str | None, type], Callable[[GameState, int, Any], Event]] = {
    (PLAY, Play): _play,  # (BLOCK, Pass) is answered before this table, in command_event
    (BLOCK, Block): _block,
    (CHOOSE_NEIGHBOR, ChooseNeighbor): _choose_neighbor,
    (BET, Bet): _bet,
    (HANDOFF, Handoff): _handoff,
}
SEAT_COMMANDS = frozenset({Play, Block, Pass, ChooseNeighbor, Bet, Handoff})
