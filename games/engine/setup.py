"""A new game: the first event (with the seed's commitment, R22) and the start of play."""

from __future__ import annotations

from typing import Any

from . import rng
from .cards import Deck, load_deck
from .errors import invalid
from .events import GAME_CREATED, GAME_STARTED, SEAT_TAKEN, TURN_STARTED, Event, event
from .state import MAX_LIVES, MAX_SEATS, PAIRS, PAIRS_EXTREME, VARIANTS, GameState

HAND_SIZE = 3
MAX_DEADLINE_S = 30 * 24 * 3600
MAX_SPECTATOR_DELAY = 500  # events; about two whole games: anything longer hides the game
OPTION_DEFAULTS = {
    "duel_coin": False,
    "block_window_s": 60,
    "turn_deadline_s": 86_400,
    "bots": [],
    "spectator_delay": 10,  # events spectators stay behind the present (issue 10)
    "timeouts_to_bot": 3,  # 0: never (R21 acts at every timeout, the seat stays its player's)
}
# What a game created before an option existed folds with (its game_created lacks it): such a
# game was promised live spectators, and its record is kept as it was played; its seats go to
# the bot after the usual number of timeouts.
OLD_GAME_OPTIONS = {"spectator_delay": 0, "timeouts_to_bot": OPTION_DEFAULTS["timeouts_to_bot"]}
MAX_TIMEOUTS_TO_BOT = 100
BOT_NAME = "bot"


