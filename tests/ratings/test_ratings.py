"""Ratings and profiles (issue 10, API.md "Players"): OpenSkill ratings as a projection of
finished, unrigged games between humans, in the order games ended; `rebuild_projections` gives
the same numbers as the live path. End to end through the API on a real database."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games.clock import tasks
from games.ratings import services as ratings
from games.ratings.models import PlayerRating, RatedGame, RatingChange
from tests.support.api import Table, assert_error, play_to_end
from tests.support.players import register

INITIAL = {"mu": 25.0, "sigma": 25 / 3, "ordinal": 0.0}


def seat(clients: list[APIClient], variant: str = "standard", **extra) -> Table:
    """A game of these players (seat i = clients[i]); the last join starts it."""
    body = {"seats": len(clients), "variant": variant, **extra}
    created = clients[0].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    table = Table(created.json()["id"], clients)
    for i, client in enumerate(clients):
        assert client.post(table.url("join/"), {"seat": i}, format="json").status_code == 200
    return table


def everything(names: list[str]) -> dict:
    """What the API tells about ratings: every profile and every leaderboard."""
    anyone = APIClient()
    return {
        "players": {n: anyone.get(f"/api/players/{n}/").json() for n in names},
        "boards": {v: anyone.get(f"/api/leaderboard/{q}").json()
                   for v, q in [("all", ""), ("standard", "?variant=standard"),
                                ("pairs", "?variant=pairs"),
                                ("pairs_extreme", "?variant=pairs_extreme")]},
    }  # fmt: skip


def rating_rows() -> list[tuple]:
    return sorted(PlayerRating.objects.values_list("user_id", "scope", "mu", "sigma", "ordinal",
                                                   "games", "wins"))  # fmt: skip


@pytest.fixture
def league(make_player) -> list[APIClient]:
    return [make_player() for _ in range(5)]


def play_league(league: list[APIClient], rnd: random.Random) -> list[dict]:
    """Five games of every variant among five players; returns each game's final view."""
    a, b, c, d, e = league
    games = [seat([a, b]), seat([c, a, e]), seat([a, b, c, d], "pairs"),
             seat([d, e, b, a], "pairs_extreme"), seat([e, d, c, b, a])]  # fmt: skip
    return [play_to_end(table, rnd) for table in games]


@pytest.mark.django_db(transaction=True)
def test_finished_human_games_are_rated_and_a_rebuild_gives_the_same_numbers(league):
    ended = play_league(league, random.Random(10))
    names = [p.username for p in league]
    live = everything(names)
    rows = rating_rows()

    assert RatedGame.objects.count() == 5
    seated = [[p["username"] for p in view["players"]] for view in ended]
    played = {n: sum(n in seats for seats in seated) for n in names}
    results = list(zip(seated, ended, strict=True))
    won = {n: sum(seats.index(n) in view["winners"] for seats, view in results if n in seats)
           for n in names}  # fmt: skip
    for name, profile in live["players"].items():
        assert (profile["games"], profile["wins"]) == (played[name], won[name])
        assert len(profile["history"]) == played[name]
        assert profile["history"][-1]["ordinal"] == profile["rating"]["ordinal"]
        rating = profile["rating"]
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
        assert rating["sigma"] < INITIAL["sigma"]  # every game taught us something
        by_variant = profile["by_variant"]
        assert set(by_variant) == {"standard", "pairs", "pairs_extreme"}
        assert sum(v["games"] for v in by_variant.values()) == played[name]
        assert sum(v["wins"] for v in by_variant.values()) == won[name]
    assert [row["games"] for row in live["boards"]["pairs"]] == [1, 1, 1, 1]

    call_command("rebuild_projections")
    assert rating_rows() == rows  # exactly: the same floats
    assert everything(names) == live


@pytest.mark.django_db(transaction=True)
def test_a_game_rated_after_one_that_ended_later_rewinds_it_to_the_order_games_ended(league):
    """Two transactions that end games at once may commit in the other order: the game that
    ended first is rated first all the same, so the numbers equal a rebuild's."""
    play_league(league, random.Random(11))
    live = rating_rows()
    order = list(
        RatedGame.objects.order_by("ended_at", "game_id").values_list("game_id", flat=True)
    )
    RatedGame.objects.all().delete()
    PlayerRating.objects.all().delete()
    for game_id in [order[3], order[0], order[4], order[2], order[1]]:
        ratings.game_ended(game_id)
    assert rating_rows() == live
    assert RatingChange.objects.count() == 2 + 3 + 4 + 4 + 5


@pytest.mark.django_db(transaction=True)
def test_the_leaderboard_is_best_first_and_per_variant_ranks_that_variants_rating(league):
    play_league(league, random.Random(12))
    anyone = APIClient()
    board = anyone.get("/api/leaderboard/").json()
    assert [set(row) for row in board] == [{"username", "ordinal", "games"}] * 5
    assert [row["ordinal"] for row in board] == sorted((r["ordinal"] for r in board),
                                                       reverse=True)  # fmt: skip
    for row in board:
        profile = anyone.get(f"/api/players/{row['username']}/").json()
        assert (row["ordinal"], row["games"]) == (profile["rating"]["ordinal"], profile["games"])
    pairs = anyone.get("/api/leaderboard/?variant=pairs").json()
    assert {row["username"] for row in pairs} == {p.username for p in league[:4]}
    for row in pairs:
        profile = anyone.get(f"/api/players/{row['username']}/").json()
        assert row["ordinal"] == profile["by_variant"]["pairs"]["rating"]["ordinal"]
        assert row["games"] == profile["by_variant"]["pairs"]["games"] == 1


