"""The rules of Sejmi je as a pure, event-sourced engine (no Django, no clock, no global random).

    events = new_game(seats=4, seed=seed)          # R22: the seed's commitment comes first
    state = fold(events)
    more = decide(state, Play("C17", 0, "one", 2), actor=state.kostic, seed=seed)
    state = fold(more, state)

Errors are IllegalCommand with a stable `code` (a `Code`, which carries its HTTP status);
views and redaction live in `views`.
"""

from .bots import BOTS, HeuristicBot, RandomBot
from .cards import Card, Deck, Effect, load_deck
from .commands import (
    Bet,
    Block,
    ChooseNeighbor,
    Command,
    Handoff,
    Join,
    Pass,
    Play,
    Timeout,
    parse_command,
)
from .decide import decide, execute, new_game
from .errors import Code, IllegalCommand
from .events import Event
from .evolve import evolve, fold
from .legal import legal_commands
from .rng import commitment, new_seed
from .standing import ORDERS, standing_answers
from .state import GameState
from .timeouts import deadline_kind, timeout_commands
from .views import OMNISCIENT, redact_event, view_for
from .window import bots_act, split_sealed, window_open

__all__ = [
    "BOTS",
    "Bet",
    "Block",
    "Card",
    "ChooseNeighbor",
    "Code",
    "Command",
    "Deck",
    "Effect",
    "Event",
    "GameState",
    "Handoff",
    "HeuristicBot",
    "IllegalCommand",
    "Join",
    "OMNISCIENT",
    "ORDERS",
    "Pass",
    "Play",
    "RandomBot",
    "Timeout",
    "bots_act",
    "commitment",
    "deadline_kind",
    "decide",
    "evolve",
    "execute",
    "fold",
    "legal_commands",
    "load_deck",
    "new_game",
    "new_seed",
    "parse_command",
    "redact_event",
    "split_sealed",
    "standing_answers",
    "timeout_commands",
    "view_for",
    "window_open",
]
