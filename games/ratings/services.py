"""Ratings: a projection of finished games into OpenSkill (Plackett-Luce) ratings.

Only games between humans count: unrigged, no bot seat when seated, every player with an
account here, played here (not imported: another installation's "anna" is not ours). Games are
rated in the order they ended — the game_ended event's `at`, then the game id — so
`rebuild_projections` gives the same numbers as the live path, which rates a game in the
transaction that appends its game_ended. Two games that end at once are serialized by one
lock; one whose `at` is older than a game already rated (its transaction committed later)
rewinds the later games and rates them again after it, as a rebuild would.

Each player has two ratings: "all" (every rated game) and one per variant (that variant's games
only). The order of finish (`ranks`): the winners first; then the others by lives, then cards
in hand (the winner rule, section 4), then — among the eliminated, who have neither — by when
they went out: later is better, out in the same turn is a tie. Pairs rate teams: a pair ranks by
its best member (R20), and both partners get the pair's result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Q
from openskill.models import PlackettLuce

from games.accounts.services import IMPORTER
from games.core.codec import state_from_json
from games.core.models import Game, GameEvent, GameProjection
from games.engine import events as ev
from games.engine.state import ENDED, GameState
from games.ratings.models import PlayerRating, RatedGame, RatingChange

MODEL = PlackettLuce()  # mu 25, sigma 25/3, ordinal = mu - 3 sigma: a newcomer's ordinal is 0
ALL = "all"  # the scope of the overall rating; the others are named by their variant
LOCK_KEY = 0x5E7A7E  # pg_advisory_xact_lock key: one rating writer at a time
UNRATED_ENDINGS = {"abandoned"}  # a game nobody played to its end says nothing of skill
STILL_IN = 10**9  # a player never eliminated went out "after" every elimination turn


@dataclass(frozen=True)
class Outcome:
    """A rated game's result: the players' user ids and their teams with ranks (0 = best)."""

    game_id: int
    variant: str
    ended_at: datetime
    teams: list[list[int]]  # user ids
    ranks: list[int]
    winners: set[int]  # user ids


def initial() -> tuple[float, float]:
    start = MODEL.rating()
    return start.mu, start.sigma


def ordinal(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def game_ended(game_id: int) -> None:
    """Rate a game that has just ended (its game_ended and projection are written), in the
    same transaction; rewinds the games that ended after it but were rated first."""
    _serialize()
    result = outcome(game_id)
    if result is None or RatedGame.objects.filter(game_id=game_id).exists():
        return
    later = list(
        RatedGame.objects.filter(
            Q(ended_at__gt=result.ended_at) | Q(ended_at=result.ended_at, game_id__gt=game_id)
        ).order_by("ended_at", "game_id")
    )
    if later:
        _unrate(later)
    _rate(result)
    for rated in later:
        again = outcome(rated.game_id)
        assert again is not None  # it was rated once; the events have not changed
        _rate(again)


def rebuild() -> int:
    """Drop every rating and rate every finished game again in the order games ended.
    Returns how many games were rated."""
    _serialize()
    RatedGame.objects.all().delete()  # cascades to RatingChange
    PlayerRating.objects.all().delete()
    ended = GameEvent.objects.filter(type=ev.GAME_ENDED).order_by("at", "game_id")
    count = 0
    for game_id in ended.values_list("game_id", flat=True):
        result = outcome(game_id)
        if result is not None:
            _rate(result)
            count += 1
    return count


def outcome(game_id: int) -> Outcome | None:
    """The game's result for the ratings, or None when it does not count (see the module)."""
    game = Game.objects.select_related("created_by").get(pk=game_id)
    proj = GameProjection.objects.filter(game_id=game_id).first()
    if proj is None or proj.status != ENDED or game.created_by.username == IMPORTER:
        return None
    rows = GameEvent.objects.filter(game_id=game_id, type__in=RELEVANT).order_by("seq")
    facts = _facts(list(rows.values_list("type", "data", "at")))
    if facts is None:
        return None
    out_turn, ended_at = facts
    state = state_from_json(proj.state)
    ids = list(proj.player_ids or ())  # by id, never by name: no account is a bot (issue 32)
    if len(ids) != state.n or any(pk is None for pk in ids):
        return None  # a bot, or a player without an account here (an imported game's, say)
    return _order_of_finish(game_id, state, out_turn, ended_at, ids)


RELEVANT = tuple(t for t, kind in ev.KINDS.items() if kind.rated)  # the events read below


