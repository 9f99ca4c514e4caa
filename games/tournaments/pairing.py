"""Seating a round: a pure function of (players in order, their points, who sat with whom) →
tables. No Django, no clock, no randomness: the service records what it returns in the
tournament's log (`round_paired`), so a rebuild never pairs again.

Why not a library: the Swiss engines in the package lists (bbpPairings' kind, `swisspair`…)
pair two players per board under FIDE's rules; our tables hold 2–6 players, and a table of k
players makes k·(k−1)/2 pairs, so a matching formulation no longer fits. CP-SAT could seat
them exactly, but 1,000 players at tables of 4 is a model of ~250,000 booleans per round,
and proving the optimum is not worth the seconds: the greedy below, then a swap search, meets
the 2 s budget for 1,000 players by a wide margin (bench/tournament_pairing.py) and gives the
property we test (tests/tournaments/test_pairing.py):

1. sizes: `table_sizes(n, lo, hi)` — the fewest tables whose sizes all lie in [lo, hi], as
   even as possible (7 at 3–4 → 4 + 3); when no such split exists, as many players as can
   be seated are seated, and the rest (the lowest in order) get a bye;
2. greedy: the best player left opens each table; the seats are filled from the next players
   in order, skipping one who already sat with someone at the table when a fresh one is
   near (a window of 3·size players), so tables stay within one score group where they can;
3. swaps: any swap of two players between two tables that lowers the number of repeated
   pairs (then the spread of points at the tables) is made, until none does.

"Repeats minimal" means, and is tested as: no swap of two players between tables lowers the
number of repeated pairs (a local optimum), never more repeats than cutting the order into
tables, and none at all in a first round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

WINDOW = 3  # the greedy looks this many tables' worth of players ahead for a fresh one


@dataclass(frozen=True)
class Pairing:
    tables: list[list[str]]  # each table's players, the best (by order) first
    byes: list[str]


def table_sizes(n: int, lo: int, hi: int) -> list[int]:
    """The sizes of the tables for `n` players, each in [lo, hi]: the fewest tables, as even
    as possible, larger first. When no split seats everyone, as many as fit are seated (the
    others get byes); [] when not even one table can be formed."""
    if n < lo:
        return []
    for t in range(-(-n // hi), n // lo + 1):
        if t * lo <= n <= t * hi:
            base, extra = divmod(n, t)
            return [base + 1] * extra + [base] * (t - extra)
    t = n // lo  # no exact split: n // lo tables, as full as they may be
    seated = min(n, t * hi)
    return table_sizes(seated, lo, hi) if seated < n else [hi] * t


def met_counts(history: Iterable[Sequence[str]]) -> dict[str, dict[str, int]]:
    """Who sat with whom how often, from the tables of past rounds."""
    met: dict[str, dict[str, int]] = {}
    for table in history:
        for a, b in combinations(table, 2):
            for x, y in ((a, b), (b, a)):
                seen = met.setdefault(x, {})
                seen[y] = seen.get(y, 0) + 1
    return met


def repeats(tables: Iterable[Sequence[str]], met: Mapping[str, Mapping[str, int]]) -> int:
    """How many pairs at these tables have sat together before."""
    return sum(1 for t in tables for a, b in combinations(t, 2) if met.get(a, {}).get(b))


def pair(players: Sequence[str], points: Mapping[str, float],
         history: Iterable[Sequence[str]], lo: int, hi: int) -> Pairing:  # fmt: skip
    """Seat `players` (in the order of the standings, or of rating for a first round) at tables
    of `lo`..`hi` players. `points` orders nothing (the order does): it only keeps a swap from
    mixing score groups for nothing."""
    sizes = table_sizes(len(players), lo, hi)
    seated = sum(sizes)
    order, byes = list(players[:seated]), list(players[seated:])
    met = met_counts(history)
    tables = _greedy(order, sizes, met)
    _improve(tables, met, points)
    rank = {p: i for i, p in enumerate(players)}
    tables = [sorted(t, key=rank.__getitem__) for t in tables]
    tables.sort(key=lambda t: rank[t[0]])
    return Pairing(tables, byes)


def _greedy(
    order: list[str], sizes: list[int], met: Mapping[str, Mapping[str, int]]
) -> list[list[str]]:
    left = list(order)
    tables: list[list[str]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            window = left[: WINDOW * size]
            pick = next((i for i, p in enumerate(window) if not _clash(p, table, met)), 0)
            table.append(left.pop(pick))
        tables.append(table)
    return tables


def _clash(p: str, table: Sequence[str], met: Mapping[str, Mapping[str, int]]) -> int:
    seen = met.get(p)
    return sum(1 for q in table if seen and seen.get(q)) if seen else 0


def _spread(table: Sequence[str], points: Mapping[str, float]) -> float:
    values = [points.get(p, 0.0) for p in table]
    return max(values) - min(values)


def _improve(tables: list[list[str]], met: Mapping[str, Mapping[str, int]],
             points: Mapping[str, float]) -> None:  # fmt: skip
    """Swap two players of two tables while it lowers (repeats, spread); only players who
    sit with someone they met are moved (nothing else can lower the repeats)."""
    improved = True
    while improved:
        improved = False
        for i, table in enumerate(tables):
            for a in [p for p in table if _clash(p, [q for q in table if q != p], met)]:
                if _swap_away(tables, i, a, met, points):
                    improved = True


def _swap_away(tables: list[list[str]], i: int, a: str, met: Mapping[str, Mapping[str, int]],
               points: Mapping[str, float]) -> bool:  # fmt: skip
    here = tables[i]
    rest = [q for q in here if q != a]
    cost_a = _clash(a, rest, met)
    best: tuple[tuple[float, float], int, int] | None = None
    for j, other in enumerate(tables):
        if j == i:
            continue
        for k, b in enumerate(other):
            others = other[:k] + other[k + 1 :]
            before = cost_a + _clash(b, others, met)
            after = _clash(b, rest, met) + _clash(a, others, met)
            if after > before:
                continue
            spread = (_spread(rest + [b], points) + _spread(others + [a], points)
                      - _spread(here, points) - _spread(other, points))  # fmt: skip
            gain = (after - before, spread)
            if gain < (0, 0) and (best is None or gain < best[0]):
                best = (gain, j, k)
    if best is None or best[0][0] >= 0:  # only a swap that lowers the repeats is made
        return False
    _, j, k = best
    b = tables[j][k]
    tables[j][k] = a
    tables[i][here.index(a)] = b
    return True
