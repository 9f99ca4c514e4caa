"""Resolving a play that was not blocked: the engine's own steps in the `resolve` phase.

Each step returns the next events (a life change with its eliminations, a request for a
decision, a roll, or the end of the effect); an empty list never happens here.
"""

from __future__ import annotations

from . import rng
from .effects import AGAINST_KOSTIC, ALONE, EFFECTS, NEIGHBOURS, SWAP, TABLE, EffectRule, capped
from .events import (
    COIN_TOSSED,
    DIE_ROLLED,
    DUEL_STARTED,
    EFFECT_RESOLVED,
    LIVES_CHANGED,
    NEIGHBOR_REQUESTED,
    PLAYER_ELIMINATED,
    Event,
    event,
)
from .rules import neighbors, table_wide_changes
from .state import MAX_LIVES, GameState, Pending


def next_step(s: GameState, seed: bytes) -> list[Event]:
    pending = s.pending
    assert pending is not None
    if pending.duel is not None:
        return _duel_step(s, pending, seed)
    if not pending.queue:
        return [_finish(s, pending)]
    # pending.effect.kind, without the property's call (a step per affected seat)
    kind, target = pending.card.effects[pending.effect_index].kind, pending.queue[0]
    rule = EFFECTS[kind]
    reach = rule.reach
    if reach == TABLE:  # R10
        alive = [q for q in range(s.n) if s.lives[q] > 0]
        return _changes(s, pending, table_wide_changes(kind, s.lives, alive), [target])
    if reach == ALONE:  # effects on P alone cannot touch each other: resolve the batch (R11)
        own, batch, changes = rule.own, list(pending.queue), []
        assert own is not None
        for q in batch:  # a loop: a comprehension is a call of its own in Python 3.11
            changes.append([q, own[s.lives[q]]])
        return _changes(s, pending, changes, batch)
    if reach == NEIGHBOURS:  # R27: neighbors fixed before P's change; order P, left, right
        assert rule.own is not None
        changes = [[target, rule.own[s.lives[target]]]]
        changes += [[nb, capped(s.lives[nb] + rule.others)] for nb in neighbors(s, target)]
        return _changes(s, pending, changes, [target])
    if reach == AGAINST_KOSTIC:
        return [event(DUEL_STARTED, {"seats": [target, pending.seat]})]
    return _neighbor_step(s, pending, rule, target)


def _neighbor_step(s: GameState, pending: Pending, rule: EffectRule, target: int) -> list[Event]:
    options = neighbors(s, target)
    if pending.neighbor is None and len(options) > 1:  # R8: the affected player chooses
        return [event(NEIGHBOR_REQUESTED, {"seat": target, "options": list(options)})]
    other = pending.neighbor if pending.neighbor is not None else options[0]
    mine, theirs = s.lives[target], s.lives[other]
    if rule.reach == SWAP:
        changes = [[target, theirs], [other, mine]]
    else:  # the one who gives a life first (P for a gift, the neighbour for a theft)
        assert rule.own is not None
        p, neighbour = [target, rule.own[mine]], [other, capped(theirs + rule.others)]
        changes = [p, neighbour] if rule.others > 0 else [neighbour, p]
    return _changes(s, pending, changes, [target])


def _roll_value(s: GameState, seed: bytes) -> tuple[int, bool]:
    dice = (s.rig or {}).get("dice") or ()
    if s.rolls < len(dice):
        return dice[s.rolls], True
    return rng.roll(seed, s.rolls), False


def roll_event(s: GameState, seed: bytes, purpose: str, seat: int) -> dict:
    value, rigged = _roll_value(s, seed)
    return {"purpose": purpose, "seat": seat, "value": value, "n": s.rolls, "rigged": rigged}


def bet_hits(kind: str, value: str, roll: int) -> bool:
    if kind == "parity":
        return (roll % 2 == 0) == (value == "even")
    if kind == "size":
        return (roll <= 3) == (value == "small")
    return (roll % 2 == 1) == (value == "heads")  # a coin is a roll: odd = heads


def _duel_step(s: GameState, pending: Pending, seed: bytes) -> list[Event]:
    duel = pending.duel
    assert duel is not None
    if duel.loser is None:  # a bet was placed: roll the die (or toss the coin, R13)
        kind, value = duel.bet  # type: ignore[misc]
        data = roll_event(s, seed, "duel", duel.bettor)
        data["hit"] = bet_hits(kind, value, data["value"])
        if s.options.get("duel_coin"):
            data["side"] = "heads" if data["value"] % 2 else "tails"
            return [event(COIN_TOSSED, data)]
        return [event(DIE_ROLLED, data)]
    loser = duel.loser  # a bettor who misses loses the stake (2 lives) and the duel ends
    stake = EFFECTS[pending.card.effects[pending.effect_index].kind].stake
    return _changes(
        s, pending, [[loser, capped(s.lives[loser] - stake)]], [duel.affected], duel.other(loser)
    )


def _changes(
    s: GameState,
    pending: Pending,
    changes: list[list[int]],
    resolved: list[int],
    eliminator: int | None = None,
) -> list[Event]:
    """A life change and the eliminations it causes, in the order of `changes` (R27)."""
    out = [event(LIVES_CHANGED, {"changes": changes, "resolved": resolved})]
    by = pending.seat if eliminator is None else eliminator
    for seat, lives in changes:
        if lives == 0 and s.lives[seat] > 0:
            # R14: the Kostič, or the duel's other participant; nobody for self-elimination.
            out.append(event(PLAYER_ELIMINATED, {"seat": seat, "by": None if by == seat else by}))
    return out


def _finish(s: GameState, pending: Pending) -> Event:
    """R14/R28: the bonus, after the effect, to eliminators still in the game; R17/R29 end."""
    counts: dict[int, int] = {}
    for _, by in pending.eliminated:
        if by is not None and s.lives[by] > 0:
            counts[by] = counts.get(by, 0) + 1
    bonus = []
    for seat, k in sorted(counts.items()):  # mostly none: a loop costs no call then
        bonus.append([seat, min(MAX_LIVES, s.lives[seat] + k)])
    return event(EFFECT_RESOLVED, {"bonus": bonus, "game_over": s.alive_count() < 2})
