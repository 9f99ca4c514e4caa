"""Forks (issue 30): a new game that starts exactly where another stood, as a pure function.

    events, state = fork_game(source_state, seed=new_seed(), players=["ann", BOT, None],
                              deal="same", origin={"game": 7, "at": 42, "hash": "…"})

The fork's first event is `forked`: it names the source (`origin`, which the service fills in:
the source game's id, the seq `at` and the source's chain hash at `at`, so the fork's audit
proves where it came from), publishes the fork's own seed commitment (R22) and carries the
whole position: lives, hands, discard and draw piles, countdown, phase, the pending decision
(a block window, a neighbour choice, a bet, a handoff) and the engine's counters. Folding it
gives a state equal to the source's at `at` in everything the rules read; who sits where
starts afresh: each filled seat is taken by a `seat_taken` event after it (a player or a
bot), an open seat is joined as in any game, and once every seat is taken `game_started`
(`{"forked": true}`, no deal) sets the fork going.

Deals: `same` keeps the draw pile in order; `fresh` reshuffles every card no seat had seen
by `at` (the draw pile: every hand is seen by its holder, the discard pile by all) under the
fork's seed, shuffle number `shuffle` of the pile taken in catalog order (docs/RANDOMNESS.md),
so anyone holding the revealed seed re-derives it (audit.rederive). Rolls and later
reshuffles come from the fork's seed in both deals: only the pile is kept, not the dice.
"""

from __future__ import annotations

from typing import Any

from . import rng
from .decide import _take
from .errors import invalid
from .events import FORKED, SEAT_TAKEN, Event, event
from .evolve import fold
from .forked import pending_to_json
from .setup import BOT_NAME
from .state import ACTIVE, GameState

SAME, FRESH = "same", "fresh"
DEALS = (SAME, FRESH)
BOT = object()  # a seat `players` gives to the built-in bot (a username: a player; None: open)


def can_fork(s: GameState) -> bool:
    """A moment a fork may start from: the game was being played (dealt, not over)."""
    return s.status == ACTIVE


def fork_game(source: GameState, *, seed: bytes, players: list[Any], deal: str,
              origin: dict[str, Any]) -> tuple[list[Event], GameState]:  # fmt: skip
    """The events that start a fork of `source` (the state right after the source's event
    `origin["at"]`), and the state they fold into (the fork has moved on by its automatic
    steps, if a seat decides only later). IllegalCommand(Code.INVALID) for bad arguments."""
    if not can_fork(source):
        raise invalid("a fork starts from a moment where the game was being played")
    if deal not in DEALS:
        raise invalid("deal is same or fresh")
    if not isinstance(players, list) or len(players) != source.n:
        raise invalid(f"seats needs one entry per seat ({source.n})")
    named = [p for p in players if isinstance(p, str)]
    if len(set(named)) != len(named) or BOT_NAME in named:
        raise invalid("a player takes one seat of a fork")
    events = [event(FORKED, forked_data(source, seed=seed, players=players, deal=deal,
                                        origin=origin))]  # fmt: skip
    for seat, player in enumerate(players):
        if player is BOT:
            events.append(event(SEAT_TAKEN, {"seat": seat, "name": BOT_NAME, "bot": True}))
        elif isinstance(player, str):
            events.append(event(SEAT_TAKEN, {"seat": seat, "name": player, "bot": False}))
        elif player is not None:
            raise invalid("a seat is a player's name, the bot or open")
    work = fold(events[:1])
    out = events[:1]
    _take(work, out, events[1:], seed)
    return out, work


def forked_data(source: GameState, *, seed: bytes, players: list[Any], deal: str,
                origin: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    s = source
    draw, shuffle_n, shuffles = list(s.draw), None, s.shuffles
    if deal == FRESH:
        order = {card: i for i, card in enumerate(s.deck.ids)}
        shuffle_n, shuffles = s.shuffles, s.shuffles + 1
        draw = rng.shuffle(seed, shuffle_n, sorted(draw, key=order.__getitem__))
    bots = [seat for seat, p in enumerate(players) if p is BOT]
    return {
        "source": dict(origin),
        "variant": s.variant,
        "seats": s.n,
        "options": {**s.options, "bots": bots},
        "deck": {"name": s.deck.name, "cards": s.deck.rows()},
        "seed_commitment": rng.commitment(seed),
        "deal": deal,
        "lives": list(s.lives),
        "hands": [list(h) for h in s.hands],
        "draw": draw,
        "shuffle": shuffle_n,
        "discard": list(s.discard),
        "phase": s.phase,
        "kostic": s.kostic,
        "turn": s.turn,
        "awaiting": list(s.awaiting),
        "pending": pending_to_json(s.pending),
        "first_rolls": [[seat, value] for seat, value in s.first_rolls.items()],
        "contenders": list(s.contenders),
        "countdown": s.countdown,
        "countdown_turn": s.countdown_turn,
        "rolls": s.rolls,
        "shuffles": shuffles,
    }
