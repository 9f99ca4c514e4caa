"""The tournaments' writes (API.md, Tournaments): create, join, leave, start, and what follows
a game's end (games.tournaments.follower): its points, the next round, the end. Each write
holds the tournament's projection row lock (store.lock) and appends to its log in one
transaction: two players joining the last place queue there, and the second finds it full. A
refusal raises before anything is appended."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.core.errors import ApiError, not_found
from games.engine import IllegalCommand, new_game, new_seed
from games.engine.errors import Code
from games.notifications import services as notifications
from games.notifications.derive import TOURNAMENT_ENDED, TOURNAMENT_ROUND, TOURNAMENT_WITHDRAWN
from games.ratings.models import PlayerRating
from games.table import away
from games.table.commands import game_create_seated
from games.tournaments import fold as tf
from games.tournaments import formats, rules, store
from games.tournaments.models import Tournament, TournamentProjection


def tournament_create(*, user, body: Any) -> TournamentProjection:
    data = rules.settings_of(body)
    try:  # the game options as POST /api/games/ checks them
        new_game(seats=data["table_size"]["max"], seed=bytes(32), variant=data["variant"],
                 options=data["options"])  # fmt: skip
    except IllegalCommand as err:
        raise ApiError.from_engine(err) from None
    with transaction.atomic():
        tournament = Tournament.objects.create(organiser=user)
        return store.append(tournament, None, [(tf.CREATED, {**data, "organiser": user.username})])


def _locked(tournament_id: int) -> TournamentProjection:
    proj = store.lock(tournament_id)
    if proj is None:
        raise not_found("tournament")
    return proj


def _names(state: dict[str, Any]) -> list[str]:
    return [p["username"] for p in state["players"]]


def tournament_join(*, user, tournament_id: int) -> TournamentProjection:
    with transaction.atomic():
        proj = _locked(tournament_id)
        state = proj.state
        if state["status"] != tf.OPEN:
            raise ApiError(Code.INVALID, "the tournament is no longer open")
        if user.username in _names(state):
            raise ApiError(Code.INVALID, "you are in this tournament already")
        cap = state["max_players"]
        if cap is not None and len(state["players"]) >= cap:
            raise ApiError(Code.GAME_FULL, "the tournament is full")
        return store.append(proj.tournament, proj, [(tf.JOINED, {"username": user.username})])


def tournament_leave(*, user, tournament_id: int) -> TournamentProjection:
    """Open: he is gone. Running: withdrawn (never paired again; his running game goes to the
    bot, which plays his seat to the end)."""
    with transaction.atomic():
        proj = _locked(tournament_id)
        state = proj.state
        me = next((p for p in state["players"] if p["username"] == user.username), None)
        if me is None or me["withdrawn"]:
            raise ApiError(Code.INVALID, "you are not playing in this tournament")
        if state["status"] == tf.DONE:
            raise ApiError(Code.INVALID, "the tournament has ended")
        if state["status"] == tf.OPEN:
            return store.append(proj.tournament, proj, [(tf.LEFT, {"username": user.username})])
        proj = store.append(
            proj.tournament, proj, [(tf.WITHDRAWN, {"username": user.username, "reason": "left"})]
        )
        for game_id in _running_games(proj.state, user.username):
            try:
                away.game_leave(user=user, game_id=game_id)
            except ApiError:  # the game ended meanwhile: its score stands
                pass
        return proj


def _running_games(state: dict[str, Any], name: str) -> list[int]:
    if not state["rounds"] or state["rounds"][-1]["status"] != tf.RUNNING:
        return []
    return [t["game"] for t in state["rounds"][-1]["tables"]
            if t["points"] is None and name in t["players"]]  # fmt: skip


def tournament_start(*, user, tournament_id: int) -> TournamentProjection:
    with transaction.atomic():
        proj = _locked(tournament_id)
        state = proj.state
        if state["organiser"] != user.username:
            raise ApiError(Code.FORBIDDEN, "only the organiser starts the tournament")
        if state["status"] != tf.OPEN:
            raise ApiError(Code.INVALID, "the tournament has started already")
        if len(state["players"]) < state["table_size"]["min"]:
            raise ApiError(Code.INVALID, f"too few players: at least "
                                         f"{state['table_size']['min']} for one table")  # fmt: skip
        order = _by_rating(_names(state))
        proj = store.append(proj.tournament, proj, [(tf.STARTED, {"order": order})])
        return _pair_round(proj, order)


def _by_rating(names: list[str]) -> list[str]:
    """A first round's order: the players' overall rating (ordinal), best first; unrated
    players after, in the order they joined."""
    User = get_user_model()
    ids = dict(User.objects.filter(username__in=names).values_list("pk", "username"))
    rated = dict(PlayerRating.objects.filter(user_id__in=ids, scope="all")
                 .values_list("user_id", "ordinal"))  # fmt: skip
    ordinal = {ids[uid]: value for uid, value in rated.items()}
    position = {n: i for i, n in enumerate(names)}
    return sorted(names, key=lambda n: (n not in ordinal, -ordinal.get(n, 0.0), position[n]))


def _pair_round(proj: TournamentProjection, order: list[str]) -> TournamentProjection:
    """Pair the next round among `order` (best first), create and start its games, and log
    it; after COMMIT each player of a table is told (tournament_round)."""
    state = proj.state
    number = len(state["rounds"]) + 1
    pairing = formats.pair_next(state, order)
    seeds: dict[int, bytes] = {}
    tables, name = [], state["name"]
    organiser = get_user_model().objects.get(username=state["organiser"])
    for players in pairing.tables:
        size = len(players)
        seed = seeds.setdefault(size, new_seed()) if state["duplicate_deals"] else new_seed()
        deal = (hashlib.sha256(seed).hexdigest()[:32] + f":{proj.tournament_id}"
                if state["duplicate_deals"] else None)  # fmt: skip
        done = game_create_seated(
            user=organiser,
            players=players,
            seed=seed,
            variant=state["variant"],
            options=state["options"],
            tournament=(proj.tournament_id, name, number),
            deal=deal,
        )
        tables.append({"game": done.game_id, "players": players})
    proj = store.append(proj.tournament, proj, [(tf.ROUND_PAIRED, {
        "round": number, "tables": tables, "byes": pairing.byes,
        "bye_points": tf.BYE_POINTS if pairing.byes else None})])  # fmt: skip
    _tell_round(tables, number)
    return proj


def _tell_round(tables: list[dict[str, Any]], number: int) -> None:
    """tournament_round to each player of each table: `game` its game, `seq` the round
    (games.notifications.kinds)."""
    ids = _user_ids([n for t in tables for n in t["players"]])
    for table in tables:
        for name in table["players"]:
            notifications.notification_tell(user_id=ids[name], kind=TOURNAMENT_ROUND,
                                             game_id=table["game"], seq=number)  # fmt: skip


def _user_ids(names: list[str]) -> dict[str, int]:
    User = get_user_model()
    return dict(User.objects.filter(username__in=names).values_list("username", "pk"))


def game_ended(*, tournament_id: int, game_id: int, points: list[float],
               absent: list[str]) -> bool:  # fmt: skip
    """A tournament game ended (the follower, in its transaction): its points are logged once
    (`game_scored`; a table already scored is skipped), its players who timed out every
    decision are withdrawn, and when it was its round's last game the round ends and the next
    is paired, or the tournament ends. False when it was scored already."""
    proj = _locked(tournament_id)
    state = proj.state
    round_, table = _table_of(state, game_id)
    if round_ is None or table["points"] is not None:
        return False
    events: list[tuple[str, dict[str, Any]]] = [
        (tf.GAME_SCORED, {"round": round_["number"], "game": game_id, "points": points})
    ]
    withdrawn = {p["username"] for p in state["players"] if p["withdrawn"]}
    absent = [n for n in absent if n not in withdrawn]
    events += [(tf.WITHDRAWN, {"username": n, "reason": "timed_out", "game": game_id})
               for n in absent]  # fmt: skip
    proj = store.append(proj.tournament, proj, events)
    for user_id in _user_ids(absent).values():  # told why he is paired no more
        notifications.notification_tell(user_id=user_id, kind=TOURNAMENT_WITHDRAWN,
                                        game_id=game_id, seq=0)  # fmt: skip
    if any(t["points"] is None for t in proj.state["rounds"][-1]["tables"]):
        return True
    proj = store.append(proj.tournament, proj, [(tf.ROUND_ENDED, {"round": round_["number"]})])
    order = formats.next_field(proj.state)
    if order is None:
        proj = store.append(proj.tournament, proj, [(tf.ENDED, {
            "standings": tf.standings(proj.state)})])  # fmt: skip
        _tell_ended(proj.state)
    else:
        _pair_round(proj, order)
    return True


def _table_of(state: dict[str, Any], game_id: int) -> tuple[Any, Any]:
    for round_ in state["rounds"]:
        for table in round_["tables"]:
            if table["game"] == game_id:
                return round_, table
    return None, None


def _tell_ended(state: dict[str, Any]) -> None:
    """tournament_ended to every player, about his last table's game."""
    last: dict[str, int] = {}
    for round_ in state["rounds"]:
        for table in round_["tables"]:
            for name in table["players"]:
                last[name] = table["game"]
    ids = _user_ids(list(last))
    for name, game_id in last.items():
        notifications.notification_tell(user_id=ids[name], kind=TOURNAMENT_ENDED,
                                         game_id=game_id, seq=0)  # fmt: skip