def creation_events(
    *,
    seats: int,
    seed: bytes,
    variant: str,
    options: dict | None,
    deck: Deck | None,
    rig: dict | None,
) -> list[Event]:
    """game_created, then a seat for each bot seat; IllegalCommand(Code.INVALID) if bad."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= MAX_SEATS:
        raise invalid("seats must be 2..6")
    if variant not in VARIANTS:
        raise invalid(f"variant must be one of {', '.join(VARIANTS)}")
    if variant in (PAIRS, PAIRS_EXTREME) and seats != 4:
        raise invalid("the pairs variants are for 4 players")
    deck = deck or load_deck("standard")
    opts = _options({} if options is None else options, seats)  # [] or 0 is no object
    if rig is not None:
        rig = _rig(rig, seats, deck)
    data: dict[str, Any] = {
        "variant": variant,
        "seats": seats,
        "options": opts,
        "deck": {"name": deck.name, "cards": deck.rows()},
        "seed_commitment": rng.commitment(seed),
        "rig": rig,
    }
    events = [event(GAME_CREATED, data)]
    events += [event(SEAT_TAKEN, {"seat": s, "name": BOT_NAME, "bot": True}) for s in opts["bots"]]
    return events


def _options(options: Any, seats: int) -> dict[str, Any]:
    if not isinstance(options, dict):
        raise invalid("options must be an object")
    unknown = set(options) - set(OPTION_DEFAULTS)
    if unknown:
        raise invalid(f"unknown options: {', '.join(sorted(unknown))}")
    opts = {**OPTION_DEFAULTS, **options}
    if not isinstance(opts["duel_coin"], bool):
        raise invalid("duel_coin must be true or false")
    for name in ("block_window_s", "turn_deadline_s"):
        value = opts[name]
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= MAX_DEADLINE_S
        ):
            raise invalid(f"{name} must be whole seconds, 1..{MAX_DEADLINE_S}")
    delay = opts["spectator_delay"]
    if not _int_list([delay], 0, MAX_SPECTATOR_DELAY):
        raise invalid(f"spectator_delay is a whole number of events, 0..{MAX_SPECTATOR_DELAY}")
    k = opts["timeouts_to_bot"]
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_TIMEOUTS_TO_BOT:
        raise invalid(f"timeouts_to_bot must be a whole number 0..{MAX_TIMEOUTS_TO_BOT}")
    bots = opts["bots"]
    if not isinstance(bots, list) or not all(_is_seat(b, seats) for b in bots):
        raise invalid(f"bots must be a list of seats 0..{seats - 1}")
    if len(set(bots)) != len(bots):
        raise invalid("bots names a seat twice")
    opts["bots"] = sorted(bots)
    return opts


def game_options(created: dict[str, Any]) -> dict[str, Any]:
    """The options a game plays with: those of its game_created event, and for an option that
    event predates, the value OLD_GAME_OPTIONS gives (an old event is upcast, never edited)."""
    return {**OLD_GAME_OPTIONS, **created}


def option(s: GameState, name: str) -> Any:
    """A game option; a state stored before the option existed reads with OLD_GAME_OPTIONS
    (or the default)."""
    return s.options.get(name, OLD_GAME_OPTIONS.get(name, OPTION_DEFAULTS[name]))


def _is_seat(value: Any, seats: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats


def _rig(rig: Any, seats: int, deck: Deck) -> dict[str, Any]:
    """Check a rig (API.md, rigged games) and return it with only the known fields."""
    if not isinstance(rig, dict) or set(rig) - {"lives", "hands", "deck", "first", "dice"}:
        raise invalid("rig takes lives, hands, deck, first and dice")
    out: dict[str, Any] = {}
    if "lives" in rig:
        lives = rig["lives"]
        if not _int_list(lives, 1, MAX_LIVES) or len(lives) != seats:
            raise invalid(f"rig.lives needs {seats} numbers 1..6")
        out["lives"] = list(lives)
    named: list[str] = []
    if "hands" in rig:
        hands = rig["hands"]
        if not isinstance(hands, list) or len(hands) != seats:
            raise invalid(f"rig.hands needs {seats} lists of cards")
        for hand in hands:
            if not isinstance(hand, list):
                raise invalid("each hand in rig.hands is a list of card ids")
            named += hand
        out["hands"] = [list(h) for h in hands]
    if "deck" in rig:
        if not isinstance(rig["deck"], list):
            raise invalid("rig.deck is a list of card ids, top first")
        named += rig["deck"]
        out["deck"] = list(rig["deck"])
    if any(not isinstance(c, str) or c not in deck for c in named):
        raise invalid("the rig names a card that is not in the deck")
    if len(set(named)) != len(named):
        raise invalid("the rig names a card twice")
    if "first" in rig:
        if not _is_seat(rig["first"], seats):
            raise invalid(f"rig.first must be a seat 0..{seats - 1}")
        out["first"] = rig["first"]
    if "dice" in rig:
        if not _int_list(rig["dice"], 1, 6):
            raise invalid("rig.dice is a list of numbers 1..6")
        out["dice"] = list(rig["dice"])
    return out


def _int_list(value: Any, low: int, high: int) -> bool:
    return isinstance(value, list) and all(
        isinstance(x, int) and not isinstance(x, bool) and low <= x <= high for x in value
    )


def start_events(s: GameState, seed: bytes) -> list[Event]:
    """Every seat is taken: shuffle (R22), deal three each, and (if rigged) the first Kostič."""
    if s.forked_from is not None:  # a fork was dealt where its source stood (fork.py)
        return [event(GAME_STARTED, {"forked": True})]
    rig = s.rig or {}
    shuffle_n: int | None = None
    if "hands" in rig or "deck" in rig:  # rigged cards; the rest under them in catalog order
        named = set(rig.get("deck", [])) | {c for h in rig.get("hands", []) for c in h}
        pile = list(rig.get("deck", [])) + [c for c in s.deck.ids if c not in named]
    else:
        shuffle_n = s.shuffles
        pile = rng.shuffle(seed, shuffle_n, s.deck.ids)
    if "hands" in rig:
        hands = [list(h) for h in rig["hands"]]
    else:  # one card at a time, round the table from seat 0
        hands = [pile[seat : HAND_SIZE * s.n : s.n] for seat in range(s.n)]
        pile = pile[HAND_SIZE * s.n :]
    lives = rig.get("lives", [MAX_LIVES] * s.n)
    data = {"hands": hands, "draw": pile, "lives": lives, "shuffle": shuffle_n}
    events = [event(GAME_STARTED, data)]
    if "first" in rig:
        events.append(event(TURN_STARTED, {"kostic": rig["first"], "turn": 1}))
    return events
