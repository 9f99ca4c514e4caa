"""Built-in players: a uniformly random legal bot, and a heuristic bot that plays to win.

Both choose only from `legal_commands`, so a bot can never send an illegal command.
"""

from __future__ import annotations

import random

from .commands import Block, ChooseNeighbor, Command, Handoff, Pass, Play
from .effects import (
    AGAINST_KOSTIC,
    ALONE,
    DUEL,
    EFFECTS,
    NEIGHBOURS,
    SWAP,
    TABLE,
    EffectRule,
)
from .legal import legal_commands
from .rules import affected_order, neighbors, table_wide_changes
from .state import BLOCK, CHOOSE_NEIGHBOR, HANDOFF, PLAY, GameState

# The first bettor loses the stake (2 lives) with probability 2/3.
DUEL_LOSS_FIRST_BETTOR = EFFECTS[DUEL].stake * 2 / 3


class RandomBot:
    name = "random"

    def __init__(self, rnd: random.Random | None = None) -> None:
        self.rnd = rnd or random.Random()

    def choose(self, s: GameState, seat: int) -> Command:
        options = legal_commands(s, seat)
        # The draw `self.rnd.choice(options)` makes (Random._randbelow: the fewest bits that
        # hold len(options), redrawn while too big), spelled out: its two Python calls were
        # ~2 % of a bot game (bench-engine). Same numbers, so the same games from a seed.
        n, getrandbits = len(options), self.rnd.getrandbits
        if not n:
            raise IndexError("Cannot choose from an empty sequence")  # as random.choice
        bits = n.bit_length()
        r = getrandbits(bits)
        while r >= n:
            r = getrandbits(bits)
        return options[r]


class HeuristicBot:
    """Greedy and deterministic: it previews each play's effect on lives and keeps the best."""

    name = "heuristic"

    def choose(self, s: GameState, seat: int) -> Command:
        options = legal_commands(s, seat)
        phase = s.phase
        if phase == PLAY:
            return max(options, key=lambda c: self._score(s, seat, preview(s, s.kostic, c)))
        if phase == BLOCK:
            return self._block_or_pass(s, seat, options)
        if phase == CHOOSE_NEIGHBOR:
            return max(options, key=lambda c: self._score(s, seat, _neighbor_preview(s, c)))
        if phase == HANDOFF:
            return self._handoff(s, seat, options)
        return options[0]

    def _score(self, s: GameState, seat: int, lives: list[float]) -> float:
        """Higher is better for `seat` (its pair's best member in the pairs variants)."""
        team = s.team(seat)
        mine = max(
            lives[player]
            for player in range(s.n)
            if player == seat or (team is not None and s.team(player) == team)
        )
        rivals = [
            lives[player]
            for player in range(s.n)
            if player != seat and (team is None or s.team(player) != team)
        ]
        knocked_out = sum(1 for x in rivals if x <= 0)
        # The lead over the best rival first; then progress (rivals' lives down), so that two
        # bots do not heal forever what the other takes (games must end).
        return 10 * (mine - max(rivals, default=0)) - 2 * sum(rivals) + 6 * knocked_out

    def _block_or_pass(self, s: GameState, seat: int, options: list[Command]) -> Command:
        blocks = [c for c in options if isinstance(c, Block)]
        if not blocks:
            return Pass()
        pending = s.pending
        assert pending is not None
        play = Play(pending.card.id, pending.effect_index, pending.scope, pending.target)
        before = self._score(s, seat, list(s.lives))
        after = self._score(s, seat, preview(s, pending.seat, play))
        spare = len(s.hands[seat]) - 1
        if before - after > (6 if spare < 2 else 2):
            return blocks[0]
        return Pass()

    def _handoff(self, s: GameState, seat: int, options: list[Command]) -> Command:
        partner = s.partner(seat)
        if partner is not None and s.lives[partner] > 0:
            gifts = [c for c in options if isinstance(c, Handoff) and c.to == partner]
            if gifts:
                return gifts[0]
        return Handoff(None, None)


def preview(s: GameState, kostic: int | None, command: Command) -> list[float]:
    """Lives after a play resolves, roughly: choices made greedily, duels by expectation."""
    lives: list[float] = list(s.lives)
    if not isinstance(command, Play) or kostic is None:
        return lives
    kind = s.deck.card(command.card).effects[command.effect].kind
    order = affected_order(s, kostic, kind, command.scope, command.target, tuple(s.lives))
    rule = EFFECTS[kind]
    reach, change = rule.reach, rule.change
    if reach == TABLE:
        for seat, new in table_wide_changes(kind, s.lives, s.alive()):
            lives[seat] = new
        return lives
    for seat in order:
        if lives[seat] <= 0:
            continue
        if reach == ALONE:
            assert rule.own is not None
            lives[seat] = rule.own[int(lives[seat])]
        elif reach == NEIGHBOURS:
            assert change is not None
            lives[seat] = change(lives[seat])
            for nb in neighbors(s, seat):
                lives[nb] += rule.others
        elif reach == AGAINST_KOSTIC:
            lives[seat] -= DUEL_LOSS_FIRST_BETTOR
            lives[kostic] -= rule.stake - DUEL_LOSS_FIRST_BETTOR
        else:  # P picks a neighbour: a gift to the first, a theft or a swap from the richest
            nbs = neighbors(s, seat)
            richest = max(nbs, key=lambda q: lives[q])
            if reach == SWAP and lives[richest] <= lives[seat]:
                continue
            _with_neighbour(lives, rule, seat, nbs[0] if rule.others > 0 else richest)
    eliminated = sum(1 for q in range(s.n) if s.lives[q] > 0 >= lives[q] and q != kostic)
    if eliminated and lives[kostic] > 0:  # R14: the eliminator's bonus
        lives[kostic] = min(6, lives[kostic] + eliminated)
    return [max(0.0, x) for x in lives]


def _with_neighbour(lives: list[float], rule: EffectRule, me: int, other: int) -> None:
    """P (`me`) and the neighbour he picked, after a gift, a theft (gains capped, R1) or a swap."""
    if rule.reach == SWAP:
        lives[me], lives[other] = lives[other], lives[me]
        return
    assert rule.change is not None
    lives[me], lives[other] = min(6, rule.change(lives[me])), min(6, lives[other] + rule.others)


def _neighbor_preview(s: GameState, command: Command) -> list[float]:
    pending = s.pending
    assert pending is not None and isinstance(command, ChooseNeighbor)
    lives: list[float] = list(s.lives)
    _with_neighbour(lives, EFFECTS[pending.effect.kind], pending.queue[0], command.neighbor)
    return lives


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