@pytest.mark.django_db(transaction=True)
def test_rigged_games_and_games_with_a_bot_seat_are_not_rated(make_player, settings):
    settings.SEJMI_ALLOW_RIGGED = True
    alice, bob = make_player(), make_player()
    play_to_end(seat([alice, bob], rig={"first": 0, "lives": [1, 1]}), random.Random(1))
    against_bot = alice.post("/api/games/", {"seats": 2, "options": {"bots": [1]}},
                             format="json").json()["id"]  # fmt: skip
    alice.post(f"/api/games/{against_bot}/join/", {}, format="json")
    for _ in range(2000):
        while tasks.sweep():  # the bot moves through the sweeper (no worker here)
            pass
        view = alice.get(f"/api/games/{against_bot}/").json()
        if view["status"] == "ended":
            break
        if view["legal"]:
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            alice.post(f"/api/games/{against_bot}/commands/", body, format="json")
    assert view["status"] == "ended"

    assert not RatedGame.objects.exists() and not PlayerRating.objects.exists()
    for client in (alice, bob):
        profile = APIClient().get(f"/api/players/{client.username}/").json()
        assert profile["rating"] == INITIAL and profile["games"] == 0 and profile["history"] == []
    assert APIClient().get("/api/leaderboard/").json() == []
    call_command("rebuild_projections")
    assert not RatedGame.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_new_player_has_the_initial_rating_in_the_api_shape(player):
    profile = APIClient().get(f"/api/players/{player.username}/").json()
    nothing = {"rating": INITIAL, "games": 0, "wins": 0}
    assert profile == {"username": player.username, **nothing, "history": [],
                       "by_variant": {v: nothing for v in ("standard", "pairs",
                                                           "pairs_extreme")}}  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_an_unknown_player_is_404_and_a_bad_variant_400(player):
    assert_error(APIClient().get("/api/players/nobody-here/"), 404, "not_found")
    assert_error(APIClient().get("/api/players/bot/"), 404, "not_found")
    assert_error(APIClient().get("/api/leaderboard/?variant=chess"), 400, "invalid")
    assert_error(APIClient().get("/api/players/a%00b/"), 404, "not_found")  # no NUL in SQL
    assert_error(APIClient().get(f"/api/players/{'x' * 5000}/"), 404, "not_found")


@pytest.mark.django_db(transaction=True)
def test_the_schema_describes_the_player_and_the_leaderboard():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    player = schema["paths"]["/api/players/{username}/"]["get"]["responses"]
    assert set(player) == {"200", "404"}
    shape = schema["components"]["schemas"]["PlayerProfile"]["properties"]
    assert set(shape) == {"username", "rating", "games", "wins", "by_variant", "history"}
    board = schema["paths"]["/api/leaderboard/"]["get"]
    assert set(board["responses"]) == {"200", "400"}
    variant = next(p for p in board["parameters"] if p["name"] == "variant")
    assert sorted(variant["schema"]["enum"]) == ["pairs", "pairs_extreme", "standard"]


@pytest.mark.django_db(transaction=True)
def test_the_importers_name_is_reserved():
    """Imported games belong to the user "importer" and are not rated: nobody may take it."""
    answer = APIClient().post("/api/auth/register/",
                              {"username": "Importer", "password": "s3cret-pass-1"},
                              format="json")  # fmt: skip
    assert_error(answer, 409, "username_taken")
    register(name="importer2")  # only the exact name


# The order of finish (no database: the ranks a game's end gives)


def ended(lives, hands, winners, variant="standard", left=None):
    teams = {"pairs": lambda s: s % 2, "pairs_extreme": lambda s: s // 2}
    return SimpleNamespace(n=len(lives), lives=lives, hands=[["C01"] * h for h in hands],
                           winners=winners, variant=variant, left=left or [False] * len(lives),
                           team=teams.get(variant, lambda s: None))  # fmt: skip


def ranks(state, out_turn):
    users = list(range(100, 100 + state.n))
    result = ratings._order_of_finish(1, state, out_turn, timezone.now(), users)
    return result.teams, result.ranks


def test_losers_rank_by_lives_then_cards_and_the_eliminated_by_when_they_went_out():
    """Section 4's winner rule goes on down the table; of the eliminated (no lives, no
    cards: R15), who went out later did better, and out in the same turn is a tie."""
    state = ended([3, 2, 0, 0, 0, 2], [1, 1, 0, 0, 0, 3], [0])
    teams, order = ranks(state, {2: 5, 3: 7, 4: 5})
    assert teams == [[100], [101], [102], [103], [104], [105]]
    assert order == [0, 2, 4, 3, 4, 1]


def test_a_player_who_left_finishes_last_however_long_the_bot_kept_his_seat():
    """Issue 10: seat 1 left; the bot kept it at 5 lives, but the leaver lost the game."""
    state = ended([3, 5, 0], [1, 2, 0], [0], left=[False, True, False])
    assert ranks(state, {2: 4})[1] == [0, 2, 1]


def test_tied_winners_share_the_first_rank():
    state = ended([4, 4, 1], [2, 2, 0], [0, 1])
    assert ranks(state, {})[1] == [0, 0, 1]


@pytest.mark.parametrize(
    ("variant", "teams"),
    [("pairs", [[100, 102], [101, 103]]), ("pairs_extreme", [[100, 101], [102, 103]])],
)
def test_pairs_rate_the_two_partners_as_a_team(variant, teams):
    """R20: a pair is as good as its best member; both partners share the result."""
    state = ended([0, 3, 0, 1], [0, 2, 0, 1], [1, 3] if variant == "pairs" else [2, 3], variant)
    assert ranks(state, {0: 2, 2: 4}) == (teams, [1, 0])