def _facts(rows: list[tuple[str, dict, datetime]]) -> tuple[dict[int, int], datetime] | None:
    """(the turn each eliminated seat went out in, the game_ended's `at`), or None for a rigged
    game, one with a bot seat or an abandoned one. A seat counts as the bot's only if the bot
    took it when seated: a human the bot replaced later is still rated as himself."""
    out_turn: dict[int, int] = {}
    turn, ended_at = 0, None
    for type_, data, at in rows:
        if type_ == ev.GAME_CREATED and data.get("rig") is not None:
            return None
        if type_ == ev.FORKED:  # a fork is played on from another game: unrated (issue 30)
            return None
        if type_ == ev.SEAT_TAKEN and data.get("bot"):
            return None
        if type_ == ev.TURN_STARTED:
            turn = data["turn"]
        elif type_ == ev.PLAYER_ELIMINATED:
            out_turn[data["seat"]] = turn
        elif type_ == ev.GAME_ENDED:
            if data.get("reason") in UNRATED_ENDINGS:
                return None
            ended_at = at
    return (out_turn, ended_at) if ended_at is not None else None


def _order_of_finish(game_id: int, state: GameState, out_turn: dict[int, int],
                     ended_at: datetime, users: list[int]) -> Outcome:  # fmt: skip
    """Teams (one seat each, or the two partners) and their ranks: winners 0, then the
    others by their best member's (lives, cards, turn out), equal keys sharing a rank. A
    player who left the game (`seat_left`) finishes last, however long the bot kept his seat
    alive (the bot's play is not his)."""
    winners = set(state.winners or [])
    groups: dict[int, list[int]] = {}
    for seat in range(state.n):
        team = state.team(seat)
        groups.setdefault(seat if team is None else team, []).append(seat)
    seats = list(groups.values())

    def key(team: list[int]) -> tuple[int, int, int]:
        return max((-1, -1, -1) if state.left[s] else
                   (state.lives[s], len(state.hands[s]), out_turn.get(s, STILL_IN))
                   for s in team)  # fmt: skip

    losing_keys = sorted({key(t) for t in seats if not winners & set(t)}, reverse=True)
    ranks = [0 if winners & set(t) else 1 + losing_keys.index(key(t)) for t in seats]
    return Outcome(
        game_id=game_id, variant=state.variant, ended_at=ended_at,
        teams=[[users[s] for s in team] for team in seats], ranks=ranks,
        winners={users[s] for s in winners},
    )  # fmt: skip


def _rate(result: Outcome) -> None:
    """One game: both scopes move, a RatingChange per player, the current ratings follow."""
    rated = RatedGame.objects.create(game_id=result.game_id, variant=result.variant,
                                     ended_at=result.ended_at)  # fmt: skip
    overall = _rate_scope(result, ALL)
    in_variant = _rate_scope(result, result.variant)
    RatingChange.objects.bulk_create(
        RatingChange(rated=rated, user_id=user, won=user in result.winners,
                     mu=overall[user][0], sigma=overall[user][1],
                     variant_mu=in_variant[user][0], variant_sigma=in_variant[user][1])
        for user in overall
    )  # fmt: skip


def _rate_scope(result: Outcome, scope: str) -> dict[int, tuple[float, float]]:
    users = [user for team in result.teams for user in team]
    rows = {r.user_id: r for r in PlayerRating.objects.filter(scope=scope, user_id__in=users)}
    before = {u: (rows[u].mu, rows[u].sigma) if u in rows else initial() for u in users}
    teams = [[MODEL.rating(mu=before[u][0], sigma=before[u][1]) for u in t] for t in result.teams]
    rated = MODEL.rate(teams, ranks=list(result.ranks))
    after = {
        u: (r.mu, r.sigma)
        for t, new in zip(result.teams, rated, strict=True)
        for u, r in zip(t, new, strict=True)
    }
    for user, (mu, sigma) in after.items():
        row = rows.get(user) or PlayerRating(user_id=user, scope=scope, games=0, wins=0)
        row.mu, row.sigma, row.ordinal = mu, sigma, ordinal(mu, sigma)
        row.games += 1
        row.wins += user in result.winners
        row.save()
    return after


def _unrate(later: list[RatedGame]) -> None:
    """Take back the games in `later`: their changes go, and their players' current ratings
    become the latest change left in each scope (or none)."""
    users = set(RatingChange.objects.filter(rated__in=later).values_list("user_id", flat=True))
    RatedGame.objects.filter(pk__in=[r.pk for r in later]).delete()
    PlayerRating.objects.filter(user_id__in=users).delete()
    changes = (RatingChange.objects.filter(user_id__in=users).select_related("rated")
               .order_by("rated__ended_at", "rated__game_id"))  # fmt: skip
    current: dict[tuple[int, str], PlayerRating] = {}
    for change in changes:
        for scope, mu, sigma in (
            (ALL, change.mu, change.sigma),
            (change.rated.variant, change.variant_mu, change.variant_sigma),
        ):
            row = current.setdefault((change.user_id, scope),
                                     PlayerRating(user_id=change.user_id, scope=scope, games=0,
                                                  wins=0))  # fmt: skip
            row.mu, row.sigma, row.ordinal = mu, sigma, ordinal(mu, sigma)
            row.games += 1
            row.wins += change.won
    PlayerRating.objects.bulk_create(current.values())


def _serialize() -> None:
    """One rating writer at a time, until its transaction ends (PostgreSQL; SQLite has one
    writer anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
