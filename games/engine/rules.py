"""Pure rule helpers shared by decide, legal and the bots: seats, who an effect reaches, winners.
What each effect does is `effects.EFFECTS`; this module reads it."""

from __future__ import annotations

from .cards import GREEN, RED
from .effects import EFFECTS, is_low
from .state import GameState

# Read from the effect table once, as sets and tuples: the hot paths ask by kind.
TABLE_WIDE = frozenset(kind for kind, rule in EFFECTS.items() if rule.table_wide)  # R10
NOT_ON_KOSTIC = frozenset(kind for kind, rule in EFFECTS.items() if not rule.on_kostic)  # R3
# Whether an affected player meets the effect's condition, by kind and lives 0..6 (R9, R33).
MEETS = {kind: rule.meets for kind, rule in EFFECTS.items()}


def scopes_for(colour: str) -> tuple[str, ...]:
    """Section 2: red is all players, green exactly one, blue the Kostič's choice."""
    if colour == RED:
        return ("all",)
    if colour == GREEN:
        return ("one",)
    return ("one", "all")


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
    if kind in NOT_ON_KOSTIC:  # R33: a duel between the Kostič and each other player
        return order[1:]
    affected, meets = [], MEETS[kind]
    for seat in order:  # a loop: a comprehension is a call of its own in Python 3.11
        if meets[snapshot[seat]]:
            affected.append(seat)
    return affected


def table_wide_changes(kind: str, lives: list[int], alive: list[int]) -> list[list[int]]:
    """R10: LOWHP players get the LOWHP part; TOPHP players that are not LOWHP the TOPHP part."""
    rule = EFFECTS[kind]
    low, top_part = rule.low_after, rule.top_after
    assert low is not None and top_part is not None
    top = max(lives[seat] for seat in alive)
    changes = []
    for seat in alive:
        now = lives[seat]
        if is_low(now):
            new = low[now]
        elif now == top:
            new = top_part[now]
        else:
            continue
        if new != now:
            changes.append([seat, new])
    return changes


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
