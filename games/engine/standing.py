"""Standing orders: how a player's block windows are answered while he is away (issue 10).

A player may leave an order that answers every block window he is asked in, the moment it
opens (section 5, R19), so nobody waits for him:

- `never`: pass every window;
- `aimed_at_me`: block a play aimed at me (`aimed_at`) with my cheapest card that can block it
  (`cheapest_block`), pass otherwise (and when no card of mine can block it);
- `duel_against_me`: block a duel started against me (`duel_against`), pass otherwise.

The answers are ordinary `block_passed` / `play_blocked` events of that seat, marked
`"standing": true`; the audit re-executes them like any other answer (they must be legal) and
never needs the order itself, which stays private to its owner.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .commands import Block, Command, Pass
from .decide import execute
from .effects import AGAINST_KOSTIC, EFFECTS, SWAP
from .events import Event
from .legal import legal_blocks
from .rules import affected_order, neighbors, table_wide_changes
from .state import GameState
from .window import window_open

NEVER, AIMED_AT_ME, DUEL_AGAINST_ME = "never", "aimed_at_me", "duel_against_me"
ORDERS = (NEVER, AIMED_AT_ME, DUEL_AGAINST_ME)
STANDING = "standing"  # the event field that marks an answer given by a standing order


def affected(s: GameState, seat: int) -> bool:
    """`seat` is one of the pending play's affected players P (section 3; R9, R33), judged on
    the lives before the effect (R6)."""
    p = s.pending
    assert p is not None
    order = affected_order(s, p.seat, p.effect.kind, p.scope, p.target, p.snapshot)
    return seat in order


def aimed_at(s: GameState, seat: int) -> bool:
    """The pending play is aimed at `seat`: it reaches him as an affected player P and costs
    him lives. A table-wide effect (R10) is aimed at those it lowers (TOPHP players who are not
    LOWHP; LOW_2_TOP_5 also a LOWHP player at 3). A swap is aimed at P when every neighbour he
    may pick (R8) has fewer lives than he has. What an effect does to P's neighbours (BLAST's
    1 life, a STEAL_NEIGHBOR that may pick them) is aimed at P, not at them."""
    p = s.pending
    assert p is not None
    kind, lives = p.effect.kind, p.snapshot
    rule = EFFECTS[kind]
    if rule.table_wide:
        changes = table_wide_changes(kind, list(lives), s.alive())
        return any(who == seat and new < lives[seat] for who, new in changes)
    if not affected(s, seat):
        return False
    if rule.reach == SWAP:
        return all(lives[other] < lives[seat] for other in neighbors(s, seat))
    return rule.costs_p  # section 3's table, column "effect on an affected player P"


def duel_against(s: GameState, seat: int) -> bool:
    """The pending play starts a duel against `seat`: a DUEL that names him (or, all-players,
    reaches him: R33)."""
    p = s.pending
    assert p is not None
    return EFFECTS[p.effect.kind].reach == AGAINST_KOSTIC and affected(s, seat)


def colours(s: GameState, cards: Iterable[str]) -> set[str]:
    """The colours these cards can block (section 5: a card blocks a play of either of its
    effects' colours)."""
    return {effect.colour for c in cards for effect in s.deck.card(c).effects}


def cheapest_block(s: GameState, seat: int, blocks: list[Block]) -> Block:
    """The block that costs `seat` least: the one after which the rest of his hand can still
    block the most colours; then the card that blocks the fewest colours itself (it was worth
    least as a blocker); then the deck's catalogue order (so the choice is always the same)."""
    hand, order = s.hands[seat], s.deck.ids

    def cost(block: Block) -> tuple[int, int, int]:
        rest = [c for c in hand if c != block.card]
        return (-len(colours(s, rest)), len(colours(s, [block.card])), order.index(block.card))

    return min(blocks, key=cost)


def standing_command(s: GameState, seat: int, order: str) -> Command:
    """The answer `order` gives for `seat` in the open window: a legal Block or a Pass.
    ValueError for an unknown order."""
    if order not in ORDERS:
        raise ValueError(f"unknown standing order {order!r}")
    if order == NEVER:
        return Pass()
    wanted = aimed_at if order == AIMED_AT_ME else duel_against
    blocks = legal_blocks(s, seat)
    return cheapest_block(s, seat, blocks) if blocks and wanted(s, seat) else Pass()


def marked(e: Event) -> Event:
    """The event of an answer given by a standing order."""
    return Event(e.type, {**e.data, STANDING: True}, e.v)


def standing_answers(
    s: GameState, orders: Mapping[int, str], seed: bytes
) -> tuple[list[Event], GameState]:
    """Every seat asked in the open window of `s` that has an order (seat → order) answers by
    it, in the order asked; the first block closes the window (R18), and nobody answers after
    it. Returns the events (each answer marked `standing`, then whatever it caused) and the
    state after them; nothing when no window is open."""
    out: list[Event] = []
    for seat in list(s.awaiting):
        if not window_open(s):
            break
        if seat in orders and seat in s.awaiting:
            new, s = execute(s, standing_command(s, seat, orders[seat]), actor=seat, seed=seed)
            out += [marked(new[0]), *new[1:]]
    return out, s
