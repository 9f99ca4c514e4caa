"""What the lobby and "my games" pages list, read from the game projections.

Only a few keys of each stored state are read (not the whole state with its card catalogue),
so a list of fifty games stays one small query. Nothing here is secret: names, lives, options,
whose decision it is and until when are all in every spectator's view. In a block window every
seat asked is shown as awaited, as in the public view: who has passed stays hidden (R19).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db.models import F, Q
from django.db.models.fields.json import KeyTransform

from games.core import sealed_passes
from games.core.models import GameProjection
from games.engine.names import seat_name
from games.table.models import PlayerSeat

PAGE = 50  # games per lobby section
STATE_KEYS = ("options", "names", "bots", "lives", "awaiting", "kostic", "phase", "turn")


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str | None
    bot: bool
    lives: int
    awaited: bool  # as the public view shows it (R19)

    @property
    def shown(self) -> str | None:
        """The name every page shows: "bot#2" for a bot (games.engine.names), None if free."""
        return seat_name(self.name, bot=self.bot, seat=self.seat)


@dataclass(frozen=True)
class GameRow:
    id: int
    variant: str
    status: str
    seq: int
    creator: str
    seats: list[Seat]
    options: dict[str, Any]
    kostic: int | None
    phase: str | None
    turn: int
    winners: list[int]
    acting: frozenset[int]  # seats that still owe a decision (private: my_games drops the
    # user's own sealed pass, R19)
    deadline: datetime | None
    updated_at: datetime

    @property
    def delay(self) -> int:
        """Events spectators stay behind (games.table.spectating); an older game: 0."""
        return self.options.get("spectator_delay", 0)

    @property
    def delayed(self) -> bool:
        """A running game whose spectators are shown the past: the lobby shows no play of it."""
        return self.status == "active" and self.delay > 0

    @property
    def taken(self) -> int:
        return sum(1 for s in self.seats if s.name is not None)

    @property
    def free(self) -> int:
        return len(self.seats) - self.taken

    @property
    def bots(self) -> int:
        return sum(1 for s in self.seats if s.bot)

    @property
    def awaited(self) -> list[Seat]:
        return [s for s in self.seats if s.awaited]

    @property
    def kostic_name(self) -> str | None:
        return self.seats[self.kostic].shown if self.kostic is not None else None

    @property
    def winner_names(self) -> list[str]:
        return [self.seats[w].shown or "?" for w in self.winners]

    def seat_of(self, username: str) -> int | None:
        """The user's seat (a bot seat never counts: the bot's name is reserved)."""
        return next((s.seat for s in self.seats if s.name == username and not s.bot), None)

    def waits_for(self, username: str) -> bool:
        seat = self.seat_of(username)
        return self.status == "active" and seat is not None and seat in self.acting


def _rows(query) -> list[GameRow]:
    keys = {f"s_{key}": KeyTransform(key, "state") for key in STATE_KEYS}
    keys["s_asked"] = KeyTransform("asked", KeyTransform("pending", "state"))
    values = query.annotate(creator=F("game__created_by__username"), **keys).values(
        "game_id", "variant", "status", "seq", "winners", "deadline_at", "updated_at",
        "creator", *keys,
    )  # fmt: skip
    return [_row(v) for v in values]


def _row(v: dict[str, Any]) -> GameRow:
    names, bots, lives = v["s_names"], v["s_bots"], v["s_lives"]
    acting = frozenset(v["s_awaiting"] or [])
    shown = set(v["s_asked"] or []) if v["s_phase"] == "block" else acting
    seats = [
        Seat(i, names[i], bool(bots[i]), lives[i] if i < len(lives) else 0, i in shown)
        for i in range(len(names))
    ]
    return GameRow(
        id=v["game_id"], variant=v["variant"], status=v["status"], seq=v["seq"],
        creator=v["creator"], seats=seats, options=v["s_options"] or {}, kostic=v["s_kostic"],
        phase=v["s_phase"], turn=v["s_turn"] or 0, winners=v["winners"] or [],
        acting=acting, deadline=v["deadline_at"], updated_at=v["updated_at"],
    )  # fmt: skip


def open_games() -> list[GameRow]:
    """Games waiting for players, newest first."""
    return _rows(GameProjection.objects.filter(status="lobby").order_by("-game_id")[:PAGE])


def running_games() -> list[GameRow]:
    """Games being played, the most recently moved first. The lobby is public: of a game with
    a spectator delay it shows only who plays and how (no lives, turn or whose move it is:
    its spectators see those `delay` events late, games.table.spectating)."""
    query = GameProjection.objects.filter(status="active").order_by("-updated_at", "-game_id")
    return [_without_play(g) if g.delayed else g for g in _rows(query[:PAGE])]


def _without_play(game: GameRow) -> GameRow:
    seats = [replace(s, awaited=False, lives=0) for s in game.seats]
    return replace(game, seats=seats, kostic=None, phase=None, turn=0, acting=frozenset(),
                   deadline=None)  # fmt: skip


def finished_games(*, player: str = "", variant: str = "") -> list[GameRow]:
    """Ended games, the most recently ended first, optionally with `player` seated and of
    `variant`."""
    query = GameProjection.objects.filter(status="ended")
    if variant:
        query = query.filter(variant=variant)
    if player:
        seated = PlayerSeat.objects.filter(user__username__iexact=player).values("game_id")
        query = query.filter(game_id__in=seated)
    return _rows(query.order_by("-updated_at", "-game_id")[:PAGE])


def my_games(user) -> tuple[list[GameRow], list[GameRow]]:
    """(games in play or waiting for players, the latest finished ones) that `user` sits in.
    The first list: games waiting for the user first (soonest deadline first), then the other
    running games by deadline, then those still in the lobby."""
    seated = PlayerSeat.objects.filter(user=user).values("game_id")
    mine = GameProjection.objects.filter(game_id__in=seated)
    current = _without_my_sealed_passes(
        _rows(mine.filter(~Q(status="ended")).order_by("-game_id")), user.username
    )
    finished = _rows(mine.filter(status="ended").order_by("-updated_at", "-game_id")[:PAGE])
    current.sort(key=lambda g: _my_order(g, user.username))
    return current, finished


def _without_my_sealed_passes(games: list[GameRow], username: str) -> list[GameRow]:
    """A block window no longer waits for a player who passed; only he may know it (R19)."""
    windows = {g.id: g.seq for g in games if g.phase == "block"}
    passed = sealed_passes.sealed_seats(windows) if windows else {}
    out = []
    for game in games:
        seat = game.seat_of(username)
        if seat is not None and seat in passed.get(game.id, ()):
            game = replace(game, acting=game.acting - {seat})
        out.append(game)
    return out


def _my_order(game: GameRow, username: str) -> tuple:
    far = datetime.max.replace(tzinfo=game.updated_at.tzinfo)
    group = 0 if game.waits_for(username) else 1 if game.status == "active" else 2
    return (group, game.deadline or far, -game.id)
