"""Pure rule helpers shared by decide, legal and the bots: seats, conditions, winners."""

from __future__ import annotations

from .cards import (
    BLAST,
    DOUBLE_LOW,
    DUEL,
    EFFECTS,
    EVEN_DOWN,
    GIVE_NEIGHBOR,
    GREEN,
    HALVE_EVEN,
    LOW_2_TOP_5,
    LOW_UP_TOP_DOWN,
    ODD_UP,
    RED,
    STEAL_NEIGHBOR,
    SWAP_NEIGHBOR,
)
from .state import MAX_LIVES, GameState

TABLE_WIDE = frozenset({LOW_UP_TOP_DOWN, LOW_2_TOP_5})  # R10
NEEDS_NEIGHBOR_CHOICE = frozenset({GIVE_NEIGHBOR, STEAL_NEIGHBOR, SWAP_NEIGHBOR})  # R8
NEEDS_OTHER_PLAYER = frozenset({DUEL, GIVE_NEIGHBOR, STEAL_NEIGHBOR, SWAP_NEIGHBOR, BLAST})  # R12


def scopes_for(colour: str) -> tuple[str, ...]:
    """Section 2: red is all players, green exactly one, blue the Kostič's choice."""
    if colour == RED:
        return ("all",)
    if colour == GREEN:
        return ("one",)
    return ("one", "all")


def is_low(lives: int) -> bool:
    return 1 <= lives <= 3


def is_high(lives: int) -> bool:
    return lives >= 4


def meets_condition(kind: str, lives: int) -> bool:
    """R9/R33: the condition an affected player must meet, read on the snapshot (R6, R24)."""
    if kind == BLAST:
        return is_high(lives)
    if kind == HALVE_EVEN or kind == EVEN_DOWN:
        return lives % 2 == 0
    if kind == DOUBLE_LOW:
        return is_low(lives)
    if kind == ODD_UP:
        return lives % 2 == 1
    return True


# meets_condition by kind and lives 0..6, worked out once: resolution reads it per seat.
MEETS = {kind: tuple(meets_condition(kind, x) for x in range(MAX_LIVES + 1)) for kind in EFFECTS}

CONDITION_TEXT = {
    BLAST: "HIGHHP (4-6 lives)",
    HALVE_EVEN: "an even number of lives",
    EVEN_DOWN: "an even number of lives",
    DOUBLE_LOW: "LOWHP (1-3 lives)",
    ODD_UP: "an odd number of lives",
}


def left_of(s: GameState, seat: int) -> int:
    """The nearest player still in the game to the left (seat+1 mod n), seat itself if alone."""
    n, lives = s.n, s.lives
    for step in range(1, n):
        other = (seat + step) % n
        if lives[other] > 0:
            return other
    return seat


def right_of(s: GameState, seat: int) -> int:
    n, lives = s.n, s.lives
    for step in range(1, n):
        other = (seat - step) % n
        if lives[other] > 0:
            return other
    return seat


def neighbors(s: GameState, seat: int) -> tuple[int, ...]:
    """Left then right neighbor; one seat when only two players are in the game (R7)."""
    left, right = left_of(s, seat), right_of(s, seat)
    if left == seat:
        return ()
    return (left,) if left == right else (left, right)


def seat_order_from(s: GameState, start: int) -> list[int]:
    """Players in the game in seat order starting at `start` (R11)."""
    n, lives, order = s.n, s.lives, []
    for i in range(n):
        seat = (start + i) % n
        if lives[seat] > 0:
            order.append(seat)
    return order


def affected_order(
    s: GameState, kostic: int, kind: str, scope: str, target: int | None, snapshot: tuple[int, ...]
) -> list[int]:
    """Who the effect resolves for, in order. Table-wide effects resolve once, as the Kostič."""
    if kind in TABLE_WIDE:
        return [kostic]
    if scope == "one":
        return [target] if target is not None and MEETS[kind][snapshot[target]] else []
    order = seat_order_from(s, kostic)
    if kind == DUEL:  # R33: a duel between the Kostič and each other player
        return order[1:]
    affected, meets = [], MEETS[kind]
    for seat in order:  # a loop: a comprehension is a call of its own in Python 3.11
        if meets[snapshot[seat]]:
            affected.append(seat)
    return affected


def table_wide_changes(kind: str, lives: list[int], alive: list[int]) -> list[list[int]]:
    """R10: LOWHP players get the LOWHP part; TOPHP players that are not LOWHP the TOPHP part."""
    top = max(lives[seat] for seat in alive)
    changes = []
    for seat in alive:
        now = lives[seat]
        if is_low(now):
            new = min(MAX_LIVES, now + 1) if kind == LOW_UP_TOP_DOWN else 2
        elif now == top:
            new = now - 1 if kind == LOW_UP_TOP_DOWN else 5
        else:
            continue
        if new != now:
            changes.append([seat, new])
    return changes


def capped(lives: int) -> int:
    """R1: a gain above 6 is lost; below 1 is 0 (eliminated)."""
    return MAX_LIVES if lives > MAX_LIVES else (lives if lives > 0 else 0)


def ranking_key(s: GameState, seat: int) -> tuple[int, int]:
    """Winner order: most lives (eliminated count 0), then most cards in hand."""
    return (s.lives[seat], len(s.hands[seat]))


def winners(s: GameState) -> list[int]:
    """All seats that win; pairs compare each pair's best member (R20) and both members win."""
    if s.team(0) is None:
        best = max(ranking_key(s, seat) for seat in range(s.n))
        return [seat for seat in range(s.n) if ranking_key(s, seat) == best]
    team_best: dict[int, tuple[int, int]] = {}
    for seat in range(s.n):
        team = s.team(seat)
        team_best[team] = max(team_best.get(team, (-1, -1)), ranking_key(s, seat))  # type: ignore
    best = max(team_best.values())
    return [seat for seat in range(s.n) if team_best[s.team(seat)] == best]  # type: ignore[index]
