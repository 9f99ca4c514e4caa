"""The one definition of "legal": every command a seat may send now.

`decide` accepts a command only if it is in the list these functions make; bots choose from
it; the API's view shows it as `legal`. `explain_play` only words the reason for a rejection.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import compress

from .cards import COLOURS, Card, Deck
from .commands import BET_VALUES, Bet, Block, ChooseNeighbor, Command, Handoff, Pass, Play
from .effects import CONDITIONS, EFFECTS
from .rules import scopes_for
from .state import (
    ACTIVE,
    BET,
    BLOCK,
    CHOOSE_NEIGHBOR,
    HANDOFF,
    MAX_LIVES,
    MAX_SEATS,
    PLAY,
    GameState,
)

PASS = Pass()  # commands are frozen, so one of each may be shared
DECLINE = Handoff(None, None)
# R34's bets and each seat's neighbour choice, made once: a duel asks for the bets twice (the
# bot's options, then the check), and a frozen dataclass costs four calls to build (bench-engine).
_BETS = {
    duel_coin: tuple(Bet(kind, value) for kind in kinds for value in BET_VALUES[kind])
    for duel_coin, kinds in ((True, ("coin",)), (False, ("parity", "size")))
}
_NEIGHBORS = tuple(ChooseNeighbor(seat) for seat in range(MAX_SEATS))


@dataclass(frozen=True, slots=True)
class _EffectPlays:
    """What one effect of a card allows, worked out once per deck (the rules, not the state)."""

    needs_other: bool  # R12: only with another player in the game
    allowed: tuple[bool, ...]  # by the target's lives 0..6: the R9/R33 condition, R10 none
    not_kostic: bool  # R3: a duel targets another player
    one: tuple[Play, ...]  # scope "one", by target seat (green, blue)
    all: Play | None  # scope "all" (red, blue)


def _effect_plays(card: Card, index: int) -> _EffectPlays:
    effect = card.effects[index]
    rule, scopes = EFFECTS[effect.kind], scopes_for(effect.colour)
    return _EffectPlays(
        needs_other=rule.needs_other,
        allowed=tuple(rule.table_wide or rule.meets[x] for x in range(MAX_LIVES + 1)),
        not_kostic=not rule.on_kostic,
        one=tuple(Play(card.id, index, "one", t) for t in range(MAX_SEATS))
        if "one" in scopes
        else (),
        all=Play(card.id, index, "all", None) if "all" in scopes else None,
    )


class _DeckTables:
    """Per deck: every card's effects as `_EffectPlays`, and by colour a Block of each card
    that has it. The commands are shared (they are frozen). Hashed by identity, so a memo
    keyed on the tables costs no Python call (a deck's hash is one)."""

    __slots__ = ("plays", "blocks")

    def __init__(self, deck: Deck) -> None:
        self.plays = {
            c.id: tuple(_effect_plays(c, i) for i in range(len(c.effects))) for c in deck.cards
        }
        self.blocks = {
            colour: {c.id: Block(c.id) for c in deck.cards if c.has_colour(colour)}
            for colour in COLOURS
        }


def _tables(deck: Deck) -> _DeckTables:
    """The deck's tables, made at the first look-up; hot callers read `deck.derived` first."""
    tables = deck.derived.get("legal")
    if tables is None:
        tables = deck.derived["legal"] = _DeckTables(deck)
    return tables


def legal_plays(s: GameState, seat: int) -> tuple[Play, ...]:
    """Every legal play of `seat`'s hand."""
    try:
        tables = s.deck.derived["legal"]
    except KeyError:
        tables = _tables(s.deck)
    return _hand_plays(tables, seat, tuple(s.hands[seat]), tuple(s.lives))


# A turn asks three times (may the Kostič play? what may a bot play? is this play legal?),
# so the plays are memoised on everything that decides them, and nothing is kept in the state.
@lru_cache(maxsize=4096)
def _hand_plays(
    tables: _DeckTables, kostic: int, hand: tuple[str, ...], lives: tuple[int, ...]
) -> tuple[Play, ...]:
    """Scope by colour (section 2), targets by R3, R9, R12, R33; card by card, per effect
    the targets of "one" in seat order, then "all"."""
    alive = list(compress(range(len(lives)), lives))  # seats with lives left (never below 0)
    company = len(alive) > 1
    plays: list[Play] = []
    for c in hand:
        for e in tables.plays[c]:
            if e.needs_other and not company:
                continue
            if e.one:  # a loop, not a comprehension: that is a call, for four seats or fewer
                allowed, not_kostic, one = e.allowed, e.not_kostic, e.one
                for t in alive:
                    if allowed[lives[t]] and not (not_kostic and t == kostic):
                        plays.append(one[t])
            if e.all is not None:
                plays.append(e.all)
    return tuple(plays)


def legal_blocks(s: GameState, seat: int) -> list[Block]:
    """Section 5: a card sharing the played effect's colour; never the last card in hand."""
    hand = s.hands[seat]
    if len(hand) < 2:
        return []
    pending = s.pending
    assert pending is not None
    try:
        tables = s.deck.derived["legal"]
    except KeyError:
        tables = _tables(s.deck)
    blocks = tables.blocks[pending.card.effects[pending.effect_index].colour]
    # In hand order, each card that has the colour (a Block is never false): map and filter
    # run in C, where a comprehension is a call of its own (asked of every seat in a window).
    return list(filter(None, map(blocks.get, hand)))


def legal_bets(s: GameState) -> tuple[Bet, ...]:
    return _BETS[bool(s.options.get("duel_coin"))]  # R34


def legal_handoffs(s: GameState, seat: int) -> list[Handoff]:
    """R15: one card to any player still in the game, or decline."""
    alive = s.alive()
    return [DECLINE] + [Handoff(c, to) for c in s.hands[seat] for to in alive]


def legal_commands(s: GameState, seat: int | None) -> list[Command]:
    """Every command `seat` may send now; [] when it may not act."""
    if s.status != ACTIVE or seat not in s.awaiting:
        return []
    assert seat is not None
    phase = s.phase
    if phase == BLOCK:  # the most frequent: about 2.5 answers per play
        return [PASS, *legal_blocks(s, seat)]
    if phase == PLAY:
        return list(legal_plays(s, seat))
    if phase == CHOOSE_NEIGHBOR:
        return [_NEIGHBORS[n] for n in s.pending.neighbor_options]  # type: ignore[union-attr]
    if phase == BET:
        return list(legal_bets(s))
    if phase == HANDOFF:
        return list(legal_handoffs(s, seat))
    return []


def explain_play(s: GameState, seat: int, play: Play) -> str:
    """Why an illegal play is illegal, in words (for the error message only)."""
    if play.card not in s.hands[seat]:
        return f"{play.card} is not in your hand"
    if play.effect not in (0, 1) or isinstance(play.effect, bool):
        return "effect is 0 (effect_a) or 1 (effect_b)"
    effect = s.deck.card(play.card).effects[play.effect]
    if play.scope not in scopes_for(effect.colour):
        return f"a {effect.colour} effect is played on {' or '.join(scopes_for(effect.colour))}"
    if play.scope == "all":
        return "an all-players play names no target"
    if play.target is None or not 0 <= play.target < s.n or s.lives[play.target] == 0:
        return "the target must be a player still in the game"
    rule = EFFECTS[effect.kind]
    if not rule.on_kostic and play.target == seat:
        return "a duel needs another player as target (R3)"
    if rule.condition is not None:
        return f"{effect.kind} needs a target with {CONDITIONS[rule.condition][1]} (R9)"
    return "that play is not allowed now"
